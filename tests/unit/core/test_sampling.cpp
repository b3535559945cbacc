// Samplers (Simulation::addSampler): samples at exact times that are not barriers. They must
// leave every result bit unchanged, see the state the integrator computed at their time (checked
// against analytic solutions), see a barrier's values after its events, and refuse misuse.

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "multibody_test_models.h"
#include "same_bits.h"

namespace hopsim {
namespace {

using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::sameBits;

/// A free-flying base carrying a gimbal arm with a driven hinge, a prescribed (masked) pin, a
/// body whose mass changes at t = 0.3 s from maskedCoordinates, a thruster and a probe; beside
/// it a mass-spring whose position feeds nothing. Every kind of value a derivative evaluation
/// writes is in it: masked coordinates, mass properties, multibody inputs and caches, model
/// outputs and derivatives.
std::unique_ptr<Simulation> makeMechanism(const char* integrator) {
  auto sim = std::make_unique<Simulation>(
      SimulationOptions{.ioStepSize = 0.05, .integrationSteps = 3, .integrator = integrator});
  auto& tree = sim->multibody().editModel();
  tree.setGravity({0, 0, -9.81});
  const SpatialInertia M = SpatialInertia::fromCmInertia(1.0, {0, 0, -0.5}, Matrix3::Identity());
  const auto base = tree.addBody("base", multibody::kWorldBody, M, multibody::Hinge::full6Dof());
  const auto arm = tree.addBody("arm", base, M, multibody::Hinge::gimbal());
  const auto driven = tree.addBody("driven", arm, M, multibody::Hinge::pin(Vector3::UnitX()));
  tree.addBody("load", arm, M, multibody::Hinge::pin(Vector3::UnitY()));
  tree.addNode("tip", arm, RigidTransform::fromTranslation({0, 0, -1}));
  sim->multibody().setMasked(driven, 0, true);
  sim->addModel<test::ConstantForce>("thruster").attachToNode("tip");
  sim->set("models.thruster.params.force", std::vector<double>{1.0, 2.0, 3.0});
  sim->addModel<test::NodeProbe>("imu").attachToNode("tip");
  sim->addModel<test::HingeDrive>("motor").attachToHinge("arm", 1);
  sim->set("models.motor.params.f", 0.7);
  sim->addModel<test::SinePin>("drive").attachToHinge("driven");
  sim->addModel<test::MassChanger>(
      "refuel", "load", 0.3,
      SpatialInertia::fromCmInertia(2.5, {0.1, 0, -0.4}, 2 * Matrix3::Identity()));
  test::addSpring(*sim);
  sim->lock();
  return sim;
}

/// The zero crossing "ground": the ball bounces with restitution 0.9; `bounces` gets the times.
void addGround(Simulation& sim, const test::Ball& ball, std::vector<double>& bounces) {
  sim.registerZeroCrossing(
      "ground", [&ball](Simulation&, double) { return ball.height(); }, CrossingDirection::Falling,
      [&ball, &bounces](Simulation& s, double t) {
        bounces.push_back(t);
        s.set("models.ball.continuousStates.v", -0.9 * ball.velocity());
      });
}

/// Bit-for-bit equality (NaN, an output not yet written, equals itself).
/// Everything a run leaves behind that results are made of.
struct RunResult {
  std::vector<double> q, u, spring;
  std::vector<double> recorded;  // an end-of-I/O-step recorder's values, row by row
  std::uint64_t evaluations;
  std::int64_t steps;
};

RunResult runMechanism(const char* integrator, const std::vector<double>& samplerPeriods,
                       std::uint64_t* samplingDerivatives = nullptr) {
  auto sim = makeMechanism(integrator);
  const Recorder perIoStep(*sim, {"multibody.Q", "signals.x"});
  long samples = 0;
  for (double period : samplerPeriods) {
    sim->addSampler(period, [&](Simulation& s, double) {
      ++samples;
      (void)s.get("multibody.U");
    });
  }
  sim->advanceTimeTo(0.6);
  RunResult r;
  const auto q = sim->multibody().q();
  const auto u = sim->multibody().u();
  r.q.assign(q.begin(), q.end());
  r.u.assign(u.begin(), u.end());
  r.spring = {std::get<double>(sim->get("models.spring.continuousStates.x")),
              std::get<double>(sim->get("models.spring.continuousStates.v"))};
  for (std::size_t c = 1; c < perIoStep.columns().size(); ++c) {
    r.recorded.insert(r.recorded.end(), perIoStep.values(c).begin(), perIoStep.values(c).end());
  }
  r.evaluations = sim->propagationStatistics().derivativeEvaluations;
  r.steps = sim->integrator().statistics().steps;
  if (samplingDerivatives != nullptr)
    *samplingDerivatives = sim->propagationStatistics().samplingDerivatives;
  if (!samplerPeriods.empty()) CHECK(samples > 0);
  return r;
}

TEST_CASE("samplers change no result bit, under every integrator") {
  for (const char* integrator : {"euler", "rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    const RunResult plain = runMechanism(integrator, {});
    std::uint64_t sampling = 0;
    // 1 kHz (on the I/O grid every 50 samples) and 1/997 s (never on it) together.
    const RunResult sampled = runMechanism(integrator, {1e-3, 1.0 / 997.0}, &sampling);
    CHECK(sampling > 0);
    CHECK(sameBits(sampled.q, plain.q));
    CHECK(sameBits(sampled.u, plain.u));
    CHECK(sameBits(sampled.spring, plain.spring));
    CHECK(sameBits(sampled.recorded, plain.recorded));
    CHECK(sampled.evaluations == plain.evaluations);
    CHECK(sampled.steps == plain.steps);
  }
}

TEST_CASE("samplers change no result bit when zero crossings roll hops back") {
  const auto run = [](bool sampled) {
    Simulation sim({.ioStepSize = 0.1, .integrator = "rkf45"});
    auto& ball = sim.addModel<test::Ball>("ball");
    sim.lock();
    std::vector<double> bounces;
    addGround(sim, ball, bounces);
    std::vector<double> heights;
    if (sampled) {
      sim.addSampler(1.0 / 300.0, [&](Simulation&, double) { heights.push_back(ball.height()); });
    }
    sim.advanceTimeTo(6.0);
    if (sampled) {
      CHECK(heights.size() == 1801);
      for (double h : heights) CHECK(h > -1e-9);  // never below the ground
    }
    bounces.push_back(ball.height());
    bounces.push_back(ball.velocity());
    return bounces;
  };
  const std::vector<double> plain = run(false);
  REQUIRE(plain.size() >= 4);  // two bounces, then h and v
  CHECK(sameBits(run(true), plain));
}

TEST_CASE("a sample inside a hop sees the state and outputs at its own time") {
  // x = cos t: the states and the output computed from them, against the analytic solution,
  // at 1 kHz inside 0.1 s hops. rkf45's interpolant is 4th order, rk4's cubic extension of its
  // 0.01 s sub-step 3rd order (local error about h^4 / 100 here): all well inside 1e-7.
  IntegratorOptions tight;
  tight.relativeTolerance = 1e-11;
  tight.absoluteTolerance = 1e-12;
  for (const char* integrator : {"rkf45", "cvode", "rk4"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.1,
                    .integrationSteps = 10,
                    .integrator = integrator,
                    .integratorOptions = tight});
    test::addSpring(sim);
    sim.lock();
    std::vector<double> times, x, v, out;
    sim.addSampler(1e-3, [&](Simulation& s, double t) {
      times.push_back(t);
      x.push_back(std::get<double>(s.get("models.spring.continuousStates.x")));
      v.push_back(std::get<double>(s.get("models.spring.continuousStates.v")));
      out.push_back(std::get<double>(s.get("signals.x")));
    });
    sim.advanceTimeTo(1.0);
    REQUIRE(times.size() == 1001);
    for (std::size_t k = 0; k < times.size(); ++k) {
      CAPTURE(times[k]);
      CHECK(times[k] == static_cast<double>(k) / 1000.0);
      CHECK(std::abs(x[k] - std::cos(times[k])) < 1e-7);
      CHECK(std::abs(v[k] + std::sin(times[k])) < 1e-7);
      CHECK(out[k] == x[k]);  // the output was recomputed at the sample
    }
  }
}

TEST_CASE(
    "rk4 samples cost one evaluation each, plus one re-run per sub-step the integrator no longer "
    "holds") {
  // 1 s of 0.1 s hops sampled at 1 kHz: 1001 samples, 11 of them at hop ends (barriers, free),
  // 990 inside hops, one derivative evaluation each. With one sub-step per hop the pass's own
  // step holds the interpolant. With ten, each sub-step holding samples is taken again once (4
  // evaluations): the first re-run replaces the pass's last step, so all ten are.
  for (const int subSteps : {1, 10}) {
    CAPTURE(subSteps);
    Simulation sim({.ioStepSize = 0.1, .integrationSteps = subSteps, .integrator = "rk4"});
    test::addSpring(sim);
    sim.lock();
    std::vector<double> x;
    sim.addSampler(1e-3, [&](Simulation& s, double t) {
      x.push_back(std::get<double>(s.get("models.spring.continuousStates.x")));
      CHECK(std::abs(x.back() - std::cos(t)) < 1e-5);  // rk4 at h = 0.1 s: about 1e-6
    });
    sim.advanceTimeTo(1.0);
    REQUIRE(x.size() == 1001);
    const std::uint64_t reRuns = subSteps == 1 ? 0 : 10 * 10 * 4;
    CHECK(sim.propagationStatistics().samplingDerivatives == 990 + reRuns);
  }
}

TEST_CASE("a sample inside a hop sees what the dynamics computes there: prescribed motion") {
  // The driven pin follows θ = a sin(ω t) exactly (masked coordinates): a sample must see θ(t)
  // at its own time, though the hop's last evaluation was elsewhere.
  auto sim = makeMechanism("rkf45");
  std::vector<double> times, theta;
  const auto index = static_cast<Eigen::Index>(
      sim->multibody().model().qStart(sim->multibody().model().bodyIndex("driven")));
  sim->addSampler(1.0 / 997.0, [&](Simulation& s, double t) {
    times.push_back(t);
    theta.push_back(s.multibody().q()[index]);
  });
  sim->advanceTimeTo(0.5);
  REQUIRE(times.size() == 499);
  for (std::size_t k = 0; k < times.size(); ++k) {
    CAPTURE(times[k]);
    CHECK(theta[k] == doctest::Approx(0.5 * std::sin(2.0 * times[k])).epsilon(1e-14));
  }
}

TEST_CASE("a sample at a barrier sees the values after the barrier's events") {
  Simulation sim({.ioStepSize = 0.1});
  test::addSpring(sim);
  sim.lock();
  sim.registerTimedEvent(
      "kick", 0.25, [](Simulation& s, double) { s.set("models.spring.continuousStates.v", 10.0); });
  std::vector<double> at;
  sim.addSampler(0.05, [&](Simulation& s, double t) {
    if (t == 0.25) at.push_back(std::get<double>(s.get("models.spring.continuousStates.v")));
  });
  sim.advanceTimeTo(0.3);
  REQUIRE(at.size() == 1);
  CHECK(at[0] == 10.0);
}

TEST_CASE("samplers: period and id errors, and no structure changes from inside a sample") {
  Simulation sim;
  test::addSpring(sim);
  sim.lock();
  CHECK_THROWS_AS(sim.addSampler(0.0, [](Simulation&, double) {}), InputError);
  CHECK_THROWS_AS(sim.addSampler(1e-3, nullptr), InputError);
  CHECK_THROWS_WITH_AS(sim.removeSampler(42),
                       "removeSampler: no sampler or event observer has id 42", InputError);
  const SamplerId id = sim.addSampler(
      0.01, [](Simulation& s, double) { s.addSampler(0.5, [](Simulation&, double) {}); });
  CHECK_THROWS_AS(sim.advanceTimeTo(0.1), ModelError);
  sim.removeSampler(id);
  CHECK_THROWS_AS(sim.removeSampler(id), InputError);
  CHECK_NOTHROW(sim.advanceTimeTo(0.2));
}

}  // namespace
}  // namespace hopsim

namespace hopsim {
namespace {

TEST_CASE("a recorder on events samples right after each firing, at its time") {
  Simulation sim({.ioStepSize = 0.1, .integrator = "rkf45"});
  auto& ball = sim.addModel<test::Ball>("ball");
  sim.lock();
  std::vector<double> bounces;
  addGround(sim, ball, bounces);
  sim.registerTimedEvent("gust", 0.75, [](Simulation&, double) {});
  const Recorder onEvents(sim, {"models.ball.continuousStates.v"}, {},
                          Recorder::Triggers{std::nullopt, {"ground", "gu*"}, false});
  const Recorder everyHop(sim, {"models.ball.continuousStates.h"}, {},
                          Recorder::Triggers{std::nullopt, {}, true});
  sim.advanceTimeTo(4.0);
  REQUIRE(bounces.size() == 2);
  REQUIRE(onEvents.rows() == 3);
  CHECK(onEvents.times() == std::vector<double>{0.75, bounces[0], bounces[1]});
  // The first bounce of a drop from 10 m at g = 9.81 m/s^2: sqrt(2 h / g), to the default
  // localization tolerance; the sample shows the velocity after the callback reversed it.
  CHECK(bounces[0] == doctest::Approx(std::sqrt(20.0 / 9.81)).epsilon(1e-9));
  CHECK(onEvents.values(1)[1] == doctest::Approx(0.9 * 9.81 * bounces[0]).epsilon(1e-9));
  // At the start, then at the end of every hop: 40 I/O steps, 2 of them cut by a bounce.
  CHECK(everyHop.rows() == sim.hopCount() + 1);
  CHECK(everyHop.times().front() == 0.0);
  CHECK(everyHop.times().back() == 4.0);
}

TEST_CASE("a recorder's event patterns must match events registered before it") {
  Simulation sim;
  test::addSpring(sim);
  sim.lock();
  sim.registerTimedEvent("release", 0.5, [](Simulation&, double) {});
  CHECK_THROWS_WITH_AS(
      Recorder(sim, {"signals.x"}, {}, Recorder::Triggers{std::nullopt, {"relase"}, false}),
      "logging: event 'relase' matches no event (did you mean 'release'?) (register events "
      "before the recorder)",
      InputError);
  CHECK(sim.samplerCount() == 0);  // nothing left half-built
}

}  // namespace
}  // namespace hopsim

namespace hopsim {
namespace {

TEST_CASE("after a checkpoint restore, a recorder goes on from the restored time") {
  const std::string file =
      (std::filesystem::temp_directory_path() / "hopsim_test_sampling.ckpt").string();
  Simulation sim({.ioStepSize = 0.1});
  test::addSpring(sim);
  sim.lock();
  const Recorder r(sim, {"signals.x"}, 20.0);
  sim.advanceTimeTo(1.0);
  sim.saveCheckpoint(file);
  sim.advanceTimeTo(2.0);
  REQUIRE(r.rows() == 41);
  const double atTwo = r.values(1).back();
  sim.restoreCheckpoint(file);  // back to 1 s: the samples start again there
  sim.advanceTimeTo(2.0);
  REQUIRE(r.rows() == 41 + 21);
  CHECK(r.times()[41] == 1.0);
  CHECK(r.times().back() == 2.0);
  CHECK(r.values(1).back() == atTwo);  // the same run again, bit for bit
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace hopsim
