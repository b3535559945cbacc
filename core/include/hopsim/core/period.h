#pragma once
/// @file
/// Period: an exact, drift-free periodic schedule.

#include <cstdint>
#include <string_view>

#include "hopsim/core/time.h"

namespace hopsim {

/// A period held as an exact rational number of seconds, num/den. Barrier k of a schedule with
/// origin t0 is t0 + round(k * num * 1e9 / den) ticks, computed from k alone, so 10^7 periods
/// of 1/3 s (a 3 Hz rate) or of 0.015 s neither drift, skip nor repeat a barrier.
class Period {
 public:
  /// The period `seconds`, read as the simplest fraction that the double represents (0.015 is
  /// 3/200, 0.3333333333333333 is 1/3); values with no short fraction keep whole ticks.
  /// @throws InputError naming `what` unless 1 ns <= seconds <= 4e9 s.
  static Period fromSeconds(double seconds, std::string_view what);
  /// The period of a rate in Hz (3 Hz -> 1/3 s exactly).
  /// @throws InputError naming `what` unless the period is within range.
  static Period fromRate(double hertz, std::string_view what);

  /// Barrier k of a schedule starting at `origin`.
  Ticks barrier(Ticks origin, std::int64_t k) const;
  /// The smallest k with barrier(origin, k) > t.
  std::int64_t indexAfter(Ticks origin, Ticks t) const;
  /// The first barrier strictly after t.
  Ticks nextAfter(Ticks origin, Ticks t) const { return barrier(origin, indexAfter(origin, t)); }

  double seconds() const { return static_cast<double>(num_) / static_cast<double>(den_); }
  std::int64_t numerator() const { return num_; }
  std::int64_t denominator() const { return den_; }

 private:
  Period(std::int64_t num, std::int64_t den);
  static Period fromFraction(std::int64_t num, std::int64_t den, std::string_view what);

  std::int64_t num_;
  std::int64_t den_;
  // The period in ticks when that is a whole number (0.01 s, 1/8 s; not 1/3 s), else 0: the
  // barriers are then multiples of it, found without the 128-bit divisions of the general case
  // (every hop asks for the next one).
  std::int64_t wholeTicks_;
};

}  // namespace hopsim
