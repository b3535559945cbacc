#include "hopsim/core/multibody/aba.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <type_traits>

#include "../cpu_kernels_dispatch.h"
#include "articulated_body.h"
#include "hinge_kernels.h"

namespace hopsim::multibody {
namespace {

// Which U entries take their U̇ as an input (hybrid dynamics), and those U̇.
class PrescribedMotion {
 public:
  // udot null (aba) or a model without prescribed entries: every entry is free.
  PrescribedMotion(const MultibodyModel& model, const double* udot)
      : model_(model), udot_(model.prescribedCount() > 0 ? udot : nullptr) {}
  // Whether system U entry k is prescribed.
  bool at(int k) const { return udot_ != nullptr && model_.isPrescribed(k); }
  // Its prescribed U̇.
  double udot(int k) const { return udot_[k]; }

 private:
  const MultibodyModel& model_;
  const double* udot_;
};

// The first column s of S_B, a motion c and a force f, all about Bo in B, moved by the pose X_RB to
// about Ro in R as SpatialTransform::apply moves each, with R applied to their six 3-vectors in one
// 3x6 product instead of three 3x2 ones (pass 1 for a one-column hinge: about 4 % of ABA's time,
// measured; docs/performance.md, "Why the kernels have their form"). Writes the first column of
// S_R. With kPureRotation, s = [n; 0] (a PIN in the body frame) and its zero part is left out of
// the product.
template <bool kPureRotation>
void applyToColumnMotionAndForce(const RigidTransform& X_RB, const Matrix6& S_B,
                                 const SpatialMotion& c_B, const SpatialForce& f_B, Matrix6& S_R,
                                 SpatialMotion& c_R, SpatialForce& f_R) {
  constexpr int s = kPureRotation ? 1 : 2;  // the columns of s in the product
  Eigen::Matrix<double, 3, s + 4> inB;
  inB.col(0) = S_B.col(0).head<3>();
  if constexpr (!kPureRotation) inB.col(1) = S_B.col(0).tail<3>();
  inB.col(s) = c_B.rotational();
  inB.col(s + 1) = c_B.translational();
  inB.col(s + 2) = f_B.translational();
  inB.col(s + 3) = f_B.rotational();
  const Eigen::Matrix<double, 3, s + 4> r = X_RB.rotation() * inB;
  const Vector3& p = X_RB.translation();
  if constexpr (kPureRotation) {
    S_R.col(0) << r.col(0), p.cross(r.col(0));
  } else {
    S_R.col(0) << r.col(0), r.col(1) + p.cross(r.col(0));
  }
  c_R = SpatialMotion(r.col(s), r.col(s + 1) + p.cross(r.col(s)));
  f_R = SpatialForce(r.col(s + 3) + p.cross(r.col(s + 2)), r.col(s + 2));
}

// D⁻¹ for the symmetric positive-definite K x K D of a multi-column hinge: D = L Lᵀ (Eigen's
// unblocked factorization at this size), L⁻¹ by forward substitution, D⁻¹ = L⁻ᵀ L⁻¹. Eigen's
// LLT::solve on a matrix right-hand side would run its blocked triangular solve and packing
// kernels, which cost a free base about a tenth of a 30-body tree's recursion.
template <int K>
Eigen::Matrix<double, K, K> inverseOfPositiveDefinite(const Eigen::Matrix<double, K, K>& D) {
  const Eigen::LLT<Eigen::Matrix<double, K, K>> llt(D);
  const Eigen::Matrix<double, K, K>& L = llt.matrixLLT();  // the factor in the lower triangle
  Eigen::Matrix<double, K, K> Linv = Eigen::Matrix<double, K, K>::Zero();
  for (int j = 0; j < K; ++j) {
    Linv(j, j) = 1.0 / L(j, j);
    for (int i = j + 1; i < K; ++i) {
      double sum = 0.0;
      for (int k = j; k < i; ++k) sum += L(i, k) * Linv(k, j);
      Linv(i, j) = -sum / L(i, i);
    }
  }
  return Linv.transpose() * Linv;
}

// Calls f(std::integral_constant<int, K>{}) with K the column count of a multi-column hinge
// (2, 3 or 6; 6 for any other count, whose columns beyond nu are zero), so that its algebra runs
// on fixed 6 x K blocks instead of 6 x 6 matrices with zero columns.
template <class F>
void withColumnCount(int nu, F&& f) {
  switch (nu) {
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    default:
      return f(std::integral_constant<int, 6>{});
  }
}

// Pass 1 for body b, its kinematics and X_RB known: the rigid body alone,
// moved to its reference frame R (MultibodyData). P = ᴿX_B* M ᴮX_R (the 10-parameter inertia
// moved, cheaper than a 6x6 congruence), pᴬ = ᴿX_B* (V ×* M V - F_ext) (the bias force formed
// in B, where M is structured), and the hinge's motion subspace and velocity product moved to R.
void initializeArticulatedBody(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                               std::span<const SpatialForce> F_ext_B) {
  const auto i = static_cast<std::size_t>(b);
  const RigidTransform& X_RB = data.X_RB[i];
  const SpatialInertia& M = model.massProperties(b);
  SpatialForce pA = M.biasForce(data.V_WB_B[i]);
  if (!F_ext_B.empty()) pA -= F_ext_B[i];
  if (model.parent(b) == kWorldBody) {  // R is a base's own frame: nothing moves
    M.writeMatrix(data.P_R[i].matrix());
    data.S_R[i] = data.S_B[i];
    data.c_R[i] = data.c_B[i];
    data.pA_R[i] = pA;
    return;
  }
  M.transformed(X_RB).writeMatrix(data.P_R[i].matrix());
  if (detail::isPinInBodyFrame(model, b)) {  // the common case: the three moves in one product
    applyToColumnMotionAndForce<true>(X_RB, data.S_B[i], data.c_B[i], pA, data.S_R[i], data.c_R[i],
                                      data.pA_R[i]);
    return;
  }
  if (model.hinge(b).nu() == 1) {
    applyToColumnMotionAndForce<false>(X_RB, data.S_B[i], data.c_B[i], pA, data.S_R[i], data.c_R[i],
                                       data.pA_R[i]);
    return;
  }
  const SpatialTransform T_RB(X_RB);
  for (int k = 0; k < model.hinge(b).nu(); ++k) {
    data.S_R[i].col(k) = T_RB.apply(SpatialMotion(Vector6(data.S_B[i].col(k)))).vector();
  }
  data.c_R[i] = T_RB.apply(data.c_B[i]);
  data.pA_R[i] = T_RB.apply(pA);
}

// Pass 2 for body b, its subtree done. The hinge's free columns S_f are factored out of the
// articulated inertia P and bias force pᴬ: U = P S_f, D = S_fᵀ U, ε = τ_f - S_fᵀ pᴬ. The
// prescribed columns S_p only add the known acceleration S_p U̇_p to the velocity product c.
// The parent receives Pᵃ = P - U D⁻¹ Uᵀ and pᵃ = pᴬ + Pᵃ (c + S_p U̇_p) + U D⁻¹ ε, taken as
// pᴬ + P c' + U D⁻¹ (ε - Uᵀ c'); in the tree's frame R both simply add into the parent's.
// Prescribed columns are stored as zero columns of U with unit diagonal in D, so that PS_R,
// Dinv and eps describe the free subsystem (the MultibodyData contract).
void inwardStep(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                const Eigen::Ref<const Eigen::VectorXd>& tau, const PrescribedMotion& prescribed) {
  const auto i = static_cast<std::size_t>(b);
  const int nub = model.hinge(b).nu();
  const int u0 = model.uStart(b);
  const BodyIndex parent = model.parent(b);
  const Matrix6& S = data.S_R[i];
  const Matrix6& P = data.P_R[i].matrix();
  const Vector6& pA = data.pA_R[i].vector();
  Matrix6& U = data.PS_R[i];
  Matrix6& Dinv = data.Dinv[i];
  Vector6& eps = data.eps[i];
  Vector6 c = data.c_R[i].vector();

  int freeCount = 0;
  for (int k = 0; k < nub; ++k) {
    if (prescribed.at(u0 + k)) {
      c += S.col(k) * prescribed.udot(u0 + k);
    } else {
      ++freeCount;
    }
  }
  const auto pi = static_cast<std::size_t>(parent);
  if (freeCount == 0) {  // LOCKED or wholly prescribed: the parent carries the whole inertia
    if (nub > 0) {
      U.setZero();
      Dinv.setIdentity();
      eps.setZero();
    }
    if (parent == kWorldBody) return;
    data.P_R[pi].matrix() += P;
    data.pA_R[pi].vector().noalias() += pA + P * c;
  } else if (nub == 1) {  // the common single free column
    // P S and P c in one 6x2 product (about 2 % of ABA's time against two products).
    Eigen::Matrix<double, 6, 2> Sc;
    Sc << S.col(0), c;
    const Eigen::Matrix<double, 6, 2> PSc = P * Sc;
    U.col(0) = PSc.col(0);
    const double d = 1.0 / S.col(0).dot(U.col(0));
    Dinv(0, 0) = d;
    eps[0] = tau[u0] - S.col(0).dot(pA);
    if (parent == kWorldBody) return;
    const Vector6 Ud = U.col(0) * d;
    // One sweep over the parent's 36 entries, column by column.
    Matrix6& Pp = data.P_R[pi].matrix();
    for (int j = 0; j < 6; ++j) Pp.col(j) += P.col(j) - Ud * U(j, 0);
    data.pA_R[pi].vector() += pA + PSc.col(1) + Ud * (eps[0] - U.col(0).dot(c));
  } else {
    withColumnCount(nub, [&](auto columns) {
      constexpr int K = decltype(columns)::value;
      const int n = std::min(nub, K);  // nub itself; the bound lets GCC see the blocks' size
      // Fixed 6 x K algebra on S_f (S with its prescribed columns zeroed; columns beyond nu
      // are zero already) and unit diagonal entries in D for the zero columns: exact for every
      // mix. U and D⁻¹ outside the K columns keep their zeros and identity (MultibodyData).
      Eigen::Matrix<double, 6, K> Sf = S.leftCols<K>();
      for (int k = 0; k < n; ++k) {
        if (prescribed.at(u0 + k)) Sf.col(k).setZero();
      }
      auto UK = U.leftCols<K>();
      UK.noalias() = P * Sf;
      Eigen::Matrix<double, K, K> D = Sf.transpose() * UK;
      for (int k = 0; k < K; ++k) {
        if (k >= n || prescribed.at(u0 + k)) D(k, k) = 1.0;
      }
      auto DinvK = Dinv.topLeftCorner<K, K>();
      DinvK = inverseOfPositiveDefinite<K>(D);
      for (int k = 0; k < n; ++k) {
        eps[k] = prescribed.at(u0 + k) ? 0.0 : tau[u0 + k] - S.col(k).dot(pA);
      }
      if (parent == kWorldBody) return;
      const Eigen::Matrix<double, 6, K> UDinv = UK * DinvK;
      Matrix6& Pp = data.P_R[pi].matrix();
      Pp += P;
      Pp.noalias() -= UDinv * UK.transpose();
      data.pA_R[pi].vector().noalias() += pA + P * c + UDinv * (eps.head<K>() - UK.transpose() * c);
    });
  }
}

// Pass 3 for body b, its parent's acceleration known: A = A_P + c + S U̇ (in R: no change of
// frame; a base's A_P is the world's -g expressed in the base) with the free U̇_f = D⁻¹ (ε - Uᵀ (A_P
// + c + S_p U̇_p)); the prescribed entries' generalized forces are S_pᵀ (P A + pᴬ), the hinge force
// of the articulated body. A_WB_B, the body-frame acceleration the rest of the library reads, is A
// moved to B.
void outwardStep(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                 const PrescribedMotion& prescribed) {
  const auto i = static_cast<std::size_t>(b);
  const auto p = static_cast<std::size_t>(model.parent(b));
  const int nub = model.hinge(b).nu();
  const int u0 = model.uStart(b);
  const Matrix6& S = data.S_R[i];
  const SpatialMotion A_P = p == 0 ? detail::worldAccelerationInBase(model, data, b) : data.A_R[p];
  Vector6 A = A_P.vector() + data.c_R[i].vector();
  if (nub == 1) {
    if (prescribed.at(u0)) {
      const double ud = prescribed.udot(u0);
      data.udot[u0] = ud;
      A += S.col(0) * ud;
      data.tau[u0] = S.col(0).dot(data.P_R[i].matrix() * A + data.pA_R[i].vector());
    } else {
      const double ud = data.Dinv[i](0, 0) * (data.eps[i][0] - data.PS_R[i].col(0).dot(A));
      data.udot[u0] = ud;
      A += S.col(0) * ud;
    }
  } else if (nub > 1) {
    withColumnCount(nub, [&](auto columns) {
      constexpr int K = decltype(columns)::value;
      const int n = std::min(nub, K);  // nub itself; the bound lets GCC see the blocks' size
      const auto SK = S.leftCols<K>();
      Eigen::Matrix<double, K, 1> ud = Eigen::Matrix<double, K, 1>::Zero();
      bool anyPrescribed = false;
      for (int k = 0; k < n; ++k) {
        if (prescribed.at(u0 + k)) {
          ud[k] = prescribed.udot(u0 + k);
          anyPrescribed = true;
        }
      }
      if (anyPrescribed) A += SK * ud;
      // Zero on prescribed rows and beyond nu (unit rows of Dinv, zero ε and zero columns of U).
      const Eigen::Matrix<double, K, 1> udFree =
          data.Dinv[i].topLeftCorner<K, K>() *
          (data.eps[i].head<K>() - data.PS_R[i].leftCols<K>().transpose() * A);
      A += SK * udFree;  // columns beyond nu are zero
      ud += udFree;
      // Entry by entry: as a segment copy, GCC's x86-64-v3 variant warns that a 2-double packet
      // would read past ud (K = 2) on a path where n > K, which the bound above excludes.
      for (int k = 0; k < n; ++k) data.udot[u0 + k] = ud[k];
      if (anyPrescribed) {
        const Vector6 f = data.P_R[i].matrix() * A + data.pA_R[i].vector();
        for (int k = 0; k < n; ++k) {
          if (prescribed.at(u0 + k)) data.tau[u0 + k] = S.col(k).dot(f);
        }
      }
    });
  }
  data.A_R[i] = SpatialMotion(A);
  data.A_WB_B[i] = SpatialTransform(data.X_RB[i]).inverseApply(data.A_R[i]);
}

// The three passes (detail::articulatedBodyAlgorithm). Flattened: every call below is inlined
// into the one loop body. Left to its heuristics, GCC keeps the joint kernels, pose products and
// spatial-vector constructors out of line in a function this large (docs/performance.md, "Why
// the kernels have their form").
[[gnu::flatten]] void runArticulatedBodyAlgorithm(const MultibodyModel& model, MultibodyData& data,
                                                  const double* q, const double* u,
                                                  const Eigen::Ref<const Eigen::VectorXd>& tau,
                                                  const double* udotPrescribed,
                                                  std::span<const SpatialForce> F_ext_B) {
  const int n = model.bodyCount();
  const PrescribedMotion prescribed(model, udotPrescribed);
  data.tau = tau;  // the prescribed entries are overwritten in pass 3

  // Pass 1: kinematics when asked (two sweeps, hinge_kernels.h) and the poses in R, root to leaves;
  // then each body's inertia and bias force in R, in a sweep of their own: no body's depends on
  // another's, so there they overlap freely instead of stretching each step of the chains (3 to 7 %
  // of ABA's time, measured; docs/performance.md, "Why the kernels have their form").
  if (q != nullptr) {
    data.V_WB_B[0] = SpatialMotion();
    for (BodyIndex b = 1; b < n; ++b) detail::startBodyKinematics(model, data, b, q, u);
  }
  for (BodyIndex b = 1; b < n; ++b) {
    if (q != nullptr) detail::finishBodyKinematics(model, data, b);
    detail::updateReferencePose(model, data, b);
  }
  for (BodyIndex b = 1; b < n; ++b) initializeArticulatedBody(model, data, b, F_ext_B);
  // Pass 2 (leaves to root): articulated inertias and bias forces.
  for (BodyIndex b = n - 1; b >= 1; --b) inwardStep(model, data, b, tau, prescribed);
  // Pass 3 (root to leaves): accelerations; gravity as an upward acceleration of the world.
  data.A_WB_B[0] = SpatialMotion(Vector3::Zero(), Vector3(-model.gravity()));
  data.A_R[0] = data.A_WB_B[0];
  for (BodyIndex b = 1; b < n; ++b) outwardStep(model, data, b, prescribed);
}

}  // namespace

namespace detail {

void articulatedBodyAlgorithm(const MultibodyModel& model, MultibodyData& data, const double* q,
                              const double* u, const Eigen::Ref<const Eigen::VectorXd>& tau,
                              const double* udotPrescribed, std::span<const SpatialForce> F_ext_B) {
  hopsim::detail::runCpuKernel<runArticulatedBodyAlgorithm>(model, data, q, u, tau, udotPrescribed,
                                                            F_ext_B);
}

}  // namespace detail

const Eigen::VectorXd& aba(const MultibodyModel& model, MultibodyData& data,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& u,
                           const Eigen::Ref<const Eigen::VectorXd>& tau,
                           std::span<const SpatialForce> F_ext_B) {
  constexpr const char* kWhere = "aba";
  detail::checkData(model, data, kWhere);
  detail::checkSize(q.size(), model.nq(), kWhere, "q");
  detail::checkSize(u.size(), model.nu(), kWhere, "u");
  detail::checkSize(tau.size(), model.nu(), kWhere, "tau");
  detail::checkForces(F_ext_B, model, kWhere);
  detail::articulatedBodyAlgorithm(model, data, q.data(), u.data(), tau, nullptr, F_ext_B);
  return data.udot;
}

}  // namespace hopsim::multibody
