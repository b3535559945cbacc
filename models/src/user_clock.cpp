#include "hopsim/models/user_clock.h"

#include <cmath>
#include <cstdint>

namespace hopsim::models {

namespace {

constexpr std::int64_t kNanosecondsPerSecond = 1'000'000'000;

}  // namespace

UserClock::Declaration::Declaration()
    : ModelSpec("UserClock", ModelKind::Flow,
                "A vehicle or site clock: time = baseTime[0] + 1e-9 baseTime[1] + offset + t; "
                "clockTime = the same instant as [seconds, nanoseconds] with carry.") {}

const UserClock::Declaration& UserClock::declaration() {
  static const Declaration declaration;
  return declaration;
}

void UserClock::updateFlowOuts(double t) {
  const auto base = param(d_.baseTime);
  const double elapsed = t + param(d_.offset);
  out(d_.time) =
      (static_cast<double>(base[0]) + 1e-9 * static_cast<double>(base[1]) + param(d_.offset)) + t;
  // Whole seconds and nanoseconds of the elapsed time, then the carry into seconds.
  const double wholeSeconds = std::floor(elapsed);
  const std::int64_t seconds = base[0] + static_cast<std::int64_t>(wholeSeconds);
  std::int64_t nanoseconds =
      base[1] + std::llround((elapsed - wholeSeconds) * static_cast<double>(kNanosecondsPerSecond));
  std::int64_t carry = nanoseconds / kNanosecondsPerSecond;
  nanoseconds -= carry * kNanosecondsPerSecond;
  if (nanoseconds < 0) {
    nanoseconds += kNanosecondsPerSecond;
    --carry;
  }
  auto clock = out(d_.clockTime);
  clock[0] = seconds + carry;
  clock[1] = nanoseconds;
}

}  // namespace hopsim::models
