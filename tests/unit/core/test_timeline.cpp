// Timeline: the clock, the default grid, the begin-I/O-step mark and the advance targets,
// without a simulation.

#include <doctest/doctest.h>

#include "hopsim/core/timeline.h"

namespace hopsim {

namespace {
constexpr Ticks kSecond = 1'000'000'000;
}

TEST_CASE("timeline: the default I/O step's end walks the grid from the origin") {
  Timeline timeline(5, Period::fromSeconds(1.0 / 3.0, "p"));
  CHECK(timeline.now() == 5);
  CHECK(timeline.defaultIoEnd() == 5);  // the origin before the first hop
  CHECK(timeline.advanceDefaultIoEnd(5) == 5 + 333'333'333);
  CHECK(timeline.advanceDefaultIoEnd(5 + 333'333'333) == 5 + 666'666'667);
  // From off the grid (a hop cut short by a zero crossing): the first barrier after it.
  CHECK(timeline.advanceDefaultIoEnd(5 + 700'000'000) == 5 + kSecond);
  CHECK(timeline.onDefaultGrid(5 + kSecond));
  CHECK(timeline.onDefaultGrid(5 + 333'333'333));
  CHECK_FALSE(timeline.onDefaultGrid(5 + 700'000'000));
}

TEST_CASE("timeline: a default I/O step begins once per barrier, only on the grid") {
  Timeline timeline(0, Period::fromSeconds(0.5, "p"));
  CHECK(timeline.beginDefaultIoStep(0));
  CHECK_FALSE(timeline.beginDefaultIoStep(0));  // a second hop from the same barrier
  CHECK_FALSE(timeline.beginDefaultIoStep(kSecond / 4));
  CHECK(timeline.beginDefaultIoStep(kSecond / 2));
}

TEST_CASE("timeline: the clock moves at hop ends and counts the hops") {
  Timeline timeline(0, Period::fromSeconds(0.5, "p"));
  timeline.endHopAt(kSecond / 2, 0.5);
  timeline.endHopAt(kSecond, 1.0);
  CHECK(timeline.now() == kSecond);
  CHECK(timeline.nowSeconds() == 1.0);
  CHECK(timeline.hopCount() == 2);
  CHECK(timeline.defaultBarrierAfterNow(1) == 3 * kSecond / 2);
  CHECK(timeline.defaultBarrierAfterNow(3) == 5 * kSecond / 2);
}

TEST_CASE("timeline: advance targets are barriers only after the time asked about") {
  Timeline timeline(0, Period::fromSeconds(0.5, "p"));
  CHECK(timeline.nextAdvanceTargetAfter(0) == kNever);
  timeline.addAdvanceTarget(3 * kSecond);
  timeline.addAdvanceTarget(2 * kSecond);
  CHECK(timeline.nextAdvanceTargetAfter(0) == 2 * kSecond);
  CHECK(timeline.nextAdvanceTargetAfter(2 * kSecond) == 3 * kSecond);
  timeline.removeAdvanceTarget(3 * kSecond);
  CHECK(timeline.nextAdvanceTargetAfter(2 * kSecond) == kNever);
}

TEST_CASE("timeline: a new period restarts the grid at the origin, and restore sets the clock") {
  Timeline timeline(0, Period::fromSeconds(0.5, "p"));
  timeline.advanceDefaultIoEnd(0);
  timeline.setIoPeriod(Period::fromSeconds(0.25, "p"));
  CHECK(timeline.defaultIoEnd() == 0);
  CHECK(timeline.advanceDefaultIoEnd(0) == kSecond / 4);

  timeline.restore({kSecond, 7, kSecond});
  CHECK(timeline.now() == kSecond);
  CHECK(timeline.nowSeconds() == 1.0);
  CHECK(timeline.hopCount() == 7);
  CHECK(timeline.save().lastBeginIoStep == kSecond);
  CHECK_FALSE(timeline.beginDefaultIoStep(kSecond));  // begun before the checkpoint
}

}  // namespace hopsim
