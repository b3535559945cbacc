#pragma once
// Private: LDLᵀ with diagonal pivoting of a symmetric positive semi-definite matrix, in place
// and without allocating, stopping at its numerical rank. The constraint solves use it on
// G M⁻¹ Gᵀ (or G Gᵀ), which is singular when constraints are redundant. Not installed.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace hopsim::multibody::detail {

// Factorizes K (n x n, symmetric positive semi-definite; both halves read) as
// Pᵀ L D Lᵀ P, choosing at each step the largest remaining diagonal entry as the pivot and
// stopping when it is <= relativeTolerance x the largest diagonal entry of K: the rank r.
// On return the first r columns of K's strictly lower triangle hold L, K(k, k) holds D's
// entries (k < r) and perm[k] is the original index of pivot k. Returns r.
inline int factorizePivotedLdlt(Eigen::Ref<Eigen::MatrixXd> K, Eigen::Ref<Eigen::VectorXi> perm,
                                double relativeTolerance) {
  const Eigen::Index n = K.rows();
  for (Eigen::Index i = 0; i < n; ++i) perm[i] = static_cast<int>(i);
  const double largest = n == 0 ? 0.0 : K.diagonal().maxCoeff();
  if (!(largest > 0.0)) return 0;
  const double threshold = relativeTolerance * largest;
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index j = k;
    K.diagonal().tail(n - k).maxCoeff(&j);
    j += k;
    if (!(K(j, j) > threshold)) return static_cast<int>(k);
    if (j != k) {
      K.row(k).swap(K.row(j));
      K.col(k).swap(K.col(j));
      std::swap(perm[k], perm[j]);
    }
    const double d = K(k, k);
    // Schur complement of the trailing block, then column k of L.
    for (Eigen::Index c = k + 1; c < n; ++c) {
      const double f = K(k, c) / d;
      for (Eigen::Index r = k + 1; r < n; ++r) K(r, c) -= K(r, k) * f;
    }
    for (Eigen::Index r = k + 1; r < n; ++r) K(r, k) /= d;
  }
  return static_cast<int>(n);
}

// The basic solution x of K x = b from factorizePivotedLdlt's result: the r independent
// equations are solved exactly and the entries of x for the other pivots are zero (for a
// consistent b those equations then hold too). y is scratch of size n.
inline void solvePivotedLdlt(const Eigen::Ref<const Eigen::MatrixXd>& K,
                             const Eigen::Ref<const Eigen::VectorXi>& perm, int rank,
                             const Eigen::Ref<const Eigen::VectorXd>& b,
                             Eigen::Ref<Eigen::VectorXd> y, Eigen::Ref<Eigen::VectorXd> x) {
  for (Eigen::Index k = 0; k < rank; ++k) y[k] = b[perm[k]];
  for (Eigen::Index k = 0; k < rank; ++k) {
    for (Eigen::Index r = k + 1; r < rank; ++r) y[r] -= K(r, k) * y[k];
  }
  for (Eigen::Index k = 0; k < rank; ++k) y[k] /= K(k, k);
  for (Eigen::Index k = rank - 1; k >= 0; --k) {
    for (Eigen::Index r = k + 1; r < rank; ++r) y[k] -= K(r, k) * y[r];
  }
  x.setZero();
  for (Eigen::Index k = 0; k < rank; ++k) x[perm[k]] = y[k];
}

}  // namespace hopsim::multibody::detail
