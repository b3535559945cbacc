// State machines (StateMachines, Simulation::addStateMachine): guards located by the
// zero-crossing machinery against analytic times, instantaneous guards, actions, priorities,
// the machine state in snapshots and checkpoints, and the errors of a bad machine.
// References: the analytic free fall h = h0 - g t^2 / 2, v = -g t.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/snapshot.h"
#include "hopsim/core/state_machines.h"
#include "hopsim/signals/error.h"
#include "same_bits.h"
#include "temp_dir.h"

namespace hopsim::test {
namespace {

constexpr double kG = 9.81;   // Ball's default g, m/s^2
constexpr double kH0 = 10.0;  // Ball's default h, m

IntegratorOptions tight() {
  IntegratorOptions options;
  options.relativeTolerance = 1e-12;
  options.absoluteTolerance = 1e-12;
  return options;
}

MachineState state(std::string name) { return MachineState{std::move(name), {}, {}, {}}; }

MachineTransition transition(std::string from, std::string to, MachineGuard guard,
                             int priority = 0) {
  return MachineTransition{std::move(from), std::move(to), std::move(guard), priority, {}};
}

// A ball and a two-phase machine switching at a guard; returns the machine.
const StateMachineModel& addPhases(Simulation& sim, MachineGuard guard) {
  sim.addModel<Ball>("ball");
  sim.lock();
  addStateMachine(sim, {"phases",
                        {state("coast"), state("braking")},
                        {transition("coast", "braking", std::move(guard))}});
  return stateMachine(sim, "phases");
}

// Machine `index` of `sim`, in the order they were added.
const StateMachineModel& machine(const Simulation& sim, std::size_t index) {
  return stateMachine(sim, stateMachineNames(sim).at(index));
}

}  // namespace

TEST_CASE("state machines: a phase at an altitude starts at the analytic time of the fall") {
  // Trigger at h = 4 m falling: t = sqrt(2 (h0 - 4) / g). rk4 integrates the quadratic h
  // exactly and its cubic continuous extension interpolates it exactly; rkf45 and cvode at
  // tolerances of 1e-12 carry errors far below 1e-9 s. The located time is the bracket's
  // crossed end, at most timeTolerance (1e-10 s) after the crossing.
  const double expected = std::sqrt(2.0 * (kH0 - 4.0) / kG);
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.1, .integrator = integrator, .integratorOptions = tight()});
    const StateMachineModel& m = addPhases(
        sim,
        MachineGuard::crossing("models.ball.continuousStates.h", 4.0, CrossingDirection::Falling));
    sim.advanceTimeTo(2.0);
    CHECK(m.stateName() == "braking");
    CHECK(std::abs(m.entered() - expected) < 1e-9);
    CHECK(sim.get("models.phases.discreteStates.state") == Value{std::int64_t{1}});
    CHECK(sim.findEvent("phases.coast->braking").has_value());  // the transition is an event
  }
}

TEST_CASE("state machines: a phase at a speed starts at the analytic time with every integrator") {
  // v = -g t is linear: every integrator, the first-order ones included, integrates it exactly,
  // so the trigger at v = -5 m/s is at 5 / g to the localization's 1e-10 s.
  const double expected = 5.0 / kG;
  for (const std::string& integrator : integratorNames()) {
    CAPTURE(integrator);
    Simulation sim({.ioStepSize = 0.1, .integrator = integrator, .integratorOptions = tight()});
    const StateMachineModel& m = addPhases(
        sim,
        MachineGuard::crossing("models.ball.continuousStates.v", -5.0, CrossingDirection::Falling));
    sim.advanceTimeTo(1.0);
    CHECK(m.stateName() == "braking");
    CHECK(std::abs(m.entered() - expected) < 1e-9);
  }
}

TEST_CASE("state machines: time and time-in-state guards fire at their times, off the hop grid") {
  Simulation sim({.ioStepSize = 0.1});
  sim.addModel<Ball>("ball");
  sim.lock();
  std::vector<double> entries;
  MachineState b = state("b");
  b.entry.push_back(
      MachineAction::call("note", [&](Simulation&, double t) { entries.push_back(t); }));
  MachineState c = state("c");
  c.entry = b.entry;
  addStateMachine(sim, {"clock",
                        {state("a"), b, c},
                        {transition("a", "b", MachineGuard::atTime(0.25)),
                         transition("b", "c", MachineGuard::timeInState(0.33))}});
  sim.advanceTimeTo(1.0);
  REQUIRE(entries.size() == 2);
  CHECK(std::abs(entries[0] - 0.25) < 1e-9);
  CHECK(std::abs(entries[1] - 0.58) < 1e-9);
  CHECK(sim.get("models.clock.discreteStates.state") == Value{std::int64_t{2}});
}

TEST_CASE("state machines: a time guard already past on entry fires at once") {
  Simulation sim({.ioStepSize = 0.1});
  sim.lock();
  sim.advanceTimeTo(0.5);
  addStateMachine(
      sim, {"late", {state("a"), state("b")}, {transition("a", "b", MachineGuard::atTime(0.2))}});
  CHECK(machine(sim, 0).stateName() == "b");
  CHECK(machine(sim, 0).entered() == sim.time());
}

TEST_CASE("state machines: of guards holding together, the lowest priority fires") {
  Simulation sim({.ioStepSize = 0.1});
  sim.lock();
  addStateMachine(sim, {"pick",
                        {state("a"), state("b"), state("c")},
                        {transition("a", "b", MachineGuard::atTime(0.3), 5),
                         transition("a", "c", MachineGuard::atTime(0.3), -1)}});
  sim.advanceTimeTo(0.5);
  CHECK(machine(sim, 0).stateName() == "c");
}

TEST_CASE("state machines: event guards, raised events and another machine's state") {
  Simulation sim({.ioStepSize = 0.1});
  sim.lock();
  sim.registerTimedEvent("ignite", 0.3, [](Simulation&, double) {});
  MachineState burning = state("burning");
  burning.entry.push_back(MachineAction::raise("lit"));
  addStateMachine(sim, {"engine",
                        {state("off"), burning},
                        {transition("off", "burning", MachineGuard::onEvent("ignite"))}});
  addStateMachine(sim, {"light",
                        {state("dark"), state("bright")},
                        {transition("dark", "bright", MachineGuard::onEvent("lit"))}});
  addStateMachine(sim,
                  {"follower",
                   {state("waiting"), state("going")},
                   {transition("waiting", "going", MachineGuard::inState("engine", "burning"))}});
  sim.advanceTimeTo(0.2);
  CHECK(machine(sim, 0).stateName() == "off");
  CHECK(machine(sim, 2).stateName() == "waiting");
  sim.advanceTimeTo(0.5);
  for (std::size_t m = 0; m < 3; ++m) {
    CAPTURE(m);
    CHECK(machine(sim, m).entered() == doctest::Approx(0.3).epsilon(1e-12));
    CHECK(machine(sim, m).entered() == machine(sim, 0).entered());
  }
  CHECK(machine(sim, 1).stateName() == "bright");
  CHECK(machine(sim, 2).stateName() == "going");
}

TEST_CASE("state machines: actions set values, deactivate models, count hops and stop the run") {
  Simulation sim({.ioStepSize = 0.1});
  Ball& ball = sim.addModel<Ball>("ball");
  sim.lock();
  int duringCalls = 0;
  MachineState coast = state("coast");
  coast.during.push_back(MachineAction::call("count", [&](Simulation&, double) { ++duringCalls; }));
  coast.exit.push_back(MachineAction::setValue("models.ball.params.g", Value{0.0}));
  MachineState landed = state("landed");
  landed.entry.push_back(MachineAction::deactivate("ball"));
  landed.entry.push_back(MachineAction::stopRun());
  addStateMachine(sim, {"lander",
                        {coast, landed},
                        {transition("coast", "landed",
                                    MachineGuard::crossing("models.ball.continuousStates.h", 0.0,
                                                           CrossingDirection::Falling))}});
  sim.advanceTimeTo(100.0);  // the stop action ends it at the touchdown
  const double touchdown = std::sqrt(2.0 * kH0 / kG);
  CHECK(std::abs(sim.stateTime() - touchdown) < 1e-9);
  CHECK(sim.get("models.ball.params.g") == Value{0.0});
  // The hops ending at 0.1 .. 1.4 s end in coast; at the touchdown the crossing's transition
  // runs before the end-hop check, which finds the machine in landed.
  CHECK(duringCalls == 14);
  const double landedHeight = ball.height();
  sim.advanceTimeTo(2.0);  // the ball is deactivated: it stays where it landed
  CHECK(sameBits(ball.height(), landedHeight));
}

TEST_CASE("state machines: the state is in snapshots and checkpoints, bit for bit") {
  const auto build = [](Simulation& sim) {
    sim.addModel<Ball>("ball");
    sim.lock();
    addStateMachine(sim, {"phases",
                          {state("coast"), state("braking"), state("hover")},
                          {transition("coast", "braking",
                                      MachineGuard::crossing("models.ball.continuousStates.h", 6.0,
                                                             CrossingDirection::Falling)),
                           transition("braking", "hover", MachineGuard::timeInState(0.123))}});
  };
  const SimulationOptions options{.ioStepSize = 0.05, .integrator = "rkf45"};
  Simulation straight(options);
  build(straight);
  straight.advanceTimeTo(2.0);

  testing::TempDir dir;
  const std::string file = dir.path() + "/machines.ckpt";
  {
    Simulation first(options);
    build(first);
    first.advanceTimeTo(0.95);  // in braking: the checkpoint holds a state that is not the initial
    REQUIRE(machine(first, 0).stateName() == "braking");
    first.saveCheckpoint(file);
  }
  Simulation resumed(options);
  build(resumed);
  REQUIRE(machine(resumed, 0).stateName() == "coast");
  resumed.restoreCheckpoint(file);
  CHECK(machine(resumed, 0).stateName() == "braking");
  resumed.advanceTimeTo(2.0);
  CHECK(machine(resumed, 0).stateName() == "hover");
  CHECK(sameBits(machine(resumed, 0).entered(), machine(straight, 0).entered()));
  for (const std::string& path : straight.list()) {
    CAPTURE(path);
    CHECK(sameBits(resumed.get(path), straight.get(path)));
  }

  // A snapshot taken in coast and applied in hover puts the machine back in coast.
  Simulation sim(options);
  build(sim);
  const Snapshot before = SnapshotAccess::take(sim);
  sim.advanceTimeTo(2.0);
  REQUIRE(machine(sim, 0).stateName() == "hover");
  SnapshotAccess::apply(sim, before);
  CHECK(machine(sim, 0).stateName() == "coast");
  sim.advanceTimeTo(2.0);
  CHECK(sameBits(machine(sim, 0).entered(), machine(straight, 0).entered()));
}

TEST_CASE("state machines: a bad machine is a clear error and changes nothing") {
  Simulation sim({.ioStepSize = 0.1});
  sim.addModel<Ball>("ball");
  sim.addSignal("name", ElementType::String);
  sim.lock();
  const std::size_t variables = sim.list().size();
  const std::size_t events = sim.listEvents().size();
  const std::vector<std::string> models = sim.modelNames();
  const auto refused = [&](StateMachineSpec spec, const std::string& message) {
    CAPTURE(message);
    CHECK_THROWS_WITH_AS(addStateMachine(sim, std::move(spec)), doctest::Contains(message.c_str()),
                         InputError);
    CHECK(stateMachineNames(sim).empty());
    CHECK(sim.modelNames() == models);
    CHECK(sim.list().size() == variables);
    CHECK(sim.listEvents().size() == events);
    CHECK(sim.locked());
  };
  refused({"m",
           {state("coast"), state("brake")},
           {transition("coast", "brakes", MachineGuard::atTime(1.0))}},
          "state machine 'm': transition 0 (coast -> brakes): unknown state 'brakes' (did you "
          "mean 'brake'?)");
  refused({"m",
           {state("a"), state("b")},
           {transition("a", "b",
                       MachineGuard::crossing("signals.name", 1.0, CrossingDirection::Rising))}},
          "guard on 'signals.name', a string; expected a numeric variable");
  refused({"m",
           {state("a"), state("b")},
           {transition("a", "b",
                       MachineGuard::crossing("models.ball.continuousStates.h", 1.0,
                                              CrossingDirection::Rising, 1))}},
          "guard on 'models.ball.continuousStates.h' element 1: it has 1 element");
  MachineState a = state("a");
  a.entry.push_back(MachineAction::deactivate("engine"));
  refused({"m", {a}, {}}, "state 'a' entry: deactivate 'engine': no model named 'engine'");
  refused(
      {"m", {state("a"), state("b")}, {transition("a", "b", MachineGuard::inState("other", "x"))}},
      "no state machine named 'other'");
  refused({"m", {state("a"), state("a")}, {}}, "state 'a' is declared twice");

  // A loop of instantaneous transitions names its states.
  CHECK_THROWS_WITH_AS(
      addStateMachine(sim, {"m",
                            {state("a"), state("b")},
                            {transition("a", "b", MachineGuard::timeInState(0.0)),
                             transition("b", "a", MachineGuard::timeInState(0.0))}}),
      doctest::Contains("a loop of instantaneous transitions at t = 0 s: m.a -> m.b -> m.a"),
      ModelError);
  CHECK(stateMachineNames(sim).empty());
  CHECK(sim.modelNames() == models);
  CHECK(sim.list().size() == variables);
  CHECK(sim.listEvents().size() == events);
  CHECK(sim.locked());
}

TEST_CASE("state machines: an unreachable state is a warning") {
  Simulation sim({.ioStepSize = 0.1});
  sim.lock();
  const std::vector<std::string> warnings =
      addStateMachine(sim, {"m",
                            {state("a"), state("b"), state("island")},
                            {transition("a", "b", MachineGuard::atTime(1.0))}});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        "state machine 'm': state 'island' cannot be reached from the initial state 'a'");
}

}  // namespace hopsim::test
