#include "hopsim/core/multibody/jacobian.h"

#include "hinge_kernels.h"

namespace hopsim::multibody {

void frameJacobian(const MultibodyModel& model, const MultibodyData& data, BodyIndex b,
                   const Vector3& p_BoP_B, Eigen::Ref<Matrix6X> J_W) {
  constexpr const char* kWhere = "frameJacobian";
  detail::checkData(model, data, kWhere);
  model.checkBody(b, kWhere);
  detail::checkSize(J_W.cols(), model.nu(), kWhere, "the Jacobian's column count");
  J_W.setZero();
  const Vector3 p_WoP_W = data.X_WB[static_cast<std::size_t>(b)] * p_BoP_B;
  // Column k of an ancestor a's hinge is the motion S_k about Ao in A: re-expressed in W, its
  // point velocity field evaluated at P is v_Ao + ω × p_AoP.
  for (BodyIndex a = b; a != kWorldBody; a = model.parent(a)) {
    const auto i = static_cast<std::size_t>(a);
    const Matrix3& R_WA = data.X_WB[i].rotation();
    const Vector3 p_AoP_W = p_WoP_W - data.X_WB[i].translation();
    const int u0 = model.uStart(a);
    for (int k = 0; k < model.hinge(a).nu(); ++k) {
      const Vector3 w = R_WA * data.S_B[i].col(k).head<3>();
      J_W.col(u0 + k) << w, R_WA * data.S_B[i].col(k).tail<3>() + w.cross(p_AoP_W);
    }
  }
}

void nodeJacobian(const MultibodyModel& model, const MultibodyData& data, NodeIndex n,
                  Eigen::Ref<Matrix6X> J_W) {
  const Node& node = model.node(n);
  frameJacobian(model, data, node.body, node.X_BN.translation(), J_W);
}

}  // namespace hopsim::multibody
