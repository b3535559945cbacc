#include "hopsim/core/multibody/crba.h"

#include "../cpu_kernels_dispatch.h"
#include "hinge_kernels.h"

namespace hopsim::multibody {

namespace {

// Everything in the tree's frame R (its base's body frame, MultibodyData): composite
// inertias then add without transforms, and each
// entry M_ab = S_aᵀ Ic_b S_b of an ancestor a of b is one 6-vector dot product.
void compositeRigidBodyAlgorithm(const MultibodyModel& model, MultibodyData& data,
                                 const double* q) {
  const int n = model.bodyCount();
  // Joints, poses and each body's terms in R in separate sweeps, as in ABA (aba.cpp).
  for (BodyIndex b = 1; b < n; ++b) {
    detail::bodyJointKinematics(model, data, b, q, nullptr, nullptr, nullptr);
  }
  for (BodyIndex b = 1; b < n; ++b) {
    detail::composeWorldPose(model, data, b);
    detail::updateReferencePose(model, data, b);
  }
  for (BodyIndex b = 1; b < n; ++b) {
    const auto i = static_cast<std::size_t>(b);
    const SpatialTransform X_RB(data.X_RB[i]);
    for (int k = 0; k < model.hinge(b).nu(); ++k) {
      data.S_R[i].col(k) = X_RB.apply(SpatialMotion(Vector6(data.S_B[i].col(k)))).vector();
    }
    model.massProperties(b).transformed(X_RB).writeMatrix(data.Ic_R[i]);
  }
  // Composite inertias, leaves first.
  for (BodyIndex b = n - 1; b >= 1; --b) {
    const BodyIndex p = model.parent(b);
    if (p != kWorldBody)
      data.Ic_R[static_cast<std::size_t>(p)] += data.Ic_R[static_cast<std::size_t>(b)];
  }
  for (BodyIndex b = 1; b < n; ++b) {
    const auto i = static_cast<std::size_t>(b);
    const int nub = model.hinge(b).nu();
    if (nub == 0) continue;
    const int ub = model.uStart(b);
    Matrix6 F;  // Ic S_b, first nub columns
    for (int c = 0; c < nub; ++c) F.col(c) = data.Ic_R[i] * data.S_R[i].col(c);
    for (int r = 0; r < nub; ++r) {
      for (int c = r; c < nub; ++c) {
        const double m = data.S_R[i].col(r).dot(F.col(c));  // both halves get the same value
        data.M(ub + r, ub + c) = m;
        data.M(ub + c, ub + r) = m;
      }
    }
    for (BodyIndex a = model.parent(b); a != kWorldBody; a = model.parent(a)) {
      const int nua = model.hinge(a).nu();
      const int ua = model.uStart(a);
      const Matrix6& S_a = data.S_R[static_cast<std::size_t>(a)];
      for (int r = 0; r < nua; ++r) {
        for (int c = 0; c < nub; ++c) {
          const double m = S_a.col(r).dot(F.col(c));
          data.M(ua + r, ub + c) = m;
          data.M(ub + c, ua + r) = m;
        }
      }
    }
  }
}

}  // namespace

const Eigen::MatrixXd& crba(const MultibodyModel& model, MultibodyData& data,
                            const Eigen::Ref<const Eigen::VectorXd>& q) {
  constexpr const char* kWhere = "crba";
  detail::checkData(model, data, kWhere);
  detail::checkSize(q.size(), model.nq(), kWhere, "q");
  // Sized on the first call (MultibodyData); entries between bodies that are not ancestor and
  // descendant stay at this zero, no later call writes them.
  if (data.M.rows() != model.nu()) data.M.setZero(model.nu(), model.nu());
  hopsim::detail::runCpuKernel<compositeRigidBodyAlgorithm>(model, data, q.data());
  return data.M;
}

}  // namespace hopsim::multibody
