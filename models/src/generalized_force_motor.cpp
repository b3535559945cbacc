#include "hopsim/models/generalized_force_motor.h"

#include "rate_port_length.h"

namespace hopsim::models {

GeneralizedForceMotor::Declaration::Declaration()
    : ModelSpec("GeneralizedForceMotor", ModelKind::Motor,
                "Applies the generalized force f = scale * force (N*m or N, one entry per "
                "attached rate) to the hinge or subhinge it is attached to, in every derivative "
                "evaluation.") {}

const GeneralizedForceMotor::Declaration& GeneralizedForceMotor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void GeneralizedForceMotor::setup() {
  applied_.resize(static_cast<Eigen::Index>(binding(FieldRole::FlowIn, d_.force.index).length()));
}

void GeneralizedForceMotor::attach(MultibodySystem& system) {
  MotorModel::attach(system);
  detail::checkOneEntryPerRate(*this, d_.force.index, "force", rateCount(), subhinge(), bodyName());
}

void GeneralizedForceMotor::preDeriv(double /*t*/) {
  applied_.noalias() = param(d_.scale) * in(d_.force);
  applyGeneralizedForce(applied_);
}

}  // namespace hopsim::models
