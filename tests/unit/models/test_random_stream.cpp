// RandomStream: the SplitMix64 reference sequence, pinned normal samples (the same bits on
// every platform), the moments of the normal samples, and a rewound state replaying its draws.

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hopsim/models/random_stream.h"

namespace hopsim {
namespace {

using models::RandomStream;

}  // namespace

TEST_CASE("RandomStream: the bits are the reference SplitMix64 sequence") {
  // The first outputs of Vigna's splitmix64.c seeded with 1234567.
  std::int64_t state = RandomStream::initialState(1234567);
  RandomStream stream(state);
  CHECK(stream.nextBits() == 6457827717110365317ULL);
  CHECK(stream.nextBits() == 3203168211198807973ULL);
  CHECK(stream.nextBits() == 9817491932198370423ULL);
}

TEST_CASE("RandomStream: normal samples are pinned bit for bit") {
  // Integer arithmetic, IEEE +, -, *, /, sqrt and an exact frexp only: a platform (compiler,
  // C library) that changes one of these bits breaks the reproducibility users rely on.
  std::int64_t state = RandomStream::initialState(42);
  RandomStream stream(state);
  // The values (0.49295065581737507, -1.2810773478777027, -0.60187798109573254, ...) are also
  // what an independent Python evaluation of the same algorithm with math.log prints.
  const std::vector<std::uint64_t> expected = {0x3FDF8C80E851C090ULL, 0xBFF47F4AF60C7F95ULL,
                                               0xBFE342959C9FA33FULL, 0xBFF8AD8264F1E64DULL,
                                               0xBFF73962F43D35A9ULL, 0x3FFF0006370CF634ULL};
  for (const std::uint64_t bits : expected) {
    CHECK(std::bit_cast<std::uint64_t>(stream.normal()) == bits);
  }
}

TEST_CASE("RandomStream: the same seed gives the same stream, another seed another one") {
  std::int64_t a = RandomStream::initialState(7), b = RandomStream::initialState(7),
               c = RandomStream::initialState(8);
  RandomStream sa(a), sb(b), sc(c);
  int differing = 0;
  for (int k = 0; k < 1000; ++k) {
    const double x = sa.normal();
    REQUIRE(std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(sb.normal()));
    differing += x != sc.normal() ? 1 : 0;
  }
  CHECK(differing == 1000);
}

TEST_CASE("RandomStream: a restored state replays the same samples") {
  std::int64_t state = RandomStream::initialState(2026);
  RandomStream stream(state);
  for (int k = 0; k < 10; ++k) stream.normal();
  const std::int64_t saved = state;  // what a discrete-state snapshot holds
  std::vector<double> first;
  for (int k = 0; k < 100; ++k) first.push_back(stream.normal());
  state = saved;  // rollback
  for (const double x : first) {
    CHECK(std::bit_cast<std::uint64_t>(stream.normal()) == std::bit_cast<std::uint64_t>(x));
  }
}

TEST_CASE("RandomStream: uniform and normal moments lie within 5-sigma bounds") {
  // n samples: the sample mean of N(0,1) has sigma 1/sqrt(n) and the sample variance
  // sqrt(2/n) (normal fourth moment 3); a uniform(0,1) mean has sigma sqrt(1/12/n).
  constexpr int n = 200000;
  std::int64_t state = RandomStream::initialState(99);
  RandomStream stream(state);
  double sum = 0.0, sumSquares = 0.0, uniformSum = 0.0, largest = 0.0;
  for (int k = 0; k < n; ++k) {
    const double x = stream.normal();
    sum += x;
    sumSquares += x * x;
    largest = std::max(largest, std::fabs(x));
    const double u = stream.uniform();
    REQUIRE(u > 0.0);
    REQUIRE(u < 1.0);
    uniformSum += u;
  }
  const double mean = sum / n;
  const double variance = (sumSquares - n * mean * mean) / (n - 1);
  CHECK(std::fabs(mean) < 5.0 / std::sqrt(n));
  CHECK(std::fabs(variance - 1.0) < 5.0 * std::sqrt(2.0 / n));
  CHECK(std::fabs(uniformSum / n - 0.5) < 5.0 * std::sqrt(1.0 / 12.0 / n));
  // Tails exist: P(|x| > 3.5) = 4.7e-4, so about 93 of the samples go past 3.5.
  CHECK(largest > 3.5);
}

TEST_CASE("RandomStream: portableLog agrees with std::log to a few ulp") {
  // Over (0, 1] where the polar method uses it, and beyond: relative error below 4 ulp, and
  // the exact values ln 1 = 0 and ln 2^k = k ln 2 to 1 ulp.
  std::int64_t state = RandomStream::initialState(3);
  RandomStream stream(state);
  double worst = 0.0;
  for (int k = 0; k < 100000; ++k) {
    const double x = stream.uniform() * std::pow(2.0, (k % 80) - 40);
    const double exact = std::log(x);
    const double error = std::fabs(models::portableLog(x) - exact);
    worst = std::max(worst, error / std::max(std::fabs(exact), 1e-300));
  }
  CHECK(worst < 4.0 * 0x1.0p-52);
  CHECK(models::portableLog(1.0) == 0.0);
  CHECK(models::portableLog(0.25) == doctest::Approx(-2.0 * std::log(2.0)).epsilon(1e-16));
}

}  // namespace hopsim
