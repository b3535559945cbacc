#include "hopsim/core/multibody/rnea.h"

#include "hinge_kernels.h"

namespace hopsim::multibody {

const Eigen::VectorXd& rnea(const MultibodyModel& model, MultibodyData& data,
                            const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& u,
                            const Eigen::Ref<const Eigen::VectorXd>& udot,
                            std::span<const SpatialForce> F_ext_B) {
  constexpr const char* kWhere = "rnea";
  detail::checkData(model, data, kWhere);
  detail::checkSize(q.size(), model.nq(), kWhere, "q");
  detail::checkSize(u.size(), model.nu(), kWhere, "u");
  detail::checkSize(udot.size(), model.nu(), kWhere, "udot");
  detail::checkForces(F_ext_B, model, kWhere);
  const int n = model.bodyCount();

  // Gravity enters as an upward acceleration of the world (Featherstone): a_W = -g.
  data.V_WB_B[0] = SpatialMotion();
  data.A_WB_B[0] = SpatialMotion(Vector3::Zero(), Vector3(-model.gravity()));
  for (BodyIndex b = 1; b < n; ++b) {
    const auto i = static_cast<std::size_t>(b);
    const Hinge& h = model.hinge(b);
    SpatialMotion A;  // the parent's acceleration moved to B, then B's own
    const SpatialMotion V = detail::propagateBodyVelocity(model, data, b, q.data(), u.data(), &A);
    A += data.c_B[i];
    const int u0 = model.uStart(b);
    for (int k = 0; k < h.nu(); ++k) A.vector() += data.S_B[i].col(k) * udot[u0 + k];
    data.A_WB_B[i] = A;
    const SpatialInertia& M = model.massProperties(b);
    SpatialForce F = M.newtonEulerForce(A, V);
    if (!F_ext_B.empty()) F -= F_ext_B[i];
    data.F_B[i] = F;
  }
  for (BodyIndex b = n - 1; b >= 1; --b) {
    const auto i = static_cast<std::size_t>(b);
    const Hinge& h = model.hinge(b);
    const int u0 = model.uStart(b);
    for (int k = 0; k < h.nu(); ++k)
      data.tau[u0 + k] = data.S_B[i].col(k).dot(data.F_B[i].vector());
    const BodyIndex p = model.parent(b);
    if (p != kWorldBody) {
      data.F_B[static_cast<std::size_t>(p)] += SpatialTransform(data.X_PB[i]).apply(data.F_B[i]);
    }
  }
  return data.tau;
}

}  // namespace hopsim::multibody
