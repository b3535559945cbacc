#include "hopsim/models/node_pos_vel_accel_sensor.h"

#include "specific_force.h"

namespace hopsim::models {

NodePosVelAccelSensor::Declaration::Declaration()
    : ModelSpec("NodePosVelAccelSensor", ModelKind::Sensor,
                "Truth IMU of a node: pos, quat (q_WN), vel, omega, accel in world axes; "
                "bodyOmega, bodyVel, alpha and the specific force bodySensedAccel = R_WN^T "
                "(accel - g_W) in node axes. Accelerations are those of the last derivative "
                "evaluation; no feed-through.") {
  // Accelerations are computed by the dynamics between preDeriv and postDeriv.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop | Sweep::PostDeriv);
}

const NodePosVelAccelSensor::Declaration& NodePosVelAccelSensor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void NodePosVelAccelSensor::updateFlowOuts(double /*t*/) {
  const spatial::RigidTransform X_WN = nodePose();
  const spatial::SpatialMotion V_WN = nodeVelocity();
  const spatial::SpatialMotion A_WN = nodeAcceleration();
  const spatial::Matrix3 R_NW = X_WN.rotation().transpose();
  out(d_.pos) = X_WN.translation();
  out(d_.quat) = X_WN.quaternion();
  out(d_.vel) = V_WN.translational();
  out(d_.omega) = V_WN.rotational();
  out(d_.accel) = A_WN.translational();
  out(d_.bodyOmega) = R_NW * V_WN.rotational();
  out(d_.bodyVel) = R_NW * V_WN.translational();
  out(d_.alpha) = R_NW * A_WN.rotational();
  out(d_.bodySensedAccel) = specificForce(multibody(), node(), spatial::Vector3(param(d_.gravity)));
}

}  // namespace hopsim::models
