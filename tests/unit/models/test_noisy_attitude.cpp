// NoisyAttitude and NoisyNodePosVelAccelSensor against their error model. The rig is a body on a
// PIN about the vertical z spinning at w0 (under a constant torque a for the accelerations),
// so the true attitude is q_WN = q(R_z(w0 t + a t^2 / 2) R_BN), which rk4 integrates exactly up
// to rounding: the 1e-12 tolerances of the deterministic checks. The noise checks compare
// sample moments with the closed forms of the uniform draws (u on [-1, 1] has mean 0, variance
// 1/3), within 5 standard deviations of the estimate.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/generalized_force_motor.h"
#include "hopsim/models/noisy_attitude.h"
#include "hopsim/models/noisy_node_pos_vel_accel_sensor.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "sensor_samples.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::Quaternion;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::Moments;
using test::momentsOf;
using test::vectorOf;

constexpr double kW0 = 3.0, kJ = 0.4, kG0 = 9.81;
const Vector3 kR(0.25, -0.15, 0.3);
const Matrix3 kR_BN = spatial::rotationFromAxisAngle(Vector3(-1, 2, 0.5).normalized(), 1.1);

/// A body on a PIN about z spinning at kW0 under `torque`, with the node "probe" and a sensor
/// "att" of class M on it; its outputs are tied to signals of the same names.
template <class M>
M& buildRig(Simulation& sim, double torque = 0.0) {
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody(
      "rotor", kWorldBody,
      SpatialInertia::fromCmInertia(2.0, Vector3(0, 0, -0.2), Vector3(0.3, 0.3, kJ).asDiagonal()),
      Hinge::pin(Vector3::UnitZ()));
  tree.addNode("probe", b, RigidTransform(kR_BN, kR));
  sim.multibody().u(b)[0] = kW0;
  sim.multibody().setGravity(Vector3(0, 0, -kG0));
  sim.addSignal("torque", ElementType::Double, 1, "N*m");
  sim.set("signals.torque", torque);
  sim.addModel<models::GeneralizedForceMotor>("motor").attachToHinge("rotor");
  sim.tie("motor", "force", "torque");
  M& sensor = sim.addModel<M>("att");
  sensor.attachToNode("probe");
  for (const char* name : {"noise_level", "noisy_attitude"}) {
    sim.addSignal(name, ElementType::Double, 4);
    sim.tie("att", name, name);
  }
  return sensor;
}

Quaternion quaternionOf(const Simulation& sim, const std::string& path) {
  const auto v = std::get<std::vector<double>>(sim.get(path));
  REQUIRE(v.size() == 4);
  return {v[0], v[1], v[2], v[3]};
}

/// The true attitude of the probe at time t under the angular acceleration `alpha`.
Quaternion trueAttitude(double t, double alpha = 0.0) {
  const double theta = kW0 * t + 0.5 * alpha * t * t;
  return spatial::quaternionFromRotation(spatial::rotationFromAxisAngle(Vector3::UnitZ(), theta) *
                                         kR_BN);
}

/// q up to its sign, with e0 >= 0.
Quaternion canonical(const Quaternion& q) { return q[0] < 0.0 ? Quaternion(-q) : q; }

/// The mean of x within 5 sigma of `mean`, its variance within 5 sigma of `variance` (the
/// sample variance of n independent draws has variance (mu4 - variance^2) / n, mu4 the fourth
/// central moment).
void checkMoments(const std::vector<double>& x, double mean, double variance, double mu4) {
  const Moments m = momentsOf(x);
  const double n = static_cast<double>(x.size());
  CAPTURE(m.mean);
  CAPTURE(m.variance);
  CAPTURE(variance);
  CHECK(std::fabs(m.mean - mean) < 5.0 * std::sqrt(variance / n));
  CHECK(std::fabs(m.variance - variance) < 5.0 * std::sqrt((mu4 - variance * variance) / n));
}

}  // namespace

TEST_CASE("NoisyAttitude: noise off, the output is the true attitude") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  buildRig<models::NoisyAttitude>(sim);
  sim.set("models.att.params.noise_switch", false);
  sim.set("models.att.params.sig_att_noise", 0.1);
  sim.set("models.att.params.sig_init_error", 0.1);
  sim.lock();
  double worst = 0.0;
  for (int k = 0; k < 100; ++k) {
    sim.advanceOverHop();
    worst = std::max(
        worst, (quaternionOf(sim, "signals.noisy_attitude") - trueAttitude(sim.time())).norm());
    REQUIRE(quaternionOf(sim, "signals.noise_level") == spatial::quaternionIdentity());
  }
  CHECK(worst < 1e-12);
  CHECK(std::get<std::int64_t>(sim.get("models.att.discreteStates.samples")) == 0);
}

TEST_CASE("NoisyAttitude: the output is the true attitude times the normalized error quaternion") {
  // Without white noise the error is exactly normalize(initial_error + drift_rand_state), both
  // discrete states; noisy_attitude = q_WN ⊗ e (the error in node axes).
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  buildRig<models::NoisyAttitude>(sim);
  sim.set("models.att.params.sig_init_error", 0.05);
  sim.set("models.att.params.sig_gyro_drift", 0.2);
  sim.set("models.att.params.gyro_random_walk", 0.05);
  sim.set("models.att.params.seed", std::int64_t{7});
  sim.lock();
  double worst = 0.0;
  for (int k = 0; k < 100; ++k) {
    sim.advanceOverHop();
    const Quaternion e = quaternionOf(sim, "signals.noise_level");
    const Quaternion initial = quaternionOf(sim, "models.att.discreteStates.initial_error");
    const Quaternion drift = quaternionOf(sim, "models.att.discreteStates.drift_rand_state");
    REQUIRE((e - canonical((initial + drift).normalized())).norm() < 1e-15);
    REQUIRE((initial - spatial::quaternionIdentity()).cwiseAbs().maxCoeff() <= 0.05);
    const Quaternion expected = canonical(spatial::quaternionProduct(trueAttitude(sim.time()), e));
    worst = std::max(worst, (quaternionOf(sim, "signals.noisy_attitude") - expected).norm());
  }
  CHECK(worst < 1e-12);
  // The error is real: a random walk away from the initial error.
  CHECK(quaternionOf(sim, "models.att.discreteStates.drift_rand_state").norm() > 1e-3);
}

TEST_CASE("NoisyAttitude: white noise ratios e_i/e0 have the closed-form moments") {
  // With only white noise of half-width s, e = normalize(1 + s u0, s u1, s u2, s u3), so the
  // ratio r = e_i / e0 = s u_i / (1 + s u0) has mean 0, variance s^2/3 E[(1 + s u0)^-2] =
  // s^2 / (3 (1 - s^2)) and fourth moment s^4/5 E[(1 + s u0)^-4] = s^4/5 ((1 - s)^-3 -
  // (1 + s)^-3) / (6 s). Consecutive samples are independent: the lag-1 correlation of r is
  // within 5/sqrt(n) of 0.
  constexpr double s = 0.2;
  constexpr int kSamples = 3000;
  Simulation sim({.ioStepSize = 0.01});
  buildRig<models::NoisyAttitude>(sim);
  sim.set("models.att.params.sig_att_noise", s);
  sim.set("models.att.params.seed", std::int64_t{11});
  sim.lock();
  std::vector<double> ratios;
  std::vector<double> first;
  for (int k = 0; k < kSamples; ++k) {
    sim.advanceOverHop();
    const Quaternion e = quaternionOf(sim, "signals.noise_level");
    for (int i = 1; i < 4; ++i) ratios.push_back(e[i] / e[0]);
    first.push_back(e[1] / e[0]);
  }
  const double variance = s * s / (3.0 * (1.0 - s * s));
  const double mu4 =
      std::pow(s, 4) / 5.0 * (std::pow(1.0 - s, -3) - std::pow(1.0 + s, -3)) / (6.0 * s);
  checkMoments(ratios, 0.0, variance, mu4);
  double lag = 0.0;
  for (std::size_t k = 1; k < first.size(); ++k) lag += first[k] * first[k - 1];
  lag /= static_cast<double>(first.size() - 1) * variance;
  CHECK(std::fabs(lag) < 5.0 / std::sqrt(static_cast<double>(kSamples)));
}

TEST_CASE("NoisyAttitude: the random walk steps with variance ((D h)^2 + K^2 h) / 3 per period") {
  // Samples every h = 20 ms on 10 ms hops: a step of drift_rand_state is D h u + K sqrt(h) u'
  // with u, u' uniform on [-1, 1], of variance ((D h)^2 + K^2 h) / 3 and fourth moment
  // E[(a u + b u')^4] = (a^4 + b^4) / 5 + 2 a^2 b^2 / 3; sums of m steps have m times the
  // variance (a random walk), checked on the 4 elements for m = 1 and 10.
  constexpr double kD = 0.5, kK = 0.02, h = 0.02;
  Simulation sim({.ioStepSize = 0.01});
  buildRig<models::NoisyAttitude>(sim);
  sim.set("models.att.params.sig_gyro_drift", kD);
  sim.set("models.att.params.gyro_random_walk", kK);
  sim.set("models.att.params.seed", std::int64_t{5});
  sim.setModelRate("att", 1.0 / h);
  sim.lock();
  std::vector<Quaternion> walk;
  for (int k = 0; k < 8001; ++k) {
    sim.advanceOverHop();
    if (k % 2 == 0) walk.push_back(quaternionOf(sim, "models.att.discreteStates.drift_rand_state"));
  }
  CHECK(walk.front() == Quaternion::Zero());
  const double a = kD * h, b = kK * std::sqrt(h);
  for (const int m : {1, 10}) {
    CAPTURE(m);
    std::vector<double> steps;
    for (std::size_t k = m; k < walk.size(); k += m) {
      for (int i = 0; i < 4; ++i) steps.push_back(walk[k][i] - walk[k - m][i]);
    }
    const double stepVariance = (a * a + b * b) / 3.0;
    const double stepMu4 = (std::pow(a, 4) + std::pow(b, 4)) / 5.0 + 2.0 * a * a * b * b / 3.0;
    // A sum of m independent steps: variance m v, fourth moment m mu4 + 3 m (m - 1) v^2.
    checkMoments(steps, 0.0, m * stepVariance,
                 m * stepMu4 + 3.0 * m * (m - 1) * stepVariance * stepVariance);
  }
}

TEST_CASE("NoisyAttitude: the initial error is uniform of half-width sig_init_error, then held") {
  // 300 seeds: initial_error - identity has 4 independent uniform elements of half-width s
  // (mean 0, variance s^2/3, fourth moment s^4/5); without other noise the error quaternion
  // stays at normalize(initial_error).
  constexpr double s = 0.1;
  std::vector<double> draws;
  for (std::int64_t seed = 1; seed <= 300; ++seed) {
    Simulation sim({.ioStepSize = 0.01});
    buildRig<models::NoisyAttitude>(sim);
    sim.set("models.att.params.sig_init_error", s);
    sim.set("models.att.params.seed", seed);
    sim.lock();
    sim.advanceOverHop();
    const Quaternion e = quaternionOf(sim, "signals.noise_level");
    sim.advanceOverHop();
    sim.advanceOverHop();
    REQUIRE(quaternionOf(sim, "signals.noise_level") == e);
    const Quaternion initial = quaternionOf(sim, "models.att.discreteStates.initial_error");
    REQUIRE((e - canonical(initial.normalized())).norm() < 1e-15);
    for (int i = 0; i < 4; ++i) draws.push_back(initial[i] - (i == 0 ? 1.0 : 0.0));
  }
  checkMoments(draws, 0.0, s * s / 3.0, std::pow(s, 4) / 5.0);
}

TEST_CASE("NoisyAttitude: a seed gives the same bits, through a checkpoint too") {
  const auto configure = [](Simulation& sim, std::int64_t seed) {
    buildRig<models::NoisyAttitude>(sim);
    sim.set("models.att.params.sig_init_error", 0.01);
    sim.set("models.att.params.sig_att_noise", 0.01);
    sim.set("models.att.params.sig_gyro_drift", 0.01);
    sim.set("models.att.params.gyro_random_walk", 0.01);
    sim.set("models.att.params.seed", seed);
  };
  const auto samples = [](Simulation& sim, int hops) {
    std::vector<Quaternion> out;
    for (int k = 0; k < hops; ++k) {
      sim.advanceOverHop();
      out.push_back(quaternionOf(sim, "signals.noisy_attitude"));
    }
    return out;
  };
  const auto run = [&](std::int64_t seed) {
    Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
    configure(sim, seed);
    sim.lock();
    return samples(sim, 60);
  };
  const std::vector<Quaternion> reference = run(3);
  CHECK(run(3) == reference);
  CHECK(run(4) != reference);

  const std::string file =
      (std::filesystem::temp_directory_path() / "hopsim_noisy_attitude_checkpoint.txt").string();
  {
    Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
    configure(sim, 3);
    sim.lock();
    samples(sim, 30);
    sim.saveCheckpoint(file);
  }
  Simulation restored({.ioStepSize = 0.01, .integrator = "rk4"});
  configure(restored, 3);
  restored.lock();
  restored.restoreCheckpoint(file);
  std::remove(file.c_str());
  const std::vector<Quaternion> rest = samples(restored, 30);
  CHECK(std::vector<Quaternion>(reference.begin() + 30, reference.end()) == rest);
}

TEST_CASE("NoisyAttitude: bad params and attachments are refused with the field and the value") {
  Simulation sim({.ioStepSize = 0.01});
  auto& sensor = buildRig<models::NoisyAttitude>(sim);
  for (const char* name :
       {"sig_init_error", "sig_att_noise", "sig_gyro_drift", "gyro_random_walk"}) {
    CHECK_THROWS_WITH_AS(sim.set(std::string("models.att.params.") + name, -0.1),
                         doctest::Contains(name), InputError);
  }
  CHECK_THROWS_WITH(
      models::standardRegistry().create("NoisyAttitude", "a", {{"sig_att_noise", -1.0}}),
      doctest::Contains("sig_att_noise"));
  sensor.attachToNode("nowhere");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("nowhere"), ModelError);
}

TEST_CASE("NoisyNodePosVelAccelSensor: true attitude and specific force, with the same noise") {
  // Under the torque the spin grows at alpha = torque / J: the truth outputs follow the closed
  // form of the NodePosVelAccelSensor test, and the error quaternion is NoisyAttitude's for the
  // same seed, bit for bit.
  constexpr double kTorque = 0.2, kAlpha = kTorque / kJ;
  const auto configure = [](Simulation& sim) {
    sim.set("models.att.params.sig_att_noise", 0.02);
    sim.set("models.att.params.gyro_random_walk", 0.01);
    sim.set("models.att.params.seed", std::int64_t{9});
  };
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  buildRig<models::NoisyNodePosVelAccelSensor>(sim, kTorque);
  sim.addSignal("quat_truth", ElementType::Double, 4);
  sim.tie("att", "quat_truth", "quat_truth");
  sim.addSignal("f", ElementType::Double, 3);
  sim.tie("att", "bodySensedAccel_truth", "f");
  configure(sim);
  sim.setBonusDerivativeEvaluation(true);
  sim.lock();
  Simulation reference({.ioStepSize = 0.01, .integrator = "rk4"});
  buildRig<models::NoisyAttitude>(reference, kTorque);
  configure(reference);
  reference.lock();
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    sim.advanceOverHop();
    reference.advanceOverHop();
    const double t = sim.time(), w = kW0 + kAlpha * t;
    const Matrix3 R_WB =
        spatial::rotationFromAxisAngle(Vector3::UnitZ(), kW0 * t + 0.5 * kAlpha * t * t);
    const Vector3 ez = Vector3::UnitZ(), p = R_WB * kR;
    const Vector3 a = kAlpha * ez.cross(p) + w * ez.cross(w * ez.cross(p));
    const Vector3 f = (R_WB * kR_BN).transpose() * (a - Vector3(0, 0, -kG0));
    const Quaternion q = trueAttitude(t, kAlpha);
    worst = std::max(worst, (vectorOf(sim, "signals.f") - f).norm());
    worst = std::max(worst, (quaternionOf(sim, "signals.quat_truth") - q).norm());
    const Quaternion e = quaternionOf(sim, "signals.noise_level");
    REQUIRE(e == quaternionOf(reference, "signals.noise_level"));
    worst = std::max(worst, (quaternionOf(sim, "signals.noisy_attitude") -
                             canonical(spatial::quaternionProduct(q, e)))
                                .norm());
  }
  CHECK(worst < 1e-10);
}

TEST_CASE("NoisyAttitude and NoisyNodePosVelAccelSensor: the registry creates them by name") {
  for (const char* name : {"NoisyAttitude", "NoisyNodePosVelAccelSensor"}) {
    const auto sensor = models::standardRegistry().create(
        name, "s", {{"sig_att_noise", 0.01}, {"seed", std::int64_t{4}}});
    CHECK(sensor->spec().className() == name);
  }
}

}  // namespace hopsim
