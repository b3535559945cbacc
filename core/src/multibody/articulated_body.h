#pragma once
// Private: the articulated-body recursion behind aba (every U entry free) and hybridDynamics /
// articulatedBodyDynamics (the model's prescribed entries take their U̇ as an input). One
// implementation, in aba.cpp. Not installed.

#include <Eigen/Core>
#include <span>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody::detail {

// Runs the three passes of the articulated-body algorithm on checked inputs.
// - q, u: when both are given, the outward pass also computes the forward kinematics; when
//   both are null, data must already hold forwardKinematics(model, data, q, u).
// - udotPrescribed: null makes every U entry free (aba); otherwise the entries the model marks
//   prescribed take their U̇ from it (nu entries) and get their generalized force in data.tau.
// Writes data.udot, data.tau (tau on free entries), data.A_WB_B and the articulated quantities.
void articulatedBodyAlgorithm(const MultibodyModel& model, MultibodyData& data, const double* q,
                              const double* u, const Eigen::Ref<const Eigen::VectorXd>& tau,
                              const double* udotPrescribed, std::span<const SpatialForce> F_ext_B);

}  // namespace hopsim::multibody::detail
