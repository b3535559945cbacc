#include "hopsim/core/multibody/aba_solve.h"

#include "../cpu_kernels_dispatch.h"
#include "hinge_kernels.h"

namespace hopsim::multibody {

AbaSolveWorkspace::AbaSolveWorkspace(const MultibodyModel& model) {
  const auto n = static_cast<std::size_t>(model.bodyCount());
  bias.assign(n, Vector6::Zero());
  eps.assign(n, Vector6::Zero());
  accel.assign(n, Vector6::Zero());
  hingeForce = Eigen::VectorXd::Zero(model.nu());
}

namespace {

// ABA's passes 2 and 3 with the articulated inertias taken from data: at rest and without
// gravity the velocity-product terms vanish, so only the bias forces of the applied forces
// travel inward and only the responses to them travel outward. In the tree's frame R, as the
// factorization: nothing changes frame between a body and its parent.
void solveOnArticulatedInertias(const MultibodyModel& model, const MultibodyData& data,
                                AbaSolveWorkspace& work,
                                const Eigen::Ref<const Eigen::VectorXd>& tau,
                                std::span<const SpatialForce> F_B,
                                Eigen::Ref<Eigen::VectorXd>& udot) {
  const int n = model.bodyCount();

  for (BodyIndex b = 1; b < n; ++b) {
    const auto i = static_cast<std::size_t>(b);
    work.bias[i] = F_B.empty() ? Vector6::Zero()
                               : Vector6(-SpatialTransform(data.X_RB[i]).apply(F_B[i]).vector());
  }
  for (BodyIndex b = n - 1; b >= 1; --b) {
    const auto i = static_cast<std::size_t>(b);
    const int nub = model.hinge(b).nu();
    const int u0 = model.uStart(b);
    Vector6& eps = work.eps[i];
    eps.setZero();
    // A prescribed entry keeps U̇ = 0: its ε stays zero, and with its PS_R column zero and its
    // Dinv row the identity's, its response below is zero too.
    for (int k = 0; k < nub; ++k) {
      if (!model.isPrescribed(u0 + k)) eps[k] = tau[u0 + k] - data.S_R[i].col(k).dot(work.bias[i]);
    }
    const BodyIndex parent = model.parent(b);
    if (parent == kWorldBody) continue;
    Vector6& parentBias = work.bias[static_cast<std::size_t>(parent)];
    parentBias += work.bias[i];
    if (nub == 1) {
      parentBias += data.PS_R[i].col(0) * (data.Dinv[i](0, 0) * eps[0]);
    } else if (nub > 1) {
      parentBias += data.PS_R[i] * (data.Dinv[i] * eps);
    }
  }
  for (BodyIndex b = 1; b < n; ++b) {
    const auto i = static_cast<std::size_t>(b);
    const auto p = static_cast<std::size_t>(model.parent(b));
    const int nub = model.hinge(b).nu();
    const int u0 = model.uStart(b);
    Vector6 A = p == 0 ? Vector6::Zero() : work.accel[p];
    if (nub == 1) {
      const double ud = data.Dinv[i](0, 0) * (work.eps[i][0] - data.PS_R[i].col(0).dot(A));
      udot[u0] = ud;
      A += data.S_R[i].col(0) * ud;
    } else if (nub > 1) {
      const Vector6 ud = data.Dinv[i] * (work.eps[i] - data.PS_R[i].transpose() * A);
      udot.segment(u0, nub) = ud.head(nub);
      A += data.S_R[i] * ud;  // columns beyond nu are zero
    }
    work.accel[i] = A;
    if (model.prescribedCount() > 0 && nub > 0) {
      // The hybrid algorithm's hinge force: what the subtree needs through this hinge.
      const Vector6 f = data.P_R[i].matrix() * A + work.bias[i];
      for (int k = 0; k < nub; ++k) work.hingeForce[u0 + k] = data.S_R[i].col(k).dot(f);
    }
  }
}

}  // namespace

void abaSolve(const MultibodyModel& model, const MultibodyData& data, AbaSolveWorkspace& work,
              const Eigen::Ref<const Eigen::VectorXd>& tau, std::span<const SpatialForce> F_B,
              Eigen::Ref<Eigen::VectorXd> udot) {
  constexpr const char* kWhere = "abaSolve";
  detail::checkData(model, data, kWhere);
  detail::checkSize(static_cast<Eigen::Index>(work.bias.size()), model.bodyCount(), kWhere,
                    "the workspace's body array");
  detail::checkSize(tau.size(), model.nu(), kWhere, "tau");
  detail::checkSize(udot.size(), model.nu(), kWhere, "udot");
  detail::checkSize(work.hingeForce.size(), model.nu(), kWhere, "the workspace's hingeForce");
  detail::checkForces(F_B, model, kWhere);
  hopsim::detail::runCpuKernel<solveOnArticulatedInertias>(model, data, work, tau, F_B, udot);
}

}  // namespace hopsim::multibody
