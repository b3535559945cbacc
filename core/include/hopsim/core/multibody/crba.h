#pragma once
/// @file
/// The mass matrix by the composite-rigid-body algorithm (CRBA).

#include <Eigen/Core>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// The generalized mass matrix M(Q) (nu x nu, symmetric positive definite, both halves
/// filled; kg, kg·m, kg·m² by U entry), written to and returned as data.M, such that the
/// kinetic energy is ½ Uᵀ M U. Also fills data.X_PB, X_WB, S_B and, in the tree's frame R as
/// Pinocchio does in W (no transform per pair of bodies; R keeps the digits far from Wo, see
/// MultibodyData), data.X_RB, S_R and Ic_R (the composite rigid-body inertia of each
/// body's subtree about Ro). Allocates data.M on the first call only.
/// @throws InputError if data was not built for model or q has the wrong size.
const Eigen::MatrixXd& crba(const MultibodyModel& model, MultibodyData& data,
                            const Eigen::Ref<const Eigen::VectorXd>& q);

}  // namespace hopsim::multibody
