#pragma once
// The analytic free response of J x'' + C x' + K (x - x0) = 0 (underdamped or undamped), the
// reference of the spring-damper model tests.

#include <cmath>

namespace hopsim::test {

/// x(t) and x'(t) from x(0) = x0 + a, x'(0) = v0, for 0 <= C < 2 sqrt(K J).
struct DampedOscillator {
  double J, K, C, x0, a, v0;

  double naturalFrequency() const { return std::sqrt(K / J); }
  double dampingRatio() const { return C / (2.0 * std::sqrt(K * J)); }
  /// ωd = ωn sqrt(1 - ζ²), the frequency of the zero crossings of x - x0.
  double dampedFrequency() const {
    const double z = dampingRatio();
    return naturalFrequency() * std::sqrt(1.0 - z * z);
  }
  double position(double t) const {
    const double s = dampingRatio() * naturalFrequency(), wd = dampedFrequency();
    const double b = (v0 + s * a) / wd;
    return x0 + std::exp(-s * t) * (a * std::cos(wd * t) + b * std::sin(wd * t));
  }
  double rate(double t) const {
    const double s = dampingRatio() * naturalFrequency(), wd = dampedFrequency();
    const double b = (v0 + s * a) / wd;
    return std::exp(-s * t) *
           ((b * wd - s * a) * std::cos(wd * t) - (a * wd + s * b) * std::sin(wd * t));
  }
};

}  // namespace hopsim::test
