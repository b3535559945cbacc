#include "hopsim/core/period.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim {
namespace {

__extension__ typedef __int128 Wide;  // GCC and Clang both provide it

struct Fraction {
  std::int64_t num;
  std::int64_t den;
};

/// The simplest fraction p/q (q <= 10^9) whose value rounds to `x`, by continued fractions;
/// or none, in which case den is 0.
Fraction simplestFraction(double x) {
  constexpr std::int64_t kMaxDenominator = 1'000'000'000;
  const double tolerance = 4.0 * std::abs(x) * std::numeric_limits<double>::epsilon();
  // Convergents h/k of the continued fraction of x.
  std::int64_t h0 = 0, h1 = 1, k0 = 1, k1 = 0;
  double rest = x;
  for (int iteration = 0; iteration < 64; ++iteration) {
    const double whole = std::floor(rest);
    if (whole > 9.0e18) break;
    const auto a = static_cast<std::int64_t>(whole);
    const Wide h2 = static_cast<Wide>(a) * h1 + h0;
    const Wide k2 = static_cast<Wide>(a) * k1 + k0;
    if (k2 > kMaxDenominator || h2 > static_cast<Wide>(INT64_MAX)) break;
    h0 = h1, h1 = static_cast<std::int64_t>(h2), k0 = k1, k1 = static_cast<std::int64_t>(k2);
    if (std::abs(static_cast<double>(h1) / static_cast<double>(k1) - x) <= tolerance) {
      return {h1, k1};
    }
    const double fractional = rest - whole;
    if (fractional == 0.0) break;
    rest = 1.0 / fractional;
  }
  return {0, 0};
}

}  // namespace

Period::Period(std::int64_t num, std::int64_t den) : num_(num), den_(den), wholeTicks_(0) {
  const Wide ticks = static_cast<Wide>(num) * kTicksPerSecond;
  if (ticks % den == 0) wholeTicks_ = static_cast<std::int64_t>(ticks / den);
}

Period Period::fromFraction(std::int64_t num, std::int64_t den, std::string_view what) {
  const std::int64_t g = std::gcd(num, den);
  num /= g;
  den /= g;
  // At least one tick, at most 4e9 s.
  if (static_cast<Wide>(num) * kTicksPerSecond < den ||
      static_cast<Wide>(num) > static_cast<Wide>(den) * 4'000'000'000LL) {
    throw InputError(std::string(what) + ": period " + describeValue(double(num) / double(den)) +
                     " s is outside [1e-9, 4e9] s");
  }
  return {num, den};
}

Period Period::fromSeconds(double seconds, std::string_view what) {
  if (!std::isfinite(seconds) || seconds <= 0.0) {
    throw InputError(std::string(what) + ": period " + describeValue(seconds) +
                     " s must be finite and positive");
  }
  const Fraction f = simplestFraction(seconds);
  if (f.den != 0) return fromFraction(f.num, f.den, what);
  return fromFraction(secondsToTicks(seconds, what), kTicksPerSecond, what);
}

Period Period::fromRate(double hertz, std::string_view what) {
  if (!std::isfinite(hertz) || hertz <= 0.0) {
    throw InputError(std::string(what) + ": rate " + describeValue(hertz) +
                     " Hz must be finite and positive");
  }
  const Fraction f = simplestFraction(hertz);
  if (f.den != 0) return fromFraction(f.den, f.num, what);
  return fromSeconds(1.0 / hertz, what);
}

Ticks Period::barrier(Ticks origin, std::int64_t k) const {
  if (wholeTicks_ != 0) return origin + static_cast<Ticks>(static_cast<Wide>(k) * wholeTicks_);
  // round(k * num * 1e9 / den), half away from zero for k >= 0 (barriers never precede origin).
  const Wide scaled = static_cast<Wide>(k) * num_ * kTicksPerSecond;
  return origin + static_cast<Ticks>((scaled + den_ / 2) / den_);
}

std::int64_t Period::indexAfter(Ticks origin, Ticks t) const {
  if (t < origin) return 0;
  if (wholeTicks_ != 0) return (t - origin) / wholeTicks_ + 1;
  // Estimate from the exact quotient, then correct for the rounding in barrier().
  const Wide ticksPerPeriodNum = static_cast<Wide>(num_) * kTicksPerSecond;
  auto k = static_cast<std::int64_t>(static_cast<Wide>(t - origin) * den_ / ticksPerPeriodNum);
  while (k > 0 && barrier(origin, k - 1) > t) --k;
  while (barrier(origin, k) <= t) ++k;
  return k;
}

}  // namespace hopsim
