// Locomotion in a loop with an ideal rover that reaches every commanded sub-move exactly (the
// test copies x, y, heading back into xpos, ypos, heading_in after each hop). The end pose of
// a command is computed independently as a rigid rotation of the pivot about the turn center
// (or a translation, or a rotation about the pivot itself); the model composes sub-move
// chords instead, so both agree to rounding: 1e-13 on O(1) poses after a few steps.

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/locomotion.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using Eigen::Vector2d;

struct Pose {
  Vector2d position;
  double heading;
};

/// A Locomotion "loco" (step_dist 0.3 m, step_angle 0.3 rad) driving an ideal rover.
class Drive {
 public:
  Drive(double pivotOffset, const Vector2d& lookDirection, const Pose& start) {
    for (const char* name :
         {"radius", "distance", "angle", "xpos", "ypos", "heading_in", "x", "y", "heading"}) {
      sim_.addSignal(name, ElementType::Double);
    }
    for (const char* name : {"mode", "direction", "status"}) {
      sim_.addSignal(name, ElementType::Int);
    }
    auto& loco = sim_.addModel<models::Locomotion>("loco");
    loco.setParam("step_dist", 0.3);
    loco.setParam("step_angle", 0.3);
    loco.setParam("pivot_offset_x", pivotOffset);
    loco.setParam("look_move_direction", std::vector<double>{lookDirection.x(), lookDirection.y()});
    for (const char* port : {"mode", "radius", "distance", "angle", "xpos", "ypos", "heading_in",
                             "x", "y", "heading", "direction", "status"}) {
      sim_.tie("loco", port, port);
    }
    setPose(start);
    sim_.lock();
  }

  void command(std::int64_t mode, double radius, double distance, double angle) {
    sim_.set("signals.mode", mode);
    sim_.set("signals.radius", radius);
    sim_.set("signals.distance", distance);
    sim_.set("signals.angle", angle);
  }

  /// One hop; the rover then reaches the commanded pose.
  void step() {
    sim_.advanceOverHop();
    setPose(commanded());
  }
  /// Runs hops until the status is 1; returns how many it took.
  int runToDone() {
    for (int hops = 1; hops <= 100; ++hops) {
      step();
      if (status() == 1) return hops;
    }
    FAIL("the command never finished");
    return -1;
  }

  Pose commanded() const { return {{value("x"), value("y")}, value("heading")}; }
  std::int64_t status() const { return std::get<std::int64_t>(sim_.get("signals.status")); }
  std::int64_t direction() const { return std::get<std::int64_t>(sim_.get("signals.direction")); }
  Simulation& sim() { return sim_; }

 private:
  double value(const char* signal) const {
    return std::get<double>(sim_.get(std::string("signals.") + signal));
  }
  void setPose(const Pose& p) {
    sim_.set("signals.xpos", p.position.x());
    sim_.set("signals.ypos", p.position.y());
    sim_.set("signals.heading_in", p.heading);
  }

  Simulation sim_{{.ioStepSize = 0.1}};
};

Vector2d forward(const Vector2d& lookDirection, double h) {
  return Eigen::Rotation2Dd(h) * lookDirection.normalized();
}

/// The end pose of an arc move of signed length s and radius R, from `start`: the pivot turns
/// about the center C = P + R l by s / R.
Pose arcEnd(const Pose& start, double pivotOffset, const Vector2d& look, double R, double s) {
  const Vector2d f = forward(look, start.heading);
  const Vector2d pivot = start.position + pivotOffset * f;
  const Vector2d center = pivot + R * Vector2d(-f.y(), f.x());
  const double heading = start.heading + s / R;
  const Vector2d endPivot = center + Eigen::Rotation2Dd(s / R) * (pivot - center);
  return {endPivot - pivotOffset * forward(look, heading), heading};
}

void checkPose(const Pose& actual, const Pose& expected) {
  CHECK((actual.position - expected.position).norm() < 1e-13);
  CHECK(actual.heading == doctest::Approx(expected.heading).epsilon(1e-14));
}

const Pose kStart{{1.0, -2.0}, 0.3};

}  // namespace

TEST_CASE("Locomotion: the first sub-move of an arc lands on its circle") {
  const double pivot = 0.5;
  const Vector2d look(0.0, 2.0);  // forward is +y at heading 0 (normalized by the model)
  Drive drive(pivot, look, kStart);
  drive.command(1, 2.0, 1.0, 0.0);
  // 1.0 m in steps of 0.3 m: 0.3, 0.3, 0.3, 0.1.
  drive.step();
  CHECK(drive.status() == 0);
  CHECK(std::get<double>(drive.sim().get("models.loco.discreteStates.accum_dist")) ==
        doctest::Approx(0.3));
  checkPose(drive.commanded(), arcEnd(kStart, pivot, look, 2.0, 0.3));
  CHECK(drive.direction() == 1);
}

TEST_CASE("Locomotion: arcs, straight moves and turns in place end where the geometry says") {
  const double pivot = 0.5;
  const Vector2d look(0.0, 2.0);
  SUBCASE("forward left arc") {
    Drive drive(pivot, look, kStart);
    drive.command(1, 2.0, 1.0, 0.0);
    CHECK(drive.runToDone() == 4);
    checkPose(drive.commanded(), arcEnd(kStart, pivot, look, 2.0, 1.0));
  }
  SUBCASE("reverse right arc: the distance's sign does not matter, the mode's does") {
    Drive drive(pivot, look, kStart);
    drive.command(-1, -1.5, -0.7, 0.0);
    CHECK(drive.runToDone() == 3);  // 0.3, 0.3, 0.1
    checkPose(drive.commanded(), arcEnd(kStart, pivot, look, -1.5, -0.7));
    CHECK(drive.direction() == -1);
  }
  SUBCASE("straight forward: 0.9 m is three steps of 0.3 m despite rounding") {
    Drive drive(pivot, look, kStart);
    drive.command(1, 0.0, 0.9, 0.0);
    CHECK(drive.runToDone() == 3);
    checkPose(drive.commanded(),
              {kStart.position + 0.9 * forward(look, kStart.heading), kStart.heading});
  }
  SUBCASE("turn in place to the right about the pivot") {
    Drive drive(pivot, look, kStart);
    drive.command(0, 0.0, 0.0, -1.0);
    CHECK(drive.runToDone() == 4);  // 0.3, 0.3, 0.3, 0.1 rad
    const Vector2d pivotPoint = kStart.position + pivot * forward(look, kStart.heading);
    const double heading = kStart.heading - 1.0;
    checkPose(drive.commanded(), {pivotPoint - pivot * forward(look, heading), heading});
    CHECK(drive.direction() == -1);
  }
}

TEST_CASE("Locomotion: a finished command holds its pose, a new one starts over") {
  Drive drive(0.0, Vector2d(1.0, 0.0), kStart);
  drive.command(1, 0.0, 0.6, 0.0);
  CHECK(drive.runToDone() == 2);
  const Pose done = drive.commanded();
  drive.step();
  CHECK(drive.status() == 1);
  checkPose(drive.commanded(), done);
  drive.command(1, 0.0, 0.5, 0.0);  // another distance: a new command
  drive.step();
  CHECK(drive.status() == 0);
  CHECK(drive.runToDone() == 1);  // 0.2 m left after the first 0.3 m step
  checkPose(drive.commanded(),
            {done.position + 0.5 * forward(Vector2d(1.0, 0.0), done.heading), done.heading});
}

TEST_CASE("Locomotion: a zero look_move_direction and a bad mode are refused") {
  SUBCASE("look_move_direction") {
    Drive drive(0.0, Vector2d(1.0, 0.0), kStart);
    drive.sim().set("models.loco.params.look_move_direction", std::vector<double>{0.0, 0.0});
    CHECK_THROWS_WITH_AS(drive.sim().advanceOverHop(),
                         "models.loco.params.look_move_direction: value [0, 0] must be a finite "
                         "non-zero vector (it gives the forward direction)",
                         InputError);
  }
  SUBCASE("mode") {
    Drive drive(0.0, Vector2d(1.0, 0.0), kStart);
    drive.command(3, 0.0, 1.0, 0.0);
    CHECK_THROWS_WITH_AS(drive.sim().advanceOverHop(),
                         "models.loco.flowIns.mode: value 3 is not a rover mode (0 turn in "
                         "place, 1 forward, -1 reverse)",
                         InputError);
  }
}

}  // namespace hopsim
