// PulsedThruster: the impulse of a commanded pulse is level * on_time whatever the I/O steps,
// because the model's zero crossing ends the hop at the pulse end. Reference: the impulse
// J = level * T, read as the momentum m v of a free craft pushed through its CM (no gravity,
// no fuel accounting on the mass), and the fuel used level * T / (isp g0). The located pulse
// end lies within the default time tolerance (1e-10 s) after the true one, so J is exact to
// 1e-10 / T relative (3e-10 here) plus rounding: 1e-9 is the tolerance.

#include <doctest/doctest.h>

#include <cstdint>

#include "hopsim/models/pulsed_thruster.h"
#include "hopsim/signals/error.h"
#include "propulsion_rig.h"

namespace hopsim::test {
namespace {

using spatial::RigidTransform;
using spatial::Vector3;

constexpr double kMass = 20.0, kLevel = 15.0, kIsp = 230.0;

struct PulseRig {
  Simulation sim;
  multibody::BodyIndex body;
  PulseRig(const SimulationOptions& options, double thrusterHertz) : sim(options) {
    const Vector3 c(0.0, 0.0, 0.2);
    body = addCraft(sim, kMass, c, RigidTransform::fromTranslation(c));
    auto& jet = sim.addModel<models::PulsedThruster>("jet");
    jet.attachToNode("nozzle");
    jet.setParam("level", kLevel);
    jet.setParam("isp", kIsp);
    jet.setParam("min_commanded_time", 0.02);
    if (thrusterHertz > 0.0) sim.setModelRate("jet", thrusterHertz);
    addSetSignal(sim, "cmd", ElementType::Double, 0.0);
    addSetSignal(sim, "empty", ElementType::Int, std::int64_t{0});
    sim.tie("jet", "on_time_cmd", "cmd");
    sim.tie("jet", "fuel_empty", "empty");
    tieThrusterOutputs(sim, "jet");
    sim.lock();
  }
  /// Commands one pulse of `onTime` at t = 0 (the command is back to 0 after the first hop,
  /// before the thruster's second sample) and runs to `end`.
  void pulse(double onTime, double end) {
    sim.set("signals.cmd", onTime);
    sim.advanceOverHop();
    sim.set("signals.cmd", 0.0);
    sim.advanceTimeTo(end);
  }
  double impulse() { return kMass * sim.multibody().u(body)[5]; }
};

TEST_CASE("PulsedThruster: impulse level * on_time with I/O steps that do not divide it") {
  struct Case {
    const char* what;
    SimulationOptions options;
    double hertz;
    double onTime;
  };
  const Case cases[] = {
      {"rkf45, thruster at 7 Hz, hops of 0.1 s",
       {.ioStepSize = 0.1, .integrator = "rkf45"},
       7.0,
       0.3719},
      {"rk4 (its cubic continuous extension), hops of 0.07 s",
       {.ioStepSize = 0.07, .integrator = "rk4"},
       0.0,
       0.3719},
      {"cvode, a pulse of 1.234567 s over hops of 0.3 s",
       {.ioStepSize = 0.3, .integrator = "cvode"},
       0.0,
       1.234567},
      {"a pulse ending on an I/O boundary", {.ioStepSize = 0.1, .integrator = "rkf45"}, 0.0, 0.3},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    PulseRig rig(c.options, c.hertz);
    rig.pulse(c.onTime, 2.0);
    CHECK(rig.impulse() == doctest::Approx(kLevel * c.onTime).epsilon(1e-9));
    CHECK(number(rig.sim, "models.jet.continuousStates.fuel_used") ==
          doctest::Approx(kLevel * c.onTime / (kIsp * 9.80665)).epsilon(1e-9));
    CHECK_FALSE(std::get<bool>(rig.sim.get("models.jet.discreteStates.thrusting")));
    CHECK(number(rig.sim, "signals.thrust") == 0.0);
  }
}

TEST_CASE("PulsedThruster: the pulse end fires the model's crossing once, at t0 + on_time") {
  PulseRig rig({.ioStepSize = 0.1, .integrator = "rkf45"}, 0.0);
  REQUIRE(rig.sim.findEvent("jet.pulse_end").has_value());
  rig.sim.set("signals.cmd", 0.25);
  rig.sim.advanceOverHop();
  rig.sim.set("signals.cmd", 0.0);  // sampled again at 0.1: no new pulse
  rig.sim.advanceTimeTo(0.2);
  CHECK(number(rig.sim, "signals.thrust") == kLevel);  // carried over into the third step
  CHECK(number(rig.sim, "models.jet.discreteStates.off_time") == 0.25);
  CHECK(rig.sim.propagationStatistics().crossingsFired == 0);
  rig.sim.advanceTimeTo(0.3);
  CHECK(rig.sim.propagationStatistics().crossingsFired == 1);
  // The hop ended at the pulse end: the time grid gained that instant.
  CHECK(rig.impulse() == doctest::Approx(kLevel * 0.25).epsilon(1e-9));
}

TEST_CASE("PulsedThruster: the sampled command does not feed through, the empty flag does") {
  const ModelSpec& spec = models::PulsedThruster::declaration();
  const std::size_t command = spec.indexOf(FieldRole::FlowIn, "on_time_cmd");
  const std::size_t empty = spec.indexOf(FieldRole::FlowIn, "fuel_empty");
  for (const char* output : {"thrust", "fuel_flow"}) {
    CAPTURE(output);
    const std::size_t o = spec.indexOf(FieldRole::FlowOut, output);
    CHECK_FALSE(spec.feedsThrough(command, o));
    CHECK(spec.feedsThrough(empty, o));
  }
  CHECK_FALSE(spec.feedsThrough(empty, spec.indexOf(FieldRole::FlowOut, "fuel_used")));
}

TEST_CASE("PulsedThruster: commands below min_commanded_time are ignored, a new one replaces") {
  PulseRig rig({.ioStepSize = 0.1, .integrator = "rkf45"}, 0.0);
  rig.pulse(0.01, 0.5);  // below the 0.02 s minimum
  CHECK(rig.impulse() == 0.0);
  // A pulse of 0.35 s commanded at 0.5, replaced at 0.6 by one of 0.05 s: 0.1 + 0.05 s of thrust.
  rig.sim.set("signals.cmd", 0.35);
  rig.sim.advanceOverHop();
  rig.sim.set("signals.cmd", 0.05);
  rig.sim.advanceOverHop();
  rig.sim.set("signals.cmd", 0.0);
  rig.sim.advanceTimeTo(1.5);
  CHECK(rig.impulse() == doctest::Approx(kLevel * 0.15).epsilon(1e-9));
}

}  // namespace
}  // namespace hopsim::test
