// ArcTraj against the rover convention worked by hand: mode 0 turns in place at the nominal
// yaw rate, mode ±1 moves at ± the nominal speed with yaw rate v / radius (the chassis then
// follows the circle of that radius). Outputs are one multiplication or division: exact.

#include <doctest/doctest.h>

#include <cstdint>
#include <variant>

#include "hopsim/core/simulation.h"
#include "hopsim/models/arc_traj.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

struct Velocities {
  double linear, angular;
};

/// ArcTraj (v_nom = 0.4 m/s, w_nom = -0.25 rad/s) for one command, after one hop.
Velocities arcTraj(std::int64_t mode, double radius) {
  Simulation sim({.ioStepSize = 0.1});
  sim.addSignal("mode", ElementType::Int);
  sim.addSignal("radius", ElementType::Double, 1, "m");
  sim.addSignal("v", ElementType::Double, 1, "m/s");
  sim.addSignal("w", ElementType::Double, 1, "rad/s");
  auto& traj = sim.addModel<models::ArcTraj>("traj");
  traj.setParam("nominal_linear_velocity", 0.4);
  traj.setParam("nominal_angular_velocity", -0.25);
  sim.tie("traj", "mode", "mode");
  sim.tie("traj", "radius", "radius");
  sim.tie("traj", "linear_velocity", "v");
  sim.tie("traj", "angular_velocity", "w");
  sim.set("signals.mode", mode);
  sim.set("signals.radius", radius);
  sim.lock();
  sim.advanceOverHop();
  return {std::get<double>(sim.get("signals.v")), std::get<double>(sim.get("signals.w"))};
}

}  // namespace

TEST_CASE("ArcTraj: forward, reverse and straight moves") {
  // Forward on a 2 m left arc: v = 0.4, w = 0.4 / 2 = 0.2 (left, counter-clockwise).
  const auto [v, w] = arcTraj(1, 2.0);
  CHECK(v == 0.4);
  CHECK(w == 0.2);
  // Forward on a 2 m right arc: the yaw rate is clockwise.
  const Velocities right = arcTraj(1, -2.0);
  CHECK(right.linear == 0.4);
  CHECK(right.angular == -0.2);
  // Reverse on the left arc: backing along the same circle turns the chassis clockwise.
  const Velocities reverse = arcTraj(-1, 2.0);
  CHECK(reverse.linear == -0.4);
  CHECK(reverse.angular == -0.2);
  // Straight (radius 0): no yaw, either direction.
  CHECK(arcTraj(1, 0.0).angular == 0.0);
  CHECK(arcTraj(-1, 0.0).linear == -0.4);
  CHECK(arcTraj(-1, 0.0).angular == 0.0);
}

TEST_CASE("ArcTraj: the commanded velocities trace the circle of the radius") {
  // A unicycle with constant (v, w) moves on a circle of radius v / w: the command's radius.
  for (const double radius : {0.5, 3.0, -1.25}) {
    CAPTURE(radius);
    const Velocities c = arcTraj(1, radius);
    CHECK(c.linear / c.angular == doctest::Approx(radius).epsilon(1e-15));
  }
}

TEST_CASE("ArcTraj: turn in place at the nominal yaw rate, whatever the radius") {
  for (const double radius : {0.0, 5.0}) {
    const Velocities c = arcTraj(0, radius);
    CHECK(c.linear == 0.0);
    CHECK(c.angular == -0.25);
  }
}

TEST_CASE("ArcTraj: a mode other than -1, 0, 1 is refused naming the input") {
  CHECK_THROWS_WITH_AS(arcTraj(2, 1.0),
                       "models.traj.flowIns.mode: value 2 is not a rover mode (0 turn in place, "
                       "1 forward, -1 reverse)",
                       InputError);
}

}  // namespace hopsim
