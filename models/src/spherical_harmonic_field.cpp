#include "hopsim/models/spherical_harmonic_field.h"

#include <algorithm>
#include <cmath>

namespace hopsim::models {

using spatial::Vector3;

double harmonicNormalization(int n, int m) {
  // (n-m)!/(n+m)! as a product of reciprocals: no factorial overflows for the degrees allowed.
  double ratio = 1.0;
  for (int k = n - m + 1; k <= n + m; ++k) ratio /= k;
  return std::sqrt((m == 0 ? 1.0 : 2.0) * (2 * n + 1) * ratio);
}

void SphericalHarmonicField::configure(double mu, double radius, int degree, int order,
                                       const Eigen::VectorXd& c, const Eigen::VectorXd& s,
                                       bool normalized) {
  mu_ = mu;
  radius_ = radius;
  degree_ = degree;
  order_ = order;
  c_.assign(c.data(), c.data() + harmonicCount(degree));
  s_.assign(s.data(), s.data() + harmonicCount(degree));
  if (normalized) {
    for (int n = 0; n <= degree; ++n) {
      for (int m = 0; m <= n; ++m) {
        const double f = harmonicNormalization(n, m);
        c_[harmonicIndex(n, m)] *= f;
        s_[harmonicIndex(n, m)] *= f;
      }
    }
  }
  v_.assign(harmonicCount(degree + 1), 0.0);
  w_.assign(harmonicCount(degree + 1), 0.0);
}

SphericalHarmonicField::Value SphericalHarmonicField::evaluate(const Vector3& r) const {
  const int top = degree_ + 1;
  const double r2 = r.squaredNorm();
  const double rho = radius_ * radius_ / r2;
  const double x0 = radius_ * r.x() / r2, y0 = radius_ * r.y() / r2, z0 = radius_ * r.z() / r2;
  // Montenbruck & Gill (3.29)-(3.31): the diagonal V_mm, W_mm, then up each column in n.
  v_[0] = radius_ / std::sqrt(r2);
  w_[0] = 0.0;
  for (int m = 0; m <= top; ++m) {
    if (m > 0) {
      const double vPrev = v_[harmonicIndex(m - 1, m - 1)];
      const double wPrev = w_[harmonicIndex(m - 1, m - 1)];
      v_[harmonicIndex(m, m)] = (2 * m - 1) * (x0 * vPrev - y0 * wPrev);
      w_[harmonicIndex(m, m)] = (2 * m - 1) * (x0 * wPrev + y0 * vPrev);
    }
    for (int n = m + 1; n <= top; ++n) {
      const double a = static_cast<double>(2 * n - 1) / (n - m);
      const double b = static_cast<double>(n + m - 1) / (n - m);
      const std::size_t i1 = harmonicIndex(n - 1, m);
      v_[harmonicIndex(n, m)] = a * z0 * v_[i1];
      w_[harmonicIndex(n, m)] = a * z0 * w_[i1];
      if (n - 2 >= m) {
        const std::size_t i2 = harmonicIndex(n - 2, m);
        v_[harmonicIndex(n, m)] -= b * rho * v_[i2];
        w_[harmonicIndex(n, m)] -= b * rho * w_[i2];
      }
    }
  }

  // Montenbruck & Gill (3.33), summed from the small high-degree terms to the large ones.
  Vector3 a = Vector3::Zero();
  double u = 0.0;
  for (int n = degree_; n >= 0; --n) {
    for (int m = std::min(n, order_); m >= 0; --m) {
      const double c = c_[harmonicIndex(n, m)], s = s_[harmonicIndex(n, m)];
      const std::size_t up = harmonicIndex(n + 1, m);
      u += c * v_[harmonicIndex(n, m)] + s * w_[harmonicIndex(n, m)];
      a.z() += (n - m + 1) * (-c * v_[up] - s * w_[up]);
      if (m == 0) {
        a.x() -= c * v_[harmonicIndex(n + 1, 1)];
        a.y() -= c * w_[harmonicIndex(n + 1, 1)];
      } else {
        const std::size_t right = harmonicIndex(n + 1, m + 1), left = harmonicIndex(n + 1, m - 1);
        const double f = (n - m + 2) * (n - m + 1);
        a.x() += 0.5 * ((-c * v_[right] - s * w_[right]) + f * (c * v_[left] + s * w_[left]));
        a.y() += 0.5 * ((-c * w_[right] + s * v_[right]) + f * (-c * w_[left] + s * v_[left]));
      }
    }
  }
  return {mu_ / (radius_ * radius_) * a, mu_ / radius_ * u};
}

}  // namespace hopsim::models
