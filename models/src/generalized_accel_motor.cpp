#include "hopsim/models/generalized_accel_motor.h"

#include "rate_port_length.h"

namespace hopsim::models {

GeneralizedAccelMotor::Declaration::Declaration()
    : ModelSpec("GeneralizedAccelMotor", ModelKind::Motor,
                "Prescribes the accelerations u' = gear_ratio * accel (one entry per attached "
                "rate) of the prescribed hinge or subhinge it is attached to, in every "
                "derivative evaluation; the dynamics returns the generalized force they need.") {}

const GeneralizedAccelMotor::Declaration& GeneralizedAccelMotor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void GeneralizedAccelMotor::setup() {
  prescribed_.resize(
      static_cast<Eigen::Index>(binding(FieldRole::FlowIn, d_.accel.index).length()));
}

void GeneralizedAccelMotor::attach(MultibodySystem& system) {
  MotorModel::attach(system);
  detail::checkOneEntryPerRate(*this, d_.accel.index, "accel", rateCount(), subhinge(), bodyName());
  for (int k = 0; k < rateCount(); ++k) {
    if (!system.model().isPrescribed(uStart() + k)) {
      throw ModelError(describe() + ": rate " + std::to_string(k) + " of the hinge of body '" +
                       bodyName() +
                       "' is free; a GeneralizedAccelMotor drives prescribed rates only (make "
                       "the hinge prescribed, or use GeneralizedForceMotor)");
    }
  }
}

void GeneralizedAccelMotor::preDeriv(double /*t*/) {
  prescribed_.noalias() = param(d_.gearRatio) * in(d_.accel);
  prescribeAcceleration(prescribed_);
}

}  // namespace hopsim::models
