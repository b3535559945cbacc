#pragma once
// The models every engine of the peer comparison is given: built once in hopsim, described
// body by body in the terms the peers' builders need, with one seeded state per model.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::bench::peers {

using multibody::MultibodyModel;
using spatial::Matrix3;
using spatial::Quaternion;
using spatial::RigidTransform;
using spatial::Vector3;

/// One model and the state every engine is evaluated at, in hopsim's coordinates: Q and U
/// (for a floating base U starts with [ω_B; v_Bo_B], body axes), the generalized forces τ for
/// forward dynamics and the accelerations U̇ for inverse dynamics.
struct Problem {
  std::string name;  ///< "chain7", "chain30", "chain100", "tree30"
  int bodies{0};     ///< bodies besides the world
  bool floatingBase{false};
  MultibodyModel model;
  Eigen::VectorXd q, u, udot, tau;
};

/// The model of makeMultibodyProblem (bench/multibody_problem.h), the one hopsim_bench_multibody
/// times, with its name.
Problem makeProblem(int bodies, bool branched);

/// The four benchmark shapes: chain7, chain30, chain100 and tree30.
std::vector<Problem> makeAllProblems();

/// Body b (1-based, b - 1 in the vector) as a peer's builder needs it. Every peer puts a
/// body's frame at a fixed offset from the CM (MuJoCo, DART: the body frame B itself; Bullet:
/// B's axes at the CM), so the mass properties are given about the CM in B's axes, where
/// the models of makeProblem have diagonal inertias.
struct BodyDescription {
  int parent{0};            ///< parent body (0 = world)
  bool free{false};         ///< FULL6DOF (only body 1, on the world); otherwise PIN
  Vector3 axis;             ///< PIN axis, the same in F and in B (unit)
  RigidTransform X_PF;      ///< the hinge's inboard frame on the parent (X_BM is the identity)
  double mass{0.0};         ///< kg
  Vector3 com;              ///< p_BoBcm_B (m)
  Vector3 inertiaDiagonal;  ///< the principal moments about the CM, along B's axes (kg·m²)
};

/// The bodies of `model`, after checking that the peers can represent them exactly: PIN
/// hinges, or a FULL6DOF hinge for body 1 on the world with X_PF the identity; X_BM the
/// identity; inertias about the CM diagonal in B. @throws std::invalid_argument otherwise.
std::vector<BodyDescription> describeBodies(const MultibodyModel& model);

/// max |a - b| / max(|reference|, tiny): the discrepancy relative to the reference's scale.
double relativeDiscrepancy(const Eigen::MatrixXd& value, const Eigen::MatrixXd& reference,
                           Eigen::Index* worstRow = nullptr, Eigen::Index* worstCol = nullptr);

}  // namespace hopsim::bench::peers
