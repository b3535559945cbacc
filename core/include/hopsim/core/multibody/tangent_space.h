#pragma once
/// @file
/// Moving Q in its tangent space: Q ⊕ δ for a δ with one entry per U entry, the perturbation
/// the derivatives of the dynamics are taken along (aba_derivatives.h).

#include <Eigen/Core>

#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// Writes Q ⊕ δ (nq entries) to q_out: Q moved as Q̇ = f(Q, U) (qdot.h) moves it for U = δ, to
/// first order Q + f(Q, δ), hinge by hinge: PIN and SLIDER Q + δ; BALL and FULL6DOF quaternions
/// q ⊗ exp(δθ/2) (δθ about the axes of M) and FULL6DOF positions p + R_FM δp; FULL6DOF_INERTIAL
/// quaternions exp(δθ/2) ⊗ q (δθ about the axes of F) and positions p + δp. Quaternions stay
/// unit when they are. q_out may alias q. Does not allocate.
/// @throws InputError if a vector has the wrong size.
void integrateConfiguration(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& delta,
                            Eigen::Ref<Eigen::VectorXd> q_out);

}  // namespace hopsim::multibody
