#pragma once
// A Problem's model built in MuJoCo (2.2.2: an MJCF string loaded from a virtual file, since
// that version has no mjSpec), with the problem's state mapped to MuJoCo's coordinates.

#include <Eigen/Core>
#include <string>

#include "peer_problem.h"

struct mjModel_;
struct mjData_;

namespace hopsim::bench::peers {

/// MuJoCo's coordinates differ from hopsim's only at a free base: qpos = [p_WoBo_W; q_WB
/// (scalar first); θ], qvel = [v_Bo_W; ω_B; θ̇] (linear rate in world axes, angular in body
/// axes), where hopsim has Q = [q_WB; p_WoBo_W; θ] and U = [ω_B; v_Bo_B; θ̇]. So
/// qvel = T U with T orthogonal (a permutation and R_WB), qfrc = T τ, M_mj = T M Tᵀ, and
/// qacc = T U̇ + [R_WB (ω_B × v_Bo_B); 0]. Contacts are disabled; no damping, armature or
/// friction loss; gravity (0, 0, -9.81).
class MujocoPeer {
 public:
  explicit MujocoPeer(const Problem& problem);
  ~MujocoPeer();
  MujocoPeer(const MujocoPeer&) = delete;
  MujocoPeer& operator=(const MujocoPeer&) = delete;

  /// Forward dynamics from the problem's (Q, U, τ): mj_forward, contacts disabled.
  void forwardDynamics();
  /// Inverse dynamics from the problem's (Q, U, U̇): mj_inverse.
  void inverseDynamics();
  /// The dense mass matrix at the problem's Q: mj_kinematics, mj_comPos, mj_crb, mj_fullM.
  void massMatrix();

  /// The last forwardDynamics accelerations, mapped to hopsim's U̇.
  Eigen::VectorXd accelerationsInHopsim() const;
  /// The last inverseDynamics generalized forces, mapped to hopsim's τ.
  Eigen::VectorXd forcesInHopsim() const;
  /// The last massMatrix, mapped to hopsim's coordinates (Tᵀ M_mj T).
  Eigen::MatrixXd massMatrixInHopsim() const;

  /// Starts a simulation of a fixed-base model at (Q, U) = (q, u) with no applied force,
  /// MuJoCo's `integrator` (mjINT_EULER, semi-implicit, or mjINT_RK4) and time step dt (s).
  /// @throws std::invalid_argument for a floating base.
  void startSimulation(const Eigen::VectorXd& q, const Eigen::VectorXd& u, int integrator,
                       double dt);
  /// One mj_step.
  void step();
  /// Q now (the joint angles of a fixed-base model).
  Eigen::VectorXd positions() const;

  /// "MuJoCo 2.2.2" from the library.
  static std::string version();

 private:
  mjModel_* m_{nullptr};
  mjData_* d_{nullptr};
  bool floatingBase_{false};
  Matrix3 R_WB_;       // the base's orientation (floating base only)
  Vector3 w_B_, v_B_;  // the base's body-axes rates
  Eigen::MatrixXd T_;  // qvel = T U
  // The problem's state in MuJoCo's coordinates, copied in before every call.
  Eigen::VectorXd qpos_, qvel_, qfrcApplied_, qacc_;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> denseM_;
};

}  // namespace hopsim::bench::peers
