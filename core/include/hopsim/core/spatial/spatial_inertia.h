#pragma once
/// @file
/// SpatialInertia: the mass properties of a rigid body about a frame origin.

#include <string_view>

#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/core/spatial/rotational_inertia.h"
#include "hopsim/core/spatial/spatial_transform.h"
#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::spatial {

/// The spatial inertia M_BBo_B of a rigid body about the origin Bo of a frame B, expressed in
/// B, stored as its mass m (kg), its CM position c = p_BoBcm_B (m) and its rotational inertia
/// about the CM I_Bcm_B (kg·m², the positive-definite tensor). As a 6x6 matrix acting on
/// [ω; v_Bo] it is [[I_Bcm + m c̃c̃ᵀ, m c̃], [m c̃ᵀ, m 1]], and M V is the spatial momentum
/// [h_Bo; m v_Bcm] about Bo.
class SpatialInertia {
 public:
  /// The zero inertia (no mass): the neutral element of +, for accumulating composites.
  SpatialInertia() : m_(0.0), c_(Vector3::Zero()), Icm_(Matrix3::Zero()) {}
  /// The zero inertia.
  static SpatialInertia Zero() { return SpatialInertia(); }

  /// A body of `mass` (kg) with its CM at p_BoBcm_B (m) and inertia I_Bcm_B (kg·m²) about the
  /// CM in B's axes. @throws InputError naming `what` unless mass is finite and positive, the
  /// CM finite and I_Bcm_B a valid inertia (checkRotationalInertia).
  static SpatialInertia fromCmInertia(double mass, const Vector3& p_BoBcm_B, const Matrix3& I_Bcm_B,
                                      std::string_view what = "spatial inertia");
  /// A body of `mass` (kg) with its CM at p_BoBcm_B (m) and inertia I_BBo_B (kg·m²) about the
  /// frame origin Bo (the seed's `inertia` parameter); I_Bcm = I_BBo + m c̃c̃.
  /// @throws InputError as fromCmInertia, also when I_BBo_B is too small for the CM offset.
  static SpatialInertia fromOriginInertia(double mass, const Vector3& p_BoBcm_B,
                                          const Matrix3& I_BBo_B,
                                          std::string_view what = "spatial inertia");
  /// A point mass (kg) at p_BoQ_B (m). @throws InputError unless mass is finite and positive.
  static SpatialInertia pointMass(double mass, const Vector3& p_BoQ_B,
                                  std::string_view what = "spatial inertia");
  /// Same members as fromCmInertia, unchecked: for values computed from valid inertias.
  static SpatialInertia fromCmInertiaUnchecked(double mass, const Vector3& p_BoBcm_B,
                                               const Matrix3& I_Bcm_B) {
    return SpatialInertia(mass, p_BoBcm_B, I_Bcm_B);
  }

  /// Mass m (kg).
  double mass() const { return m_; }
  /// CM position p_BoBcm_B (m).
  const Vector3& comPosition() const { return c_; }
  /// First mass moment m p_BoBcm_B (kg·m).
  Vector3 firstMoment() const { return m_ * c_; }
  /// Rotational inertia about the CM in B's axes, I_Bcm_B (kg·m²).
  const Matrix3& rotationalInertiaAboutCm() const { return Icm_; }
  /// Rotational inertia about Bo in B's axes, I_BBo_B = I_Bcm_B - m c̃c̃ (kg·m²).
  Matrix3 rotationalInertiaAboutOrigin() const { return shiftFromCm(Icm_, m_, c_); }

  /// The 6x6 matrix [[I_BBo_B, m c̃], [-m c̃, m 1]] acting on [ω; v_Bo].
  Matrix6 matrix() const {
    Matrix6 M;
    writeMatrix(M);
    return M;
  }
  /// matrix() written into M in place (the articulated-body recursion forms one per body per
  /// call, straight into its workspace). Entry by entry: I_Bo = I_Bcm + m (|c|² 1 - c cᵀ)
  /// from the upper triangle of I_Bcm, so the result is exactly symmetric.
  void writeMatrix(Matrix6& M) const {
    const Vector3 mc = m_ * c_;
    M(0, 0) = Icm_(0, 0) + mc.y() * c_.y() + mc.z() * c_.z();
    M(1, 1) = Icm_(1, 1) + mc.x() * c_.x() + mc.z() * c_.z();
    M(2, 2) = Icm_(2, 2) + mc.x() * c_.x() + mc.y() * c_.y();
    M(0, 1) = M(1, 0) = Icm_(0, 1) - mc.x() * c_.y();
    M(0, 2) = M(2, 0) = Icm_(0, 2) - mc.x() * c_.z();
    M(1, 2) = M(2, 1) = Icm_(1, 2) - mc.y() * c_.z();
    M.topRightCorner<3, 3>() << 0.0, -mc.z(), mc.y(),  //
        mc.z(), 0.0, -mc.x(),                          //
        -mc.y(), mc.x(), 0.0;
    M.bottomLeftCorner<3, 3>() = M.topRightCorner<3, 3>().transpose();
    M.bottomRightCorner<3, 3>() = m_ * Matrix3::Identity();
  }
  /// The spatial momentum about Bo in B of the body moving with V = [ω; v_Bo] (about Bo, in
  /// B): h_Bo = I_Bcm ω + m c × (v_Bo + ω × c), l = m (v_Bo + ω × c).
  SpatialForce operator*(const SpatialMotion& V) const {
    const Vector3 w = V.rotational();
    const Vector3 v_cm = V.translational() + w.cross(c_);
    const Vector3 l = m_ * v_cm;
    return SpatialForce(Icm_ * w + c_.cross(l), l);
  }
  /// The gyroscopic (bias) force V ×* (M V) about Bo in B, evaluated about the CM and shifted:
  /// [ω × I_Bcm ω + c × f; f] with f = ω × m (v_Bo + ω × c). Equal to crossForce(V, M V), but
  /// without its term v_Bo × m v_Bo, which is zero exactly yet rounds to about ε m |v_Bo|²: for
  /// a fast body (an orbit) that noise is a spurious torque that makes a non-rotating body spin
  /// and ruins the error control of tightly toleranced integrators.
  SpatialForce biasForce(const SpatialMotion& V) const {
    const Vector3 w = V.rotational();
    const Vector3 f = w.cross(Vector3(m_ * (V.translational() + w.cross(c_))));
    return SpatialForce(Vector3(w.cross(Icm_ * w) + c_.cross(f)), f);
  }
  /// The force about Bo in B that gives the body the acceleration A at the velocity V (both
  /// about Bo, in B): the Newton-Euler equation M A + biasForce(V), with the rotational inertia
  /// applied to both angular parts in one product and the moment of the two CM forces taken as
  /// one cross product (RNEA's inner step; about 8 % of its time against the two calls).
  SpatialForce newtonEulerForce(const SpatialMotion& A, const SpatialMotion& V) const {
    const Vector3 wA = A.rotational();
    const Vector3 wV = V.rotational();
    Eigen::Matrix<double, 3, 2> w;
    w << wA, wV;
    const Eigen::Matrix<double, 3, 2> Iw = Icm_ * w;
    const Vector3 f = m_ * (A.translational() + wA.cross(c_)) +
                      wV.cross(Vector3(m_ * (V.translational() + wV.cross(c_))));
    return SpatialForce(Vector3(Iw.col(0) + wV.cross(Vector3(Iw.col(1))) + c_.cross(f)), f);
  }
  /// Kinetic energy ½ Vᵀ M V (J) for V = [ω; v_Bo] about Bo in B.
  double kineticEnergy(const SpatialMotion& V) const { return 0.5 * dot(V, (*this) * V); }

  /// The same body's inertia about Ao expressed in A, for X_AB the pose of B in A:
  /// m unchanged, p_AoBcm_A = X_AB p_BoBcm_B, I_Bcm_A = R_AB I_Bcm_B R_ABᵀ (equal to
  /// ᴬX_B* M ᴮX_A).
  SpatialInertia transformed(const RigidTransform& X_AB) const {
    const Matrix3& R = X_AB.rotation();
    return SpatialInertia(m_, X_AB * c_, Matrix3(R * Icm_ * R.transpose()));
  }
  /// transformed(X_AB.pose()).
  SpatialInertia transformed(const SpatialTransform& X_AB) const {
    return transformed(X_AB.pose());
  }
  /// The same body's inertia about a point Q in B's axes (parallel axes): the CM becomes
  /// p_QBcm_B = p_BoBcm_B - p_BoQ_B.
  SpatialInertia shiftedTo(const Vector3& p_BoQ_B) const {
    return SpatialInertia(m_, Vector3(c_ - p_BoQ_B), Icm_);
  }

  /// The composite of two bodies given about the same point in the same frame: masses add,
  /// the CM is the mass-weighted mean, the inertias about the new CM add (parallel axes).
  SpatialInertia& operator+=(const SpatialInertia& other);
  /// The composite of a and b (see operator+=).
  friend SpatialInertia operator+(SpatialInertia a, const SpatialInertia& b) { return a += b; }

  /// Whether both agree within `tolerance` (max-abs of the 6x6 matrices' difference).
  bool isApprox(const SpatialInertia& other, double tolerance) const {
    return (matrix() - other.matrix()).cwiseAbs().maxCoeff() <= tolerance;
  }

 private:
  SpatialInertia(double mass, const Vector3& c, const Matrix3& Icm) : m_(mass), c_(c), Icm_(Icm) {}

  double m_;
  Vector3 c_;
  Matrix3 Icm_;
};

}  // namespace hopsim::spatial
