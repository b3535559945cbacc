#pragma once
/// @file
/// Inter-body (hinge reaction) forces: the spatial force each hinge transmits from the parent
/// body to the child, from the accelerations an evaluation left in MultibodyData.

#include <span>
#include <vector>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// Writes to F_M[b] (one entry per body; F_M[0] = 0) the spatial force body b's parent exerts
/// on b through b's hinge, about the hinge's outboard frame origin Mo, expressed in M
/// ([N·m; N]): the joint forces along the hinge's free directions plus the constraint forces
/// along the others (the seed's getInterBodyForce). Its projection on the hinge's motion
/// subspace is the hinge's generalized force: S_Mᵀ F_M = τ of that hinge.
///
/// Newton-Euler for each subtree, one backward pass (O(N), as RNEA's): F = M A + V ×* M V -
/// gravity - F_ext + the children's hinge forces, with V, A the velocities and true
/// accelerations in data (data.V_WB_B, and data.A_WB_B less the world's fictitious entry
/// data.A_WB_B[0]). Call it after aba or rnea (or anything that fills those consistently) with
/// the same external forces F_ext_B (empty or one per body, index 0 ignored, about Bo in B).
/// Does not allocate.
/// @throws InputError if data was not built for model or a span has the wrong size.
void hingeForces(const MultibodyModel& model, const MultibodyData& data,
                 std::span<const SpatialForce> F_ext_B, std::span<SpatialForce> F_M);

/// Same, returned as a new vector (allocates).
std::vector<SpatialForce> hingeForces(const MultibodyModel& model, const MultibodyData& data,
                                      std::span<const SpatialForce> F_ext_B = {});

}  // namespace hopsim::multibody
