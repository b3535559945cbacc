#pragma once
/// @file
/// M⁻¹ f in O(N) from the articulated-body factorization the last aba() or hybridDynamics()
/// left in MultibodyData, without recomputing articulated inertias (the operator that forms
/// M⁻¹ Gᵀ for constraints).

#include <Eigen/Core>
#include <span>
#include <vector>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// The per-body scratch of abaSolve, sized once from the model (rebuild it with the data).
struct AbaSolveWorkspace {
  /// Sizes the arrays for `model`. Allocates.
  explicit AbaSolveWorkspace(const MultibodyModel& model);

  std::vector<Vector6> bias;   ///< pᴬ of each body's subtree, about Ro in R (MultibodyData)
  std::vector<Vector6> eps;    ///< τ_k - S_kᵀ pᴬ of each body's free entries, zero elsewhere
  std::vector<Vector6> accel;  ///< spatial acceleration of each body, about Ro in R
  /// Per U entry k: the generalized force S_kᵀ(P A + pᴬ) its hinge transmits in the solve,
  /// τ_k for a free entry and, for a prescribed entry, the force (τ_k included) that holds
  /// U̇_k = 0. Computed only when the model has prescribed entries (else left as it was).
  Eigen::VectorXd hingeForce;
};

/// The generalized accelerations U̇ = M_ff⁻¹ (τ + Σ_B J_Bᵀ F_B) of the system at rest with no
/// gravity (no velocity-product or gravity terms: the linear map M⁻¹), written to udot (nu
/// entries). τ (nu entries) are generalized forces; F_B, empty or one per body (index 0
/// ignored), spatial forces on each body about Bo in B, as aba's F_ext_B. Entries the model
/// marks prescribed respond with U̇ = 0 and their τ is ignored: the free subsystem's M_ff⁻¹.
///
/// Reads the factorization data.X_RB, S_R, PS_R, Dinv, P_R of the last aba() (a model with no
/// prescribed entry) or hybridDynamics()/articulatedBodyDynamics() (any model) at the Q of
/// interest; data is not modified, so data.udot, data.A_WB_B and data.A_R of that call stay
/// valid. Does not allocate. @throws InputError if data or work was not built for model or a
/// vector has the wrong size.
void abaSolve(const MultibodyModel& model, const MultibodyData& data, AbaSolveWorkspace& work,
              const Eigen::Ref<const Eigen::VectorXd>& tau, std::span<const SpatialForce> F_B,
              Eigen::Ref<Eigen::VectorXd> udot);

}  // namespace hopsim::multibody
