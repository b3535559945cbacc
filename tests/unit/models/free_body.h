#pragma once
// A free body for the node-actuator tests: a FULL6DOF body at rest with its centre of mass at
// its origin and a diagonal inertia, turned by R_WB, and a node on it at (p_BN, R_BN). At rest
// its accelerations follow from the applied force F_B and torque τ_B about the centre, both in
// body axes, by hand: U' = [J⁻¹ τ_B; F_B / m] (Newton-Euler without velocity terms).

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/core/spatial/spatial_inertia.h"

namespace hopsim::test {

struct FreeBody {
  double m = 3.0;
  spatial::Vector3 J{0.2, 0.3, 0.5};  ///< principal moments, kg m²
  spatial::Matrix3 R_WB = spatial::rotationZ(0.7) * spatial::rotationX(-0.4);
  spatial::Matrix3 R_BN = spatial::rotationY(0.5);
  spatial::Vector3 p_BN{0.1, -0.2, 0.3};

  /// Adds the body "box" and its node "n" to `sim`.
  void build(Simulation& sim) const {
    auto& tree = sim.multibody().editModel();
    const auto b = tree.addBody(
        "box", multibody::kWorldBody,
        spatial::SpatialInertia::fromCmInertia(m, spatial::Vector3::Zero(), J.asDiagonal()),
        multibody::Hinge::full6Dof());
    tree.addNode("n", b, spatial::RigidTransform(R_BN, p_BN));
    sim.multibody().q().head<4>() = spatial::quaternionFromRotation(R_WB);
  }
  /// U' at rest for a force F_B at the node origin and a couple C_B, in body axes.
  Eigen::Matrix<double, 6, 1> accelerations(const spatial::Vector3& F_B,
                                            const spatial::Vector3& C_B) const {
    Eigen::Matrix<double, 6, 1> udot;
    udot << (C_B + p_BN.cross(F_B)).cwiseQuotient(J), F_B / m;
    return udot;
  }
};

}  // namespace hopsim::test
