#pragma once
/// @file
/// Hybrid dynamics (Featherstone's hybrid articulated-body algorithm), O(N): prescribed U
/// entries take their U̇ as an input and return the generalized force that motion needs, free
/// entries take their generalized force and return their U̇. Any mix of free and prescribed
/// entries is allowed, also inside one hinge (one Pin of a GIMBAL, a whole FULL6DOF).

#include <Eigen/Core>
#include <span>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// The dynamics part of hybridDynamics, for kinematics already computed: data must hold
/// forwardKinematics(model, data, q, u) for the (Q, U) of interest (X_PB, X_WB, S_B, V_WB_B,
/// c_B), so that an executive can run the kinematics, then its actuator models, then this
/// without redoing the kinematics.
///
/// For every U entry k the model marks prescribed (MultibodyModel::isPrescribed):
/// data.udot[k] = udotPrescribed[k] and data.tau[k] = the generalized force that motion
/// requires; for every free entry: data.udot[k] is computed and data.tau[k] = tau[k]. So
/// (data.udot, data.tau) satisfy rnea(q, u, data.udot, F_ext_B) == data.tau on every entry.
/// tau and udotPrescribed have nu entries each; only tau's free entries and udotPrescribed's
/// prescribed entries are read (either may alias data.tau or data.udot). F_ext_B is as in aba.
/// Also fills data.A_WB_B and A_R (offset by -g, as in aba) and the articulated quantities
/// S_R, c_R, P_R, pA_R, PS_R, Dinv, eps (see MultibodyData for their contract). Returns
/// data.udot.
/// Does not allocate.
/// @throws InputError if data was not built for model or a vector has the wrong size.
const Eigen::VectorXd& articulatedBodyDynamics(
    const MultibodyModel& model, MultibodyData& data, const Eigen::Ref<const Eigen::VectorXd>& tau,
    const Eigen::Ref<const Eigen::VectorXd>& udotPrescribed,
    std::span<const SpatialForce> F_ext_B = {});

/// forwardKinematics(model, data, q, u) followed by articulatedBodyDynamics (in one outward
/// pass). With no prescribed entry it is aba(); with every entry prescribed it is rnea().
/// Returns data.udot; data.tau holds the generalized forces of every entry. Does not allocate.
/// @throws InputError if data was not built for model or a vector has the wrong size.
const Eigen::VectorXd& hybridDynamics(const MultibodyModel& model, MultibodyData& data,
                                      const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& u,
                                      const Eigen::Ref<const Eigen::VectorXd>& tau,
                                      const Eigen::Ref<const Eigen::VectorXd>& udotPrescribed,
                                      std::span<const SpatialForce> F_ext_B = {});

}  // namespace hopsim::multibody
