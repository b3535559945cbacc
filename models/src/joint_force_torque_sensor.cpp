#include "hopsim/models/joint_force_torque_sensor.h"

#include "ascii_case.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

JointForceTorqueSensor::Declaration::Declaration()
    : ModelSpec("JointForceTorqueSensor", ModelKind::Encoder,
                "Senses the force and torque the attached body's hinge transmits, about the "
                "outboard frame origin Mo and in M: the parent's on the body (senseMode BODY) "
                "or the body's on the parent (PARENT), joint and constraint parts together.") {
  // Forces exist only after the dynamics of a derivative evaluation; EndHop reports the last.
  setOutputGranularity(Sweep::PostDeriv | Sweep::EndHop);
}

const JointForceTorqueSensor::Declaration& JointForceTorqueSensor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void JointForceTorqueSensor::attach(MultibodySystem& system) {
  EncoderModel::attach(system);
  if (subhinge() != -1) {
    throw ModelError(describe() + " is attached to subhinge " + std::to_string(subhinge()) +
                     " of body '" + bodyName() +
                     "' (expected -1: the sensor reads the force across the whole hinge)");
  }
}

void JointForceTorqueSensor::processParams(double /*t*/) {
  const std::string& mode = param(d_.senseMode);
  if (equalsIgnoringCase(mode, "BODY")) {
    sign_ = 1.0;
  } else if (equalsIgnoringCase(mode, "PARENT")) {
    sign_ = -1.0;
  } else {
    throw InputError("models." + name() + ".params.senseMode: value '" + mode +
                     "' is unknown (expected BODY or PARENT)");
  }
}

void JointForceTorqueSensor::updateFlowOuts(double /*t*/) {
  const spatial::SpatialForce& F = multibody().hingeForces()[static_cast<std::size_t>(body())];
  out(d_.torque) = sign_ * F.rotational();
  out(d_.force) = sign_ * F.translational();
}

}  // namespace hopsim::models
