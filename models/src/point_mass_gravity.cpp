#include "hopsim/models/point_mass_gravity.h"

#include <cmath>

#include "body_gravity.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::Vector3;

PointMassGravity::Declaration::Declaration()
    : ModelSpec("PointMassGravity", ModelKind::Actuator,
                "Point-mass gravity on the node's body: r = p_cm - center (world axes), "
                "a = -mu r/|r|^3, the force m a applied at the body's centre of mass (no "
                "torque). Outputs a (world axes) and the potential per unit mass U = -mu/|r| "
                "(J/kg, zero at infinity; a = -grad U).") {
  // The outputs follow the body's position; lock() adds the sweeps readers need.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const PointMassGravity::Declaration& PointMassGravity::declaration() {
  static const Declaration declaration;
  return declaration;
}

void PointMassGravity::attach(MultibodySystem& system) {
  ActuatorModel::attach(system);
  body_ = detail::gravityBody(system, node(), describe());
}

Vector3 PointMassGravity::offsetFromCenter() const {
  const Vector3 r = detail::bodyCm(multibody(), body_).p_WCm - Vector3(param(d_.center));
  if (!(r.squaredNorm() > 0.0)) {
    throw NumericalError(describe() + ": the centre of mass of body '" +
                         multibody().model().bodyName(body_) +
                         "' is at the attracting centre, where point-mass gravity is singular");
  }
  return r;
}

void PointMassGravity::preDeriv(double /*t*/) {
  const Vector3 r = offsetFromCenter();
  const double rNorm = r.norm();
  const Vector3 a = -param(d_.mu) / (rNorm * rNorm * rNorm) * r;
  const double m = multibody().model().massProperties(body_).mass();
  detail::applyAtCm(multibody(), body_, m * a, Vector3::Zero());
}

void PointMassGravity::updateFlowOuts(double /*t*/) {
  const Vector3 r = offsetFromCenter();
  const double rNorm = r.norm();
  out(d_.linearAccel) = -param(d_.mu) / (rNorm * rNorm * rNorm) * r;
  out(d_.potential) = -param(d_.mu) / rNorm;
}

}  // namespace hopsim::models
