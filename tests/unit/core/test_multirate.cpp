// Multi-rate timing: exact I/O-step counts over 1e5 s, exact barriers
// over 1e7 periods that are not whole ticks, no hop shorter than a tick.

#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "test_models.h"

namespace hopsim {

TEST_CASE(
    "100 Hz, 2.5 Hz and variable-rate models over 1e5 s fire exactly as often as they "
    "should") {
  Simulation sim({.startTime = 0.0, .ioStepSize = 0.01});
  auto& fast = sim.addModel<test::Probe>("fast");
  auto& slow = sim.addModel<test::Probe>("slow");
  auto& irregular = sim.addModel<test::Probe>("irregular");
  sim.setModelRate("fast", 100.0);
  sim.setModelRate("slow", 2.5);
  // Irregular steps: 0.3, 0.7, 1.1, 0.013, 2.0 s repeating; the callback counts its answers.
  const double deltas[] = {0.3, 0.7, 1.1, 0.013, 2.0};
  long answers = 0;
  sim.registerMultiRateModel("irregular", [&](double now) -> std::optional<double> {
    return now + deltas[answers++ % 5];
  });
  Ticks shortestHop = kNever;
  Ticks previous = 0;
  sim.registerEndHopEvent("hop length", [&](Simulation& s, double) {
    shortestHop = std::min(shortestHop, s.ticks() - previous);
    previous = s.ticks();
  });
  sim.lock();
  sim.advanceTimeTo(1e5);

  CHECK(sim.time() == 100000.0);
  CHECK(fast.endIoSteps == 10'000'000);
  CHECK(slow.endIoSteps == 250'000);
  // Every answer but the last opened a step that has ended by 1e5 s (the last is still open).
  CHECK(irregular.endIoSteps == answers - 1);
  CHECK(irregular.startIoSteps == answers);
  CHECK(shortestHop >= 1);
  CHECK(fast.lastEnd == 100000.0);
  CHECK(slow.lastEnd == 100000.0);
}

namespace {

/// Runs a model with period `period` (given as seconds or as a rate) for 1e7 periods and
/// checks every I/O-step end against `expectedTick(k)`.
void checkExactBarriers(const std::function<void(Simulation&)>& setRate,
                        const std::function<Ticks(std::int64_t)>& expectedTick,
                        double defaultPeriod) {
  Simulation sim({.startTime = 0.0, .ioStepSize = defaultPeriod});
  auto& probe = sim.addModel<test::Probe>("probe");
  setRate(sim);
  std::int64_t k = 0;
  long mismatches = 0;
  probe.onEndIoStep = [&](double tStart, double tEnd) {
    ++k;
    if (tEnd != ticksToSeconds(expectedTick(k)) || tStart != ticksToSeconds(expectedTick(k - 1))) {
      ++mismatches;
    }
  };
  sim.lock();
  sim.advanceTimeTo(ticksToSeconds(expectedTick(10'000'000)));
  CHECK(mismatches == 0);
  CHECK(probe.endIoSteps == 10'000'000);
  CHECK(probe.startIoSteps == 10'000'000);  // no step starts at the final stop before resuming
  CHECK(sim.ticks() == expectedTick(10'000'000));
}

}  // namespace

TEST_CASE(
    "a 3 Hz rate (1/3 s, not whole ticks) neither drifts, skips nor repeats over 1e7 "
    "periods") {
  checkExactBarriers([](Simulation& sim) { sim.setModelRate("probe", 3.0); },
                     [](std::int64_t k) { return (k * 1'000'000'000 + 1) / 3; }, 1.0);
}

TEST_CASE("a 0.015 s period neither drifts, skips nor repeats over 1e7 periods") {
  checkExactBarriers([](Simulation& sim) { sim.setModelPeriod("probe", 0.015); },
                     [](std::int64_t k) { return k * 15'000'000; }, 1.0);
}

TEST_CASE("the default period itself may be 1/3 s and stays exact") {
  checkExactBarriers([](Simulation&) {}, [](std::int64_t k) { return (k * 1'000'000'000 + 1) / 3; },
                     1.0 / 3.0);
}

TEST_CASE("a variable-rate model with no future trigger gets no further I/O steps") {
  Simulation sim;
  auto& probe = sim.addModel<test::Probe>("once");
  sim.registerMultiRateModel("once", [](double now) -> std::optional<double> {
    if (now < 0.5) return 0.5;
    return std::nullopt;
  });
  sim.lock();
  sim.advanceTimeTo(3.0);
  CHECK(probe.startIoSteps == 1);
  CHECK(probe.endIoSteps == 1);
  CHECK(probe.lastEnd == 0.5);
  CHECK(probe.hops == 300);  // it still takes part in every hop
  // A new schedule wakes it: its next I/O step starts at the next hop.
  sim.setModelRate("once", 2.0);
  sim.advanceTimeTo(4.0);
  CHECK(probe.startIoSteps == 3);  // [3, 3.5] and [3.5, 4]
  CHECK(probe.endIoSteps == 3);
}

TEST_CASE("a multi-rate callback returning a time not after now is an error naming the model") {
  Simulation sim;
  sim.addModel<test::Probe>("stuck");
  sim.registerMultiRateModel("stuck", [](double now) -> std::optional<double> { return now; });
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceTimeBy(1.0),
                       doctest::Contains("multi-rate callback of model 'stuck' (Probe)"),
                       ModelError);
}

TEST_CASE("after a multi-rate callback failed, the simulation goes on from the same hop start") {
  Simulation sim({.ioStepSize = 1.0});
  auto& before = sim.addModel<test::Probe>("before");  // on the default period, first in order
  auto& stuck = sim.addModel<test::Probe>("stuck");
  auto& after = sim.addModel<test::Probe>("after");
  bool fail = true;
  sim.registerMultiRateModel(
      "stuck", [&fail](double now) -> std::optional<double> { return fail ? now : now + 0.5; });
  sim.lock();
  // The first hop fails after "before" began its first step and before "after" did.
  CHECK_THROWS_AS(sim.advanceOverHop(), ModelError);
  CHECK(sim.time() == 0.0);
  fail = false;
  sim.advanceTimeTo(2.0);
  CHECK(before.endIoSteps == 2);
  CHECK(after.endIoSteps == 2);
  CHECK(stuck.endIoSteps == 4);
  CHECK(before.lastStart == 1.0);
  CHECK(after.lastEnd == 2.0);
}

TEST_CASE("step(n) advances to the n-th next default barrier, also from off the grid") {
  Simulation sim({.ioStepSize = 0.25});
  sim.addModel<test::Probe>("p");
  sim.lock();
  sim.step(3);
  CHECK(sim.time() == 0.75);
  sim.advanceTimeTo(0.8);
  sim.step();
  CHECK(sim.time() == 1.0);
  sim.advanceTimeBy(0.0);
  CHECK(sim.time() == 1.0);
  CHECK_THROWS_AS(sim.advanceTimeTo(0.5), InputError);
  CHECK_THROWS_AS(sim.step(0), InputError);
}

TEST_CASE(
    "advanceTimeTo to a time off every grid ends a hop there, I/O steps keep their own "
    "ends") {
  Simulation sim({.ioStepSize = 1.0});
  auto& probe = sim.addModel<test::Probe>("p");
  sim.lock();
  sim.advanceTimeTo(0.3);
  CHECK(sim.time() == 0.3);
  CHECK(probe.startIoSteps == 1);
  CHECK(probe.plannedEnd == 1.0);
  CHECK(probe.endIoSteps == 0);  // its step [0, 1] has not ended
  sim.advanceTimeTo(1.0);
  CHECK(probe.endIoSteps == 1);
  CHECK(probe.hops == 2);
  CHECK(probe.minHop == doctest::Approx(0.3));
}

namespace {

/// The I/O steps a probe ended, as (start, end) pairs in seconds.
using Steps = std::vector<std::pair<double, double>>;
void recordSteps(test::Probe& probe, Steps& steps) {
  probe.onEndIoStep = [&steps](double start, double end) { steps.emplace_back(start, end); };
}

/// Equal within a few ulps: barriers of a period that is not whole ticks convert to seconds
/// rounded, as every multi-rate test here allows.
void checkSteps(const Steps& actual, const Steps& expected) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t k = 0; k < actual.size(); ++k) {
    CAPTURE(k);
    CHECK(actual[k].first == doctest::Approx(expected[k].first).epsilon(1e-12));
    CHECK(actual[k].second == doctest::Approx(expected[k].second).epsilon(1e-12));
  }
}

/// Two probes, "a" and "b", on a default period of 1 s, each recording the I/O steps it ends.
struct TwoProbes {
  Simulation sim{SimulationOptions{.ioStepSize = 1.0}};
  test::Probe& a = sim.addModel<test::Probe>("a");
  test::Probe& b = sim.addModel<test::Probe>("b");
  Steps stepsA, stepsB;
  TwoProbes() {
    recordSteps(a, stepsA);
    recordSteps(b, stepsB);
    sim.lock();
  }
};

}  // namespace

TEST_CASE(
    "a model activated off the default grid runs its own I/O step to the next barrier, "
    "then steps with the others") {
  TwoProbes f;
  f.sim.deactivate("b");
  f.sim.advanceTimeTo(1.5);
  f.sim.activate("b");
  f.sim.advanceTimeTo(4.0);
  checkSteps(f.stepsA, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  checkSteps(f.stepsB, {{1.5, 2}, {2, 3}, {3, 4}});
  CHECK(f.a.startIoSteps == 4);
  CHECK(f.b.startIoSteps == 3);
  // Deactivated inside a step, b keeps no step; reactivated, it starts a fresh one.
  f.sim.advanceTimeTo(4.5);
  f.sim.deactivate("b");
  f.sim.advanceTimeTo(5.2);
  f.sim.activate("b");
  f.sim.advanceTimeTo(7.0);
  checkSteps(f.stepsB, {{1.5, 2}, {2, 3}, {3, 4}, {5.2, 6}, {6, 7}});
  CHECK(f.stepsA.size() == 7);
}

TEST_CASE(
    "a model leaving the default period ends its step as planned, and one returning to "
    "it ends its own step first, then steps with the others") {
  TwoProbes f;
  f.sim.advanceTimeTo(0.5);
  f.sim.setModelPeriod("a", 0.3);  // inside [0, 1], which ends at 1 as planned
  f.sim.advanceTimeTo(1.9);
  f.sim.useDefaultPeriod("a");  // inside [1.8, 2.1], which ends at 2.1 as planned
  f.sim.advanceTimeTo(4.0);
  checkSteps(f.stepsA, {{0, 1}, {1, 1.2}, {1.2, 1.5}, {1.5, 1.8}, {1.8, 2.1}, {2.1, 3}, {3, 4}});
  checkSteps(f.stepsB, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
}

}  // namespace hopsim
