#include "hopsim/core/multibody/forward_kinematics.h"

#include "../cpu_kernels_dispatch.h"
#include "hinge_kernels.h"

namespace hopsim::multibody {

namespace {

void positionKinematics(const MultibodyModel& model, MultibodyData& data, const double* q) {
  const int n = model.bodyCount();
  // One sweep: in two (every joint, then the chain of poses), as with velocities below, it
  // measured no faster (docs/performance.md, "Why the kernels have their form").
  for (BodyIndex b = 1; b < n; ++b) {
    detail::bodyJointKinematics(model, data, b, q, nullptr, nullptr, nullptr);
    detail::composeWorldPose(model, data, b);
  }
}

void positionAndVelocityKinematics(const MultibodyModel& model, MultibodyData& data,
                                   const double* q, const double* u) {
  const int n = model.bodyCount();
  data.V_WB_B[0] = SpatialMotion();
  for (BodyIndex b = 1; b < n; ++b) detail::startBodyKinematics(model, data, b, q, u);
  for (BodyIndex b = 1; b < n; ++b) {
    detail::finishBodyKinematics(model, data, b, detail::isPinInBodyFrame(model, b));
  }
}

}  // namespace

void forwardKinematics(const MultibodyModel& model, MultibodyData& data,
                       const Eigen::Ref<const Eigen::VectorXd>& q) {
  detail::checkData(model, data, "forwardKinematics");
  detail::checkSize(q.size(), model.nq(), "forwardKinematics", "q");
  hopsim::detail::runCpuKernel<positionKinematics>(model, data, q.data());
}

void forwardKinematics(const MultibodyModel& model, MultibodyData& data,
                       const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& u) {
  detail::checkData(model, data, "forwardKinematics");
  detail::checkSize(q.size(), model.nq(), "forwardKinematics", "q");
  detail::checkSize(u.size(), model.nu(), "forwardKinematics", "u");
  hopsim::detail::runCpuKernel<positionAndVelocityKinematics>(model, data, q.data(), u.data());
}

RigidTransform nodePose(const MultibodyModel& model, const MultibodyData& data, NodeIndex n) {
  const Node& node = model.node(n);
  return data.X_WB[static_cast<std::size_t>(node.body)] * node.X_BN;
}

SpatialMotion nodeVelocity(const MultibodyModel& model, const MultibodyData& data, NodeIndex n) {
  const Node& node = model.node(n);
  const auto b = static_cast<std::size_t>(node.body);
  const RigidTransform& X_WB = data.X_WB[b];
  // Re-express V_WB_B in W (rotation only), then shift the reference point from Bo to No.
  const SpatialMotion& V = data.V_WB_B[b];
  const Vector3 w_W = X_WB.rotation() * V.rotational();
  const Vector3 v_WBo_W = X_WB.rotation() * V.translational();
  const Vector3 p_BoNo_W = X_WB.rotation() * node.X_BN.translation();
  return SpatialMotion(w_W, Vector3(v_WBo_W + w_W.cross(p_BoNo_W)));
}

}  // namespace hopsim::multibody
