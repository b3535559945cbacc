#pragma once
/// @file
/// Constraint evaluation, constrained dynamics and drift projection for a ConstraintSet on a
/// tree: the multipliers solve (G M⁻¹ Gᵀ) λ = γ - G U̇₀ with M⁻¹ applied by the articulated-body
/// operators (abaSolve), redundant constraints included; Q and U are projected back onto the
/// constraint manifold at hop ends (docs/multibody.md, "Closed loops and constraints").

#include <Eigen/Core>
#include <span>
#include <vector>

#include "hopsim/core/multibody/aba_solve.h"
#include "hopsim/core/multibody/constraint_set.h"
#include "hopsim/core/multibody/jacobian.h"
#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// What the constraint functions compute for one ConstraintSet, sized once from the model and
/// the set (rebuild it when either changes); nothing allocates afterwards. Rows are the set's
/// equations in order (Constraint::rowStart, rowCount).
struct ConstraintData {
  /// Sizes every array. Allocates. @throws InputError if the set was made for another model.
  ConstraintData(const MultibodyModel& model, const ConstraintSet& set);

  int bodyCount;  ///< the model's bodyCount() when this was built
  int nq;         ///< the model's nq() when this was built
  int nu;         ///< the model's nu() when this was built
  int rows;       ///< the set's rowCount() when this was built

  // Results.
  Eigen::VectorXd phi;     ///< φ(Q): each row's residual (m, or dimensionless for a·b rows)
  Eigen::MatrixXd G;       ///< the constraint Jacobian (rows x nu): φ̇ = G U for Q̇ = Q̇(Q, U)
  Eigen::VectorXd gamma;   ///< γ = -Ġ U, so that G U̇ = γ keeps φ̈ = 0
  Eigen::VectorXd lambda;  ///< the multipliers; Gᵀλ is the generalized constraint force
  Eigen::VectorXd tauConstraint;  ///< Gᵀλ (nu entries, N·m or N)
  /// Numerical rank of the last solve's G M⁻¹ Gᵀ (or G Gᵀ): rows minus redundant rows.
  int rank{0};
  /// A pivot of G M⁻¹ Gᵀ at most this times its largest diagonal entry counts as zero: its row
  /// is redundant and gets λ = 0.
  double rankTolerance{1e-10};
  /// Per constraint: the position of its point Q on B in W (m), where the reactions are taken.
  std::vector<Vector3> p_WoQ_W;
  /// Per constraint: the spatial force the constraint exerts on body B, about Q, in W.
  std::vector<SpatialForce> F_B_Q_W;
  /// Per constraint: the spatial force it exerts on body A, about Q, in W (= -F_B_Q_W).
  std::vector<SpatialForce> F_A_Q_W;

  // Workspaces.
  Matrix6X W;      ///< per row: the unit spatial force w on B (about Q, in W), G_i = wᵀ J_rel
  Matrix6X J_A;    ///< body A's Jacobian at Q
  Matrix6X J_rel;  ///< J_B(Q) - J_A(Q)
  std::vector<Vector6> A_bias;  ///< per body: acceleration for U̇ = 0, no gravity (Bo, in B)
  Eigen::MatrixXd MinvGt;       ///< M⁻¹ Gᵀ (nu x rows)
  Eigen::MatrixXd K;            ///< G M⁻¹ Gᵀ, then its pivoted LDLᵀ factors
  Eigen::VectorXi perm;         ///< the factorization's pivot order
  Eigen::VectorXd rhs;          ///< right-hand side of the multiplier solve
  Eigen::VectorXd scratch;      ///< rows entries
  Eigen::VectorXd impulse;      ///< projectVelocities' correction multipliers (rows); not λ
  Eigen::VectorXd column;       ///< one row of G as a column (nu)
  Eigen::VectorXd du;           ///< a correction of U (nu)
  Eigen::VectorXd dq;           ///< a correction of Q (nq)
  Eigen::VectorXd zeroTau;      ///< nu zeros
  AbaSolveWorkspace solve;      ///< abaSolve's scratch
};

/// φ and G at the Q of the last forwardKinematics(model, data, q) (or any call that fills
/// data.X_WB and data.S_B). Also fills cdata.p_WoQ_W and cdata.W. Does not allocate.
/// @throws InputError if data or cdata was not built for model and set.
void evaluateConstraintPositions(const MultibodyModel& model, const ConstraintSet& set,
                                 const MultibodyData& data, ConstraintData& cdata);

/// φ, G and γ at the (Q, U) of the last forwardKinematics(model, data, q, u) (or rnea, aba,
/// hybridDynamics), which must have filled data.V_WB_B and data.c_B. Does not allocate.
/// @throws InputError as evaluateConstraintPositions.
void evaluateConstraints(const MultibodyModel& model, const ConstraintSet& set,
                         const MultibodyData& data, ConstraintData& cdata);

/// Adds the constraint forces to the last unconstrained dynamics: data must hold aba(q, u, τ,
/// F_ext) (or, for a model with prescribed entries, hybridDynamics), whose U̇₀ is data.udot.
/// Evaluates φ, G, γ, forms M⁻¹Gᵀ column by column with abaSolve (O(N) each), solves
/// (G M⁻¹ Gᵀ) λ = γ - G U̇₀ by pivoted LDLᵀ (redundant rows get λ = 0) and sets data.udot +=
/// M⁻¹ Gᵀ λ, so that G U̇ = γ and M U̇ = τ - C + external + Gᵀλ; prescribed entries keep their
/// U̇, and their generalized forces in data.tau (hybridDynamics) grow by what the constraint
/// forces ask of them, so that rnea(q, u, data.udot) = data.tau + Gᵀλ on every entry;
/// data.A_WB_B becomes the accelerations of the constrained U̇ (still offset by -g). Fills
/// cdata.lambda, tauConstraint, rank and the reaction forces F_B_Q_W, F_A_Q_W. Returns
/// data.udot. Does not allocate. @throws InputError as evaluateConstraintPositions.
const Eigen::VectorXd& applyConstraints(const MultibodyModel& model, const ConstraintSet& set,
                                        MultibodyData& data, ConstraintData& cdata);

/// Adds each constraint's reaction forces of the last applyConstraints to the loads of the
/// bodies it joins, F_B[b] about Bo in B (one entry per body; the world's is left alone), so
/// that F_B can be given to hingeForces with the applied forces: the hinge forces then balance
/// the constraint loads too. Does not allocate.
/// @throws InputError if cdata was not built for model and set or F_B has the wrong size.
void addConstraintLoads(const MultibodyModel& model, const ConstraintSet& set,
                        const MultibodyData& data, const ConstraintData& cdata,
                        std::span<SpatialForce> F_B);

/// What a projection did: the Gauss-Newton iterations taken (1 for velocities) and the
/// largest |φ| (positions) or |G U| (velocities) left.
struct ProjectionResult {
  int iterations{0};
  double residual{0.0};
};

/// Moves Q onto φ(Q) = 0 by Gauss-Newton: each step is the minimum-norm ΔU = -Gᵀ(G Gᵀ)⁺φ over
/// the free U entries (prescribed entries held), mapped to Q by Q += Q̇(Q, ΔU), quaternions
/// renormalized; stops when max |φ| <= tolerance. Overwrites data's kinematics (data.X_PB,
/// X_WB, S_B) and cdata.phi, G. Does not allocate.
/// @throws NumericalError naming the constraint with the largest residual if max |φ| is still
/// above tolerance after maxIterations steps; InputError as evaluateConstraintPositions or if
/// q has the wrong size.
ProjectionResult projectPositions(const MultibodyModel& model, const ConstraintSet& set,
                                  MultibodyData& data, ConstraintData& cdata,
                                  Eigen::Ref<Eigen::VectorXd> q, double tolerance,
                                  int maxIterations);

/// Removes the constraint-violating part of U in the mass metric: U -= M⁻¹Gᵀ(G M⁻¹ Gᵀ)⁺ G U
/// (kinetic energy changes least; a U that satisfies G U = 0 is unchanged; prescribed entries
/// are held). Runs hybridDynamics(q, u, 0, 0) for the factorization at Q, so data's
/// kinematics and dynamics results are overwritten.
/// Does not allocate. @throws NumericalError naming the constraint with the largest residual
/// if max |G U| is still above tolerance afterwards (inconsistent redundant rows);
/// InputError as evaluateConstraintPositions or if a vector has the wrong size.
ProjectionResult projectVelocities(const MultibodyModel& model, const ConstraintSet& set,
                                   MultibodyData& data, ConstraintData& cdata,
                                   const Eigen::Ref<const Eigen::VectorXd>& q,
                                   Eigen::Ref<Eigen::VectorXd> u, double tolerance = 1e-10);

}  // namespace hopsim::multibody
