#include "hopsim/models/prescribed_motion_motor.h"

#include "rate_port_length.h"

namespace hopsim::models {

PrescribedMotionMotor::Declaration::Declaration()
    : ModelSpec("PrescribedMotionMotor", ModelKind::Motor,
                "Makes the masked hinge or subhinge it is attached to follow q = gear_ratio * "
                "angle and u = gear_ratio * angVel, with the prescribed acceleration u' = "
                "gear_ratio * angAccel, whose generalized force the dynamics returns.") {
  // The coordinates are set before every sweep that reads the kinematics.
  setMaskingGranularity(Sweep::StartIo | Sweep::StartHop | Sweep::PreDeriv | Sweep::EndIntegration);
}

const PrescribedMotionMotor::Declaration& PrescribedMotionMotor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void PrescribedMotionMotor::setup() {
  prescribed_.resize(
      static_cast<Eigen::Index>(binding(FieldRole::FlowIn, d_.angAccel.index).length()));
}

void PrescribedMotionMotor::attach(MultibodySystem& system) {
  MotorModel::attach(system);
  const std::string where =
      (subhinge() < 0 ? std::string("the hinge") : "subhinge " + std::to_string(subhinge())) +
      " of body '" + bodyName() + "'";
  if (coordinateCount() != rateCount()) {
    throw ModelError(describe() + ": " + where + " has nq = " + std::to_string(coordinateCount()) +
                     " and nu = " + std::to_string(rateCount()) +
                     "; a PrescribedMotionMotor drives hinges whose coordinates are their rates' "
                     "integrals (PIN, SLIDER, UJOINT, GIMBAL, ...)");
  }
  for (const auto& [index, port] :
       {std::pair{d_.angle.index, "angle"}, std::pair{d_.angVel.index, "angVel"},
        std::pair{d_.angAccel.index, "angAccel"}}) {
    detail::checkOneEntryPerRate(*this, index, port, rateCount(), subhinge(), bodyName());
  }
  for (int k = 0; k < rateCount(); ++k) {
    if (!system.model().isPrescribed(uStart() + k)) {
      throw ModelError(describe() + ": rate " + std::to_string(k) + " of " + where +
                       " is free; mask it before lock() with "
                       "multibody().setMasked(body, subhinge, true)");
    }
  }
}

void PrescribedMotionMotor::maskedCoordinates(double /*t*/) {
  const double n = param(d_.gearRatio);
  coordinates() = n * in(d_.angle);
  rates() = n * in(d_.angVel);
}

void PrescribedMotionMotor::preDeriv(double /*t*/) {
  prescribed_.noalias() = param(d_.gearRatio) * in(d_.angAccel);
  prescribeAcceleration(prescribed_);
}

}  // namespace hopsim::models
