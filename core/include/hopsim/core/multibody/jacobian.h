#pragma once
/// @file
/// Frame Jacobians: the map from U to the spatial velocity of a frame fixed on a body.

#include <Eigen/Core>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// A 6 x n matrix whose columns are spatial vectors [angular; linear].
using Matrix6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;

/// The Jacobian J_W (6 x nu) of a frame fixed on body b at point P: J_W U = [ω_WB_W; v_WP_W],
/// the angular velocity of b and the velocity of P, both in the world frame W (rad/s, m/s per
/// unit U entry). p_BoP_B is P's position in b's body frame (m). Reads data.X_WB and data.S_B
/// of the last forwardKinematics (or rnea, aba, crba) at the Q of interest; only the columns
/// of b's ancestors (b included) are non-zero, and only those are computed after zeroing J_W
/// (O(depth)). b may be the world (then J_W = 0). Does not allocate.
/// @throws InputError if data was not built for model, b is not a body or J_W has not nu
/// columns.
void frameJacobian(const MultibodyModel& model, const MultibodyData& data, BodyIndex b,
                   const Vector3& p_BoP_B, Eigen::Ref<Matrix6X> J_W);

/// The Jacobian of node n's frame: frameJacobian at the node's origin on its body, so J_W U is
/// nodeVelocity(model, data, n). Does not allocate. @throws InputError as frameJacobian or for
/// a bad node index.
void nodeJacobian(const MultibodyModel& model, const MultibodyData& data, NodeIndex n,
                  Eigen::Ref<Matrix6X> J_W);

}  // namespace hopsim::multibody
