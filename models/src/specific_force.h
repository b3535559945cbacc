#pragma once
// The specific force a node senses, shared by Accelerometer, NodePosVelAccelSensor and
// NoisyNodePosVelAccelSensor.

#include "hopsim/core/multibody_system.h"

namespace hopsim::models {

/// f_N = R_WN^T (a_W - g_W), in node axes (m/s^2): a_W is node n's true acceleration in the
/// world (MultibodySystem::nodeAcceleration, valid after the dynamics of the current
/// derivative evaluation), g_W the multibody system's gravity plus `extraGravity_W`, the field
/// of gravity models that apply it as a force the multibody system cannot tell from a contact.
/// At rest under gravity g, f = -g (up); in free fall, f = 0.
inline spatial::Vector3 specificForce(const MultibodySystem& system, MultibodySystem::NodeIndex n,
                                      const spatial::Vector3& extraGravity_W) {
  const spatial::Vector3 g_W = system.model().gravity() + extraGravity_W;
  const spatial::Vector3 a_W = system.nodeAcceleration(n).translational();
  return system.nodePose(n).rotation().transpose() * (a_W - g_W);
}

}  // namespace hopsim::models
