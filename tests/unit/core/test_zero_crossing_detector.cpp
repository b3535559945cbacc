// ZeroCrossingDetector alone: the trigger rule, localization, the conditions that fire together,
// the memory that keeps one crossing from firing twice, chattering, one-shot conditions and
// removal while firing, and the refusals. The residuals are known functions of the state, and
// the state is the time the host last put into the "models": the crossings are known exactly.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/zero_crossing_detector.h"
#include "hopsim/signals/error.h"

namespace hopsim::test {
namespace {

/// A host whose state is a time: setStateAt(t) puts X(t) = t into the "models".
struct TimeHost final : ZeroCrossingDetector::Host {
  Simulation& simulation() override { return sim; }
  void refreshOutputs(double t) override {
    CHECK(t == state);  // the outputs are refreshed for the state the models hold
  }
  void setStateAt(double t) override { state = t; }
  int recordedSubSteps() override { return 1; }
  double setSubStepState(int) override {
    FAIL("no sub-step states recorded");
    return 0.0;
  }
  void backToHopEnd(double t) override { state = t; }
  void crossingFired(const std::string& name, double t) override { fired.emplace_back(name, t); }

  Simulation sim;
  double state = 0.0;
  std::vector<std::pair<std::string, double>> fired;
};

/// A residual of the host's state.
template <class F>
ZeroCrossingResidual of(TimeHost& host, F f) {
  return [&host, f](Simulation&, double t) {
    CHECK(t == host.state);  // residuals are asked with the state at their time in the models
    return f(host.state);
  };
}

EventCallback journal(std::vector<std::pair<std::string, double>>& calls, std::string name) {
  return [&calls, name](Simulation&, double t) { calls.emplace_back(name, t); };
}

/// One hop from a to b as the executive runs it: the start signs with X(a), the integration to
/// X(b), then locate. Returns whether the hop must be run again; t1 and x1 are where it ends.
bool hop(ZeroCrossingDetector& detector, TimeHost& host, double a, double b, Ticks& t1,
         double& x1) {
  host.state = a;
  detector.evaluateStartSigns(host, a);
  host.state = b;
  t1 = roundToTicks(b);
  x1 = b;
  return detector.locate(host, roundToTicks(a), t1, x1);
}

// A hop from a to b that must find a crossing, run again to end at it, then the crossings
// there fired: returns the located end.
double hopToCrossingAndFire(ZeroCrossingDetector& detector, TimeHost& host, double a, double b) {
  Ticks t1 = 0;
  double x1 = 0.0;
  REQUIRE(hop(detector, host, a, b, t1, x1));
  host.state = x1;
  detector.fire(host, x1);
  return x1;
}

}  // namespace

TEST_CASE("zero-crossing detector: a crossing inside a hop is located and ends the hop there") {
  PropagationStatistics statistics;
  ZeroCrossingDetector detector(statistics);
  TimeHost host;
  std::vector<std::pair<std::string, double>> calls;
  // cos falls through zero at pi/2.
  detector.add("cos", of(host, [](double x) { return std::cos(x); }), CrossingDirection::Falling,
               journal(calls, "cos"), {.timeTolerance = 1e-12});
  Ticks t1 = 0;
  double x1 = 0.0;
  REQUIRE(hop(detector, host, 1.5, 1.6, t1, x1));
  // Reported at the bracket's far end: at most the tolerance after the true crossing.
  const double crossing = std::numbers::pi / 2.0;
  CHECK(x1 >= crossing);
  CHECK(x1 - crossing <= 1e-12);
  CHECK(t1 == roundToTicks(x1));
  CHECK(statistics.localizationResiduals > 0);
  REQUIRE(detector.firing());
  host.state = x1;  // the hop run again to end there
  detector.fire(host, x1);
  CHECK(!detector.firing());
  CHECK((calls == std::vector<std::pair<std::string, double>>{{"cos", x1}}));
  CHECK((host.fired == calls));
  CHECK(statistics.crossingsFired == 1);

  // A hop without a sign change triggers nothing and leaves the models at its end.
  statistics = {};
  CHECK(!hop(detector, host, 1.7, 1.8, t1, x1));
  CHECK(!detector.firing());
  CHECK(host.state == 1.8);
  CHECK(statistics.localizationResiduals == 0);
}

TEST_CASE("zero-crossing detector: direction decides which sign changes trigger") {
  PropagationStatistics statistics;
  ZeroCrossingDetector detector(statistics);
  TimeHost host;
  std::vector<std::pair<std::string, double>> calls;
  const auto falling = of(host, [](double x) { return 1.0 - x; });  // falls through zero at 1
  detector.add("rising", falling, CrossingDirection::Rising, journal(calls, "rising"), {});
  detector.add("either", falling, CrossingDirection::Either, journal(calls, "either"), {});
  detector.add("falling", falling, CrossingDirection::Falling, journal(calls, "falling"), {});
  hopToCrossingAndFire(detector, host, 0.5, 1.5);
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].first == "either");
  CHECK(calls[1].first == "falling");
  CHECK(std::abs(calls[0].second - 1.0) <= 1e-10);  // the default time tolerance
}

TEST_CASE(
    "zero-crossing detector: conditions within their tolerance of the earliest fire with it") {
  PropagationStatistics statistics;
  ZeroCrossingDetector detector(statistics);
  TimeHost host;
  std::vector<std::pair<std::string, double>> calls;
  const auto at = [&host](double c) { return of(host, [c](double x) { return c - x; }); };
  detector.add("a", at(1.2), CrossingDirection::Either, journal(calls, "a"), {.priority = 1});
  detector.add("b", at(1.2 + 1e-11), CrossingDirection::Either, journal(calls, "b"), {});
  detector.add("late", at(1.3), CrossingDirection::Either, journal(calls, "late"), {});
  CHECK(std::abs(hopToCrossingAndFire(detector, host, 1.0, 1.5) - 1.2) <= 1e-10);
  // By priority, then registration: b (0) before a (1); late, 0.1 s on, waits for its own hop.
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].first == "b");
  CHECK(calls[1].first == "a");
}

TEST_CASE("zero-crossing detector: a residual still at its fired value does not fire again") {
  PropagationStatistics statistics;
  ZeroCrossingDetector detector(statistics);
  TimeHost host;
  std::vector<std::pair<std::string, double>> calls;
  detector.add("cos", of(host, [](double x) { return std::cos(x); }), CrossingDirection::Falling,
               journal(calls, "cos"), {});
  Ticks t1 = 0;
  double x1 = 0.0;
  REQUIRE(hop(detector, host, 1.5, 1.6, t1, x1));
  // The re-run ends a little before the crossing (integration noise): the residual there is
  // still on the starting side, positive.
  const double rerunEnd = std::numbers::pi / 2.0 - 1e-9;
  host.state = rerunEnd;
  detector.fire(host, rerunEnd);
  REQUIRE(calls.size() == 1);
  // The next hop starts where it fired: the condition counts as crossed, so the residual
  // reaching the negative side in this hop is the same crossing, not a new one.
  CHECK(!hop(detector, host, rerunEnd, 2.0, t1, x1));
  CHECK(!detector.firing());
  // Once it has moved off the fired value, a new sign change triggers again.
  CHECK(hop(detector, host, 4.0, 5.0, t1, x1) == false);  // rising through 3 pi / 2: not wanted
  CHECK(hop(detector, host, 7.0, 8.0, t1, x1));           // falling through 5 pi / 2
}

TEST_CASE("zero-crossing detector: hops ended by crossings without advancing stop at the limit") {
  PropagationStatistics statistics;
  ZeroCrossingDetector detector(statistics);
  TimeHost host;
  double edge = 0.0;  // the residual steps down just after each hop start
  detector.add("step", of(host, [&edge](double x) { return x < edge ? 1.0 : -1.0; }),
               CrossingDirection::Either, [](Simulation&, double) {}, {});
  detector.setChatteringLimit(3);
  Ticks t1 = 0;
  double x1 = 0.0;
  double t0 = 1.0;
  for (int k = 0; k < 2; ++k) {
    edge = t0 + 2e-10;
    hop(detector, host, t0, t0 + 0.1, t1, x1);
    CHECK(t1 == roundToTicks(t0) + 1);  // one tick into the hop
    host.state = x1;
    detector.fire(host, x1);
    t0 = ticksToSeconds(t1);
  }
  edge = t0 + 2e-10;
  CHECK_THROWS_WITH_AS(hop(detector, host, t0, t0 + 0.1, t1, x1),
                       doctest::Contains("zero-crossing chattering: 'step' triggered 3 hops"),
                       NumericalError);
  CHECK(!detector.firing());
}

TEST_CASE("zero-crossing detector: one-shot conditions, and removal while firing") {
  PropagationStatistics statistics;
  ZeroCrossingDetector detector(statistics);
  TimeHost host;
  std::vector<std::pair<std::string, double>> calls;
  const auto line = of(host, [](double x) { return 1.0 - x; });
  detector.add("once", line, CrossingDirection::Either,
               [&](Simulation&, double t) {
                 calls.emplace_back("once", t);
                 CHECK(detector.remove("victim"));  // due to fire with it: it does not
               },
               {.oneShot = true});
  detector.add("victim", line, CrossingDirection::Either, journal(calls, "victim"), {});
  detector.add("kept", line, CrossingDirection::Either, journal(calls, "kept"), {});
  hopToCrossingAndFire(detector, host, 0.5, 1.5);
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].first == "once");
  CHECK(calls[1].first == "kept");
  CHECK(!detector.has("once"));
  CHECK(!detector.has("victim"));
  CHECK(detector.size() == 1);
  CHECK((detector.find("kept")->kind == EventKind::ZeroCrossing));
}

TEST_CASE("zero-crossing detector: the memory across hops saved and restored") {
  PropagationStatistics statistics;
  ZeroCrossingDetector detector(statistics);
  TimeHost host;
  // cos has no exact zero in doubles: the located end has crossed, to a negative residual.
  detector.add("cos", of(host, [](double x) { return std::cos(x); }), CrossingDirection::Either,
               [](Simulation&, double) {}, {});
  std::vector<Snapshot::CrossingMemory> before;
  int chatteringBefore = -1;
  detector.save(before, chatteringBefore);
  hopToCrossingAndFire(detector, host, 1.5, 1.6);
  std::vector<Snapshot::CrossingMemory> after;
  int chatteringAfter = -1;
  detector.save(after, chatteringAfter);
  REQUIRE(after.size() == 1);
  CHECK(after[0].afterFiring);
  CHECK(after[0].crossedSign == -1);
  detector.restore(before, chatteringBefore);
  std::vector<Snapshot::CrossingMemory> restored;
  int chatteringRestored = -1;
  detector.save(restored, chatteringRestored);
  CHECK(!restored[0].afterFiring);
  CHECK(chatteringRestored == chatteringBefore);
}

TEST_CASE("zero-crossing detector: refusals name the condition and the bad value") {
  PropagationStatistics statistics;
  ZeroCrossingDetector detector(statistics);
  TimeHost host;
  const auto line = of(host, [](double x) { return 1.0 - x; });
  const EventCallback none = [](Simulation&, double) {};
  CHECK_THROWS_WITH_AS(detector.add("g", nullptr, CrossingDirection::Either, none, {}),
                       "zero crossing 'g': no residual function", InputError);
  CHECK_THROWS_WITH_AS(detector.add("g", line, CrossingDirection::Either, nullptr, {}),
                       "event 'g': no callback", InputError);
  CHECK_THROWS_WITH_AS(
      detector.add("g", line, CrossingDirection::Either, none, {.timeTolerance = 0.0}),
      doctest::Contains("zero crossing 'g': timeTolerance = 0 s; expected a positive time"),
      InputError);
  CHECK_THROWS_WITH_AS(
      detector.add("g", line, CrossingDirection::Either, none, {.valueTolerance = -1.0}),
      doctest::Contains("zero crossing 'g': valueTolerance = -1; expected a value >= 0"),
      InputError);
  CHECK_THROWS_WITH_AS(detector.setChatteringLimit(0), "setChatteringLimit: 0 must be >= 1",
                       InputError);
  CHECK(detector.empty());
  CHECK(!detector.remove("g"));
}

}  // namespace hopsim::test
