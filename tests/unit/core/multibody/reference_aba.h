#pragma once
// A plain reference articulated-body algorithm, the library's check: Featherstone's ABA
// ("Rigid Body Dynamics Algorithms", 2008, table 7.1) written from the textbook, sharing no
// kernel with core/multibody. Plücker 6x6 transforms and spatial inertias formed explicitly,
// general motion subspaces S (6 x n, any n from 0 to 6), every body in its own frame, no fast
// path. A hinge of several subhinges is a chain of joints joined by massless frames (RBDA 4.4);
// a subhinge's motion subspace, joint transform and velocity product Ṡ u come from the
// definitions in hinge.h, derived here again. Spatial vectors are [angular; linear] as in the
// library. Slow (allocates per call): for tests only.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <span>
#include <vector>

#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody::test {

using Matrix6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;

inline Matrix3 skew(const Vector3& v) {
  Matrix3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

// ᶜX_p, the motion transform from frame p to frame c, where c sits at pose (R, r) in p (its
// origin at r, its axes the columns of R): [Rᵀ 0; -Rᵀ [r×]  Rᵀ]. Forces move by its inverse
// transpose: ᵖX*_c = ᶜX_pᵀ.
inline Matrix6 motionTransform(const Matrix3& R, const Vector3& r) {
  Matrix6 X = Matrix6::Zero();
  X.topLeftCorner<3, 3>() = R.transpose();
  X.bottomRightCorner<3, 3>() = R.transpose();
  X.bottomLeftCorner<3, 3>() = -R.transpose() * skew(r);
  return X;
}

// v ×ₘ (the spatial cross product of motions) and v ×* (of forces) as 6x6 matrices.
inline Matrix6 motionCross(const Vector6& v) {
  Matrix6 m = Matrix6::Zero();
  m.topLeftCorner<3, 3>() = skew(v.head<3>());
  m.bottomRightCorner<3, 3>() = skew(v.head<3>());
  m.bottomLeftCorner<3, 3>() = skew(v.tail<3>());
  return m;
}
inline Matrix6 forceCross(const Vector6& v) { return -motionCross(v).transpose(); }

// The spatial inertia about the origin of a frame of a body of mass m, CM at c and inertia I_c
// about the CM (all in that frame): [I_c + m c̃ c̃ᵀ, m c̃; m c̃ᵀ, m 1].
inline Matrix6 spatialInertia(double m, const Vector3& c, const Matrix3& I_c) {
  const Matrix3 C = skew(c);
  Matrix6 I;
  I << I_c + m * C * C.transpose(), m * C, m * C.transpose(), m * Matrix3::Identity();
  return I;
}

// R(q) of a unit quaternion q = [w; x; y; z] (scalar first), normalized first as the library
// does with a stored quaternion.
inline Matrix3 quaternionRotation(const double* q) {
  Eigen::Vector4d e(q[0], q[1], q[2], q[3]);
  e.normalize();
  const double w = e[0];
  const Vector3 v = e.tail<3>();
  return (w * w - v.dot(v)) * Matrix3::Identity() + 2.0 * v * v.transpose() + 2.0 * w * skew(v);
}

// One joint of the reference tree: a subhinge, or a LOCKED hinge (no column).
struct ReferenceJoint {
  int parent{-1};   // index of the parent joint's frame, -1 for the world
  Matrix3 R_fixed;  // the subhinge's inboard frame I in the parent joint's frame
  Vector3 r_fixed;  //   (R, origin)
  SubhingeType type{SubhingeType::Pin};
  bool locked{false};
  Vector3 axis{Vector3::UnitZ()};
  int q0{0}, u0{0}, nu{0};
  Matrix6 inertia{Matrix6::Zero()};  // about the joint frame's origin; zero between subhinges
  BodyIndex body{0};                 // the body whose last joint this is, else 0
};

// The joints of model's tree in body order, each body's subhinges in chain order; the frame of a
// body's last joint is its outboard frame M, where its mass properties are moved.
inline std::vector<ReferenceJoint> referenceJoints(const MultibodyModel& model) {
  std::vector<ReferenceJoint> joints;
  std::vector<int> lastJoint(static_cast<std::size_t>(model.bodyCount()), -1);
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const Hinge& h = model.hinge(b);
    const BodyIndex p = model.parent(b);
    // F in the frame of the parent's last joint (its M): X_MP X_PF; in W for a base.
    RigidTransform X = model.X_PF(b);
    if (p != kWorldBody) X = model.X_MB(p) * X;
    int parent = lastJoint[static_cast<std::size_t>(p)];
    const int count = std::max(1, h.subhingeCount());
    for (int k = 0; k < count; ++k) {
      ReferenceJoint j;
      j.parent = parent;
      j.R_fixed = k == 0 ? X.rotation() : Matrix3::Identity();
      j.r_fixed = k == 0 ? X.translation() : Vector3::Zero();
      j.locked = h.subhingeCount() == 0;
      if (!j.locked) {
        const Subhinge& s = h.subhinge(k);
        j.type = s.type;
        j.axis = s.axis;
        j.q0 = model.qStart(b) + s.qOffset;
        j.u0 = model.uStart(b) + s.uOffset;
        j.nu = h.subhingeNu(k);
      }
      parent = static_cast<int>(joints.size());
      joints.push_back(j);
    }
    // The body's mass properties moved from about Bo in B to about Mo in M.
    ReferenceJoint& last = joints.back();
    const SpatialInertia& M = model.massProperties(b);
    const Matrix3 R_BM = model.X_BM(b).rotation();
    const Vector3 c_M = R_BM.transpose() * (M.comPosition() - model.X_BM(b).translation());
    last.inertia =
        spatialInertia(M.mass(), c_M, R_BM.transpose() * M.rotationalInertiaAboutCm() * R_BM);
    last.body = b;
    lastJoint[static_cast<std::size_t>(b)] = parent;
  }
  return joints;
}

// Joint j at (q, u): the pose (R, r) of its outboard frame J in its inboard frame I, its motion
// subspace S in J, and its velocity product Ṡ u (about Jo in J), from hinge.h's definitions.
inline void jointModel(const ReferenceJoint& j, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                       Matrix3& R, Vector3& r, Matrix6X& S, Vector6& Sdot_u) {
  R.setIdentity();
  r.setZero();
  S = Matrix6X::Zero(6, j.nu);
  Sdot_u.setZero();
  if (j.locked) return;
  const double* qj = q.data() + j.q0;
  switch (j.type) {
    case SubhingeType::Pin:  // rotation about n by θ: R = exp([n×] θ)
      R = Eigen::AngleAxisd(qj[0], j.axis).toRotationMatrix();
      S.col(0) << j.axis, Vector3::Zero();
      break;
    case SubhingeType::Slider:
      r = j.axis * qj[0];
      S.col(0) << Vector3::Zero(), j.axis;
      break;
    case SubhingeType::Ball:
      R = quaternionRotation(qj);
      S.topRows<3>().setIdentity();
      break;
    case SubhingeType::Free:  // U = [ω in J; velocity of Jo in I, in J]
      R = quaternionRotation(qj);
      r = Vector3(qj[4], qj[5], qj[6]);
      S.setIdentity();
      break;
    case SubhingeType::FreeInertial: {  // U = [ω in I; ṙ in I]: S = diag(Rᵀ, Rᵀ)
      R = quaternionRotation(qj);
      r = Vector3(qj[4], qj[5], qj[6]);
      S.topLeftCorner<3, 3>() = R.transpose();
      S.bottomRightCorner<3, 3>() = R.transpose();
      // d(Rᵀ)/dt = -[ω_J×] Rᵀ with ω_J = Rᵀ ω: Ṡ u = [-ω_J × ω_J; -ω_J × Rᵀ ṙ] = [0; -ω_J × v_J].
      const Vector6 V = S * u.segment<6>(j.u0);
      Sdot_u << Vector3::Zero(), -V.head<3>().cross(V.tail<3>());
      break;
    }
  }
}

// U̇ = FD(q, u, τ, F_ext) by Featherstone's three passes over the joints, gravity g as the
// world's acceleration -g. F_ext_B: empty or one force per body about Bo in B.
inline Eigen::VectorXd referenceAba(const MultibodyModel& model, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& u, const Eigen::VectorXd& tau,
                                    std::span<const SpatialForce> F_ext_B = {}) {
  const std::vector<ReferenceJoint> joints = referenceJoints(model);
  const std::size_t n = joints.size();
  std::vector<Matrix6> X(n), IA(n);  // X[i]: ⁱX_parent
  std::vector<Matrix6X> S(n), U(n);
  std::vector<Eigen::MatrixXd> Dinv(n);
  std::vector<Vector6> v(n), c(n), pA(n), a(n);
  std::vector<Eigen::VectorXd> ueps(n);
  Eigen::VectorXd udot = Eigen::VectorXd::Zero(model.nu());
  for (std::size_t i = 0; i < n; ++i) {  // pass 1: velocities, velocity products, bias forces
    const ReferenceJoint& j = joints[i];
    Matrix3 R;
    Vector3 r;
    Vector6 Sdot_u;
    jointModel(j, q, u, R, r, S[i], Sdot_u);
    // The joint frame J in the parent's frame: the fixed pose of I, then the joint's.
    X[i] = motionTransform(j.R_fixed * R, j.r_fixed + j.R_fixed * r);
    const Vector6 vJ = S[i] * u.segment(j.u0, j.nu);
    const Vector6 vParent = j.parent < 0 ? Vector6::Zero() : v[static_cast<std::size_t>(j.parent)];
    v[i] = X[i] * vParent + vJ;
    c[i] = Sdot_u + motionCross(v[i]) * vJ;
    IA[i] = j.inertia;
    pA[i] = forceCross(v[i]) * j.inertia * v[i];
    if (!F_ext_B.empty() && j.body != 0) {  // about Bo in B, moved to about Mo in M
      const SpatialForce& F = F_ext_B[static_cast<std::size_t>(j.body)];
      const RigidTransform& X_BM = model.X_BM(j.body);
      const Matrix6 X_MB = motionTransform(X_BM.rotation(), X_BM.translation());
      pA[i] -= X_MB.inverse().transpose() * F.vector();
    }
  }
  for (std::size_t i = n; i-- > 0;) {  // pass 2: articulated inertias and bias forces
    const ReferenceJoint& j = joints[i];
    U[i] = IA[i] * S[i];
    const Eigen::MatrixXd D = S[i].transpose() * U[i];
    Dinv[i] = j.nu == 0 ? Eigen::MatrixXd(0, 0)
                        : Eigen::MatrixXd(D.llt().solve(Eigen::MatrixXd::Identity(j.nu, j.nu)));
    ueps[i] = tau.segment(j.u0, j.nu) - S[i].transpose() * pA[i];
    if (j.parent < 0) continue;
    const Matrix6 Ia = IA[i] - U[i] * Dinv[i] * U[i].transpose();
    const Vector6 pa = pA[i] + Ia * c[i] + U[i] * Dinv[i] * ueps[i];
    const auto p = static_cast<std::size_t>(j.parent);
    IA[p] += X[i].transpose() * Ia * X[i];
    pA[p] += X[i].transpose() * pa;
  }
  Vector6 a0;
  a0 << Vector3::Zero(), -model.gravity();
  for (std::size_t i = 0; i < n; ++i) {  // pass 3: accelerations
    const ReferenceJoint& j = joints[i];
    const Vector6 aParent = j.parent < 0 ? a0 : a[static_cast<std::size_t>(j.parent)];
    const Vector6 aPrime = X[i] * aParent + c[i];
    const Eigen::VectorXd qdd = Dinv[i] * (ueps[i] - U[i].transpose() * aPrime);
    udot.segment(j.u0, j.nu) = qdd;
    a[i] = aPrime + S[i] * qdd;
  }
  return udot;
}

}  // namespace hopsim::multibody::test
