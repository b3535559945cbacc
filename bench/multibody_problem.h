#pragma once
// The multibody models the dynamics benchmarks time (bench/multibody_dynamics.cpp and the peer
// comparison in bench/peers/): serial PIN chains and a branched tree on a floating base, with
// seeded random mass properties, frames and states.

#include <Eigen/Core>

#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::bench {

/// A model and the state it is evaluated at: Q, U, and the generalized forces τ (forward
/// dynamics) and accelerations U̇ (inverse dynamics).
struct MultibodyProblem {
  multibody::MultibodyModel model;
  Eigen::VectorXd q, u, udot, tau;
};

/// `bodies` bodies: a serial PIN chain (branched = false), or a FULL6DOF base carrying five
/// PIN branches (branched = true), the shapes of Pinocchio's published anchors. Axes alternate
/// between y and z; gravity -9.81 m/s² along z; every draw from one generator seeded 42, so
/// the same arguments give the same model and state everywhere.
MultibodyProblem makeMultibodyProblem(int bodies, bool branched);

/// A serial chain of `bodies` BALL joints (three columns each, the multi-column path of the
/// recursions), with the same kind of seeded mass properties, frames and states.
MultibodyProblem makeBallChain(int bodies);

}  // namespace hopsim::bench
