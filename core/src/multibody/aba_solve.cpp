#include "hopsim/core/multibody/aba_solve.h"

#include "../cpu_kernels_dispatch.h"
#include "hinge_kernel_dispatch.h"
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

// Pass 2 for body b: ε = τ_f - S_fᵀ pᵇ on its free entries (zero on the prescribed ones, which
// keep U̇ = 0: with their PS_R column zero and their Dinv row the identity's, their response is
// zero too), and the parent's bias force receives pᵇ + U D⁻¹ ε, in the kernel the model chose
// for the body (MultibodyModel::hingeKernels, the prescribed flags honoured).
template <HingeKernel K>
void inwardSolveStep(const MultibodyModel& model, const MultibodyData& data,
                     AbaSolveWorkspace& work, BodyIndex b,
                     const Eigen::Ref<const Eigen::VectorXd>& tau) {
  constexpr int columns = detail::freeColumnsOf(K);
  const auto i = static_cast<std::size_t>(b);
  const int u0 = model.uStart(b);
  const Vector6& bias = work.bias[i];
  Vector6& eps = work.eps[i];
  const BodyIndex parent = model.parent(b);
  if constexpr (K == HingeKernel::Prescribed) {
    eps.setZero();
    for (int k = 0; k < model.hinge(b).nu(); ++k) {
      if (!model.isPrescribed(u0 + k)) eps[k] = tau[u0 + k] - data.S_R[i].col(k).dot(bias);
    }
    if (parent == kWorldBody) return;
    work.bias[static_cast<std::size_t>(parent)] += bias + data.PS_R[i] * (data.Dinv[i] * eps);
  } else if constexpr (columns == 0) {
    if (parent != kWorldBody) work.bias[static_cast<std::size_t>(parent)] += bias;
  } else if constexpr (columns == 1) {
    eps[0] = tau[u0] - data.S_R[i].col(0).dot(bias);
    if (parent == kWorldBody) return;
    work.bias[static_cast<std::size_t>(parent)] +=
        bias + data.PS_R[i].col(0) * (data.Dinv[i](0, 0) * eps[0]);
  } else {
    for (int k = 0; k < columns; ++k) eps[k] = tau[u0 + k] - data.S_R[i].col(k).dot(bias);
    if (parent == kWorldBody) return;
    work.bias[static_cast<std::size_t>(parent)] +=
        bias + data.PS_R[i].leftCols<columns>() *
                   (data.Dinv[i].topLeftCorner<columns, columns>() * eps.head<columns>());
  }
}

// Pass 3 for body b: U̇ = D⁻¹ (ε - Uᵀ A_P) and A = A_P + S U̇; with prescribed entries in the
// model, the hybrid algorithm's hinge force S_kᵀ (P A + pᵇ) of each entry: what the subtree
// needs through this hinge.
template <HingeKernel K>
void outwardSolveStep(const MultibodyModel& model, const MultibodyData& data,
                      AbaSolveWorkspace& work, BodyIndex b, Eigen::Ref<Eigen::VectorXd>& udot) {
  constexpr int columns = detail::freeColumnsOf(K);
  const auto i = static_cast<std::size_t>(b);
  const auto p = static_cast<std::size_t>(model.parent(b));
  const int nub = model.hinge(b).nu();
  const int u0 = model.uStart(b);
  Vector6 A = p == 0 ? Vector6::Zero() : work.accel[p];
  if constexpr (K == HingeKernel::Prescribed) {
    const Vector6 ud = data.Dinv[i] * (work.eps[i] - data.PS_R[i].transpose() * A);
    udot.segment(u0, nub) = ud.head(nub);
    A += data.S_R[i] * ud;  // columns beyond nu are zero
  } else if constexpr (columns == 1) {
    const double ud = data.Dinv[i](0, 0) * (work.eps[i][0] - data.PS_R[i].col(0).dot(A));
    udot[u0] = ud;
    A += data.S_R[i].col(0) * ud;
  } else if constexpr (columns > 1) {
    const Eigen::Matrix<double, columns, 1> ud =
        data.Dinv[i].topLeftCorner<columns, columns>() *
        (work.eps[i].head<columns>() - data.PS_R[i].leftCols<columns>().transpose() * A);
    udot.segment<columns>(u0) = ud;
    A += data.S_R[i].leftCols<columns>() * ud;
  }
  work.accel[i] = A;
  if (model.prescribedCount() > 0 && nub > 0) {
    const Vector6 f = data.P_R[i].matrix() * A + work.bias[i];
    for (int k = 0; k < nub; ++k) work.hingeForce[u0 + k] = data.S_R[i].col(k).dot(f);
  }
}

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
  const HingeKernel* kernel = model.hingeKernels(true).data();
  for (BodyIndex b = 1; b < n; ++b) {
    const auto i = static_cast<std::size_t>(b);
    work.bias[i] = F_B.empty() ? Vector6::Zero()
                               : Vector6(-SpatialTransform(data.X_RB[i]).apply(F_B[i]).vector());
  }
  for (BodyIndex b = n - 1; b >= 1; --b) {
    detail::withHingeKernel(
        kernel[b], [&](auto k) { inwardSolveStep<decltype(k)::value>(model, data, work, b, tau); });
  }
  for (BodyIndex b = 1; b < n; ++b) {
    detail::withHingeKernel(kernel[b], [&](auto k) {
      outwardSolveStep<decltype(k)::value>(model, data, work, b, udot);
    });
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
