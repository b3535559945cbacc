#pragma once
// A Problem's model built as a Bullet btMultiBody (double precision), with the problem's state
// mapped to Bullet's coordinates. Forward dynamics only: Debian's Bullet ships no
// BulletInverseDynamics, and btMultiBody has neither inverse dynamics nor a mass matrix.

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "peer_problem.h"

class btMultiBody;

namespace hopsim::bench::peers {

/// Bullet puts every link frame at the link's CM, with its principal axes (here B's axes), and
/// its base at the base's CM. A PIN body becomes setupRevolute with the pivot at Bo: the
/// parent-CM-to-pivot offset p_PoFo_P - c_P in the parent's axes, the pivot-to-CM offset c_B,
/// the zero-angle rotation parent-to-link R_PFᵀ (Bullet quaternions are scalar last and turn
/// parent vectors into link vectors, so conj(q_PF)) and the axis n; Bullet's angle is hopsim's.
/// A serial chain hangs from a fixed base at the world origin; a floating base is set from
/// hopsim's state as its CM position, q_BW, and ω and the CM velocity in world axes, and its
/// accelerations come back as ω̇ and the CM acceleration in world axes, from which hopsim's
/// [ω̇_B; v̇_Bo_B] follow. Gravity and hopsim's base generalized forces (a wrench about Bo in
/// B, moved to the CM in world axes) are applied as link and base forces; linear and angular
/// damping are set to zero (Bullet's default is 0.04).
class BulletPeer {
 public:
  explicit BulletPeer(const Problem& problem);
  ~BulletPeer();
  BulletPeer(const BulletPeer&) = delete;
  BulletPeer& operator=(const BulletPeer&) = delete;

  /// Forward dynamics from the problem's (Q, U, τ): sets the base state, every joint position
  /// (which updates Bullet's cached link transforms), velocity and torque, then
  /// computeAccelerationsArticulatedBodyAlgorithmMultiDof with dt = 0 (accelerations only, the
  /// velocities are not stepped).
  void forwardDynamics();

  /// The last forwardDynamics accelerations, mapped to hopsim's U̇.
  Eigen::VectorXd accelerationsInHopsim() const;

  /// Starts a simulation of a fixed-base model at (Q, U) = (q, u) with no joint torque: the
  /// multibody joins a btMultiBodyDynamicsWorld (semi-implicit Euler; the world applies
  /// gravity at every step, so the forces forwardDynamics relies on are cleared and
  /// forwardDynamics must not be called afterwards). dt is the time step (s).
  /// @throws std::invalid_argument for a floating base.
  void startSimulation(const Eigen::VectorXd& q, const Eigen::VectorXd& u, double dt);
  /// One stepSimulation(dt) of the world.
  void step();
  /// Q now (the joint angles of a fixed-base model).
  Eigen::VectorXd positions() const;

  /// "Bullet 3.24 (double precision)".
  static std::string version();

 private:
  struct Scratch;  // Bullet's work arrays, kept between calls so that none is reallocated
  struct World;    // the dynamics world of startSimulation, with its collision machinery
  std::unique_ptr<btMultiBody> body_;
  std::unique_ptr<Scratch> scratch_;
  std::unique_ptr<World> world_;
  double dt_{0.0};
  Vector3 gravity_;
  bool floatingBase_{false};
  int links_{0};
  // The floating base's state in hopsim's terms, for mapping the result back.
  Matrix3 R_WB_;
  Vector3 w_B_, v_B_, com_B_;
  // The problem's state in Bullet's coordinates (base entries unused for a fixed base).
  Vector3 basePosition_, baseOmega_W_, baseVelocity_W_;
  Quaternion q_BW_;  // scalar first, as hopsim stores it
  Eigen::VectorXd jointPositions_, jointVelocities_, jointTorques_;
};

}  // namespace hopsim::bench::peers
