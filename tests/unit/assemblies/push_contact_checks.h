#pragma once
// A Chrono simulation file in which a driven body pushes a spring-mounted one through contact,
// checked against the contact geometry and the rest the springs settle into: used on the
// project's shuttle (test_contact_lowering.cpp) and on Chrono's slider-crank
// (tests/unit/shared_data/test_contact_example.cpp).

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "hopsim/core/recorder.h"
#include "mechanism_test_util.h"

namespace hopsim::testing {

/// What a pushing run must show.
struct PushingRun {
  std::string pusher, pushed;  ///< the driven body and the spring-mounted one, along x
  double touching;             ///< pushed x - pusher x in contact, m (less the penetration)
  double lowest, highest;      ///< the range of the pushed body's x, m
  double maxKinetic;           ///< J, at every sample
  double restTime;             ///< s: the drive has stopped and the spring settled by then
};

/// Checks a recorded run (with contact, so with the `system.*` columns) against `expected`:
/// every value finite, the pushed body within its range, in contact at `touching` from the
/// pusher (to relative 2e-3: the penetration is well under 1 mm), pushed at least once, and at
/// rest (kinetic energy below 1e-6 J, momentum along x below 1e-3 kg m/s) at `restTime`.
inline void checkPushingRun(const Recorder& r, const PushingRun& expected) {
  const auto column = [&](const std::string& name) { return r.values(r.column(name)); };
  const auto pushed = column("bodies." + expected.pushed + ".position.x");
  const auto pusher = column("bodies." + expected.pusher + ".position.x");
  const auto count = column("contact.contact_count");
  const auto kinetic = column("system.kinetic_energy");
  bool pushes = false;
  for (std::size_t i = 0; i < pushed.size(); ++i) {
    CAPTURE(r.times()[i]);
    for (std::size_t c = 1; c < r.columns().size(); ++c) REQUIRE(std::isfinite(r.values(c)[i]));
    CHECK(pushed[i] > expected.lowest);
    CHECK(pushed[i] < expected.highest);
    CHECK(kinetic[i] < expected.maxKinetic);
    if (count[i] > 0.0) {
      pushes = true;
      CHECK(pushed[i] - pusher[i] == doctest::Approx(expected.touching).epsilon(2e-3));
    }
  }
  CHECK(pushes);
  CHECK(sampleAt(r, "system.kinetic_energy", expected.restTime) < 1e-6);
  CHECK(std::abs(sampleAt(r, "system.linear_momentum.x", expected.restTime)) < 1e-3);
}

}  // namespace hopsim::testing
