#pragma once
// Private kernels shared by the multibody algorithms: the joint transform, motion subspace and
// velocity-product terms of each hinge, by a switch on the subhinge type (no virtual call), and
// the size checks of the algorithms' entry points. Not installed.

#include <Eigen/Core>
#include <array>
#include <cmath>
#include <span>
#include <string>
#include <string_view>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"

namespace hopsim::multibody::detail {

// R for a rotation by `angle` about the unit axis n (Rodrigues): c 1 + s [n×] + (1 - c) n nᵀ.
inline Matrix3 rotationAboutUnitAxis(const Vector3& n, double angle) {
  const double c = std::cos(angle), s = std::sin(angle), t = 1.0 - c;
  const double x = n.x(), y = n.y(), z = n.z();
  Matrix3 R;
  R << t * x * x + c, t * x * y - s * z, t * x * z + s * y,  //
      t * x * y + s * z, t * y * y + c, t * y * z - s * x,   //
      t * x * z - s * y, t * y * z + s * x, t * z * z + c;
  return R;
}

// R_IJ from a stored (possibly slightly non-unit) quaternion: normalized before use so that
// the joint transform is always a rotation.
inline Matrix3 rotationFromStoredQuaternion(const double* q) {
  spatial::Quaternion e(q[0], q[1], q[2], q[3]);
  e /= e.norm();
  return spatial::rotationFromQuaternion(e);
}

// Subhinge s at coordinates q: its transform X_IJ and its motion subspace columns in J,
// written to S starting at column s.uOffset (other columns untouched).
inline void subhingeKinematics(const Subhinge& s, const double* q, RigidTransform& X_IJ,
                               Matrix6& S) {
  const int c0 = s.uOffset;
  switch (s.type) {
    case SubhingeType::Pin:
      X_IJ = RigidTransform(rotationAboutUnitAxis(s.axis, q[0]), Vector3::Zero());
      S.col(c0) << s.axis, Vector3::Zero();
      break;
    case SubhingeType::Slider:
      X_IJ = RigidTransform(Matrix3::Identity(), Vector3(s.axis * q[0]));
      S.col(c0) << Vector3::Zero(), s.axis;
      break;
    case SubhingeType::Ball:
      X_IJ = RigidTransform(rotationFromStoredQuaternion(q), Vector3::Zero());
      S.block<6, 3>(0, c0).setZero();
      S.block<3, 3>(0, c0).setIdentity();
      break;
    case SubhingeType::Free:
      X_IJ = RigidTransform(rotationFromStoredQuaternion(q), Vector3(q[4], q[5], q[6]));
      S.block<6, 6>(0, c0).setIdentity();
      break;
    case SubhingeType::FreeInertial: {
      X_IJ = RigidTransform(rotationFromStoredQuaternion(q), Vector3(q[4], q[5], q[6]));
      const Matrix3 Rt = X_IJ.rotation().transpose();
      S.block<6, 6>(0, c0).setZero();
      S.block<3, 3>(0, c0) = Rt;
      S.block<3, 3>(3, c0 + 3) = Rt;
      break;
    }
  }
}

// The velocity-product term Ṡ u of subhinge s (apparent derivative of its motion subspace in
// J), given its own relative velocity V_IJ_J = S u. Only FreeInertial has one: S =
// diag(Rᵀ, Rᵀ) and d(Rᵀ)/dt = -[ω_J×] Rᵀ give [-ω × ω; -ω × v] = [0; -ω × v].
inline SpatialMotion subhingeBias(const Subhinge& s, const SpatialMotion& V_IJ_J) {
  if (s.type != SubhingeType::FreeInertial) return SpatialMotion();
  const Vector3 w = V_IJ_J.rotational();
  const Vector3 v = V_IJ_J.translational();
  return SpatialMotion(Vector3::Zero(), Vector3(-w.cross(v)));
}

// Loads the hinge's U into a zero-padded 6-vector.
inline Vector6 paddedRates(const Hinge& h, const double* u) {
  Vector6 u6 = Vector6::Zero();
  for (int k = 0; k < h.nu(); ++k) u6[k] = u[k];
  return u6;
}

// Hinge h at (q, u): X_FM, its motion subspace S_M in M and, when u is not
// null, the relative velocity V_J = V_FM_M = S_M u and the velocity-product acceleration c_J
// of M relative to F (about Mo, in M). Only S_M's first nu columns are written: the caller
// keeps the others zero (MultibodyData::S_B is built zero and they are never written). Chains are
// treated as massless intermediate frames: V_k = ᵏX_{k-1} V_{k-1} + S_k u_k, c_k = ᵏX_{k-1} c_{k-1}
// + Ṡ_k u_k + V_k × S_k u_k.
inline void hingeKinematics(const Hinge& h, const double* q, const double* u, RigidTransform& X_FM,
                            Matrix6& S_M, SpatialMotion* V_J, SpatialMotion* c_J) {
  const int n = h.subhingeCount();
  if (n == 0) {
    X_FM = RigidTransform();
    if (u != nullptr) {
      *V_J = SpatialMotion();
      *c_J = SpatialMotion();
    }
    return;
  }
  if (n == 1) {
    const Subhinge& s = h.subhinge(0);
    subhingeKinematics(s, q, X_FM, S_M);
    if (u != nullptr) {
      *V_J = h.nu() == 1 ? SpatialMotion(Vector6(S_M.col(0) * u[0]))
                         : SpatialMotion(Vector6(S_M * paddedRates(h, u)));
      *c_J = subhingeBias(s, *V_J);
    }
    return;
  }
  std::array<RigidTransform, Hinge::kMaxSubhinges> X;
  Matrix6 S_J = Matrix6::Zero();  // each subhinge's columns in its own outboard frame
  for (int k = 0; k < n; ++k) {
    const Subhinge& s = h.subhinge(k);
    subhingeKinematics(s, q + s.qOffset, X[static_cast<std::size_t>(k)], S_J);
  }
  X_FM = X[0];
  for (int k = 1; k < n; ++k) X_FM = X_FM * X[static_cast<std::size_t>(k)];
  if (u != nullptr) {
    SpatialMotion V, c;
    const Vector6 u6 = paddedRates(h, u);
    for (int k = 0; k < n; ++k) {
      const Subhinge& s = h.subhinge(k);
      const int nk = h.subhingeNu(k);
      const SpatialMotion Vk(Vector6(S_J.middleCols(s.uOffset, nk) * u6.segment(s.uOffset, nk)));
      const SpatialTransform T(X[static_cast<std::size_t>(k)]);
      V = T.inverseApply(V) + Vk;
      c = T.inverseApply(c) + subhingeBias(s, Vk) + spatial::crossMotion(V, Vk);
    }
    *V_J = V;
    *c_J = c;
  }
  // Columns of subhinge k re-expressed from its outboard frame J_k into M.
  RigidTransform X_MJ;  // identity for the last subhinge
  for (int k = n - 1; k >= 0; --k) {
    const Subhinge& s = h.subhinge(k);
    const int nk = h.subhingeNu(k);
    const SpatialTransform T(X_MJ);
    for (int j = s.uOffset; j < s.uOffset + nk; ++j) {
      S_M.col(j) = T.apply(SpatialMotion(Vector6(S_J.col(j)))).vector();
    }
    X_MJ = X_MJ * X[static_cast<std::size_t>(k)].inverse();
  }
}

// X_PM = X_PF R(e_k, θ), given c = cos θ and s = sin θ, for a PIN about the coordinate axis e_k
// of F: R(e_k, θ) keeps column k and turns e_i into c e_i + s e_j and e_j into c e_j - s e_i
// ((i, j, k) cyclic), so R_PM's columns are R_PF's combined pairwise: 12 products instead of
// the Rodrigues matrix and a 3x3 product.
template <int k>
void coordinatePinPose(const RigidTransform& X_PF, double c, double s, RigidTransform& X_PM) {
  constexpr int i = (k + 1) % 3, j = (k + 2) % 3;
  const Matrix3& R_PF = X_PF.rotation();
  Matrix3 R_PM;
  R_PM.col(i) = c * R_PF.col(i) + s * R_PF.col(j);
  R_PM.col(j) = c * R_PF.col(j) - s * R_PF.col(i);
  R_PM.col(k) = R_PF.col(k);
  X_PM = RigidTransform(R_PM, X_PF.translation());
}
// Body b's PIN about ±e_k of F (its Subhinge::coordinateAxis k) at (q, u), system vectors: X_PM
// (about -e_k it turns by -θ) into data.X_PB, its column [n; 0] of S_M into data.S_B and, when u
// is not null, V_J = [n u; 0] and c_J = 0, about Mo in M.
template <int k>
void coordinatePinJointKinematics(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                                  const double* q, const double* u, SpatialMotion* V_J,
                                  SpatialMotion* c_J) {
  const auto i = static_cast<std::size_t>(b);
  const Subhinge& s = model.hinge(b).subhinge(0);
  const double angle = q[model.qStart(b)];
  coordinatePinPose<k>(model.X_PF(b), std::cos(angle), s.axis[k] * std::sin(angle), data.X_PB[i]);
  data.S_B[i].col(0) << s.axis, Vector3::Zero();
  if (u != nullptr) {
    *V_J = SpatialMotion(Vector3(s.axis * u[model.uStart(b)]), Vector3::Zero());
    *c_J = SpatialMotion();
  }
}

// Body b's joint at (q, u) (system vectors): sets X_PB and S_B in data; when u is not null
// also returns the hinge's relative velocity and velocity-product term, about Bo in B.
inline void bodyJointKinematics(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                                const double* q, const double* u, SpatialMotion* V_J_B,
                                SpatialMotion* c_J_B) {
  const Hinge& h = model.hinge(b);
  const auto i = static_cast<std::size_t>(b);
  Matrix6& S = data.S_B[i];
  RigidTransform& X_PB = data.X_PB[i];
  // X_PM = X_PF X_FM first; a PIN about a coordinate axis (the common joint) more cheaply.
  if (h.type() == HingeType::Pin && h.subhinge(0).coordinateAxis >= 0) {
    switch (h.subhinge(0).coordinateAxis) {
      case 0:
        coordinatePinJointKinematics<0>(model, data, b, q, u, V_J_B, c_J_B);
        break;
      case 1:
        coordinatePinJointKinematics<1>(model, data, b, q, u, V_J_B, c_J_B);
        break;
      default:
        coordinatePinJointKinematics<2>(model, data, b, q, u, V_J_B, c_J_B);
    }
  } else {
    RigidTransform X_FM;
    const double* ub = u != nullptr ? u + model.uStart(b) : nullptr;
    hingeKinematics(h, q + model.qStart(b), ub, X_FM, S, V_J_B, c_J_B);
    X_PB = model.X_PF(b) * X_FM;
  }
  if (model.outboardIsBodyFrame(b)) return;
  X_PB = X_PB * model.X_MB(b);
  const SpatialTransform T_BM(model.X_BM(b));
  for (int j = 0; j < h.nu(); ++j) S.col(j) = T_BM.apply(SpatialMotion(Vector6(S.col(j)))).vector();
  if (u != nullptr) {
    *V_J_B = T_BM.apply(*V_J_B);
    *c_J_B = T_BM.apply(*c_J_B);
  }
}

// Two motions about Po in P, moved by the pose X_PB to about Bo in B: SpatialTransform's
// inverseApply on both at once, as one 4x3 product instead of two 2x3 ones, read straight from
// the stored pose (RNEA's velocity and acceleration: 17 % of RNEA's time, measured).
inline void inverseApplyToBoth(const RigidTransform& X_PB, const SpatialMotion& V_P,
                               const SpatialMotion& A_P, SpatialMotion& V_B, SpatialMotion& A_B) {
  Eigen::Matrix<double, 3, 4> motions;
  motions.col(0) = V_P.rotational();
  motions.col(1) = V_P.translational() - X_PB.translation().cross(motions.col(0));
  motions.col(2) = A_P.rotational();
  motions.col(3) = A_P.translational() - X_PB.translation().cross(motions.col(2));
  const Eigen::Matrix<double, 4, 3> moved = motions.transpose() * X_PB.rotation();  // (Rᵀ M)ᵀ
  V_B = SpatialMotion(moved.row(0).transpose(), moved.row(1).transpose());
  A_B = SpatialMotion(moved.row(2).transpose(), moved.row(3).transpose());
}

// X_WB = X_WP X_PB, the parent's set first: a link of the chain of world poses.
inline void composeWorldPose(const MultibodyModel& model, MultibodyData& data, BodyIndex b) {
  const auto i = static_cast<std::size_t>(b);
  data.X_WB[i] = data.X_WB[static_cast<std::size_t>(model.parent(b))] * data.X_PB[i];
}

// Whether body b's hinge is a PIN whose outboard frame M is the body frame: then S_B = [n; 0],
// V_J = [n u; 0] and c_J = 0, which the kernels below use to skip zero terms. ABA has it in its
// HingeKernel; forwardKinematics tests it here.
inline bool isPinInBodyFrame(const MultibodyModel& model, BodyIndex b) {
  return model.hinge(b).type() == HingeType::Pin && model.outboardIsBodyFrame(b);
}

// Body b's place in the outward pass of forward kinematics with velocities (its parent done,
// its hinge's relative velocity V_J and velocity product c_J given): X_WB, the body velocity
// V_WB_B = ᴮX_P V_P + V_J and its velocity-product acceleration c_B = c_J + V x V_J. Returns
// V_WB_B. With A_B (RNEA), also moves the parent's data.A_WB_B to B into *A_B, in the same
// product as the velocity. Without it (the sweeps of ABA and forwardKinematics), c_B of a PIN in
// the body frame (pinInBodyFrame, isPinInBodyFrame) is [ω × ω_J; v × ω_J], one cross product and
// the sums of zeros fewer; RNEA's one sweep measured 2 % slower with that test in it, and keeps
// the general form.
inline SpatialMotion composeBodyKinematics(const MultibodyModel& model, MultibodyData& data,
                                           BodyIndex b, const SpatialMotion& V_J,
                                           const SpatialMotion& c_J, bool pinInBodyFrame,
                                           SpatialMotion* A_B = nullptr) {
  const auto i = static_cast<std::size_t>(b);
  const auto p = static_cast<std::size_t>(model.parent(b));
  composeWorldPose(model, data, b);
  SpatialMotion V;
  if (A_B != nullptr) {
    inverseApplyToBoth(data.X_PB[i], data.V_WB_B[p], data.A_WB_B[p], V, *A_B);
  } else {
    V = SpatialTransform(data.X_PB[i]).inverseApply(data.V_WB_B[p]);
  }
  V += V_J;
  data.V_WB_B[i] = V;
  if (A_B == nullptr && pinInBodyFrame) {
    const Vector3 w_J = V_J.rotational();
    data.c_B[i] =
        SpatialMotion(Vector3(V.rotational().cross(w_J)), Vector3(V.translational().cross(w_J)));
  } else {
    data.c_B[i] = c_J + spatial::crossMotion(V, V_J);
  }
  return V;
}

// The outward pass for body b in one step: its joint, then composeBodyKinematics (RNEA).
inline SpatialMotion propagateBodyVelocity(const MultibodyModel& model, MultibodyData& data,
                                           BodyIndex b, const double* q, const double* u,
                                           SpatialMotion* A_B = nullptr) {
  SpatialMotion V_J, c_J;
  bodyJointKinematics(model, data, b, q, u, &V_J, &c_J);
  return composeBodyKinematics(model, data, b, V_J, c_J, false, A_B);
}

// The same outward pass in two sweeps over the bodies (forwardKinematics, ABA). The first
// (startBodyKinematics, any order) is each hinge alone: X_PB, S_B, and the hinge's V_J and c_J,
// left in data.V_WB_B and data.c_B. No joint depends on another, so the processor overlaps them
// (their sincos above all) instead of waiting on each at a link of the chains of poses and
// velocities; the second (finishBodyKinematics, parents first) is those chains alone. Two sweeps
// took 3 to 8 % off ABA and 17 to 20 % off forwardKinematics (docs/performance.md, "Why the kernels
// have their form"); RNEA's smaller loop body overlaps consecutive bodies already, and it stays one
// sweep (two measured no faster).
inline void startBodyKinematics(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                                const double* q, const double* u) {
  const auto i = static_cast<std::size_t>(b);
  bodyJointKinematics(model, data, b, q, u, &data.V_WB_B[i], &data.c_B[i]);
}
inline void finishBodyKinematics(const MultibodyModel& model, MultibodyData& data, BodyIndex b,
                                 bool pinInBodyFrame) {
  const auto i = static_cast<std::size_t>(b);
  const SpatialMotion V_J = data.V_WB_B[i];  // copies: composeBodyKinematics overwrites both
  const SpatialMotion c_J = data.c_B[i];
  composeBodyKinematics(model, data, b, V_J, c_J, pinInBodyFrame);
}

// Sets body b's pose X_RB in its tree's frame R (MultibodyData: the body frame of b's base),
// data.X_PB set: the identity for a base, else X_RP X_PB, composed from the parent (visited
// first), never through world poses, which far from Wo would lose the digits R is there to keep.
inline void updateReferencePose(const MultibodyModel& model, MultibodyData& data, BodyIndex b) {
  const auto i = static_cast<std::size_t>(b);
  const BodyIndex parent = model.parent(b);
  data.X_RB[i] = parent == kWorldBody ? RigidTransform()
                                      : data.X_RB[static_cast<std::size_t>(parent)] * data.X_PB[i];
}
// The world's fictitious acceleration -g (gravity, MultibodyModel::gravity) about the origin
// of base b's frame, in it: the parent acceleration of a base in R.
inline SpatialMotion worldAccelerationInBase(const MultibodyModel& model, const MultibodyData& data,
                                             BodyIndex b) {
  return SpatialMotion(
      Vector3::Zero(),
      Vector3(data.X_WB[static_cast<std::size_t>(b)].inverseApplyToVector(-model.gravity())));
}

// Checks that data was built for model and a vector has the expected size.
inline void checkData(const MultibodyModel& model, const MultibodyData& data,
                      std::string_view where) {
  if (data.bodyCount != model.bodyCount() || data.nq != model.nq() || data.nu != model.nu()) {
    throw InputError(std::string(where) + ": the MultibodyData was built for " +
                     std::to_string(data.bodyCount) + " bodies (nq " + std::to_string(data.nq) +
                     ", nu " + std::to_string(data.nu) + ") but the model has " +
                     std::to_string(model.bodyCount()) + " (nq " + std::to_string(model.nq()) +
                     ", nu " + std::to_string(model.nu()) + "); rebuild the data");
  }
  if (data.modelRevision != model.structureRevision()) {
    throw InputError(std::string(where) +
                     ": the MultibodyData was built before the model's tree was last changed "
                     "(addBody, removeBody, attachSubtree); rebuild the data");
  }
}
inline void checkSize(Eigen::Index size, int expected, std::string_view where,
                      std::string_view what) {
  if (size != expected) {
    throw InputError(std::string(where) + ": " + std::string(what) + " has " +
                     std::to_string(size) + " entries (expected " + std::to_string(expected) + ")");
  }
}
inline void checkForces(std::span<const SpatialForce> F, const MultibodyModel& model,
                        std::string_view where) {
  if (!F.empty() && static_cast<int>(F.size()) != model.bodyCount()) {
    throw InputError(std::string(where) + ": external forces given for " +
                     std::to_string(F.size()) + " bodies (expected none or " +
                     std::to_string(model.bodyCount()) + ", one per body including the world)");
  }
}

}  // namespace hopsim::multibody::detail
