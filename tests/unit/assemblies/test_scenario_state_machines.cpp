// A scenario's `state_machines:` section (docs/state-machines.md, "In a scenario"): a ballistic
// fall whose phases switch at the analytic times, the same run built through the C++ API bit
// for bit, and the errors located at file:line:col with their key path.

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <string_view>

#include "../core/same_bits.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/core/state_machines.h"
#include "hopsim/signals/error.h"

namespace hopsim::test {
namespace {

// A unit mass pushed down by 9.81 N with no spring: x = 10 - 9.81 t^2 / 2. rk4 integrates the
// quadratic exactly, so the phase times are the analytic ones to the localization's 1e-10 s.
constexpr std::string_view kFall = R"(hopsim: 1
simulation: {end_time: 5, io_step: 0.1, integrator: rk4}
signals:
  pos: {unit: m}
  vel: {unit: m/s}
  force: {unit: N, value: -9.81}
models:
  ball:
    class: MassSpringDamper
    params: {k: 0}
    ties: {x: pos, v: vel, F: force}
)";

constexpr std::string_view kMachine = R"(state_machines:
  descent:
    initial: coast
    states:
      coast:
      braking:
        entry: [{set: {signals.force: 0}}]
      landed:
        entry: [stop]
    transitions:
      - {from: coast, to: braking, when: {variable: models.ball.continuousStates.x, value: 400 cm, direction: falling}}
      - {from: braking, to: landed, after: 0.5 s}
)";

std::unique_ptr<Scenario> build(std::string_view text) {
  return Scenario::build(parseYaml(text, "test.yaml"), "test.yaml",
                         {"models.ball.continuousStates.x=10"});
}

std::string errorOf(std::string_view text) {
  try {
    (void)build(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("scenario state machines: the phases of a fall switch at the analytic times") {
  const auto s = build(std::string(kFall) + std::string(kMachine));
  s->run();
  REQUIRE(stateMachineNames(s->sim()) == std::vector<std::string>{"descent"});
  const StateMachineModel& descent = stateMachine(s->sim(), "descent");
  CHECK(descent.stateName() == "landed");
  const double braking = std::sqrt(2.0 * 6.0 / 9.81);
  CHECK(std::abs(descent.entered() - (braking + 0.5)) < 1e-9);
  CHECK(std::abs(s->sim().stateTime() - (braking + 0.5)) < 1e-9);  // the stop action ended it
  // Coasting at v = -g t_braking from x = 4 m once the force is gone.
  const double x = std::get<double>(s->sim().get("models.ball.continuousStates.x"));
  CHECK(std::abs(x - (4.0 - 9.81 * braking * 0.5)) < 1e-8);
}

TEST_CASE("scenario state machines: the same machine from C++ gives the same run bit for bit") {
  const auto fromYaml = build(std::string(kFall) + std::string(kMachine));
  fromYaml->run();

  const auto fromCpp = build(kFall);
  MachineState braking{"braking", {MachineAction::setValue("signals.force", Value{0.0})}, {}, {}};
  MachineState landed{"landed", {MachineAction::stopRun()}, {}, {}};
  addStateMachine(
      fromCpp->sim(),
      {"descent",
       {MachineState{"coast", {}, {}, {}}, braking, landed},
       {{"coast",
         "braking",
         MachineGuard::crossing("models.ball.continuousStates.x", 4.0, CrossingDirection::Falling),
         0,
         {}},
        {"braking", "landed", MachineGuard::timeInState(0.5), 0, {}}},
       "coast"});
  fromCpp->run();
  CHECK(sameBits(stateMachine(fromCpp->sim(), "descent").entered(),
                 stateMachine(fromYaml->sim(), "descent").entered()));
  REQUIRE(fromCpp->sim().list() == fromYaml->sim().list());
  for (const std::string& path : fromYaml->sim().list()) {
    CAPTURE(path);
    CHECK(sameBits(fromCpp->sim().get(path), fromYaml->sim().get(path)));
  }
}

TEST_CASE("scenario state machines: bad input is located at its file, line and column") {
  const std::string base(kFall);
  CHECK(errorOf(base + R"(state_machines:
  m:
    states: {a: , b: }
    transitions:
      - {from: a, to: bb, at: 1}
)") == "test.yaml:16:23: state_machines.m.transitions[0].to: unknown state 'bb' (did you "
       "mean 'b' or 'a'?)");
  CHECK(errorOf(base + R"(state_machines:
  m:
    states: {a: , b: }
    transitions:
      - {from: a, to: b, when: {variable: models.ball.params.q}}
)") == "test.yaml:16:43: state_machines.m.transitions[0].when.variable: no variable "
       "'models.ball.params.q' (did you mean 'models.ball.params.c', "
       "'models.ball.params.k' or 'models.ball.params.m'?)");
  CHECK(errorOf(base + R"(state_machines:
  m:
    states:
      a: {entry: [{deactivate: engine}]}
)") == "test.yaml:14:5: state_machines.m: state machine 'm': state 'a' entry: deactivate "
       "'engine': no model named 'engine'");
  CHECK(errorOf(base + R"(state_machines:
  m:
    states: {a: , b: }
    transitions:
      - {from: a, to: b, at: 1, after: 2}
)") == "test.yaml:16:9: state_machines.m.transitions[0]: expected exactly one guard of when, "
       "at, after, on and in; found 2");
  CHECK(errorOf(base + R"(state_machines:
  m:
    states:
      a: {entry: [{explode: now}]}
)") == "test.yaml:15:19: state_machines.m.states.a.entry[0]: unknown action 'explode'");
}

TEST_CASE("scenario state machines: an unreachable state is a located warning") {
  const auto s = build(std::string(kFall) + R"(state_machines:
  m:
    states: {a: , b: , island: }
    transitions:
      - {from: a, to: b, at: 1}
)");
  REQUIRE(s->warnings().size() == 1);
  CHECK(s->warnings()[0] ==
        "test.yaml:14:5: state machine 'm': state 'island' cannot be "
        "reached from the initial state 'a'");
}

}  // namespace hopsim::test
