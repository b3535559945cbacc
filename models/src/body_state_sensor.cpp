#include "hopsim/models/body_state_sensor.h"

namespace hopsim::models {

BodyStateSensor::Declaration::Declaration()
    : ModelSpec("BodyStateSensor", ModelKind::Sensor,
                "Reads the node it is attached to, in the world frame: position of its origin, "
                "orientation q_WN (scalar first), velocity of its origin and angular velocity "
                "(world axes), with no feed-through.") {
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const BodyStateSensor::Declaration& BodyStateSensor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void BodyStateSensor::updateFlowOuts(double /*t*/) {
  const spatial::RigidTransform X_WN = nodePose();
  const spatial::SpatialMotion V_WN = nodeVelocity();
  out(d_.position) = X_WN.translation();
  out(d_.orientation) = X_WN.quaternion();
  out(d_.velocity) = V_WN.translational();
  out(d_.angularVelocity) = V_WN.rotational();
}

}  // namespace hopsim::models
