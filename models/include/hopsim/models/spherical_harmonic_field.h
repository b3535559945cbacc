#pragma once
/// @file
/// The gravity field of a spherical-harmonic expansion, evaluated with the Cartesian V/W
/// recursion of Montenbruck & Gill (Satellite Orbits, section 3.2.4), as
/// SphericalHarmonicGravity uses it.

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::models {

/// The index of (degree n, order m), m <= n, in the lower-triangular coefficient layout
/// [C00, C10, C11, C20, C21, C22, C30, ...].
constexpr std::size_t harmonicIndex(int n, int m) {
  return static_cast<std::size_t>(n) * static_cast<std::size_t>(n + 1) / 2 +
         static_cast<std::size_t>(m);
}

/// The number of coefficients of a field of degree n: (n+1)(n+2)/2.
constexpr std::size_t harmonicCount(int degree) { return harmonicIndex(degree + 1, 0); }

/// N_nm = sqrt((2 - delta_m0)(2n+1)(n-m)!/(n+m)!), the factor that turns a fully normalized
/// coefficient into an unnormalized one: C_nm = N_nm Cbar_nm (so C20 = sqrt(5) Cbar20).
double harmonicNormalization(int n, int m);

/// U(r) = mu/R sum_{n<=N, m<=min(n,M)} (C_nm V_nm + S_nm W_nm), V_nm + i W_nm =
/// (R/r)^(n+1) P_nm(sin phi) e^(i m lambda), with unnormalized coefficients and Legendre
/// functions (no Condon-Shortley phase), and its gradient, for r in the planet-fixed frame.
class SphericalHarmonicField {
 public:
  /// Stores the coefficients up to (degree, order), unnormalizing them when `normalized`, and
  /// sizes the work arrays (allocates: call outside the hot path). C and S have
  /// harmonicCount(degree) entries in the layout of harmonicIndex.
  void configure(double mu, double radius, int degree, int order, const Eigen::VectorXd& c,
                 const Eigen::VectorXd& s, bool normalized);

  struct Value {
    /// grad U (m/s^2, planet-fixed axes): the gravitational acceleration.
    spatial::Vector3 acceleration;
    /// U (J/kg), positive: the negative of the potential energy per unit mass.
    double potential;
  };
  /// The field at r (m, planet-fixed, r != 0). Does not allocate.
  Value evaluate(const spatial::Vector3& r) const;

 private:
  double mu_ = 0.0, radius_ = 1.0;
  int degree_ = 0, order_ = 0;
  std::vector<double> c_, s_;
  // V_nm and W_nm to degree N + 1 (the acceleration of degree n needs degree n + 1).
  mutable std::vector<double> v_, w_;
};

}  // namespace hopsim::models
