// libmbse's example mechanisms (the shared data's mbse-examples/, read from there) with
// hand-computed geometry and inertia. The same checks on the project's own mechanisms are in
// tests/unit/assemblies/test_mbse_yaml.cpp.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <string_view>

#include "hopsim/assemblies/mbse_yaml.h"
#include "hopsim/assemblies/yaml_input.h"
#include "mbse_test_util.h"
#include "shared_data.h"

namespace hopsim {
namespace {

using namespace mbse_test;
using mechanism::Mechanism;
using mechanism::Vector3;

std::string example(std::string_view file) {
  return testing::sharedData("mbse-examples/" + std::string(file));
}

TEST_CASE("every MBSE example file reads") { CHECK(readEveryMechanism(example("")) == 6); }

TEST_CASE("fourbars1.yaml: geometry, inertia and joints") {
  const Mechanism m = mbse::readMechanismFile(example("fourbars1.yaml"));
  CHECK(m.name == "fourbars1");
  REQUIRE(m.bodies.size() == 4);
  CHECK(m.warnings.empty());
  checkBody(m, "body0", {0, 0, 0}, 0.0, 1.0, 0.5, 0.0, 1.0 / 3 - 0.25);
  checkBody(m, "body1", {1, 0, 0}, std::numbers::pi / 2, 2.0, 1.0, 0.0, 8.0 / 3 - 2.0);
  const double l2 = std::sqrt(13.0);
  checkBody(m, "body2", {1, 2, 0}, std::atan2(-2.0, 3.0), 4.0, l2 / 2, 0.0, 52.0 / 3 - 13.0);
  REQUIRE(m.joints.size() == 4);
  checkRevolute(m, "point0_ground_body0", "ground", "body0", {0, 0, 0});
  checkRevolute(m, "point1_body0_body1", "body0", "body1", {1, 0, 0});
  checkRevolute(m, "point2_body1_body2", "body1", "body2", {1, 2, 0});
  checkRevolute(m, "point3_ground_body2", "ground", "body2", {4, 0, 0});
  REQUIRE(m.outputPoints.size() == 4);
  CHECK(m.outputPoints[0].body == "ground");
  CHECK(m.outputPoints[1].body == "body0");
  CHECK(m.outputPoints[2].body == "body1");
  CHECK(m.outputPoints[3].body == "ground");
  CHECK(m.outputPoints[2].label == "2");
  CHECK((point(m, 2) - Vector3(1, 2, 0)).norm() < 1e-12);
  CHECK(m.outputAngles.empty());
  CHECK(body(m, "body0").where.line == 29);
}

TEST_CASE("fourbars1-with-rel-angle.yaml: the relative angle is an output") {
  const Mechanism m = mbse::readMechanismFile(example("fourbars1-with-rel-angle.yaml"));
  CHECK(m.warnings.empty());
  REQUIRE(m.outputAngles.size() == 1);
  CHECK(m.outputAngles[0].label == "0");
  CHECK(m.outputAngles[0].from == "0");
  CHECK(m.outputAngles[0].to == "1");
  CHECK(m.outputAngles[0].initial == doctest::Approx(0.0));
  CHECK(m.joints.size() == 4);
}

TEST_CASE("pendulum1.yaml") {
  const Mechanism m = mbse::readMechanismFile(example("pendulum1.yaml"));
  REQUIRE(m.bodies.size() == 2);
  checkBody(m, "body0", {0, 0, 0}, std::numbers::pi / 4, 5.0, 1.0, 0.0, 20.0 / 3 - 5.0);
  CHECK((point(m, 1) - Vector3(std::sqrt(2.0), std::sqrt(2.0), 0)).norm() < 1e-12);
  REQUIRE(m.joints.size() == 1);
  checkRevolute(m, "point0_ground_body0", "ground", "body0", {0, 0, 0});
}

TEST_CASE("pendulum2.yaml: a ternary link, length<ij>, visual kept") {
  const Mechanism m = mbse::readMechanismFile(example("pendulum2.yaml"));
  CHECK(m.warnings.empty());
  REQUIRE(m.bodies.size() == 5);
  const double s = std::sqrt(0.5);
  checkBody(m, "body0", {0, 0, 0}, 0.0, 2.0, 3.5, 0.0, 2.0 * 49 / 3 - 2.0 * 3.5 * 3.5);
  checkBody(m, "body1", {7, 0, 0}, std::numbers::pi / 4, 3.0, 0.0, 0.0, 0.5 * 3.0 * 25.0);
  checkBody(m, "body2", {7 + 5 * s, 5 * s, 0}, 0.0, 1.0, 1.0, 0.0, 4.0 / 3 - 1.0);
  checkBody(m, "body3", {7 + 5 * s, -5 * s, 0}, 0.0, 2.0, 1.5, 0.0, 6.0 - 4.5);
  CHECK(body(m, "body1").visualization.isMapping());
  CHECK(body(m, "body1").visualization.find("radius") != nullptr);
  REQUIRE(m.joints.size() == 4);
  checkRevolute(m, "point0_ground_body0", "ground", "body0", {0, 0, 0});
  checkRevolute(m, "point1_body0_body1", "body0", "body1", {7, 0, 0});
  checkRevolute(m, "point2_body1_body2", "body1", "body2", {7 + 5 * s, 5 * s, 0});
  checkRevolute(m, "point3_body1_body3", "body1", "body3", {7 + 5 * s, -5 * s, 0});
  CHECK(m.outputPoints[4].body == "body2");
  CHECK(m.outputPoints[5].body == "body3");
  CHECK((point(m, 5) - Vector3(10 + 5 * s, -5 * s, 0)).norm() < 1e-12);
}

TEST_CASE("pendulum3.yaml: a quaternary link") {
  const Mechanism m = mbse::readMechanismFile(example("pendulum3.yaml"));
  CHECK(m.warnings.empty());
  REQUIRE(m.bodies.size() == 5);
  checkBody(m, "body0", {0, 0, 0}, 0.0, 2.0, 1.0, 0.5, 8.0 / 3 - 2.0 * 1.25);
  checkBody(m, "body1", {2, 0, 0}, 0.0, 1.0, 0.5, 0.0, 1.0 / 12);
  checkBody(m, "body2", {2, -1, 0}, 0.0, 1.0, 1.0, 0.0, 1.0 / 3);
  checkBody(m, "body3", {0, -1, 0}, -std::numbers::pi / 2, 2.0, 0.5, 0.0, 2.0 / 3 - 0.5);
  REQUIRE(m.joints.size() == 4);
  checkRevolute(m, "point2_body0_body2", "body0", "body2", {2, -1, 0});
  checkRevolute(m, "point3_body0_body3", "body0", "body3", {0, -1, 0});
  CHECK((point(m, 6) - Vector3(0, -2, 0)).norm() < 1e-12);
}

TEST_CASE("pick-and-place-robot.yaml") {
  const Mechanism m = mbse::readMechanismFile(example("pick-and-place-robot.yaml"));
  REQUIRE(m.bodies.size() == 12);
  CHECK(m.joints.size() == 16);
  // Body 5: the quaternary platform, I_G = 11.375 - 6 (0.75^2 + 0.25^2).
  checkBody(m, "body5", {0, -4.5, 0}, 0.0, 6.0, 0.75, -0.25, 11.375 - 6.0 * 0.625);
  // Body 2: ternary, cog at half of |p3 - p2| = sqrt(0.5).
  const double l12 = std::sqrt(0.5);
  checkBody(m, "body2", {-1, -1, 0}, -std::numbers::pi / 4, 1.0, l12 / 2, 0.0,
            2.0 / 3 - l12 * l12 / 4);
  checkRevolute(m, "point3_body1_body2", "body1", "body2", {-0.5, -1.5, 0});
  checkRevolute(m, "point3_body1_body4", "body1", "body4", {-0.5, -1.5, 0});
  checkRevolute(m, "point10_body7_body10", "body7", "body10", {2, -1.5, 0});
  checkRevolute(m, "point12_ground_body10", "ground", "body10", {1, -0.5, 0});
  REQUIRE(m.outputAngles.size() == 2);
  CHECK(m.outputAngles[1].from == "12");
  CHECK(m.outputAngles[1].to == "10");
  CHECK(m.outputAngles[1].initial == doctest::Approx(std::atan2(-1.0, 1.0)));
  // Body 8 has 3 points and a `length`, which libmbse ignores.
  REQUIRE(m.warnings.size() == 1);
  CHECK(has(m.warnings[0], "pick-and-place-robot.yaml:71:13: planar_bodies[8].length"));
  CHECK(has(m.warnings[0], "ignored"));
}

}  // namespace
}  // namespace hopsim
