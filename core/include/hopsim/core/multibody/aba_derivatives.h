#pragma once
/// @file
/// Analytic partial derivatives of forward dynamics, U̇ = FD(Q, U, τ), with respect to Q (in its
/// tangent space), U and τ, by the recursive derivatives of inverse dynamics (Carpentier and
/// Mansard, "Analytical Derivatives of Rigid Body Dynamics Algorithms", RSS 2018).

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <vector>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// The scratch and intermediate results of abaDerivatives, sized once from the model (rebuild
/// it, with the MultibodyData, after the tree is edited). Every spatial quantity is about the
/// origin of the tree's frame R (MultibodyData) and expressed in R, frozen at the evaluated Q.
struct AbaDerivativesWorkspace {
  /// Sizes every array for `model`. Allocates.
  explicit AbaDerivativesWorkspace(const MultibodyModel& model);

  // Per body.
  std::vector<Vector6> V;   ///< spatial velocity of the body
  std::vector<Vector6> A;   ///< spatial acceleration of the body, offset by -g as data.A_R
  std::vector<Vector6> F;   ///< force the hinge transmits to the body's subtree (RNEA's)
  std::vector<Matrix6> Ic;  ///< composite rigid-body inertia of the body's subtree
  /// Composite of B = -I (V×) + (I V)×̄* + (V×*) I over the subtree: the derivative of the
  /// subtree's bias forces with respect to a velocity perturbation, ∂(I A + V ×* I V) / ∂V.
  std::vector<Matrix6> Bc;
  /// Bit 6k + l set when U entry l of the body's hinge turns with entry k: a tangent
  /// perturbation of entry k changes column l's twist by S_k × S_l (fixed by the hinge type).
  std::vector<std::uint64_t> follows;

  // Per U entry k of the system (columns of the hinges' motion subspaces).
  std::vector<Vector6> S;      ///< the column S_k
  std::vector<Vector6> alpha;  ///< α_k = Aᵇ_k × S_k - ν_k × Vᵇ_k (docs/multibody.md)
  std::vector<Vector6> beta;   ///< β_k = (Vˢ_k + Vᵇ_k) × S_k
  std::vector<Vector6> nu;     ///< ν_k = Vᵇ_k × S_k
  std::vector<Vector6> Gq;     ///< ∂F_h/∂q_k at the entry's own body h
  std::vector<Vector6> Gu;     ///< ∂F_h/∂u_k at the entry's own body h
  std::vector<Vector6> IcS;    ///< Ic_h S_k
  std::vector<Vector6> BcTS;   ///< Bc_hᵀ S_k

  /// ∂τ/∂Q (tangent) of inverse dynamics τ = ID(Q, U, U̇) at the forward dynamics' U̇,
  /// nu x nu: column k is the derivative along the tangent direction of U entry k.
  Eigen::MatrixXd dtau_dq;
  /// ∂τ/∂U of inverse dynamics at the forward dynamics' U̇, nu x nu.
  Eigen::MatrixXd dtau_du;
  /// The mass matrix M(Q), nu x nu (both halves), and its Cholesky factorization.
  Eigen::MatrixXd M;
  Eigen::LLT<Eigen::MatrixXd> llt;  ///< M = L Lᵀ, for the solves with M⁻¹

  /// The model's structureRevision() when this was built.
  std::uint64_t modelRevision{0};
};

/// The partial derivatives of U̇ = FD(Q, U, τ, F_ext) (aba.h, every U entry free whatever the
/// prescribed flags), written to the preallocated nu x nu matrices:
/// - dudot_dq: ∂U̇/∂Q in the tangent space of Q. Column k is the derivative along the tangent
///   direction of U entry k: Q moved as Q̇ = f(Q, U) (qdot.h) moves it for U = e_k, that is
///   integrateConfiguration(model, Q, ε e_k) (tangent_space.h). For PIN and SLIDER entries it
///   is ∂/∂θ, ∂/∂d; for a BALL or FULL6DOF quaternion a rotation δθ about the axes of M
///   (q ⊗ exp(δθ/2)), for FULL6DOF_INERTIAL about the axes of F (exp(δθ/2) ⊗ q); for
///   FULL6DOF's position a displacement along M's axes (p + R_FM δp), for FULL6DOF_INERTIAL's
///   along F's. So A has the system's true dimension: nu columns, not nq.
/// - dudot_du: ∂U̇/∂U.
/// - dudot_dtau: ∂U̇/∂τ = M(Q)⁻¹ (symmetric).
/// The external forces F_ext_B (empty or one per body, index 0 ignored, about Bo in B, as aba
/// takes them) are held fixed in their body frames. The derivatives of inverse dynamics are
/// left in work.dtau_dq and work.dtau_du and the mass matrix in work.M; data holds what aba
/// leaves (data.udot = FD(Q, U, τ)).
///
/// Recursive: the derivatives of RNEA by the composite quantities of Carpentier and Mansard,
/// O(N d) for a tree of depth d, then ∂U̇/∂x = -M⁻¹ ∂τ/∂x with M from the same pass (CRBA's
/// entries) and its Cholesky factorization. Does not allocate.
/// @throws InputError if data or work was not built for model, a vector or matrix has the
/// wrong size, or M is not positive definite (invalid mass properties).
void abaDerivatives(const MultibodyModel& model, MultibodyData& data, AbaDerivativesWorkspace& work,
                    const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& u,
                    const Eigen::Ref<const Eigen::VectorXd>& tau,
                    std::span<const SpatialForce> F_ext_B, Eigen::Ref<Eigen::MatrixXd> dudot_dq,
                    Eigen::Ref<Eigen::MatrixXd> dudot_du, Eigen::Ref<Eigen::MatrixXd> dudot_dtau);

}  // namespace hopsim::multibody
