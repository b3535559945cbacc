#include "hopsim/models/noisy_node_pos_vel_accel_sensor.h"

#include "specific_force.h"

namespace hopsim::models {

NoisyNodePosVelAccelSensor::Declaration::Declaration()
    : AttitudeErrorDeclaration(
          "NoisyNodePosVelAccelSensor",
          "NoisyAttitude's noisy attitude q_WN ⊗ e of a node, with the true attitude quat_truth "
          "and the true specific force bodySensedAccel_truth = R_WN^T (accel - g_W) in node "
          "axes; accelerations of the last derivative evaluation, no feed-through.") {
  // Accelerations are computed by the dynamics between preDeriv and postDeriv.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop | Sweep::PostDeriv);
}

const NoisyNodePosVelAccelSensor::Declaration& NoisyNodePosVelAccelSensor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void NoisyNodePosVelAccelSensor::updateFlowOuts(double /*t*/) {
  const spatial::Quaternion q_WN = nodePose().quaternion();
  writeNoisyAttitude(q_WN);
  out(d_.quatTruth) = q_WN;
  out(d_.sensedAccelTruth) =
      specificForce(multibody(), node(), spatial::Vector3(param(d_.gravity)));
}

}  // namespace hopsim::models
