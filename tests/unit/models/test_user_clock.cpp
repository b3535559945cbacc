// UserClock against its definition: time = baseTime[0] + 1e-9 baseTime[1] + offset + t and
// clockTime = the same instant as [s, ns] with carry, checked in integers by hand.

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

/// A clock "clock" with the given params, tied to signals time and clock.
void build(Simulation& sim, std::vector<std::pair<std::string, Value>> params) {
  sim.addSignal("time", ElementType::Double, 1, "s");
  sim.addSignal("clock", ElementType::Int, 2);
  sim.addModel(models::standardRegistry().create("UserClock", "clock", std::move(params)));
  sim.tie("clock", "time", "time");
  sim.tie("clock", "clockTime", "clock");
}

std::vector<std::int64_t> clock(const Simulation& sim) {
  return std::get<std::vector<std::int64_t>>(sim.get("signals.clock"));
}

}  // namespace

TEST_CASE("UserClock: clockTime carries nanoseconds into seconds, time is the same instant") {
  // An epoch 1 us before a whole second: after 1.5 ms the clock reads 1700000001 s + 1499000 ns.
  Simulation sim({.ioStepSize = 5e-4});
  build(sim, {{"baseTime", std::vector<std::int64_t>{1'700'000'000, 999'999'000}}});
  sim.lock();
  sim.advanceTimeTo(0.0015);
  CHECK(clock(sim) == std::vector<std::int64_t>{1'700'000'001, 1'499'000});
  // The double has ~2.4e-7 s resolution at 1.7e9 s.
  CHECK(std::get<double>(sim.get("signals.time")) ==
        doctest::Approx(1'700'000'001.001499).epsilon(1e-15));
  // Every hop: nanoseconds in range and the total advancing by exactly 500000 ns.
  std::int64_t previous = 1'700'000'001LL * 1'000'000'000LL + 1'499'000;
  for (int k = 1; k <= 4000; ++k) {
    sim.advanceOverHop();
    const auto c = clock(sim);
    CAPTURE(sim.time());
    REQUIRE(c[1] >= 0);
    REQUIRE(c[1] < 1'000'000'000);
    const std::int64_t total = c[0] * 1'000'000'000LL + c[1];
    REQUIRE(total - previous == 500'000);
    previous = total;
  }
  CHECK(clock(sim) == std::vector<std::int64_t>{1'700'000'003, 1'499'000});
}

TEST_CASE("UserClock: nanoseconds below 0 or from 1e9 up in baseTime are normalized with carry") {
  Simulation sim({.ioStepSize = 0.25});
  build(sim, {{"baseTime", std::vector<std::int64_t>{100, -300'000'000}}});
  sim.lock();
  sim.advanceOverHop();  // t = 0.25: 100 s - 0.3 s + 0.25 s = 99.95 s
  CHECK(clock(sim) == std::vector<std::int64_t>{99, 950'000'000});
  CHECK(std::get<double>(sim.get("signals.time")) == doctest::Approx(99.95).epsilon(1e-15));
  sim.set("models.clock.params.baseTime", std::vector<std::int64_t>{7, 2'600'000'000});
  sim.advanceOverHop();  // t = 0.5: 7 s + 2.6 s + 0.5 s = 10.1 s
  CHECK(clock(sim) == std::vector<std::int64_t>{10, 100'000'000});
}

TEST_CASE("UserClock: offset shifts both outputs (scenarios written before baseTime)") {
  Simulation sim({.ioStepSize = 0.1});
  build(sim, {{"offset", 1000.25}, {"baseTime", std::vector<std::int64_t>{5, 0}}});
  sim.lock();
  sim.advanceOverHop();
  CHECK(std::get<double>(sim.get("signals.time")) == 1005.25 + 0.1);
  CHECK(clock(sim) == std::vector<std::int64_t>{1005, 350'000'000});
  CHECK_THROWS_AS(sim.set("models.clock.params.baseTime", std::vector<std::int64_t>{1, 2, 3}),
                  InputError);
}

}  // namespace hopsim
