#pragma once
/// @file
/// Rotational inertia tensors: moments and products of inertia (positive integral sense in the
/// API, with the conversion from the negative sense of the seed's BodyParam), validity checks
/// and the parallel-axis theorem.

#include <cstdint>
#include <string_view>

#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::spatial {

/// Moments and products of inertia (kg·m²) about a point, in some frame's axes. Products are in
/// the **positive integral sense**: xy = +∫ x y dm, so the tensor is
/// [[xx, -xy, -xz], [-xy, yy, -yz], [-xz, -yz, zz]]. Beware: a 3x3 matrix handed over by
/// another tool (URDF, a CAD export) usually holds tensor entries, i.e. negative-sense
/// products; read such matrices with inertiaTensorFromMatrix.
struct InertiaMoments {
  double xx{0.0};  ///< ∫ (y² + z²) dm
  double yy{0.0};  ///< ∫ (x² + z²) dm
  double zz{0.0};  ///< ∫ (x² + y²) dm
  double xy{0.0};  ///< +∫ x y dm
  double xz{0.0};  ///< +∫ x z dm
  double yz{0.0};  ///< +∫ y z dm

  /// From moments and products given in the seed's **negative integral sense**
  /// (Jxy = -∫ x y dm, SOASpatialInertia and BodyParam with negativeIntegralSense = True): the
  /// products are negated, the moments kept.
  static InertiaMoments fromNegativeIntegralSense(double Jxx, double Jyy, double Jzz, double Jxy,
                                                  double Jxz, double Jyz) {
    return InertiaMoments{Jxx, Jyy, Jzz, -Jxy, -Jxz, -Jyz};
  }
  /// The moments and positive-sense products of a tensor I (the negated off-diagonals).
  static InertiaMoments fromTensor(const Matrix3& I) {
    return InertiaMoments{I(0, 0), I(1, 1), I(2, 2), -I(0, 1), -I(0, 2), -I(1, 2)};
  }
  /// The tensor [[xx, -xy, -xz], [-xy, yy, -yz], [-xz, -yz, zz]] (kg·m²).
  Matrix3 tensor() const {
    Matrix3 I;
    I << xx, -xy, -xz, -xy, yy, -yz, -xz, -yz, zz;
    return I;
  }
};

/// How the off-diagonal entries of a 3x3 inertia matrix given by a user are to be read.
enum class ProductsOfInertiaSense : std::uint8_t {
  /// The off-diagonals are Jxy = -∫ x y dm: the matrix is the tensor as given (the seed's
  /// default, BodyParam negativeIntegralSense = True).
  Negative,
  /// The off-diagonals are Ixy = +∫ x y dm and are negated to form the tensor.
  Positive,
};
/// The inertia tensor of a 3x3 matrix of moments and products given in `sense`.
inline Matrix3 inertiaTensorFromMatrix(const Matrix3& given, ProductsOfInertiaSense sense) {
  if (sense == ProductsOfInertiaSense::Negative) return given;
  Matrix3 I = -given;
  I.diagonal() = given.diagonal();
  return I;
}

/// Checks that I (kg·m²) could be the inertia of a real body about its CM (or any point):
/// finite, symmetric, principal moments >= 0 and satisfying the triangle inequality
/// λ1 + λ2 >= λ3, each to a round-off tolerance relative to trace(I). Zero principal moments
/// are accepted (point masses, thin rods). With `requireTriangleInequality` false only what the
/// dynamics needs is checked (finite, symmetric, positive semi-definite): imported models
/// (Chrono files) may carry moments no real body has, which their own tools integrate as given.
/// @throws InputError naming `what` and the bad value.
void checkRotationalInertia(const Matrix3& I, std::string_view what,
                            bool requireTriangleInequality = true);

/// Parallel-axis theorem: the rotational inertia about a point Q from the one about the CM,
/// I_Q = I_cm - m [c×][c×] with c = p_QBcm (the CM seen from Q), all in one frame's axes.
inline Matrix3 shiftFromCm(const Matrix3& I_cm, double mass, const Vector3& p_QBcm) {
  const Matrix3 c = skew(p_QBcm);
  return I_cm - mass * c * c;
}
/// The inverse of shiftFromCm: I_cm = I_Q + m [c×][c×] with c = p_QBcm.
inline Matrix3 shiftToCm(const Matrix3& I_Q, double mass, const Vector3& p_QBcm) {
  const Matrix3 c = skew(p_QBcm);
  return I_Q + mass * c * c;
}

}  // namespace hopsim::spatial
