// RateGyro against its error model. The rig is a free body with spherical inertia and no
// gravity: it keeps a constant body rate w_B (no gyroscopic torque), so the true rate in node
// axes is R_BN^T w_B at all times and the measured angle grows linearly; rk4 integrates that
// exactly up to rounding, hence the 1e-12 tolerances of the deterministic checks. The noise
// checks compare sample statistics with the variances the parameters predict, within 5-sigma
// confidence bounds (for n independent N(0, s^2) samples the sample variance has standard
// deviation s^2 sqrt(2/(n-1)), the sample mean s/sqrt(n)).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/rate_gyro.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "sensor_samples.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::Moments;
using test::momentsOf;
using test::vectorOf;

constexpr double kPeriod = 0.01;  // sensor period, s (100 Hz)

/// A gyro "gyro" on node "probe" (rotation R_BN) of a free body spinning at w_B, sampled at
/// 1/kPeriod, its five outputs tied to signals of the same names.
void buildRig(Simulation& sim, const Vector3& wB, const Matrix3& R_BN) {
  auto& tree = sim.multibody().editModel();
  const auto b =
      tree.addBody("body", kWorldBody,
                   SpatialInertia::fromCmInertia(2.0, Vector3::Zero(), 0.1 * Matrix3::Identity()),
                   Hinge::full6Dof());
  tree.addNode("probe", b, RigidTransform(R_BN, Vector3(0.2, -0.1, 0.3)));
  sim.multibody().u(b).head<3>() = wB;
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
}

std::vector<std::int64_t> intsOf(const Simulation& sim, std::string_view path) {
  return std::get<std::vector<std::int64_t>>(sim.get(path));
}

/// |variance - expected| within 5 sigma of the sample variance of n normal samples.
void checkVariance(const std::vector<double>& x, double expected) {
  const Moments m = momentsOf(x);
  const double n = static_cast<double>(x.size());
  CAPTURE(m.variance);
  CAPTURE(expected);
  CHECK(std::fabs(m.variance - expected) < 5.0 * expected * std::sqrt(2.0 / (n - 1)));
}

}  // namespace

TEST_CASE("RateGyro: noise off, the rate is scale factor, misalignment and bias applied to w_N") {
  const Vector3 wB(0.4, -1.1, 0.7);
  const Matrix3 R_BN = spatial::rotationFromAxisAngle(Vector3(1, 1, 0).normalized(), 0.6);
  Matrix3 C;  // sense axes: node axes with small misalignments and a cross-coupling
  C << 1.0, 0.002, -0.001, -0.003, 1.0, 0.004, 0.001, 0.0005, 0.999;
  const Vector3 scale(0.01, -0.02, 0.005), bias(1e-3, -2e-3, 5e-4);
  for (const std::string type : {"CONTINUOUS", "DISCRETE"}) {
    CAPTURE(type);
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildRig(sim, wB, R_BN);
    sim.set("models.gyro.params.misalignment",
            std::vector<double>{C(0, 0), C(0, 1), C(0, 2), C(1, 0), C(1, 1), C(1, 2), C(2, 0),
                                C(2, 1), C(2, 2)});
    sim.set("models.gyro.params.scale_factor", std::vector<double>{scale[0], scale[1], scale[2]});
    sim.set("models.gyro.params.bias", std::vector<double>{bias[0], bias[1], bias[2]});
    sim.set("models.gyro.params.state_type", type);
    sim.lock();
    const Vector3 expected =
        (Vector3::Ones() + scale).cwiseProduct(C * R_BN.transpose() * wB) + bias;
    sim.advanceTimeTo(0.5);
    for (int k = 0; k < 50; ++k) {
      sim.advanceOverHop();  // the sample at t is published with the next hop's start
      const double t = sim.time() - kPeriod;
      CAPTURE(t);
      REQUIRE((vectorOf(sim, "signals.rate") - expected).norm() < 1e-12);
      REQUIRE((vectorOf(sim, "signals.delta_angle") - expected * kPeriod).norm() < 1e-12);
      REQUIRE((vectorOf(sim, "signals.angle") - expected * t).norm() < 1e-12);
      const auto counts = intsOf(sim, "signals.angle_counts");
      const Vector3 angle = vectorOf(sim, "signals.angle");
      for (int i = 0; i < 3; ++i) {
        REQUIRE(counts[static_cast<std::size_t>(i)] ==
                static_cast<std::int64_t>(std::floor(angle[i] / 1e-6)));
      }
    }
  }
}

TEST_CASE("RateGyro: it samples at its own rate, slower than the simulation's I/O step") {
  // Hops of 1 ms, samples every 10 ms: the outputs change only at the samples, and each one
  // still covers its whole 10 ms period.
  const Vector3 wB(0.5, 0.0, -0.25);
  Simulation sim({.ioStepSize = 0.001, .integrator = "rk4"});
  buildRig(sim, wB, Matrix3::Identity());
  sim.lock();
  Vector3 previous = Vector3::Constant(-1.0);
  int changes = 0;
  for (int k = 1; k <= 100; ++k) {
    sim.advanceOverHop();
    const Vector3 angle = vectorOf(sim, "signals.angle");
    if (angle != previous) {
      ++changes;
      // The sample at the start of the current 10 ms I/O step.
      const double sampleTime = 0.01 * std::floor((sim.time() - 1e-9) / 0.01);
      REQUIRE((angle - wB * sampleTime).norm() < 1e-12);
    }
    previous = angle;
  }
  CHECK(changes == 10);
  CHECK((vectorOf(sim, "signals.delta_angle") - wB * kPeriod).norm() < 1e-12);
  CHECK(std::get<std::int64_t>(sim.get("models.gyro.discreteStates.samples")) == 10);
}

TEST_CASE("RateGyro: a drifting bias is integrated (CONTINUOUS) or held per period (DISCRETE)") {
  // b_d = d t. CONTINUOUS: the average over [t - h, t] is d (t - h/2). DISCRETE: b_d jumps to
  // d t_k at each sample and holds, so the average over [t - h, t] is d (t - h).
  const Vector3 drift(0.01, -0.02, 0.03);
  for (const bool discrete : {false, true}) {
    CAPTURE(discrete);
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildRig(sim, Vector3::Zero(), Matrix3::Identity());
    sim.set("models.gyro.params.bias_drift_rate",
            std::vector<double>{drift[0], drift[1], drift[2]});
    sim.set("models.gyro.params.state_type", std::string(discrete ? "DISCRETE" : "CONTINUOUS"));
    sim.lock();
    for (int k = 0; k < 30; ++k) sim.advanceOverHop();
    const double t = sim.time() - kPeriod;  // the published sample's time
    const double middle = discrete ? t - kPeriod : t - 0.5 * kPeriod;
    CHECK((vectorOf(sim, "signals.rate") - drift * middle).norm() < 1e-12);
  }
}

TEST_CASE("RateGyro: counts wrap at count_bits and their increments unwrap them") {
  // 8-bit registers and lsb = 0.01 rad: at 3 rad/s the counts pass 127 after 0.43 s and wrap
  // to -128; the wrapped increments still sum to floor(angle / lsb).
  Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
  buildRig(sim, Vector3(3.0, -2.0, 0.5), Matrix3::Identity());
  sim.set("models.gyro.params.count_bits", std::int64_t{8});
  sim.set("models.gyro.params.lsb", 0.01);
  sim.lock();
  std::vector<std::int64_t> sum(3, 0);
  bool wrapped = false;
  for (int k = 0; k < 100; ++k) {
    sim.advanceOverHop();
    const auto counts = intsOf(sim, "signals.angle_counts");
    const auto delta = intsOf(sim, "signals.delta_angle_counts");
    const Vector3 angle = vectorOf(sim, "signals.angle");
    for (std::size_t i = 0; i < 3; ++i) {
      REQUIRE(counts[i] >= -128);
      REQUIRE(counts[i] <= 127);
      sum[i] += delta[i];
      REQUIRE(sum[i] == static_cast<std::int64_t>(std::floor(angle[static_cast<int>(i)] / 0.01)));
      wrapped = wrapped || counts[i] != sum[i];
    }
  }
  CHECK(wrapped);
}

TEST_CASE("RateGyro: white noise gives rate samples of mean bias and variance N^2/h") {
  // Each sample period h integrates the white noise to N sqrt(h) xi, so the average rate has
  // the noise N xi / sqrt(h), independent between samples, in both state types.
  const double N = 2e-3, bias = 0.05;
  for (const std::string type : {"CONTINUOUS", "DISCRETE"}) {
    CAPTURE(type);
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildRig(sim, Vector3::Zero(), Matrix3::Identity());
    sim.set("models.gyro.params.white_noise_density", N);
    sim.set("models.gyro.params.bias", std::vector<double>{bias, bias, bias});
    sim.set("models.gyro.params.seed", std::int64_t{11});
    sim.set("models.gyro.params.state_type", type);
    sim.lock();
    sim.advanceOverHop();
    sim.advanceOverHop();  // the first full period is published
    std::vector<double> rates;
    for (int k = 0; k < 1500; ++k) {
      sim.advanceOverHop();
      const Vector3 r = vectorOf(sim, "signals.rate");
      rates.insert(rates.end(), {r[0], r[1], r[2]});
    }
    const double sigma = N / std::sqrt(kPeriod);
    const Moments m = momentsOf(rates);
    CHECK(std::fabs(m.mean - bias) < 5.0 * sigma / std::sqrt(static_cast<double>(rates.size())));
    checkVariance(rates, sigma * sigma);
  }
}

TEST_CASE("RateGyro: the angle random walk's variance grows as N^2 t") {
  // The noise part of the angle over a window of m periods is a sum of m independent
  // increments: variance N^2 m h. Non-overlapping windows of 1, 5 and 25 periods, 3 axes.
  const double N = 1e-3;
  Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
  buildRig(sim, Vector3::Zero(), Matrix3::Identity());
  sim.set("models.gyro.params.white_noise_density", N);
  sim.set("models.gyro.params.seed", std::int64_t{5});
  sim.lock();
  std::vector<Vector3> angles;
  for (int k = 0; k < 3001; ++k) {
    sim.advanceOverHop();
    angles.push_back(vectorOf(sim, "signals.angle"));
  }
  for (const int m : {1, 5, 25}) {
    CAPTURE(m);
    std::vector<double> increments;
    for (std::size_t k = 0; k + m < angles.size(); k += m) {
      const Vector3 d = angles[k + m] - angles[k];
      increments.insert(increments.end(), {d[0], d[1], d[2]});
    }
    checkVariance(increments, N * N * m * kPeriod);
  }
}

TEST_CASE("RateGyro: bias random walk and Gauss-Markov innovations have their predicted variance") {
  // b_rw gains K^2 h per period in both types. b_gm: DISCRETE uses the exact AR(1) transition,
  // innovation b_k+1 - e b_k (e = exp(-h/tau)) of variance sigma^2 (1 - e^2); CONTINUOUS
  // integrates b' = -b/tau + q with q held over the period at variance 2 sigma^2/(tau h), so
  // the innovation is tau (1 - e) q, of variance 2 sigma^2 tau (1 - e)^2 / h.
  const double K = 3e-4, sigma = 2e-3, tau = 0.05;
  const double e = std::exp(-kPeriod / tau);
  for (const bool discrete : {false, true}) {
    CAPTURE(discrete);
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildRig(sim, Vector3::Zero(), Matrix3::Identity());
    sim.set("models.gyro.params.bias_random_walk", K);
    sim.set("models.gyro.params.bias_instability", sigma);
    sim.set("models.gyro.params.bias_correlation_time", tau);
    sim.set("models.gyro.params.seed", std::int64_t{17});
    sim.set("models.gyro.params.state_type", std::string(discrete ? "DISCRETE" : "CONTINUOUS"));
    sim.lock();
    // The states read right after each sample (hop ends are sample times).
    std::vector<Vector3> walk, markov;
    for (int k = 0; k < 1500; ++k) {
      sim.advanceOverHop();
      walk.push_back(vectorOf(sim, "models.gyro.continuousStates.rw_bias"));
      markov.push_back(vectorOf(sim, "models.gyro.continuousStates.gm_bias"));
    }
    std::vector<double> walkSteps, innovations;
    for (std::size_t k = 1; k < walk.size(); ++k) {
      const Vector3 dw = walk[k] - walk[k - 1];
      const Vector3 dm = markov[k] - e * markov[k - 1];
      walkSteps.insert(walkSteps.end(), {dw[0], dw[1], dw[2]});
      innovations.insert(innovations.end(), {dm[0], dm[1], dm[2]});
    }
    // rk4 integrates the linear b_gm with a relative error ~ (h/tau)^5/120 = 3e-6: far inside
    // the statistical bound (5 sqrt(2/4500) = 0.1).
    checkVariance(walkSteps, K * K * kPeriod);
    checkVariance(innovations, discrete ? sigma * sigma * (1 - e * e)
                                        : 2 * sigma * sigma * tau * (1 - e) * (1 - e) / kPeriod);
  }
}

TEST_CASE("RateGyro: a seed gives the same samples, another seed other ones") {
  const auto run = [](std::int64_t seed) {
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildRig(sim, Vector3(0.1, 0.2, 0.3), Matrix3::Identity());
    sim.set("models.gyro.params.white_noise_density", 1e-3);
    sim.set("models.gyro.params.bias_random_walk", 1e-4);
    sim.set("models.gyro.params.seed", seed);
    sim.lock();
    std::vector<double> rates;
    for (int k = 0; k < 50; ++k) {
      sim.advanceOverHop();
      const Vector3 r = vectorOf(sim, "signals.rate");
      rates.insert(rates.end(), {r[0], r[1], r[2]});
    }
    return rates;
  };
  CHECK(run(3) == run(3));
  CHECK(run(3) != run(4));
}

TEST_CASE("RateGyro: a hop rolled back by a zero crossing redraws the same noise") {
  // Run B has a zero crossing at t = 0.2055, inside a sensor period: that hop is rolled back
  // (the noise drawn at its sample restored with the discrete states) and re-run to end at the
  // crossing. The body is at rest, so the extra hop boundary changes the integrated angle by
  // rounding only, and every later sample and the stream state match run A.
  const auto run = [](const std::string& type, bool crossing, std::int64_t& streamState) {
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildRig(sim, Vector3::Zero(), Matrix3::Identity());
    sim.set("models.gyro.params.white_noise_density", 1e-3);
    sim.set("models.gyro.params.seed", std::int64_t{23});
    sim.set("models.gyro.params.bias_random_walk", 1e-4);
    sim.set("models.gyro.params.state_type", type);
    int fired = 0;
    if (crossing) {
      sim.registerZeroCrossing(
          "mark", [](Simulation&, double t) { return t - 0.2055; }, CrossingDirection::Rising,
          [&fired](Simulation&, double) { ++fired; });
    }
    sim.lock();
    std::vector<Vector3> rates;
    while (sim.time() < 0.5 - 1e-9) {
      sim.advanceOverHop();
      rates.push_back(vectorOf(sim, "signals.rate"));
    }
    if (crossing) {
      CHECK(fired == 1);
      CHECK(sim.propagationStatistics().rollbacks == 1);
    }
    streamState = std::get<std::int64_t>(sim.get("models.gyro.discreteStates.noise_stream"));
    return rates;
  };
  for (const std::string type : {"CONTINUOUS", "DISCRETE"}) {
    CAPTURE(type);
    std::int64_t streamA = 0, streamB = 0;
    const std::vector<Vector3> a = run(type, false, streamA);
    std::vector<Vector3> b = run(type, true, streamB);
    CHECK(streamA == streamB);
    // B has one more hop (the one ending at the crossing): its rate is the held sample.
    REQUIRE(b.size() == a.size() + 1);
    b.erase(b.begin() + 20);
    for (std::size_t k = 0; k < a.size(); ++k) {
      CAPTURE(k);
      REQUIRE((a[k] - b[k]).norm() < 1e-12);
    }
  }
}

TEST_CASE("RateGyro: bad params and attachments are refused with the field and the value") {
  SUBCASE("unknown state type") {
    Simulation sim({.ioStepSize = kPeriod});
    buildRig(sim, Vector3::Zero(), Matrix3::Identity());
    sim.set("models.gyro.params.state_type", std::string("SOMETIMES"));
    sim.lock();
    CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                         doctest::Contains("state_type = 'SOMETIMES' is not a state type "
                                           "(expected CONTINUOUS or DISCRETE)"),
                         InputError);
  }
  SUBCASE("negative noise density") {
    Simulation sim({.ioStepSize = kPeriod});
    buildRig(sim, Vector3::Zero(), Matrix3::Identity());
    CHECK_THROWS_WITH_AS(sim.set("models.gyro.params.white_noise_density", -1.0),
                         doctest::Contains("white_noise_density"), InputError);
    CHECK_THROWS_WITH_AS(sim.set("models.gyro.params.count_bits", std::int64_t{65}),
                         doctest::Contains("count_bits"), InputError);
    CHECK_THROWS_WITH_AS(sim.set("models.gyro.params.lsb", 0.0), doctest::Contains("lsb"),
                         InputError);
  }
  SUBCASE("missing node") {
    Simulation sim({.ioStepSize = kPeriod});
    buildRig(sim, Vector3::Zero(), Matrix3::Identity());
    dynamic_cast<models::RateGyro&>(sim.model("gyro")).attachToNode("nowhere");
    CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("nowhere"), ModelError);
  }
}

TEST_CASE("RateGyro: the registry creates it by class name") {
  const auto gyro = models::standardRegistry().create("RateGyro", "g");
  CHECK(gyro->spec().className() == "RateGyro");
  CHECK((gyro->kind() == ModelKind::Sensor));
}

}  // namespace hopsim
