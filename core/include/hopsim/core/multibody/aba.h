#pragma once
/// @file
/// Forward dynamics by the articulated-body-inertia recursion (ABA, the seed's ATBI), O(N).

#include <Eigen/Core>
#include <span>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// The generalized accelerations U̇ = FD(Q, U, τ, F_ext) = M⁻¹ (τ - C(Q, U) + external
/// terms), including the model's gravity, written to and returned as data.udot (nu entries).
/// τ holds the generalized forces (N·m / N by U entry); F_ext_B, empty or one per body (index
/// 0 ignored), the external spatial force on each body about Bo, expressed in B ([N·m; N]).
/// Every U entry is free here, whatever the model's prescribed flags (hybrid_dynamics.h honours
/// them; both run the same recursion). data.tau is set to tau. Also fills data.X_PB, X_WB,
/// S_B, V_WB_B, c_B, A_WB_B (about Bo in B, offset by the world's fictitious acceleration -g),
/// A_R (the same accelerations in the tree's frame R: its base's body frame) and
/// the articulated quantities, in R: S_R, c_R, P_R, pA_R, PS_R, Dinv, eps (MultibodyData's
/// contract). Does not allocate. @throws InputError if data was not built for model or a vector has
/// the wrong size.
const Eigen::VectorXd& aba(const MultibodyModel& model, MultibodyData& data,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& u,
                           const Eigen::Ref<const Eigen::VectorXd>& tau,
                           std::span<const SpatialForce> F_ext_B = {});

}  // namespace hopsim::multibody
