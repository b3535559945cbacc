#pragma once
/// @file
/// Hinges and their subhinges: the joint between a body and its parent, its generalized
/// coordinates Q and velocities U, joint transform and motion subspace.

#include <array>
#include <cstdint>
#include <string_view>

#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::multibody {

using spatial::Matrix3;
using spatial::Matrix6;
using spatial::Vector3;
using spatial::Vector6;

/// The elementary joints hinges are made of. Each moves its outboard frame J relative to its
/// inboard frame I (J coincides with I at zero Q / identity quaternion).
enum class SubhingeType : std::uint8_t {
  /// Rotation θ (rad) about a unit axis n fixed in I (= in J). Q = [θ], U = [θ̇] (rad/s).
  /// Motion subspace in J: [n; 0]. Q̇ = U.
  Pin,
  /// Translation d (m) along a unit axis n fixed in I. Q = [d], U = [ḋ] (m/s). Motion subspace
  /// in J: [0; n]. Q̇ = U.
  Slider,
  /// Free rotation. Q = q_IJ (unit quaternion, scalar first, 4), U = ω_IJ_J (rad/s, 3).
  /// Motion subspace in J: [1; 0]. Q̇ = ½ E_body(q) ω_IJ_J.
  Ball,
  /// Free rotation and translation, rates in the child frame. Q = [q_IJ (4); p_IoJo_I (m, 3)],
  /// U = [ω_IJ_J (rad/s); v_IJo_J (m/s)] (the velocity of Jo in I, expressed in J). Motion
  /// subspace in J: the 6x6 identity. Q̇ = [½ E_body(q) ω_IJ_J; R_IJ v_IJo_J].
  Free,
  /// Free rotation and translation, rates in the parent frame. Q = [q_IJ (4); p_IoJo_I (m, 3)],
  /// U = [ω_IJ_I (rad/s); v_IJo_I (m/s)] = [ω; ṗ]. Motion subspace in J:
  /// diag(R_IJᵀ, R_IJᵀ). Q̇ = [½ E_parent(q) ω_IJ_I; v_IJo_I].
  FreeInertial,
};

/// The hinge types of DARTS/Ndarts. Each is a chain of subhinges: the inboard frame F (fixed on
/// the parent body) is moved by the first subhinge, whose outboard frame is the inboard frame
/// of the next, and the last outboard frame is M (fixed on the child body). Q and U of a hinge
/// are its subhinges' Q and U concatenated in chain order. All axes are unit vectors in the
/// inboard frame of their subhinge (for the first subhinge: in F).
enum class HingeType : std::uint8_t {
  Locked,            ///< no subhinge, no degree of freedom: M = F. nq = nu = 0.
  Pin,               ///< [Pin(n)]: nq = nu = 1.
  Slider,            ///< [Slider(n)]: nq = nu = 1.
  Cylindrical,       ///< [Slider(n), Pin(n)]: Q = [d (m); θ (rad)], nq = nu = 2.
  Ujoint,            ///< [Pin(n1), Pin(n2)], n2 in the frame after the first rotation: nq = nu = 2.
  Gimbal,            ///< [Pin(n1), Pin(n2), Pin(n3)]: intrinsic Euler angles, nq = nu = 3.
  Ball,              ///< [Ball]: nq = 4, nu = 3.
  Planar,            ///< [Slider(n1), Slider(n2)]: translation in a plane (no rotation), 2 dof.
  Translational,     ///< [Slider(n1), Slider(n2), Slider(n3)]: 3 translational dof.
  Full6Dof,          ///< [Free]: nq = 7, nu = 6, rates in the child frame M.
  Full6DofInertial,  ///< [FreeInertial]: nq = 7, nu = 6, rates in the parent frame F.
};

/// "LOCKED", "PIN", ..., "FULL6DOF_INERTIAL" (the seed's spelling).
std::string_view toString(HingeType type);
/// The hinge type named "PIN", "full6dof", ... (case-insensitive).
/// @throws InputError naming the valid names otherwise.
HingeType hingeTypeFromString(std::string_view name);

/// One subhinge of a hinge: its type, its axis (unit, in its inboard frame; unused for Ball,
/// Free and FreeInertial) and where its coordinates start within the hinge's Q and U.
struct Subhinge {
  SubhingeType type{SubhingeType::Pin};  ///< what kind of joint
  Vector3 axis{0.0, 0.0, 1.0};           ///< unit axis n in the subhinge's inboard frame
  int qOffset{0};                        ///< first index in the hinge's Q
  int uOffset{0};                        ///< first index in the hinge's U
  /// k when the axis is exactly ±e_k of the inboard frame (k = 0, 1, 2 for x, y, z), else -1:
  /// the multibody kernels then form a PIN's joint transform from two columns (Hinge's
  /// factories set it).
  int coordinateAxis{-1};
};

/// A hinge: a typed chain of at most three subhinges with its Q and U sizes. Built by the
/// static factories, which validate the axes.
class Hinge {
 public:
  /// Most subhinges in one hinge.
  static constexpr int kMaxSubhinges = 3;

  /// A LOCKED hinge (the default): M = F, no coordinates.
  Hinge() = default;
  /// LOCKED: no degree of freedom.
  static Hinge locked();
  /// PIN about `axis` (in F, normalized). @throws InputError if the axis is zero or not finite.
  static Hinge pin(const Vector3& axis);
  /// SLIDER along `axis` (in F, normalized). @throws InputError as pin.
  static Hinge slider(const Vector3& axis);
  /// CYLINDRICAL: translation then rotation along/about one `axis` (in F). Q = [d; θ].
  static Hinge cylindrical(const Vector3& axis);
  /// UJOINT: rotation θ1 about axis1 (in F), then θ2 about axis2 (in the rotated frame).
  /// @throws InputError if an axis is bad or the two are parallel.
  static Hinge ujoint(const Vector3& axis1, const Vector3& axis2);
  /// GIMBAL: three successive rotations about axis1 (in F), axis2 and axis3 (each in the frame
  /// after the previous rotations): R_FM = R(n1, θ1) R(n2, θ2) R(n3, θ3), the intrinsic Euler
  /// sequence of the spatial library for coordinate axes. Default: x, y, z (intrinsic XYZ).
  /// @throws InputError if an axis is bad or two successive axes are parallel.
  static Hinge gimbal(const Vector3& axis1 = Vector3::UnitX(),
                      const Vector3& axis2 = Vector3::UnitY(),
                      const Vector3& axis3 = Vector3::UnitZ());
  /// BALL: free rotation as a quaternion q_FM; U = ω_FM_M.
  static Hinge ball();
  /// PLANAR: translations along axis1 then axis2 (both in F; no rotation). Default x, y.
  /// @throws InputError if an axis is bad or the two are parallel.
  static Hinge planar(const Vector3& axis1 = Vector3::UnitX(),
                      const Vector3& axis2 = Vector3::UnitY());
  /// TRANSLATIONAL: translations along axis1, axis2, axis3 (in F). Default x, y, z.
  /// @throws InputError if an axis is bad or the three are linearly dependent.
  static Hinge translational(const Vector3& axis1 = Vector3::UnitX(),
                             const Vector3& axis2 = Vector3::UnitY(),
                             const Vector3& axis3 = Vector3::UnitZ());
  /// FULL6DOF: Q = [q_FM; p_FoMo_F], U = [ω_FM_M; v_FMo_M] (rates in the child frame).
  static Hinge full6Dof();
  /// FULL6DOF_INERTIAL: Q = [q_FM; p_FoMo_F], U = [ω_FM_F; v_FMo_F] (rates in the parent F).
  static Hinge full6DofInertial();

  /// The hinge type.
  HingeType type() const { return type_; }
  /// Number of generalized coordinates Q (0..7).
  int nq() const { return nq_; }
  /// Number of generalized velocities U (0..6), the degrees of freedom.
  int nu() const { return nu_; }
  /// Number of subhinges (0..3).
  int subhingeCount() const { return count_; }
  /// Subhinge k (0 <= k < subhingeCount()).
  const Subhinge& subhinge(int k) const { return subhinges_[static_cast<std::size_t>(k)]; }
  /// Number of U entries of subhinge k (1, 3 or 6).
  int subhingeNu(int k) const {
    return (k + 1 < count_ ? subhinge(k + 1).uOffset : nu_) - subhinge(k).uOffset;
  }
  /// Number of Q entries of subhinge k (1, 4 or 7).
  int subhingeNq(int k) const {
    return (k + 1 < count_ ? subhinge(k + 1).qOffset : nq_) - subhinge(k).qOffset;
  }
  /// The neutral Q of this hinge (zero angles and offsets, identity quaternions): M = F.
  /// Writes nq() values to q.
  void neutralConfiguration(double* q) const;

 private:
  Hinge(HingeType type, std::initializer_list<Subhinge> subhinges);

  HingeType type_{HingeType::Locked};
  std::array<Subhinge, kMaxSubhinges> subhinges_{};
  int count_{0};
  int nq_{0};
  int nu_{0};
};

}  // namespace hopsim::multibody
