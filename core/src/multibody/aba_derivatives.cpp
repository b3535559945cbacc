#include "hopsim/core/multibody/aba_derivatives.h"

#include <array>
#include <string>

#include "hinge_kernels.h"
#include "hopsim/core/multibody/aba.h"

namespace hopsim::multibody {
namespace {

// V × m, the motion cross product (crm(V) m), on plain 6-vectors [angular; linear].
Vector6 motionCross(const Vector6& V, const Vector6& m) {
  Vector6 r;
  r << V.head<3>().cross(m.head<3>()),
      V.tail<3>().cross(m.head<3>()) + V.head<3>().cross(m.tail<3>());
  return r;
}

// V ×* f, the force cross product (crf(V) f).
Vector6 forceCross(const Vector6& V, const Vector6& f) {
  Vector6 r;
  r << V.head<3>().cross(f.head<3>()) + V.tail<3>().cross(f.tail<3>()),
      V.head<3>().cross(f.tail<3>());
  return r;
}

// crm(V) as a matrix: [ω× 0; v× ω×].
Matrix6 motionCrossMatrix(const Vector6& V) {
  Matrix6 m = Matrix6::Zero();
  m.topLeftCorner<3, 3>() = spatial::skew(V.head<3>());
  m.bottomRightCorner<3, 3>() = m.topLeftCorner<3, 3>();
  m.bottomLeftCorner<3, 3>() = spatial::skew(V.tail<3>());
  return m;
}

// The matrix of ν ↦ ν ×* f for a fixed force f = [n; f]: [-n× -f×; -f× 0].
Matrix6 crossedForceMatrix(const Vector6& f) {
  Matrix6 m = Matrix6::Zero();
  m.topLeftCorner<3, 3>() = -spatial::skew(f.head<3>());
  m.topRightCorner<3, 3>() = -spatial::skew(f.tail<3>());
  m.bottomLeftCorner<3, 3>() = m.topRightCorner<3, 3>();
  return m;
}

// Whether U entry l of hinge h turns with entry k: a tangent perturbation of entry k moves
// column l's twist (by S_k × S_l). Along a chain, the columns of later subhinges turn with
// earlier ones; within a BALL or FULL6DOF, whose columns are fixed in M, every column turns
// with every one; within a FULL6DOF_INERTIAL, whose rotation axes pass through Mo along F's
// axes, the rotation columns move with the translation and nothing moves with the rotation.
bool columnFollows(const Hinge& h, int k, int l) {
  int sk = 0, sl = 0;
  for (int s = 1; s < h.subhingeCount(); ++s) {
    if (h.subhinge(s).uOffset <= k) sk = s;
    if (h.subhinge(s).uOffset <= l) sl = s;
  }
  if (sk != sl) return sk < sl;
  const Subhinge& s = h.subhinge(sk);
  switch (s.type) {
    case SubhingeType::Ball:
    case SubhingeType::Free:
      return true;
    case SubhingeType::FreeInertial:
      return k - s.uOffset >= 3 && l - s.uOffset < 3;
    case SubhingeType::Pin:
    case SubhingeType::Slider:
      return false;  // one column: S × S = 0
  }
  return false;
}

bool follows(std::uint64_t mask, int k, int l) { return ((mask >> (6 * k + l)) & 1u) != 0; }

// Root to leaves: each body's velocity, acceleration and Newton-Euler force in its tree's frame
// R, its composite terms' own parts, and per U entry k the terms the derivatives need: with Vᵇ
// and Aᵇ the velocity and acceleration of what does not move with entry k (the parent and the
// hinge's columns that do not turn with k) and Vˢ the velocity of the columns k turns with,
// ν = Vᵇ × S, α = Aᵇ × S - ν × Vᵇ and β = (Vˢ + Vᵇ) × S (docs/multibody.md).
void forwardPass(const MultibodyModel& model, const MultibodyData& data,
                 AbaDerivativesWorkspace& work, const Eigen::Ref<const Eigen::VectorXd>& u,
                 std::span<const SpatialForce> F_ext_B) {
  const Eigen::VectorXd& udot = data.udot;
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const BodyIndex parent = model.parent(b);
    Vector6 Vp = Vector6::Zero(), Ap;
    if (parent == kWorldBody) {  // gravity as an upward acceleration of the world, in R = B
      Ap << Vector3::Zero(), data.X_WB[i].rotation().transpose() * -model.gravity();
    } else {
      Vp = work.V[static_cast<std::size_t>(parent)];
      Ap = work.A[static_cast<std::size_t>(parent)];
    }
    const int nub = model.hinge(b).nu();
    const int u0 = model.uStart(b);
    const Matrix6& S = data.S_R[i];
    const std::uint64_t mask = work.follows[i];
    std::array<Vector6, 6> Sdot, Vs;
    Vector6 V = Vp, A = Ap;
    for (int l = 0; l < nub; ++l) {
      Vs[l] = Vp;
      for (int m = 0; m < nub; ++m) {
        if (follows(mask, m, l)) Vs[l] += S.col(m) * u[u0 + m];
      }
      Sdot[l] = motionCross(Vs[l], S.col(l));
      work.S[static_cast<std::size_t>(u0 + l)] = S.col(l);
      V += S.col(l) * u[u0 + l];
      A += S.col(l) * udot[u0 + l] + Sdot[l] * u[u0 + l];
    }
    for (int k = 0; k < nub; ++k) {
      Vector6 Vb = Vp, Ab = Ap;
      for (int l = 0; l < nub; ++l) {
        if (follows(mask, k, l)) continue;
        Vb += S.col(l) * u[u0 + l];
        Ab += S.col(l) * udot[u0 + l] + Sdot[l] * u[u0 + l];
      }
      const auto K = static_cast<std::size_t>(u0 + k);
      work.nu[K] = motionCross(Vb, S.col(k));
      work.alpha[K] = motionCross(Ab, S.col(k)) - motionCross(work.nu[K], Vb);
      work.beta[K] = motionCross(Vs[k] + Vb, S.col(k));
    }
    work.V[i] = V;
    work.A[i] = A;
    Matrix6& I = work.Ic[i];
    if (parent == kWorldBody) {
      model.massProperties(b).writeMatrix(I);
    } else {
      model.massProperties(b).transformed(data.X_RB[i]).writeMatrix(I);
    }
    const Vector6 h = I * V;
    work.F[i] = I * A + forceCross(V, h);
    if (!F_ext_B.empty()) {
      work.F[i] -= SpatialTransform(data.X_RB[i]).apply(F_ext_B[i]).vector();
    }
    work.Bc[i].noalias() = -I * motionCrossMatrix(V);
    work.Bc[i] += crossedForceMatrix(h);
    work.Bc[i].noalias() += -motionCrossMatrix(V).transpose() * I;  // crf(V) = -crm(V)ᵀ
  }
}

// Leaves to root: composite inertias, composite B and hinge forces, and per U entry the
// derivatives of its own body's hinge force, once the body's subtree is summed.
void backwardPass(const MultibodyModel& model, AbaDerivativesWorkspace& work) {
  for (BodyIndex b = model.bodyCount() - 1; b >= 1; --b) {
    const auto i = static_cast<std::size_t>(b);
    const int u0 = model.uStart(b);
    const Matrix6& Ic = work.Ic[i];
    const Matrix6& Bc = work.Bc[i];
    for (int k = 0; k < model.hinge(b).nu(); ++k) {
      const auto K = static_cast<std::size_t>(u0 + k);
      const Vector6& S = work.S[K];
      work.Gq[K] = forceCross(S, work.F[i]) + Ic * work.alpha[K] + Bc * work.nu[K];
      work.Gu[K] = Ic * work.beta[K] + Bc * S;
      work.IcS[K] = Ic * S;
      work.BcTS[K] = Bc.transpose() * S;
    }
    const BodyIndex parent = model.parent(b);
    if (parent == kWorldBody) continue;
    const auto pi = static_cast<std::size_t>(parent);
    work.Ic[pi] += Ic;
    work.Bc[pi] += Bc;
    work.F[pi] += work.F[i];
  }
}

// ∂τ/∂q, ∂τ/∂u and M, entry by entry, for every pair of U entries of one body's hinge or of a
// body and its ancestor (every other entry is zero: a hinge's force does not depend on a
// coordinate outside its subtree's path).
void assemble(const MultibodyModel& model, AbaDerivativesWorkspace& work) {
  Eigen::MatrixXd& dq = work.dtau_dq;
  Eigen::MatrixXd& du = work.dtau_du;
  Eigen::MatrixXd& M = work.M;
  dq.setZero();
  du.setZero();
  M.setZero();
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const int nub = model.hinge(b).nu();
    const int u0 = model.uStart(b);
    for (int k = 0; k < nub; ++k) {
      const auto K = static_cast<std::size_t>(u0 + k);
      for (int j = 0; j < nub; ++j) {
        const auto J = static_cast<std::size_t>(u0 + j);
        const Vector6& S_j = work.S[J];
        double d = S_j.dot(work.Gq[K]);
        if (follows(work.follows[i], k, j)) d += motionCross(work.S[K], S_j).dot(work.F[i]);
        dq(u0 + j, u0 + k) = d;
        du(u0 + j, u0 + k) = S_j.dot(work.Gu[K]);
        M(u0 + j, u0 + k) = S_j.dot(work.IcS[K]);
      }
    }
    for (BodyIndex a = model.parent(b); a != kWorldBody; a = model.parent(a)) {
      const int ua = model.uStart(a);
      for (int k = 0; k < model.hinge(a).nu(); ++k) {
        const auto K = static_cast<std::size_t>(ua + k);
        const Vector6& S_k = work.S[K];
        for (int j = 0; j < nub; ++j) {
          const auto J = static_cast<std::size_t>(u0 + j);
          dq(u0 + j, ua + k) = work.IcS[J].dot(work.alpha[K]) + work.BcTS[J].dot(work.nu[K]);
          dq(ua + k, u0 + j) = S_k.dot(work.Gq[J]);
          du(u0 + j, ua + k) = work.IcS[J].dot(work.beta[K]) + work.BcTS[J].dot(S_k);
          du(ua + k, u0 + j) = S_k.dot(work.Gu[J]);
          const double m = S_k.dot(work.IcS[J]);
          M(ua + k, u0 + j) = m;
          M(u0 + j, ua + k) = m;
        }
      }
    }
  }
}

void checkMatrix(const Eigen::Ref<Eigen::MatrixXd>& m, int n, const char* name) {
  if (m.rows() != n || m.cols() != n) {
    throw InputError(std::string("abaDerivatives: ") + name + " is " + std::to_string(m.rows()) +
                     " x " + std::to_string(m.cols()) +
                     " (expected nu x nu = " + std::to_string(n) + " x " + std::to_string(n) + ")");
  }
}

// M⁻¹ from its Cholesky factor L (lower triangle of `factor`), column by column: L y = e_j by
// forward substitution from row j (the rows above are zero), then Lᵀ x = y by back substitution,
// each step an axpy or a dot product over a contiguous column of L. Eigen's triangular solves
// cost three times as much at these sizes (their panel dispatch), and its matrix solve takes
// heap memory for its blocks at large nu.
void inverseFromCholesky(const Eigen::MatrixXd& factor, Eigen::Ref<Eigen::MatrixXd> Minv) {
  const Eigen::Index n = factor.rows();
  Minv.setZero();
  for (Eigen::Index j = 0; j < n; ++j) {
    auto x = Minv.col(j);
    x[j] = 1.0;
    for (Eigen::Index k = j; k < n; ++k) {
      x[k] /= factor(k, k);
      x.tail(n - k - 1).noalias() -= x[k] * factor.col(k).tail(n - k - 1);
    }
    for (Eigen::Index k = n - 1; k >= 0; --k) {
      x[k] = (x[k] - factor.col(k).tail(n - k - 1).dot(x.tail(n - k - 1))) / factor(k, k);
    }
  }
}

// x = -M⁻¹ y for symmetric M⁻¹, entry by entry as dot products of contiguous columns (Eigen's
// blocked product takes heap memory for its panels at large nu).
void multiplyByMinusInverse(const Eigen::Ref<const Eigen::MatrixXd>& Minv, const Eigen::MatrixXd& y,
                            Eigen::Ref<Eigen::MatrixXd> x) {
  for (Eigen::Index j = 0; j < y.cols(); ++j) {
    for (Eigen::Index i = 0; i < Minv.cols(); ++i) x(i, j) = -Minv.col(i).dot(y.col(j));
  }
}

}  // namespace

AbaDerivativesWorkspace::AbaDerivativesWorkspace(const MultibodyModel& model)
    : V(static_cast<std::size_t>(model.bodyCount())),
      A(V.size()),
      F(V.size()),
      Ic(V.size()),
      Bc(V.size()),
      follows(V.size(), 0),
      S(static_cast<std::size_t>(model.nu())),
      alpha(S.size()),
      beta(S.size()),
      nu(S.size()),
      Gq(S.size()),
      Gu(S.size()),
      IcS(S.size()),
      BcTS(S.size()),
      dtau_dq(Eigen::MatrixXd::Zero(model.nu(), model.nu())),
      dtau_du(Eigen::MatrixXd::Zero(model.nu(), model.nu())),
      M(Eigen::MatrixXd::Zero(model.nu(), model.nu())),
      llt(model.nu()),
      modelRevision(model.structureRevision()) {
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const Hinge& h = model.hinge(b);
    std::uint64_t mask = 0;
    for (int k = 0; k < h.nu(); ++k) {
      for (int l = 0; l < h.nu(); ++l) {
        if (columnFollows(h, k, l)) mask |= std::uint64_t{1} << (6 * k + l);
      }
    }
    follows[static_cast<std::size_t>(b)] = mask;
  }
}

void abaDerivatives(const MultibodyModel& model, MultibodyData& data, AbaDerivativesWorkspace& work,
                    const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& u,
                    const Eigen::Ref<const Eigen::VectorXd>& tau,
                    std::span<const SpatialForce> F_ext_B, Eigen::Ref<Eigen::MatrixXd> dudot_dq,
                    Eigen::Ref<Eigen::MatrixXd> dudot_du, Eigen::Ref<Eigen::MatrixXd> dudot_dtau) {
  constexpr const char* kWhere = "abaDerivatives";
  detail::checkData(model, data, kWhere);
  if (work.modelRevision != model.structureRevision() ||
      work.V.size() != static_cast<std::size_t>(model.bodyCount()) ||
      work.S.size() != static_cast<std::size_t>(model.nu())) {
    throw InputError(
        "abaDerivatives: the AbaDerivativesWorkspace was built for another model or before the "
        "tree was edited (expected one built from this model as it is now)");
  }
  const int n = model.nu();
  checkMatrix(dudot_dq, n, "dudot_dq");
  checkMatrix(dudot_du, n, "dudot_du");
  checkMatrix(dudot_dtau, n, "dudot_dtau");
  aba(model, data, q, u, tau, F_ext_B);  // checks q, u, tau and F_ext_B; U̇ and the frames R
  forwardPass(model, data, work, u, F_ext_B);
  backwardPass(model, work);
  assemble(model, work);
  work.llt.compute(work.M);
  if (work.llt.info() != Eigen::Success) {
    throw InputError(
        "abaDerivatives: the mass matrix is not positive definite (expected valid mass "
        "properties on every body that moves)");
  }
  inverseFromCholesky(work.llt.matrixLLT(), dudot_dtau);
  multiplyByMinusInverse(dudot_dtau, work.dtau_dq, dudot_dq);
  multiplyByMinusInverse(dudot_dtau, work.dtau_du, dudot_du);
}

}  // namespace hopsim::multibody
