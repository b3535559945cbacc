#pragma once
/// @file
/// ArticulatedInertia: a symmetric 6x6 inertia with the operations of the articulated-body
/// (ATBI) recursion.

#include <Eigen/Core>

#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/core/spatial/spatial_transform.h"
#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::spatial {

/// An articulated-body inertia P_Bo_B (the seed's P): a symmetric positive semi-definite 6x6
/// matrix mapping a spatial acceleration [α; a_Bo] about Bo in B to a spatial force
/// [n_Bo; f] about Bo in B. Unlike SpatialInertia it has 21 independent entries, so it is
/// stored as the full matrix [[aa, al], [alᵀ, ll]].
class ArticulatedInertia {
 public:
  /// The zero inertia.
  ArticulatedInertia() : P_(Matrix6::Zero()) {}
  /// The articulated inertia of a lone rigid body (its spatial inertia matrix).
  explicit ArticulatedInertia(const SpatialInertia& M) : P_(M.matrix()) {}
  /// From a 6x6 matrix, assumed symmetric (not checked).
  explicit ArticulatedInertia(const Matrix6& P) : P_(P) {}
  /// The zero inertia.
  static ArticulatedInertia Zero() { return ArticulatedInertia(); }

  /// The 6x6 matrix.
  const Matrix6& matrix() const { return P_; }
  /// The 6x6 matrix, writable (keep it symmetric).
  Matrix6& matrix() { return P_; }

  /// The force P A (about Bo, in B) for a motion or acceleration A (about Bo, in B).
  SpatialForce operator*(const SpatialMotion& A) const {
    return SpatialForce(Vector6(P_ * A.vector()));
  }
  /// P H for the k columns of a joint's motion subspace H (6 x k): the seed's P H*.
  template <int K>
  Eigen::Matrix<double, 6, K> operator*(const Eigen::Matrix<double, 6, K>& H) const {
    return P_ * H;
  }

  /// Sum and difference of inertias about the same point in the same frame.
  ArticulatedInertia& operator+=(const ArticulatedInertia& other) {
    P_ += other.P_;
    return *this;
  }
  ArticulatedInertia& operator-=(const ArticulatedInertia& other) {
    P_ -= other.P_;
    return *this;
  }
  /// Adds a rigid body's spatial inertia (about the same point, in the same frame).
  ArticulatedInertia& operator+=(const SpatialInertia& M) {
    P_ += M.matrix();
    return *this;
  }
  /// Sum and difference, as the compound operators.
  friend ArticulatedInertia operator+(ArticulatedInertia a, const ArticulatedInertia& b) {
    return a += b;
  }
  friend ArticulatedInertia operator-(ArticulatedInertia a, const ArticulatedInertia& b) {
    return a -= b;
  }

  /// The rank-k update P ← P - U D⁻¹ Uᵀ with U = P H (6 x k) and Dinv = (Hᵀ P H)⁻¹ (k x k,
  /// symmetric): ATBI's P⁺ = P - G D Gᵀ with G = U D⁻¹. The result is symmetrized.
  template <int K>
  void subtractRankUpdate(const Eigen::Matrix<double, 6, K>& U,
                          const Eigen::Matrix<double, K, K>& Dinv) {
    const Eigen::Matrix<double, 6, K> G = U * Dinv;
    P_.noalias() -= G * U.transpose();
    P_ = 0.5 * (P_ + P_.transpose()).eval();
  }
  /// The rank-1 update P ← P - u uᵀ / d (a single-dof joint: u = P h, d = hᵀ P h).
  void subtractRankOneUpdate(const Vector6& u, double d) {
    P_.noalias() -= (u / d) * u.transpose();
  }

  /// The same inertia about Ao expressed in A, for X_AB the pose of B in A:
  /// P_A = ᴬX_B* P_B ᴮX_A = ᴬX_B* P_B (ᴬX_B*)ᵀ. With ᴬX_B* = [[1, p̃], [0, 1]] diag(R, R) it
  /// works on the 3x3 blocks of P_B = [[A, B], [Bᵀ, C]], never on 6x6 products: rotate them,
  /// A' = R A Rᵀ, B' = R B Rᵀ, C' = R C Rᵀ (upper triangles only for the symmetric A and C),
  /// then shift the reference point by p: P_A = [[A' + p̃B'ᵀ + B''p̃ᵀ, B''], [B''ᵀ, C']] with
  /// B'' = B' + p̃C', the p̃ products taken as cross products. The result is exactly symmetric.
  ArticulatedInertia transformed(const SpatialTransform& X_AB) const {
    const Matrix3& R = X_AB.rotation();
    const Vector3& p = X_AB.translation();
    const Matrix3 Rt = R.transpose();
    const Matrix3 ARt = P_.topLeftCorner<3, 3>() * Rt;
    const Matrix3 CRt = P_.bottomRightCorner<3, 3>() * Rt;
    const Matrix3 B = R * (P_.topRightCorner<3, 3>() * Rt);
    Matrix3 A, C;  // A: upper triangle only
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i <= j; ++i) {
        A(i, j) = R.row(i).dot(ARt.col(j));
        C(i, j) = C(j, i) = R.row(i).dot(CRt.col(j));
      }
    }
    Matrix3 Bs;  // B'' = B' + p̃C'
    for (int j = 0; j < 3; ++j) Bs.col(j) = B.col(j) + p.cross(C.col(j));
    // Entry (i, j) of p̃B'ᵀ is (p × B'.row(j))_i, of B''p̃ᵀ it is (p × B''.row(i))_j.
    Matrix6 out;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i <= j; ++i) {
        out(i, j) = out(j, i) =
            A(i, j) + crossComponent(p, B.row(j), i) + crossComponent(p, Bs.row(i), j);
      }
    }
    out.topRightCorner<3, 3>() = Bs;
    out.bottomLeftCorner<3, 3>() = Bs.transpose();
    out.bottomRightCorner<3, 3>() = C;
    return ArticulatedInertia(out);
  }

 private:
  // Component k of p × v, for v a row of a 3x3 matrix.
  template <typename Row>
  static double crossComponent(const Vector3& p, const Row& v, int k) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    return p[k1] * v[k2] - p[k2] * v[k1];
  }

  Matrix6 P_;
};

}  // namespace hopsim::spatial
