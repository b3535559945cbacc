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
  F_B.assign(n, SpatialForce());
  P_B.assign(n, ArticulatedInertia());
  PS_B.assign(n, Matrix6::Zero());
  Dinv_B.assign(n, Matrix6::Identity());
  eps_B.assign(n, Vector6::Zero());
  S_W.assign(n, Matrix6::Zero());
  Ic_W.assign(n, Matrix6::Zero());
  tau = Eigen::VectorXd::Zero(nu);
  udot = Eigen::VectorXd::Zero(nu);
  M = Eigen::MatrixXd::Zero(nu, nu);
  qdot = Eigen::VectorXd::Zero(nq);
  modelRevision = model.structureRevision();
}

}  // namespace hopsim::multibody
