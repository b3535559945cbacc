// RateGyro's Allan variance against its noise parameters (IEEE Std 952's characterization of a
// gyro): a gyro at rest with white noise density N (angle random walk) and bias random walk K
// (rate random walk) has the Allan variance
//   σ²(τ) = N² / τ + K² τ / 3,
// computed here from the sampled angle θ_k (period h) with the overlapping estimator
//   σ²(m h) = Σ_k (θ_k+2m - 2 θ_k+m + θ_k)² / (2 (m h)² (count)).
// 40001 samples on 3 axes; tolerance 5 standard deviations of the estimate, sqrt(2 / edf) with
// edf the number of non-overlapping cluster pairs, 3 floor(40000 / 2m) (conservative: the
// overlapping estimator has more degrees of freedom). The white-noise part is exact for the
// model's discrete noise (variance N² h per period); the random-walk part is K² τ / 3 to
// O(h / τ) for a bias piecewise linear over periods (below 1 % at τ >= 10 h, where it matters).
// Both state types, and τ from h, where N dominates, to 100 h, where K does.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/rate_gyro.h"
#include "sensor_samples.h"

namespace hopsim {
namespace {

using spatial::Matrix3;
using spatial::Vector3;

constexpr double kPeriod = 0.01;

/// The angle samples of a gyro at rest, one per period, per axis.
std::vector<Vector3> restingAngles(double N, double K, const std::string& stateType, int count) {
  Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody(
      "body", multibody::kWorldBody,
      spatial::SpatialInertia::fromCmInertia(2.0, Vector3::Zero(), 0.1 * Matrix3::Identity()),
      multibody::Hinge::full6Dof());
  tree.addNode("probe", b, spatial::RigidTransform());
  for (const char* name : {"rate", "angle", "delta_angle"}) {
    sim.addSignal(name, ElementType::Double, 3);
  }
  for (const char* name : {"angle_counts", "delta_angle_counts"}) {
    sim.addSignal(name, ElementType::Int, 3);
  }
  sim.addModel<models::RateGyro>("gyro").attachToNode("probe");
  for (const char* name : {"rate", "angle", "delta_angle", "angle_counts", "delta_angle_counts"}) {
    sim.tie("gyro", name, name);
  }
  sim.setModelRate("gyro", 1.0 / kPeriod);
  sim.set("models.gyro.params.white_noise_density", N);
  sim.set("models.gyro.params.bias_random_walk", K);
  sim.set("models.gyro.params.seed", std::int64_t{2024});
  sim.set("models.gyro.params.state_type", stateType);
  sim.lock();
  std::vector<Vector3> angles;
  angles.reserve(count);
  for (int k = 0; k < count; ++k) {
    sim.advanceOverHop();
    angles.push_back(test::vectorOf(sim, "signals.angle"));
  }
  return angles;
}

double allanVariance(const std::vector<Vector3>& theta, int m) {
  const double tau = m * kPeriod;
  double sum = 0.0;
  const std::size_t terms = theta.size() - 2 * m;
  for (std::size_t k = 0; k < terms; ++k) {
    sum += (theta[k + 2 * m] - 2.0 * theta[k + m] + theta[k]).squaredNorm();
  }
  return sum / (2.0 * tau * tau * 3.0 * static_cast<double>(terms));
}

}  // namespace

TEST_CASE("RateGyro: the Allan variance is N²/τ + K²τ/3") {
  const double N = 1e-3, K = 5e-3;  // the two terms cross at τ = sqrt(3) N / K = 0.35 s
  constexpr int kSamples = 40001;
  for (const std::string type : {"CONTINUOUS", "DISCRETE"}) {
    CAPTURE(type);
    const auto theta = restingAngles(N, K, type, kSamples);
    for (const int m : {1, 3, 10, 30, 100}) {
      const double tau = m * kPeriod;
      const double expected = N * N / tau + K * K * tau / 3.0;
      const double edf = 3.0 * std::floor((kSamples - 1) / (2.0 * m));
      const double measured = allanVariance(theta, m);
      CAPTURE(tau);
      CAPTURE(measured);
      CAPTURE(expected);
      CHECK(std::abs(measured / expected - 1.0) < 5.0 * std::sqrt(2.0 / edf));
    }
  }
}

}  // namespace hopsim
