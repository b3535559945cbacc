#pragma once
/// @file
/// Shared by the gravity models: the body a node is fixed on, its centre of mass in W, and a
/// force applied there (internal to the models library).

#include <string>

#include "hopsim/core/multibody_system.h"
#include "hopsim/signals/error.h"

namespace hopsim::models::detail {

/// The mass (kg) of a body and the position of its centre of mass in W (m), from the current
/// mass properties (which may change during a run, e.g. as fuel burns) and kinematics.
struct BodyCm {
  double mass;
  spatial::Vector3 p_WCm;
};

inline BodyCm bodyCm(const MultibodySystem& system, MultibodySystem::BodyIndex b) {
  const spatial::SpatialInertia& M = system.model().massProperties(b);
  return {M.mass(), system.data().X_WB[static_cast<std::size_t>(b)] * M.comPosition()};
}

/// Adds the force F_W (N, world axes) acting at body b's centre of mass and the couple
/// torque_W (N*m, world axes): converted to the spatial force about Bo in B.
inline void applyAtCm(MultibodySystem& system, MultibodySystem::BodyIndex b,
                      const spatial::Vector3& F_W, const spatial::Vector3& torque_W) {
  const spatial::Matrix3& R_WB = system.data().X_WB[static_cast<std::size_t>(b)].rotation();
  const spatial::Vector3 F_B = R_WB.transpose() * F_W;
  const spatial::Vector3& c_B = system.model().massProperties(b).comPosition();
  system.addBodyForce(b, spatial::SpatialForce(c_B.cross(F_B) + R_WB.transpose() * torque_W, F_B));
}

/// The body node n is fixed on. @throws ModelError (naming the model `who`) when it is the
/// world body, which has no mass to pull on.
inline MultibodySystem::BodyIndex gravityBody(const MultibodySystem& system,
                                              MultibodySystem::NodeIndex n,
                                              const std::string& who) {
  const multibody::Node& node = system.model().node(n);
  if (node.body == multibody::kWorldBody) {
    throw ModelError(who + ": node '" + node.name +
                     "' is fixed on the world body; a gravity model needs a node on a body with "
                     "mass");
  }
  return node.body;
}

}  // namespace hopsim::models::detail
