#include "hopsim/models/random_stream.h"

#include <cmath>

// A fused multiply-add would round differently from the separate operations the results are
// pinned to; GCC does not contract in ISO C++ mode (the project's -std=c++20), clang must be
// told.
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace hopsim::models {

std::uint64_t RandomStream::nextBits() {
  // Unsigned arithmetic wraps modulo 2^64; int64 <-> uint64 conversions are modular (C++20).
  std::uint64_t z = static_cast<std::uint64_t>(state_) + 0x9E3779B97F4A7C15ULL;
  state_ = static_cast<std::int64_t>(z);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double RandomStream::uniform() {
  constexpr double kUnit = 0x1.0p-53;
  return (static_cast<double>(nextBits() >> 11) + 0.5) * kUnit;
}

double RandomStream::normal() {
  for (;;) {
    const double v1 = 2.0 * uniform() - 1.0;
    const double v2 = 2.0 * uniform() - 1.0;
    const double s = v1 * v1 + v2 * v2;
    if (s < 1.0 && s > 0.0) return v1 * std::sqrt(-2.0 * portableLog(s) / s);
  }
}

double portableLog(double x) {
  // x = m 2^e exactly, then m moved into [sqrt(1/2), sqrt(2)) so that t = (m - 1)/(m + 1) has
  // |t| <= 0.1716 and ln m = 2 atanh t = 2 (t + t^3/3 + t^5/5 + ...): with t^2 <= 0.0295 the
  // terms after t^25/25 are below 1e-18 relative, so the fixed 13-term sum is exact to
  // rounding.
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  double series = 1.0 / 25.0;
  for (int k = 11; k >= 0; --k) series = 1.0 / (2 * k + 1) + t2 * series;
  constexpr double kLn2 = 0.69314718055994530942;
  return static_cast<double>(e) * kLn2 + 2.0 * t * series;
}

}  // namespace hopsim::models
