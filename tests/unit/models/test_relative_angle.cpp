// RelativeAngle: the direction angle of (to - from) in the XY plane, unwrapped across ±π,
// against the angles the test sets.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/relative_angle.h"

namespace hopsim {
namespace {

/// A RelativeAngle reading `from` and `to`, with `to` set before each hop.
struct AngleRig {
  explicit AngleRig(double initial) {
    sim.addSignal("from", ElementType::Double, 3);
    sim.addSignal("to", ElementType::Double, 3);
    sim.addSignal("theta", ElementType::Double);
    sim.addModel<models::RelativeAngle>("angle").setParam("initial", initial);
    sim.tie("angle", "from", "from");
    sim.tie("angle", "to", "to");
    sim.tie("angle", "angle", "theta");
    sim.set("signals.from", std::vector<double>{1.0, -2.0, 0.5});
  }
  /// θ after a hop with `to` at direction `direction` from `from` (distance `r`, any z).
  double hop(double direction, double r = 2.0) {
    sim.set("signals.to", std::vector<double>{1.0 + r * std::cos(direction),
                                              -2.0 + r * std::sin(direction), 7.0});
    if (!sim.locked()) sim.lock();
    sim.advanceTimeBy(0.1);
    return std::get<double>(sim.get("signals.theta"));
  }
  Simulation sim{{.ioStepSize = 0.1}};
};

TEST_CASE("RelativeAngle: unwraps a vector turning through several turns either way") {
  AngleRig rig(0.0);
  // Steps of 2 rad (< π): the angle follows without the ±π jumps of atan2, to round-off.
  for (int k = 0; k <= 10; ++k) CHECK(rig.hop(2.0 * k) == doctest::Approx(2.0 * k).epsilon(1e-14));
  for (int k = 9; k >= -6; --k) CHECK(rig.hop(2.0 * k) == doctest::Approx(2.0 * k).epsilon(1e-14));
}

TEST_CASE("RelativeAngle: `initial` picks the branch, a zero vector keeps the last angle") {
  AngleRig rig(2.0 * std::numbers::pi);
  CHECK(rig.hop(0.3) == doctest::Approx(2.0 * std::numbers::pi + 0.3));
  CHECK(rig.hop(0.0, 0.0) == doctest::Approx(2.0 * std::numbers::pi + 0.3));  // no direction
  CHECK(rig.hop(-0.2) == doctest::Approx(2.0 * std::numbers::pi - 0.2));
}

}  // namespace
}  // namespace hopsim
