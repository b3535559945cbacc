#pragma once
// Reading and summarizing the samples of the inertial-sensor tests (RateGyro, Accelerometer,
// NodePosVelAccelSensor, the IMU acceptance test): a 3-vector signal as a Vector3, and the
// sample moments that the statistical checks compare with the noise model.

#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "hopsim/core/simulation.h"

namespace hopsim::test {

/// The 3-vector at `path` (e.g. "signals.rate"); REQUIREs that it has three elements.
inline spatial::Vector3 vectorOf(const Simulation& sim, std::string_view path) {
  const auto v = std::get<std::vector<double>>(sim.get(path));
  REQUIRE(v.size() == 3);
  return {v[0], v[1], v[2]};
}

/// Sample mean and unbiased variance.
struct Moments {
  double mean = 0.0, variance = 0.0;
};
inline Moments momentsOf(const std::vector<double>& x) {
  Moments m;
  for (const double v : x) m.mean += v;
  m.mean /= static_cast<double>(x.size());
  for (const double v : x) m.variance += (v - m.mean) * (v - m.mean);
  m.variance /= static_cast<double>(x.size() - 1);
  return m;
}

}  // namespace hopsim::test
