#include "hopsim/core/multibody/multibody_data.h"

namespace hopsim::multibody {

MultibodyData::MultibodyData(const MultibodyModel& model)
    : bodyCount(model.bodyCount()), nq(model.nq()), nu(model.nu()) {
  const auto n = static_cast<std::size_t>(bodyCount);
  X_PB.assign(n, RigidTransform());
  X_WB.assign(n, RigidTransform());
  S_B.assign(n, Matrix6::Zero());
  V_WB_B.assign(n, SpatialMotion());
  c_B.assign(n, SpatialMotion());
  A_WB_B.assign(n, SpatialMotion());
  X_RB.assign(n, RigidTransform());
  F_B.assign(n, SpatialForce());
  S_R.assign(n, Matrix6::Zero());
  c_R.assign(n, SpatialMotion());
  P_R.assign(n, ArticulatedInertia());
  pA_R.assign(n, SpatialForce());
  PS_R.assign(n, Matrix6::Zero());
  Dinv.assign(n, Matrix6::Identity());
  eps.assign(n, Vector6::Zero());
  A_R.assign(n, SpatialMotion());
  Ic_R.assign(n, Matrix6::Zero());
  tau = Eigen::VectorXd::Zero(nu);
  udot = Eigen::VectorXd::Zero(nu);
  qdot = Eigen::VectorXd::Zero(nq);
  modelRevision = model.structureRevision();
}

}  // namespace hopsim::multibody
