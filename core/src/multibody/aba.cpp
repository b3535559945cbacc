#include "hopsim/core/multibody/aba.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <type_traits>

#include "../cpu_kernels_dispatch.h"
#include "articulated_body.h"
#include "hinge_kernel_dispatch.h"
#include "hinge_kernels.h"

namespace hopsim::multibody {
namespace {

// Which U entries take their U̇ as an input (hybrid dynamics), and those U̇: read only by the
// Prescribed kernel, which the model chooses only for hybrid calls (MultibodyModel::hingeKernels).
class PrescribedMotion {
 public:
  PrescribedMotion(const MultibodyModel& model, const double* udot) : model_(model), udot_(udot) {}
  // Whether system U entry k is prescribed.
  bool at(int k) const { return model_.isPrescribed(k); }
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
// (2, 3 or 6, the counts hinges have), so that the Prescribed kernel's algebra runs on fixed
// 6 x K blocks instead of 6 x 6 matrices with zero columns.
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

// Pass 1, the joint of body b alone (detail::startBodyKinematics): a PIN about a coordinate axis
// in the body frame directly, every other hinge by the general joint kinematics.
template <HingeKernel K>
void startJoint(const MultibodyModel& model, MultibodyData& data, BodyIndex b, const double* q,
                const double* u) {
  constexpr int axis = detail::coordinateAxisOf(K);
  if constexpr (axis >= 0) {
    const auto i = static_cast<std::size_t>(b);
    detail::coordinatePinJointKinematics<axis>(model, data, b, q, u, &data.V_WB_B[i], &data.c_B[i]);
  } else {
    detail::startBodyKinematics(model, data, b, q, u);
  }
}

// Pass 1, the chains of poses and velocities (detail::finishBodyKinematics). The Prescribed
// kernel tests for a PIN in the body frame as forwardKinematics does, so that a hinge's
// kinematics are the same bits whether or not its entries are prescribed.
template <HingeKernel K>
void finishJoint(const MultibodyModel& model, MultibodyData& data, BodyIndex b) {
  const bool pinInBodyFrame = K == HingeKernel::Prescribed ? detail::isPinInBodyFrame(model, b)
                                                           : detail::isPinInBodyFrameKernel(K);
  detail::finishBodyKinematics(model, data, b, pinInBodyFrame);
}

// The first `columns` columns of S_B, the motion c_B and the force pᴬ, moved by X_RB to about
// Ro in R, each by SpatialTransform::apply.
void applyToColumnsMotionAndForce(const RigidTransform& X_RB, int columns, const Matrix6& S_B,
                                  const SpatialMotion& c_B, const SpatialForce& f_B, Matrix6& S_R,
                                  SpatialMotion& c_R, SpatialForce& f_R) {
  const SpatialTransform T_RB(X_RB);
  for (int k = 0; k < columns; ++k) {
    S_R.col(k) = T_RB.apply(SpatialMotion(Vector6(S_B.col(k)))).vector();
  }
  c_R = T_RB.apply(c_B);
  f_R = T_RB.apply(f_B);
}

// Pass 1 for body b, its kinematics and X_RB known: the rigid body alone,
// moved to its reference frame R (MultibodyData). P = ᴿX_B* M ᴮX_R (the 10-parameter inertia
// moved, cheaper than a 6x6 congruence), pᴬ = ᴿX_B* (V ×* M V - F_ext) (the bias force formed
// in B, where M is structured), and the hinge's motion subspace and velocity product moved to R:
// for a one-column hinge in one product (a PIN in the body frame without the zero half of its
// column), for the others column by column.
template <HingeKernel K>
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
  const Matrix6& S_B = data.S_B[i];
  if constexpr (detail::isPinInBodyFrameKernel(K)) {
    applyToColumnMotionAndForce<true>(X_RB, S_B, data.c_B[i], pA, data.S_R[i], data.c_R[i],
                                      data.pA_R[i]);
  } else if constexpr (detail::freeColumnsOf(K) == 1) {
    applyToColumnMotionAndForce<false>(X_RB, S_B, data.c_B[i], pA, data.S_R[i], data.c_R[i],
                                       data.pA_R[i]);
  } else if constexpr (K == HingeKernel::Prescribed) {  // the forms above, chosen per body
    const int nub = model.hinge(b).nu();
    if (detail::isPinInBodyFrame(model, b)) {
      applyToColumnMotionAndForce<true>(X_RB, S_B, data.c_B[i], pA, data.S_R[i], data.c_R[i],
                                        data.pA_R[i]);
    } else if (nub == 1) {
      applyToColumnMotionAndForce<false>(X_RB, S_B, data.c_B[i], pA, data.S_R[i], data.c_R[i],
                                         data.pA_R[i]);
    } else {
      applyToColumnsMotionAndForce(X_RB, nub, S_B, data.c_B[i], pA, data.S_R[i], data.c_R[i],
                                   data.pA_R[i]);
    }
  } else {
    applyToColumnsMotionAndForce(X_RB, detail::freeColumnsOf(K), S_B, data.c_B[i], pA, data.S_R[i],
                                 data.c_R[i], data.pA_R[i]);
  }
}

// Pass 2 for a body without a free column (LOCKED, or every entry prescribed) whose velocity
// product c includes its prescribed accelerations: the parent carries its whole articulated
// inertia, Pᵃ = P and pᵃ = pᴬ + P c.
void carryRigidly(MultibodyData& data, std::size_t i, BodyIndex parent, const Vector6& c) {
  if (parent == kWorldBody) return;
  const auto pi = static_cast<std::size_t>(parent);
  const Matrix6& P = data.P_R[i].matrix();
  data.P_R[pi].matrix() += P;
  data.pA_R[pi].vector().noalias() += data.pA_R[i].vector() + P * c;
}

// Pass 2 for the kernels of one free column: U = P s, D = sᵀ U, ε = τ - sᵀ pᴬ, and the parent
// receives Pᵃ = P - U D⁻¹ Uᵀ and pᵃ = pᴬ + P c + U D⁻¹ (ε - Uᵀ c).
void inwardStepOneColumn(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                         const Eigen::Ref<const Eigen::VectorXd>& tau) {
  const auto i = static_cast<std::size_t>(b);
  const BodyIndex parent = model.parent(b);
  const Matrix6& S = data.S_R[i];
  const Matrix6& P = data.P_R[i].matrix();
  const Vector6& pA = data.pA_R[i].vector();
  const Vector6& c = data.c_R[i].vector();
  Matrix6& U = data.PS_R[i];
  // P S and P c in one 6x2 product (about 2 % of ABA's time against two products).
  Eigen::Matrix<double, 6, 2> Sc;
  Sc << S.col(0), c;
  const Eigen::Matrix<double, 6, 2> PSc = P * Sc;
  U.col(0) = PSc.col(0);
  const double d = 1.0 / S.col(0).dot(U.col(0));
  data.Dinv[i](0, 0) = d;
  const double eps = tau[model.uStart(b)] - S.col(0).dot(pA);
  data.eps[i][0] = eps;
  if (parent == kWorldBody) return;
  const auto pi = static_cast<std::size_t>(parent);
  const Vector6 Ud = U.col(0) * d;
  // One sweep over the parent's 36 entries, column by column.
  Matrix6& Pp = data.P_R[pi].matrix();
  for (int j = 0; j < 6; ++j) Pp.col(j) += P.col(j) - Ud * U(j, 0);
  data.pA_R[pi].vector() += pA + PSc.col(1) + Ud * (eps - U.col(0).dot(c));
}

// Pass 2 for K columns Sf of S, those in zeroColumns (bit k for column k) zeroed for prescribed
// entries (MultibodyData: a prescribed column of U is zero, its row and column of D⁻¹ the
// identity's, its ε zero), c including the prescribed accelerations: U = P Sf, D = Sfᵀ U with
// unit diagonal entries for the zero columns, and the parent receives Pᵃ = P - U D⁻¹ Uᵀ and
// pᵃ = pᴬ + P c + U D⁻¹ (ε - Uᵀ c).
template <int K>
void inwardStepColumns(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                       const Eigen::Matrix<double, 6, K>& Sf, unsigned zeroColumns,
                       const Vector6& c, const Eigen::Matrix<double, K, 1>& eps) {
  const auto i = static_cast<std::size_t>(b);
  const BodyIndex parent = model.parent(b);
  const Matrix6& P = data.P_R[i].matrix();
  auto UK = data.PS_R[i].leftCols<K>();
  UK.noalias() = P * Sf;
  Eigen::Matrix<double, K, K> D = Sf.transpose() * UK;
  for (int k = 0; k < K; ++k) {
    if ((zeroColumns >> k) & 1u) D(k, k) = 1.0;
  }
  auto DinvK = data.Dinv[i].topLeftCorner<K, K>();
  DinvK = inverseOfPositiveDefinite<K>(D);
  data.eps[i].head<K>() = eps;
  if (parent == kWorldBody) return;
  const Eigen::Matrix<double, 6, K> UDinv = UK * DinvK;
  Matrix6& Pp = data.P_R[static_cast<std::size_t>(parent)].matrix();
  Pp += P;
  Pp.noalias() -= UDinv * UK.transpose();
  data.pA_R[static_cast<std::size_t>(parent)].vector().noalias() +=
      data.pA_R[i].vector() + P * c + UDinv * (eps - UK.transpose() * c);
}

// Pass 2 for a hinge with prescribed entries: their columns S_p only add the known acceleration
// S_p U̇_p to the velocity product c, and the free columns are factored out as above.
void inwardStepPrescribed(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                          const Eigen::Ref<const Eigen::VectorXd>& tau,
                          const PrescribedMotion& prescribed) {
  const auto i = static_cast<std::size_t>(b);
  const int nub = model.hinge(b).nu();
  const int u0 = model.uStart(b);
  const Matrix6& S = data.S_R[i];
  const Vector6& pA = data.pA_R[i].vector();
  Vector6 c = data.c_R[i].vector();
  int freeCount = 0;
  for (int k = 0; k < nub; ++k) {
    if (prescribed.at(u0 + k)) {
      c += S.col(k) * prescribed.udot(u0 + k);
    } else {
      ++freeCount;
    }
  }
  if (freeCount == 0) {  // wholly prescribed: the parent carries the whole inertia
    data.PS_R[i].setZero();
    data.Dinv[i].setIdentity();
    data.eps[i].setZero();
    carryRigidly(data, i, model.parent(b), c);
    return;
  }
  withColumnCount(nub, [&](auto columns) {
    constexpr int K = decltype(columns)::value;
    Eigen::Matrix<double, 6, K> Sf = S.leftCols<K>();
    Eigen::Matrix<double, K, 1> eps = Eigen::Matrix<double, K, 1>::Zero();
    unsigned zeroColumns = 0;
    for (int k = 0; k < K; ++k) {
      if (prescribed.at(u0 + k)) {
        Sf.col(k).setZero();
        zeroColumns |= 1u << k;
      } else {
        eps[k] = tau[u0 + k] - S.col(k).dot(pA);
      }
    }
    inwardStepColumns<K>(model, data, b, Sf, zeroColumns, c, eps);
  });
}

// Pass 2 for body b, its subtree done: its hinge's free columns factored out of the articulated
// inertia P and bias force pᴬ, what remains added into the parent's (in the tree's frame R both
// simply add). The factors U = P S_f, D⁻¹ and ε stay in data (the MultibodyData contract).
template <HingeKernel K>
void inwardStep(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                const Eigen::Ref<const Eigen::VectorXd>& tau, const PrescribedMotion& prescribed) {
  constexpr int columns = detail::freeColumnsOf(K);
  const auto i = static_cast<std::size_t>(b);
  if constexpr (K == HingeKernel::Prescribed) {
    inwardStepPrescribed(model, data, b, tau, prescribed);
  } else if constexpr (columns == 0) {
    carryRigidly(data, i, model.parent(b), data.c_R[i].vector());
  } else if constexpr (columns == 1) {
    inwardStepOneColumn(model, data, b, tau);
  } else {
    const int u0 = model.uStart(b);
    const Eigen::Matrix<double, 6, columns> S = data.S_R[i].leftCols<columns>();
    Eigen::Matrix<double, columns, 1> eps;
    for (int k = 0; k < columns; ++k) eps[k] = tau[u0 + k] - S.col(k).dot(data.pA_R[i].vector());
    inwardStepColumns<columns>(model, data, b, S, 0u, data.c_R[i].vector(), eps);
  }
}

// Pass 3 for a hinge with prescribed entries, A = A_P + c given: U̇ = U̇_p + U̇_f with the free
// U̇_f = D⁻¹ (ε - Uᵀ (A + S_p U̇_p)) (zero on the prescribed rows: unit rows of D⁻¹, zero ε and
// zero columns of U), and each prescribed entry's generalized force S_pᵀ (P A + pᴬ), the hinge
// force of the articulated body. Adds S U̇ to A.
void outwardStepPrescribed(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                           const PrescribedMotion& prescribed, Vector6& A) {
  const auto i = static_cast<std::size_t>(b);
  const int nub = model.hinge(b).nu();
  const int u0 = model.uStart(b);
  const Matrix6& S = data.S_R[i];
  if (nub == 1) {  // a prescribed single column
    const double ud = prescribed.udot(u0);
    data.udot[u0] = ud;
    A += S.col(0) * ud;
    data.tau[u0] = S.col(0).dot(data.P_R[i].matrix() * A + data.pA_R[i].vector());
    return;
  }
  withColumnCount(nub, [&](auto columns) {
    constexpr int K = decltype(columns)::value;
    const int n = std::min(nub, K);  // nub itself; the bound lets GCC see the blocks' size
    const auto SK = S.leftCols<K>();
    Eigen::Matrix<double, K, 1> ud = Eigen::Matrix<double, K, 1>::Zero();
    for (int k = 0; k < n; ++k) {
      if (prescribed.at(u0 + k)) ud[k] = prescribed.udot(u0 + k);
    }
    A += SK * ud;
    const Eigen::Matrix<double, K, 1> udFree =
        data.Dinv[i].topLeftCorner<K, K>() *
        (data.eps[i].head<K>() - data.PS_R[i].leftCols<K>().transpose() * A);
    A += SK * udFree;
    ud += udFree;
    // Entry by entry: as a segment copy, GCC's x86-64-v3 variant warns that a 2-double packet
    // would read past ud (K = 2) on a path where n > K, which the bound above excludes.
    for (int k = 0; k < n; ++k) data.udot[u0 + k] = ud[k];
    const Vector6 f = data.P_R[i].matrix() * A + data.pA_R[i].vector();
    for (int k = 0; k < n; ++k) {
      if (prescribed.at(u0 + k)) data.tau[u0 + k] = S.col(k).dot(f);
    }
  });
}

// Pass 3 for body b, its parent's acceleration known: A = A_P + c + S U̇ (in R: no change of
// frame; a base's A_P is the world's -g expressed in the base) with the free U̇ = D⁻¹ (ε - Uᵀ
// (A_P + c)). A_WB_B, the body-frame acceleration the rest of the library reads, is A moved to B.
template <HingeKernel K>
void outwardStep(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                 const PrescribedMotion& prescribed) {
  constexpr int columns = detail::freeColumnsOf(K);
  const auto i = static_cast<std::size_t>(b);
  const auto p = static_cast<std::size_t>(model.parent(b));
  const int u0 = model.uStart(b);
  const SpatialMotion A_P = p == 0 ? detail::worldAccelerationInBase(model, data, b) : data.A_R[p];
  Vector6 A = A_P.vector() + data.c_R[i].vector();
  if constexpr (K == HingeKernel::Prescribed) {
    outwardStepPrescribed(model, data, b, prescribed, A);
  } else if constexpr (columns == 1) {
    const double ud = data.Dinv[i](0, 0) * (data.eps[i][0] - data.PS_R[i].col(0).dot(A));
    data.udot[u0] = ud;
    A += data.S_R[i].col(0) * ud;
  } else if constexpr (columns > 1) {
    const Eigen::Matrix<double, columns, 1> ud =
        data.Dinv[i].topLeftCorner<columns, columns>() *
        (data.eps[i].head<columns>() - data.PS_R[i].leftCols<columns>().transpose() * A);
    A += data.S_R[i].leftCols<columns>() * ud;
    data.udot.segment<columns>(u0) = ud;
  }
  data.A_R[i] = SpatialMotion(A);
  data.A_WB_B[i] = SpatialTransform(data.X_RB[i]).inverseApply(data.A_R[i]);
}

// The three passes (detail::articulatedBodyAlgorithm), each body's step specialized for the
// kernel the model chose for it (MultibodyModel::hingeKernels): one switch per body and pass.
// Flattened: every call below is inlined into the loop bodies. Left to its heuristics, GCC keeps
// the joint kernels, pose products and spatial-vector constructors out of line in a function
// this large (docs/performance.md, "Why the kernels have their form").
[[gnu::flatten]] void runArticulatedBodyAlgorithm(const MultibodyModel& model, MultibodyData& data,
                                                  const double* q, const double* u,
                                                  const Eigen::Ref<const Eigen::VectorXd>& tau,
                                                  const double* udotPrescribed,
                                                  std::span<const SpatialForce> F_ext_B) {
  const int n = model.bodyCount();
  const PrescribedMotion prescribed(model, udotPrescribed);
  const HingeKernel* kernel = model.hingeKernels(udotPrescribed != nullptr).data();
  data.tau = tau;  // the prescribed entries are overwritten in pass 3

  // Pass 1: kinematics when asked (two sweeps, hinge_kernels.h) and the poses in R, root to leaves;
  // then each body's inertia and bias force in R, in a sweep of their own: no body's depends on
  // another's, so there they overlap freely instead of stretching each step of the chains (3 to 7 %
  // of ABA's time, measured; docs/performance.md, "Why the kernels have their form").
  if (q != nullptr) {
    data.V_WB_B[0] = SpatialMotion();
    for (BodyIndex b = 1; b < n; ++b) {
      detail::withHingeKernel(
          kernel[b], [&](auto k) { startJoint<decltype(k)::value>(model, data, b, q, u); });
    }
  }
  for (BodyIndex b = 1; b < n; ++b) {
    if (q != nullptr) {
      detail::withHingeKernel(kernel[b],
                              [&](auto k) { finishJoint<decltype(k)::value>(model, data, b); });
    }
    detail::updateReferencePose(model, data, b);
  }
  for (BodyIndex b = 1; b < n; ++b) {
    detail::withHingeKernel(kernel[b], [&](auto k) {
      initializeArticulatedBody<decltype(k)::value>(model, data, b, F_ext_B);
    });
  }
  // Pass 2 (leaves to root): articulated inertias and bias forces.
  for (BodyIndex b = n - 1; b >= 1; --b) {
    detail::withHingeKernel(kernel[b], [&](auto k) {
      inwardStep<decltype(k)::value>(model, data, b, tau, prescribed);
    });
  }
  // Pass 3 (root to leaves): accelerations; gravity as an upward acceleration of the world.
  data.A_WB_B[0] = SpatialMotion(Vector3::Zero(), Vector3(-model.gravity()));
  data.A_R[0] = data.A_WB_B[0];
  for (BodyIndex b = 1; b < n; ++b) {
    detail::withHingeKernel(
        kernel[b], [&](auto k) { outwardStep<decltype(k)::value>(model, data, b, prescribed); });
  }
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
