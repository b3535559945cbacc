#pragma once
// A free body at rest in a chosen pose with a node "probe" on it, for the orientation-sensor
// tests (TiltVector, BearingAngle). Rotations come from Eigen::AngleAxisd, not hopsim's rotation
// code, so the tests compare the models with an independent computation.

#include <Eigen/Geometry>
#include <vector>

#include "hopsim/core/simulation.h"

namespace hopsim::test {

/// The rotation by `angle` (rad) about `axis` (any non-zero length).
inline spatial::Matrix3 turn(double angle, const spatial::Vector3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// Adds a free body "body" at rest with orientation R_WB and a node "probe" at R_BN on it, so
/// the node's orientation is R_WN = R_WB R_BN. @returns the body's index.
inline multibody::BodyIndex addPosedBody(Simulation& sim, const spatial::Matrix3& R_WB,
                                         const spatial::Matrix3& R_BN) {
  using spatial::Vector3;
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody("body", multibody::kWorldBody,
                              spatial::SpatialInertia::fromCmInertia(
                                  2.0, Vector3::Zero(), 0.1 * spatial::Matrix3::Identity()),
                              multibody::Hinge::full6Dof());
  tree.addNode("probe", b, spatial::RigidTransform(R_BN, Vector3(0.3, -0.2, 0.1)));
  const Eigen::Quaterniond q(R_WB);
  sim.multibody().q(b).head<4>() = Eigen::Vector4d(q.w(), q.x(), q.y(), q.z());  // scalar first
  sim.multibody().q(b).tail<3>() = Vector3(1.0, 2.0, 3.0);
  return b;
}

inline std::vector<double> list(const spatial::Vector3& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace hopsim::test
