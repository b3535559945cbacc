#include "hopsim/models/uniform_gravity.h"

#include "body_gravity.h"

namespace hopsim::models {

using spatial::Vector3;

UniformGravity::Declaration::Declaration()
    : ModelSpec("UniformGravity", ModelKind::Actuator,
                "Uniform gravity on the node's body only: the force m g (g in world axes) "
                "applied at the body's centre of mass, no torque.") {}

const UniformGravity::Declaration& UniformGravity::declaration() {
  static const Declaration declaration;
  return declaration;
}

void UniformGravity::attach(MultibodySystem& system) {
  ActuatorModel::attach(system);
  body_ = detail::gravityBody(system, node(), describe());
}

void UniformGravity::preDeriv(double /*t*/) {
  const double m = multibody().model().massProperties(body_).mass();
  detail::applyAtCm(multibody(), body_, m * Vector3(param(d_.g)), Vector3::Zero());
}

}  // namespace hopsim::models
