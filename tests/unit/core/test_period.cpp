// Period: exact barriers from k, read from seconds or rates; references are integer formulas.

#include <doctest/doctest.h>

#include "hopsim/core/period.h"
#include "hopsim/signals/error.h"

namespace hopsim {

__extension__ typedef __int128 Wide;  // the reference formula's 128-bit integers

TEST_CASE("decimal periods and rates are read as the fractions they denote") {
  const Period p = Period::fromSeconds(0.015, "p");
  CHECK(p.numerator() == 3);
  CHECK(p.denominator() == 200);
  const Period third = Period::fromRate(3.0, "r");
  CHECK(third.numerator() == 1);
  CHECK(third.denominator() == 3);
  const Period fromThird = Period::fromSeconds(1.0 / 3.0, "p");
  CHECK(fromThird.denominator() == 3);
  CHECK(Period::fromRate(2.5, "r").numerator() == 2);  // 0.4 s = 2/5
  CHECK(Period::fromRate(2.5, "r").denominator() == 5);
}

TEST_CASE("barrier k of a 1/3 s period is round(k * 1e9 / 3) ticks for every k to 1e7") {
  const Period third = Period::fromRate(3.0, "r");
  const Ticks origin = 5;
  for (std::int64_t k = 0; k <= 10'000'000; k += (k < 1000 ? 1 : 997)) {
    // Independent reference: integer rounding of k*1e9/3 (remainder 2 rounds up).
    const Ticks expected = origin + (k * 1'000'000'000 + 1) / 3;
    REQUIRE(third.barrier(origin, k) == expected);
  }
}

TEST_CASE("indexAfter finds the first barrier strictly after a time, also next to barriers") {
  const Period third = Period::fromRate(3.0, "r");
  for (std::int64_t k = 0; k < 5000; ++k) {
    const Ticks b = third.barrier(0, k);
    REQUIRE(third.indexAfter(0, b) == k + 1);
    REQUIRE(third.indexAfter(0, b - 1) == k);
    REQUIRE(third.nextAfter(0, b) == third.barrier(0, k + 1));
  }
  CHECK(third.indexAfter(100, 0) == 0);  // before the origin
}

TEST_CASE("whole-tick periods give the barriers and indices of the general formula") {
  // 0.015 s (15e6 ticks), 1/8 s and 4e9 s are whole ticks; their barriers skip the 128-bit
  // divisions, so check them against the rounding formula computed independently here, from
  // negative origins too (a negative start time).
  for (const double seconds : {0.015, 0.125, 1e-9, 4e9}) {
    CAPTURE(seconds);
    const Period p = Period::fromSeconds(seconds, "p");
    const Wide ticksNum = static_cast<Wide>(p.numerator()) * 1'000'000'000;
    for (const Ticks origin : {Ticks{0}, Ticks{-7'000'000'123}, Ticks{42}}) {
      const std::int64_t last = seconds == 4e9 ? 2 : 2000;  // ticks cover 292 years
      for (std::int64_t k = 0; k <= last; ++k) {
        const Wide scaled = static_cast<Wide>(k) * ticksNum;
        const Ticks expected =
            origin + static_cast<Ticks>((scaled + p.denominator() / 2) / p.denominator());
        REQUIRE(p.barrier(origin, k) == expected);
        REQUIRE(p.indexAfter(origin, expected) == k + 1);
        REQUIRE(p.indexAfter(origin, expected - 1) == k);
      }
      CHECK(p.indexAfter(origin, origin - 1) == 0);
    }
  }
}

TEST_CASE("periods shorter than a tick, non-positive or non-finite are refused by name") {
  CHECK_THROWS_WITH_AS(Period::fromSeconds(0.0, "ioStepSize"),
                       doctest::Contains("ioStepSize: period 0 s must be finite and positive"),
                       InputError);
  CHECK_THROWS_AS(Period::fromSeconds(1e-12, "p"), InputError);
  CHECK_THROWS_AS(Period::fromRate(-5.0, "rate"), InputError);
  CHECK_THROWS_AS(Period::fromRate(std::numeric_limits<double>::infinity(), "rate"), InputError);
  CHECK_NOTHROW(Period::fromSeconds(1e-9, "one tick"));
}

}  // namespace hopsim
