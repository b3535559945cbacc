#pragma once
// The analytic free response of J x'' + C x' + K (x - x0) = 0 (underdamped or undamped), the
// reference of the spring-damper model tests, and the run that checks a system against one
// oscillator per generalized coordinate.

#include <doctest/doctest.h>

#include <cmath>
#include <span>

#include "hopsim/core/simulation.h"

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

/// Advances `sim` by `hops` hops and REQUIREs after each that generalized coordinate i of the
/// system follows dofs[i]: q_i to within qTolerance, u_i to within uTolerance.
inline void requireFollowsOscillators(Simulation& sim, std::span<const DampedOscillator> dofs,
                                      int hops, double qTolerance, double uTolerance) {
  for (int k = 1; k <= hops; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    CAPTURE(t);
    for (std::size_t i = 0; i < dofs.size(); ++i) {
      CAPTURE(i);
      const auto index = static_cast<Eigen::Index>(i);
      REQUIRE(std::fabs(sim.multibody().q()[index] - dofs[i].position(t)) < qTolerance);
      REQUIRE(std::fabs(sim.multibody().u()[index] - dofs[i].rate(t)) < uTolerance);
    }
  }
}

}  // namespace hopsim::test
