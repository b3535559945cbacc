// The assembly analysis before t = 0: a mechanism whose file places it off its constraints
// starts on them, positions then velocities projected, and the correction is reported.
#include <doctest/doctest.h>

#include <string>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"
#include "mechanism_test_util.h"

namespace hopsim {
namespace {

using testing::sampleAt;
using testing::TempDir;

// A bob held 1 m from a pivot by a DISTANCE constraint (`distance`, hopsim's extension), but
// placed 1.01 m from it and thrown with a velocity of 0.5 m/s along the rod besides 1 m/s
// across it.
std::string bobModel(const std::string& location, const std::string& velocity) {
  return R"(chrono-version: 10.0
model:
  bodies:
    - {name: ground, location: [0, 0, 0], fixed: true}
    - name: bob
      location: )" +
         location + R"(
      mass: 2
      inertia: {moments: [0.001, 0.001, 0.001]}
      initial_linear_velocity: )" +
         velocity + R"(
  constraints:
    - {name: rod, type: DISTANCE, body1: ground, body2: bob, point1: [0, 0, 0], point2: )" +
         location + R"(, distance: 1.0}
)";
}

bool hasWarning(const Scenario& s, const std::string& part) {
  for (const std::string& w : s.warnings())
    if (w.find(part) != std::string::npos) return true;
  return false;
}

TEST_CASE("initial assembly: a bob 1 cm off its rod starts on it, the correction reported") {
  TempDir dir;
  const std::string file = dir.write("bob.yaml", bobModel("[1.01, 0, 0]", "[0.5, 0, 1]"));
  auto scenario = Scenario::load(file, {"simulation.end_time=0.1"});
  // φ = |p2 - p1| - d = 0.01 m; at the assembled pose G U is the speed along the rod.
  CHECK(hasWarning(*scenario,
                   "bob.yaml: the initial state was assembled onto the constraints before t = 0: "
                   "largest position violation 0.01 (m, or rad), velocity violation 0.5 (m/s"));
  scenario->run();
  const Recorder& r = scenario->recorder();
  // The minimum-norm position step moves the bob along the rod; the mass-metric velocity
  // projection removes the part along it and keeps the rest (both exact but for round-off).
  CHECK(sampleAt(r, "bodies.bob.position.x", 0.0) == doctest::Approx(1.0).epsilon(1e-14));
  CHECK(std::abs(sampleAt(r, "bodies.bob.position.y", 0.0)) < 1e-15);
  CHECK(std::abs(sampleAt(r, "bodies.bob.position.z", 0.0)) < 1e-15);
  CHECK(std::abs(sampleAt(r, "bodies.bob.velocity.x", 0.0)) < 1e-14);
  CHECK(sampleAt(r, "bodies.bob.velocity.z", 0.0) == doctest::Approx(1.0).epsilon(1e-14));
  // And it stays on the rod.
  const double x = sampleAt(r, "bodies.bob.position.x", 0.1);
  const double z = sampleAt(r, "bodies.bob.position.z", 0.1);
  CHECK(std::hypot(x, z) == doctest::Approx(1.0).epsilon(1e-10));
}

TEST_CASE("initial assembly: a mechanism on its constraints is not corrected and not reported") {
  TempDir dir;
  const std::string file = dir.write("bob.yaml", bobModel("[1.0, 0, 0]", "[0, 0, 1]"));
  auto scenario = Scenario::load(file, {"simulation.end_time=0.1"});
  CHECK_FALSE(hasWarning(*scenario, "assembled onto the constraints"));
  scenario->run();
  CHECK(sampleAt(scenario->recorder(), "bodies.bob.position.x", 0.0) == 1.0);
}

TEST_CASE("initial assembly: constraints no pose satisfies are an error naming one of them") {
  // Two rods of 0.2 m from pivots 1 m apart cannot both hold.
  TempDir dir;
  const std::string file = dir.write("torn.yaml", R"(chrono-version: 10.0
model:
  bodies:
    - {name: ground, location: [0, 0, 0], fixed: true}
    - {name: bob, location: [0.5, 0, 0.1], mass: 2, inertia: {moments: [0.001, 0.001, 0.001]}}
  constraints:
    - {name: left, type: DISTANCE, body1: ground, body2: bob, point1: [0, 0, 0], point2: [0.5, 0, 0.1], distance: 0.2}
    - {name: right, type: DISTANCE, body1: ground, body2: bob, point1: [1, 0, 0], point2: [0.5, 0, 0.1], distance: 0.2}
)");
  CHECK_THROWS_WITH_AS(Scenario::load(file), doctest::Contains("is still violated by"),
                       NumericalError);
}

}  // namespace
}  // namespace hopsim
