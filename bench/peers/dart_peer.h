#pragma once
// A Problem's model built in DART as a dart::dynamics::Skeleton of RevoluteJoint bodies (and
// a FreeJoint base), with the problem's state mapped to DART's coordinates.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "peer_problem.h"

namespace dart::dynamics {
class Skeleton;
}
namespace dart::simulation {
class World;
}

namespace hopsim::bench::peers {

/// DART's body frames are hopsim's (T_ParentBodyToJoint = X_PF, T_ChildBodyToJoint = 1), so
/// the revolute coordinates are hopsim's. A FreeJoint base has positions [log R_WB; p_WoBo_W]
/// and velocities dq with [ω_B; v_Bo_B] = J dq, J its relative Jacobian; the base block is
/// mapped through J (dq = J⁻¹ U, q̈ = J⁻¹ (U̇ - J̇ dq), τ_D = Jᵀ τ, M_D = Jᵀ M J), whatever J
/// DART's version uses (6.12's is the identity). No joint damping, springs or friction;
/// gravity (0, 0, -9.81).
class DartPeer {
 public:
  explicit DartPeer(const Problem& problem);
  ~DartPeer();
  DartPeer(const DartPeer&) = delete;
  DartPeer& operator=(const DartPeer&) = delete;

  /// Forward dynamics from the problem's (Q, U, τ): setPositions, setVelocities, setForces,
  /// computeForwardDynamics. DART caches kinematics, articulated inertias and the mass matrix
  /// until the positions change, and setting equal positions changes nothing; so that every
  /// call recomputes from the state, as the other engines do, successive calls alternate
  /// between the problem's positions and the same configuration with the last revolute angle
  /// turned by 2π.
  void forwardDynamics();
  /// Inverse dynamics from the problem's (Q, U, U̇): computeInverseDynamics (positions
  /// alternating as for forwardDynamics).
  void inverseDynamics();
  /// The mass matrix at the problem's Q: setPositions (alternating as for forwardDynamics),
  /// getMassMatrix (DART's own matrix).
  const Eigen::MatrixXd& massMatrix();

  /// The last forwardDynamics accelerations, mapped to hopsim's U̇.
  Eigen::VectorXd accelerationsInHopsim() const;
  /// The last inverseDynamics generalized forces, mapped to hopsim's τ.
  Eigen::VectorXd forcesInHopsim() const;
  /// The last massMatrix, mapped to hopsim's coordinates.
  Eigen::MatrixXd massMatrixInHopsim() const;

  /// Starts a simulation of a fixed-base model at (Q, U) = (q, u) with no joint force: the
  /// skeleton joins a dart::simulation::World (semi-implicit Euler) with time step dt (s).
  /// @throws std::invalid_argument for a floating base.
  void startSimulation(const Eigen::VectorXd& q, const Eigen::VectorXd& u, double dt);
  /// One World::step.
  void step();
  /// Q now (the joint angles of a fixed-base model).
  Eigen::VectorXd positions() const;

  /// "DART 6.12.1" from the headers.
  static std::string version();

 private:
  std::shared_ptr<dart::dynamics::Skeleton> skeleton_;
  std::shared_ptr<dart::simulation::World> world_;  // made by startSimulation
  bool floatingBase_{false};
  // U = J dq on the whole system (the identity but for a floating base's block) and J̇ dq.
  Eigen::MatrixXd J_;
  Eigen::VectorXd Jdot_dq_;
  // The problem's state in DART's coordinates; positions_[1] has the last angle turned by 2π.
  Eigen::VectorXd positions_[2], velocities_, forces_, accelerations_;
  int turn_{0};  // which of positions_ the next call sets
};

}  // namespace hopsim::bench::peers
