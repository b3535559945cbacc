#include "hopsim/models/generalized_force_motor.h"

#include "hopsim/signals/error.h"

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
  const std::size_t length = binding(FieldRole::FlowIn, d_.force.index).length();
  if (length != static_cast<std::size_t>(rateCount())) {
    throw ModelError(describe() + ": flowIn 'force' is tied to '" +
                     binding(FieldRole::FlowIn, d_.force.index).describe() + "' of length " +
                     std::to_string(length) + " but the attached " +
                     (subhinge() < 0 ? "hinge" : "subhinge " + std::to_string(subhinge())) +
                     " of body '" + bodyName() + "' has nu = " + std::to_string(rateCount()));
  }
}

void GeneralizedForceMotor::preDeriv(double /*t*/) {
  applied_.noalias() = param(d_.scale) * in(d_.force);
  applyGeneralizedForce(applied_);
}

}  // namespace hopsim::models
