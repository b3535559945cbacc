// Steering4WFlow against the Ackermann geometry worked by hand: for a wheel at (x_w, y_w) and
// the turn center (x_c, y_c), the wheel must roll perpendicular to the center-to-wheel line,
// steer = atan((x_w - x_c) / (y_c - y_w)). Literal angles for three configurations, and for
// every configuration the perpendicularity itself, (cos a, sin a)·(x_w - x_c, y_w - y_c) = 0.
// Each angle is one atan of a quotient: 1e-15.

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>

#include "hopsim/core/simulation.h"
#include "hopsim/models/steering4w_flow.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

constexpr double kL = 2.0;  // front-rear wheel distance, m
constexpr double kW = 1.2;  // left-right wheel distance, m

/// {bogey left, bogey right, rocker left, rocker right}.
using Angles = std::array<double, 4>;

Angles steer(std::int64_t mode, double radius, double bias = 0.0, std::int64_t bogeyFront = 1) {
  Simulation sim({.ioStepSize = 0.1});
  sim.addSignal("mode", ElementType::Int);
  sim.addSignal("radius", ElementType::Double, 1, "m");
  auto& model = sim.addModel<models::Steering4WFlow>("steer");
  model.setParam("wheel_front_rear_dist", kL);
  model.setParam("wheel_left_right_dist", kW);
  model.setParam("wheel_center_bias", bias);
  model.setParam("bogey_front", bogeyFront);
  sim.tie("steer", "mode", "mode");
  sim.tie("steer", "radius", "radius");
  const std::array<const char*, 4> ports{"steer_bogey_left", "steer_bogey_right",
                                         "steer_rocker_left", "steer_rocker_right"};
  for (const char* port : ports) {
    sim.addSignal(port, ElementType::Double, 1, "rad");
    sim.tie("steer", port, port);
  }
  sim.set("signals.mode", mode);
  sim.set("signals.radius", radius);
  sim.lock();
  sim.advanceOverHop();
  Angles angles{};
  for (std::size_t i = 0; i < 4; ++i) {
    angles[i] = std::get<double>(sim.get(std::string("signals.") + ports[i]));
  }
  return angles;
}

void checkAngles(const Angles& actual, const Angles& expected) {
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(1e-15));
  }
}

/// Every wheel rolls perpendicular to the line from the turn center (x_c, y_c).
void checkRollsAroundCenter(const Angles& a, double xBogey, double xc, double yc) {
  const std::array<std::array<double, 2>, 4> wheels{
      {{xBogey, kW / 2}, {xBogey, -kW / 2}, {-xBogey, kW / 2}, {-xBogey, -kW / 2}}};
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    const double dot = std::cos(a[i]) * (wheels[i][0] - xc) + std::sin(a[i]) * (wheels[i][1] - yc);
    CHECK(std::fabs(dot) < 1e-14);
  }
}

}  // namespace

TEST_CASE("Steering4WFlow: a 4 m left arc steers front wheels left, rear wheels right") {
  // Wheels at x = ±1, y = ±0.6, turn center (0, 4).
  const Angles a = steer(1, 4.0);
  checkAngles(a, {std::atan(1.0 / 3.4), std::atan(1.0 / 4.6), -std::atan(1.0 / 3.4),
                  -std::atan(1.0 / 4.6)});
  CHECK(a[0] > a[1]);  // the inner wheel steers more (Ackermann)
  checkRollsAroundCenter(a, 1.0, 0.0, 4.0);
  // Reverse along the same arc: the same geometry.
  checkAngles(steer(-1, 4.0), a);
}

TEST_CASE("Steering4WFlow: a turn in place points every wheel around the center") {
  const double k = std::atan(1.0 / 0.6);  // wheel at 1 m ahead, 0.6 m aside of the center
  const Angles a = steer(0, 7.0);         // the radius does not matter for a turn in place
  checkAngles(a, {-k, k, k, -k});
  checkRollsAroundCenter(a, 1.0, 0.0, 0.0);
}

TEST_CASE("Steering4WFlow: straight moves steer nothing") {
  checkAngles(steer(1, 0.0), {0.0, 0.0, 0.0, 0.0});
  checkAngles(steer(-1, 0.0), {0.0, 0.0, 0.0, 0.0});
}

TEST_CASE("Steering4WFlow: bias and rocker side in front move the steering center line") {
  // bogey_front = -1: bogey wheels at x = -1, rocker wheels at x = +1; the steering line at
  // x_c = -0.5 (0.5 m towards the bogey side). A 3 m right arc: center (-0.5, -3).
  const Angles a = steer(1, -3.0, 0.5, -1);
  checkAngles(a, {std::atan(0.5 / 3.6), std::atan(0.5 / 2.4), -std::atan(1.5 / 3.6),
                  -std::atan(1.5 / 2.4)});
  checkRollsAroundCenter(a, -1.0, -0.5, -3.0);
}

TEST_CASE("Steering4WFlow: a wheel on the steering line rolls straight") {
  // Bias 1 m puts the steering line through the bogey axle: those wheels need no steering.
  const Angles a = steer(1, 2.5, 1.0);
  CHECK(a[0] == 0.0);
  CHECK(a[1] == 0.0);
  checkRollsAroundCenter(a, 1.0, 1.0, 2.5);
}

TEST_CASE("Steering4WFlow: bad bogey_front and mode are refused") {
  CHECK_THROWS_WITH_AS(steer(1, 1.0, 0.0, 0),
                       "models.steer.params.bogey_front: value 0 is not +1 (bogey side front) "
                       "or -1 (rocker side front)",
                       InputError);
  CHECK_THROWS_WITH_AS(steer(-2, 1.0),
                       "models.steer.flowIns.mode: value -2 is not a rover mode (0 turn in "
                       "place, 1 forward, -1 reverse)",
                       InputError);
}

}  // namespace hopsim
