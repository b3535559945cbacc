// The MBSE planar-mechanism reader (mbse_yaml.h, docs/mbse-yaml.md): the project's mechanism
// files (tests/data/mbse/) with hand-computed geometry and inertia, libmbse's evaluation order, the
// expression language, the Newton projection, the bodies and joints built, warnings and every error
// path.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/assemblies/mbse_yaml.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"
#include "mbse_test_util.h"

#ifndef HOPSIM_SOURCE_DIR
#error "HOPSIM_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

namespace hopsim {
namespace {

using namespace mbse_test;
using mechanism::Mechanism;
using mechanism::Vector3;

/// `file` of the project's MBSE mechanisms.
std::string dataFile(std::string_view file) {
  return std::string(HOPSIM_SOURCE_DIR) + "/tests/data/mbse/" + std::string(file);
}

Mechanism read(std::string_view text) {
  return mbse::readMechanism(parseYaml(text, "test.yaml"), "test.yaml");
}

/// The message of the InputError that reading `text` throws ("" if none).
std::string errorOf(std::string_view text) {
  try {
    (void)read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// The value of an expression, read as the x of a point.
double value(std::string_view expression, std::string_view parameters = "") {
  std::string text;
  if (!parameters.empty()) text += "parameters: {" + std::string(parameters) + "}\n";
  text += "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: '" + std::string(expression) +
          "', y: 1}\nplanar_bodies:\n  - {points: [0, 1], length: auto, mass: 1, I0: 1, cog: "
          "[0, 0]}\n";
  return point(read(text), 1).x();
}

TEST_CASE("every project MBSE file reads") { CHECK(readEveryMechanism(dataFile("")) == 4); }

TEST_CASE("crank_rocker.yaml: geometry, inertia, joints and two relative angles") {
  const Mechanism m = mbse::readMechanismFile(dataFile("crank_rocker.yaml"));
  CHECK(m.name == "crank_rocker");
  REQUIRE(m.bodies.size() == 4);
  CHECK(m.warnings.empty());
  // Uniform bars of 1.875 kg/m: I_G = m L² / 12 about the middle.
  const double l1 = 0.8, l2 = std::hypot(0.6, 1.9), l3 = std::hypot(1.8, 1.9);
  const auto bar = [&m](const char* name, Vector3 origin, double theta, double length) {
    const double mass = 1.875 * length;
    checkBody(m, name, origin, theta, mass, length / 2, 0.0, mass * length * length / 12);
  };
  bar("body0", {0, 0, 0}, 0.0, l1);
  bar("body1", {0.8, 0, 0}, std::atan2(1.9, 0.6), l2);
  bar("body2", {1.4, 1.9, 0}, std::atan2(-1.9, 1.8), l3);
  REQUIRE(m.joints.size() == 4);
  checkRevolute(m, "point0_ground_body0", "ground", "body0", {0, 0, 0});
  checkRevolute(m, "point1_body0_body1", "body0", "body1", {0.8, 0, 0});
  checkRevolute(m, "point2_body1_body2", "body1", "body2", {1.4, 1.9, 0});
  checkRevolute(m, "point3_ground_body2", "ground", "body2", {3.2, 0, 0});
  REQUIRE(m.outputPoints.size() == 4);
  CHECK(m.outputPoints[0].body == "ground");
  CHECK(m.outputPoints[1].body == "body0");
  CHECK(m.outputPoints[2].body == "body1");
  CHECK(m.outputPoints[3].body == "ground");
  CHECK((point(m, 3) - Vector3(3.2, 0, 0)).norm() < 1e-12);  // g = 4 r
  REQUIRE(m.outputAngles.size() == 2);
  CHECK(m.outputAngles[0].from == "0");
  CHECK(m.outputAngles[0].to == "1");
  CHECK(std::abs(m.outputAngles[0].initial) < 1e-15);  // along +X, to the projection's rounding
  CHECK(m.outputAngles[1].label == "1");
  CHECK(m.outputAngles[1].from == "3");
  CHECK(m.outputAngles[1].initial == doctest::Approx(std::atan2(1.9, -1.8)).epsilon(1e-12));
  CHECK(body(m, "body0").where.line == 21);
}

TEST_CASE("hammer.yaml: mass, centre of mass and inertia from expressions of the parts") {
  const Mechanism m = mbse::readMechanismFile(dataFile("hammer.yaml"));
  CHECK(m.warnings.empty());
  REQUIRE(m.bodies.size() == 2);
  // m = 0.6 + 1.4, a = (0.6 * 0.6 + 1.4 * 1.2) / 2, I_G = I0 - m a² with I0 = 0.288 + 2.016.
  checkBody(m, "body0", {0, 0, 0}, 0.0, 2.0, 1.02, 0.0, 2.304 - 2.0 * 1.02 * 1.02);
  CHECK((point(m, 1) - Vector3(1.2, 0, 0)).norm() < 1e-12);
  REQUIRE(m.joints.size() == 1);
  checkRevolute(m, "point0_ground_body0", "ground", "body0", {0, 0, 0});
}

TEST_CASE("plate_linkage.yaml: ternary and quaternary plates, length<ij>, index, visual kept") {
  const Mechanism m = mbse::readMechanismFile(dataFile("plate_linkage.yaml"));
  CHECK(m.warnings.empty());
  REQUIRE(m.bodies.size() == 4);
  // The ternary plate: mass 2 length12 = 2 kg; I0 from its pair distances 1, √0.89, √0.89.
  checkBody(m, "body0", {0, 0, 0}, 0.0, 2.0, 0.5, -0.27, 2.0 * (1.0 + 0.89 + 0.89) / 12);
  checkBody(m, "body1", {1, 0, 0}, -std::numbers::pi / 2, 0.8, 0.5, 0.0, 0.8 / 12);
  // The quaternary plate, the third body: mass 1.2 + index / 10 = 1.5 kg, a 0.6 m x 0.8 m plate.
  checkBody(m, "body2", {0.5, -0.8, 0}, -std::numbers::pi / 2, 1.5, 0.4, 0.3,
            1.5 * (0.36 + 0.64) / 12);
  CHECK(body(m, "body0").visualization.isMapping());
  CHECK(body(m, "body0").visualization.find("color") != nullptr);
  REQUIRE(m.joints.size() == 3);
  checkRevolute(m, "point0_ground_body0", "ground", "body0", {0, 0, 0});
  checkRevolute(m, "point1_body0_body1", "body0", "body1", {1, 0, 0});
  checkRevolute(m, "point2_body0_body2", "body0", "body2", {0.5, -0.8, 0});
  CHECK(m.outputPoints[3].body == "body1");
  for (std::size_t i : {4, 5, 6}) CHECK(m.outputPoints[i].body == "body2");
  CHECK((point(m, 5) - Vector3(1.1, -1.6, 0)).norm() < 1e-12);
}

TEST_CASE("watt_linkage.yaml: two loops, a ternary rocker whose length is ignored") {
  const Mechanism m = mbse::readMechanismFile(dataFile("watt_linkage.yaml"));
  REQUIRE(m.bodies.size() == 6);
  CHECK(m.joints.size() == 7);
  // The ternary rocker from its pivot (2.5, 0) toward point 2 (2, 1.2).
  checkBody(m, "body2", {2.5, 0, 0}, std::atan2(1.2, -0.5), 3.0, 0.65, -0.34,
            2.0 - 3.0 * (0.65 * 0.65 + 0.34 * 0.34));
  checkRevolute(m, "point2_body1_body2", "body1", "body2", {2.0, 1.2, 0});
  checkRevolute(m, "point3_ground_body2", "ground", "body2", {2.5, 0, 0});
  checkRevolute(m, "point4_body2_body3", "body2", "body3", {3.2, 1.0, 0});
  checkRevolute(m, "point6_ground_body4", "ground", "body4", {5.0, 0, 0});
  REQUIRE(m.outputAngles.size() == 2);
  CHECK(m.outputAngles[1].from == "6");
  CHECK(m.outputAngles[1].to == "5");
  CHECK(m.outputAngles[1].initial == doctest::Approx(std::atan2(1.8, -0.8)).epsilon(1e-12));
  // The rocker has 3 points and a `length`, which libmbse ignores.
  REQUIRE(m.warnings.size() == 1);
  CHECK(has(m.warnings[0], "watt_linkage.yaml:18:"));
  CHECK(has(m.warnings[0], "planar_bodies[2].length"));
  CHECK(has(m.warnings[0], "ignored"));
}

TEST_CASE("expressions: operators, functions, constants, case-insensitivity") {
  CHECK(value("2^3") == doctest::Approx(8));
  CHECK(value("-2^2") == doctest::Approx(-4));
  CHECK(value("7 % 4") == doctest::Approx(3));
  CHECK(value("if(1 < 2, 3, 4)") == doctest::Approx(3));
  CHECK(value("IF(2 <= 1, 3, 4)") == doctest::Approx(4));
  CHECK(value("(1 < 2) and (3 > 2)") == doctest::Approx(1));
  CHECK(value("(1 > 2) or (3 == 2)") == doctest::Approx(0));
  CHECK(value("not(0) + (2 != 3) + (2 = 2) + (2 <> 2)") == doctest::Approx(3));
  CHECK(value("1 > 2 ? 5 : 6") == doctest::Approx(6));
  CHECK(value("min(3, 1, 2) + max(1, 5)") == doctest::Approx(6));
  CHECK(value("hypot(3, 4) + pow(2, 10)") == doctest::Approx(1029));
  CHECK(value("round(2.5) + floor(-0.5) + abs(-2)") == doctest::Approx(4));
  CHECK(value("log(exp(2)) + sqrt(9)") == doctest::Approx(5));
  CHECK(value("atan2(1, 1)") == doctest::Approx(std::numbers::pi / 4));
  CHECK(value("deg2rad(180) - PI") == doctest::Approx(0.0));
  CHECK(value("Sin(M_PI/2) + COS(0) + tan(0)") == doctest::Approx(2));
  CHECK(value("m_pi + epsilon") == doctest::Approx(std::numbers::pi));
  CHECK(value("true + FALSE") == doctest::Approx(1));
  CHECK(value("1.5e1 + .5") == doctest::Approx(15.5));
  CHECK(value("LEN + len + Len", "Len: 2") == doctest::Approx(6));
}

TEST_CASE("evaluation order: parameters sorted by name, not in file order") {
  // b refers to a, which sorts first: fine although written after it.
  CHECK(value("b", "b: a * 2, a: 3") == doctest::Approx(6));
  // Upper case sorts before lower case.
  CHECK(value("a", "a: Z + 1, Z: 1") == doctest::Approx(2));
  // a refers to b, which sorts after it: an error naming the order.
  const std::string message = errorOf(
      "parameters:\n  a: b * 2\n  b: 3\npoints:\n  - {x: 0, y: 0, fixed: true}\n"
      "  - {x: 1, y: 0}\nplanar_bodies:\n  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: "
      "[0, 0]}\n");
  CHECK(has(message, "test.yaml:2:6: parameters.a: cannot evaluate `b * 2`"));
  CHECK(has(message, "unknown variable 'b'"));
  CHECK(has(message, "name (byte) order"));
}

TEST_CASE("evaluation order: points define x<i>, y<i> in order") {
  const Mechanism m = read(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: x0 + 2, y: y0 + 1}\n"
      "  - {x: x1 + X0, y: Y1 * 2}\nplanar_bodies:\n"
      "  - {points: [0, 1], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n"
      "  - {points: [1, 2], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n");
  CHECK((point(m, 2) - Vector3(2, 2, 0)).norm() < 1e-12);
  const std::string message = errorOf(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: x2, y: 0}\n  - {x: 1, y: 1}\n"
      "planar_bodies:\n  - {points: [0, 1, 2], mass: 1, I0: 1, cog: [0, 0]}\n");
  CHECK(has(message, "test.yaml:3:9: points[1].x: cannot evaluate `x2`"));
  CHECK(has(message, "evaluated later"));
}

TEST_CASE("evaluation order: index is 1-based and persists, length, mass, I0 are erased") {
  const Mechanism m = read(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0}\n  - {x: 2, y: 0}\n"
      "planar_bodies:\n"
      "  - {points: [0, 1], length: auto, mass: index, I0: mass, cog: [0, 0]}\n"
      "  - {points: [index - 1, index], length: auto * index, mass: index, I0: mass*length*5, "
      "cog: [index, 0]}\n");
  checkBody(m, "body0", {0, 0, 0}, 0.0, 1.0, 0.0, 0.0, 1.0);
  // Body 1 joins points 1 and 2 with the declared length 2 (auto * index): projected.
  CHECK((point(m, 2) - point(m, 1)).norm() == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(body(m, "body1").mass == doctest::Approx(2.0));
  CHECK(body(m, "body1").X_RC.translation().x() == doctest::Approx(2.0));
  CHECK(body(m, "body1").inertia(2, 2) == doctest::Approx(20.0 - 2.0 * 4.0));
  // `mass` of body 0 is gone in body 1 before body 1's mass is evaluated.
  const std::string message = errorOf(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0}\n  - {x: 2, y: 0}\n"
      "planar_bodies:\n"
      "  - {points: [0, 1], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n"
      "  - {points: [1, 2], length: mass, mass: 1, I0: 1, cog: [0, 0]}\n");
  CHECK(has(message, "planar_bodies[1].length: cannot evaluate `mass`"));
}

TEST_CASE("evaluation order: length auto, and length<ij> persisting into later bodies") {
  const Mechanism m = read(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 3, y: 0}\n  - {x: 0, y: 4}\n"
      "  - {x: 3, y: 1}\nplanar_bodies:\n"
      "  - {points: [0, 1, 2], mass: length23, I0: 200, cog: [length12, length31]}\n"
      "  - {points: [1, 3], length: auto, mass: length23, I0: 10, cog: [length, 0]}\n");
  CHECK(body(m, "body0").mass == doctest::Approx(5.0));
  CHECK(body(m, "body0").X_RC.translation().x() == doctest::Approx(3.0));
  CHECK(body(m, "body0").X_RC.translation().y() == doctest::Approx(4.0));
  CHECK(body(m, "body1").mass == doctest::Approx(5.0));  // body 0's length23
  CHECK(body(m, "body1").X_RC.translation().x() == doctest::Approx(1.0));
  CHECK(anyWarning(m,
                   "test.yaml:8:42: planar_bodies[1].mass: 'length23' is the stale value "
                   "set by planar_bodies[0]"));
  CHECK(m.warnings.size() == 1);
  // `length` is not defined in a body of three points.
  CHECK(has(errorOf("points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 3, y: 0}\n"
                    "  - {x: 0, y: 4}\nplanar_bodies:\n"
                    "  - {points: [0, 1, 2], mass: length, I0: 1, cog: [0, 0]}\n"),
            "'length' is not defined for a body of 3 or more points"));
}

TEST_CASE("case-insensitive names: collisions and case-only differences warn") {
  // L and l: every use means L (the first in byte order), as ExprTk's symbol table does.
  const Mechanism m = read(
      "parameters:\n  L: 2\n  l: 5\npoints:\n  - {x: 0, y: 0, fixed: true}\n"
      "  - {x: l, y: 0}\nplanar_bodies:\n  - {points: [0, 1], length: auto, mass: 1, I0: 1, "
      "cog: [0, 0]}\n");
  CHECK(point(m, 1).x() == doctest::Approx(2.0));
  CHECK(anyWarning(m, "test.yaml:3:6: parameters.l: 'l' differs from parameter 'L' only in case"));

  // A parameter x1 is replaced by point 1's x1; X1 hides it.
  const std::string points =
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 3, y: 0}\n  - {x: x1, y: 1}\n"
      "planar_bodies:\n  - {points: [0, 1], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n"
      "  - {points: [1, 2], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n";
  const Mechanism replaced = read("parameters: {x1: 7}\n" + points);
  CHECK(point(replaced, 2).x() == doctest::Approx(3.0));
  CHECK(anyWarning(replaced, "parameters.x1: parameter 'x1' collides with x1 of points[1]"));
  const Mechanism hidden = read("parameters: {X1: 7}\n" + points);
  CHECK(point(hidden, 2).x() == doctest::Approx(7.0));
  CHECK(anyWarning(hidden, "parameters.X1: parameter 'X1' hides x1 of points[1]"));
}

TEST_CASE("Newton projection: a declared length different from |p1 - p0| is projected") {
  // Four-bar with lengths declared 1.1, 2.2 and 3.3 while the points say 1, 2, sqrt(13).
  const Mechanism m = read(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0}\n  - {x: 1, y: 2}\n"
      "  - {x: 4, y: 0, fixed: true}\nplanar_bodies:\n"
      "  - {points: [0, 1], length: 1.1, mass: 1, I0: 1, cog: [0.5, 0]}\n"
      "  - {points: [1, 2], length: 2.2, mass: 1, I0: 1, cog: [0.5, 0]}\n"
      "  - {points: [2, 3], length: 3.3, mass: 1, I0: 1, cog: [0.5, 0]}\n");
  CHECK(std::fabs((point(m, 1) - point(m, 0)).norm() - 1.1) < 1e-12);
  CHECK(std::fabs((point(m, 2) - point(m, 1)).norm() - 2.2) < 1e-12);
  CHECK(std::fabs((point(m, 3) - point(m, 2)).norm() - 3.3) < 1e-12);
  CHECK(point(m, 0) == Vector3(0, 0, 0));
  CHECK(point(m, 3) == Vector3(4, 0, 0));
  CHECK(m.warnings.empty());
  // The bodies and joints use the projected points.
  const auto& b1 = body(m, "body1");
  CHECK((b1.X_WR.translation() - point(m, 1)).norm() < 1e-15);
  const Vector3 dir = (point(m, 2) - point(m, 1)).normalized();
  CHECK((b1.X_WR.rotation().col(0) - dir).norm() < 1e-12);
  CHECK((joint(m, "point2_body1_body2")->X_WF.translation() - point(m, 2)).norm() < 1e-15);

  // A ternary body keeps its pair distances; a two-point body its declared length.
  const Mechanism t = read(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 2, y: 0}\n  - {x: 1, y: 1}\n"
      "  - {x: 3, y: 1}\nplanar_bodies:\n"
      "  - {points: [0, 1, 2], mass: 1, I0: 1, cog: [0.5, 0]}\n"
      "  - {points: [2, 3], length: 1.5, mass: 1, I0: 1, cog: [0.5, 0]}\n");
  CHECK(std::fabs((point(t, 1) - point(t, 0)).norm() - 2.0) < 1e-12);
  CHECK(std::fabs((point(t, 2) - point(t, 0)).norm() - std::sqrt(2.0)) < 1e-12);
  CHECK(std::fabs((point(t, 2) - point(t, 1)).norm() - std::sqrt(2.0)) < 1e-12);
  CHECK(std::fabs((point(t, 3) - point(t, 2)).norm() - 1.5) < 1e-12);
}

TEST_CASE("Newton projection: relative angles follow, an impossible loop warns") {
  const Mechanism m = read(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0.2}\n  - {x: 1, y: 2}\n"
      "  - {x: 4, y: 0, fixed: true}\nplanar_bodies:\n"
      "  - {points: [0, 1], length: 1.5, mass: 1, I0: 1, cog: [0.5, 0]}\n"
      "  - {points: [1, 2], length: 2, mass: 1, I0: 1, cog: [0.5, 0]}\n"
      "  - {points: [2, 3], length: auto, mass: 1, I0: 1, cog: [0.5, 0]}\n"
      "relative_coordinates:\n  - {type: RelativeAngleAbsoluteDOF, points: [0, 1]}\n");
  CHECK(std::fabs((point(m, 1) - point(m, 0)).norm() - 1.5) < 1e-12);
  CHECK(std::fabs((point(m, 2) - point(m, 1)).norm() - 2.0) < 1e-12);
  REQUIRE(m.outputAngles.size() == 1);
  const Vector3 d = point(m, 1) - point(m, 0);
  CHECK(m.outputAngles[0].initial == doctest::Approx(std::atan2(d.y(), d.x())).epsilon(1e-12));
  CHECK(m.warnings.empty());

  // Links of 0.1 cannot span a ground of 4: libmbse carries on; hopsim warns.
  const Mechanism bad = read(
      "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0}\n  - {x: 2, y: 0}\n"
      "  - {x: 4, y: 0, fixed: true}\nplanar_bodies:\n"
      "  - {points: [0, 1], length: 0.1, mass: 1, I0: 1, cog: [0.05, 0]}\n"
      "  - {points: [1, 2], length: 0.1, mass: 1, I0: 1, cog: [0.05, 0]}\n"
      "  - {points: [2, 3], length: 0.1, mass: 1, I0: 1, cog: [0.05, 0]}\n");
  REQUIRE(bad.warnings.size() == 1);
  CHECK(has(bad.warnings[0],
            "test.yaml: the points do not satisfy the body lengths after 10 "
            "Newton iterations"));
  CHECK(bad.bodies.size() == 4);
}

TEST_CASE("unknown keys warn, display keys are kept") {
  const Mechanism m = read(
      "title: demo\npoints:\n  - {x: 0, y: 0, fixed: true, colour: red}\n  - {x: 1, y: 0}\n"
      "planar_bodies:\n  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: [0, 0], Mass: 2, "
      "visual: {type: line}}\n");
  CHECK(anyWarning(m, "test.yaml:1:8: title: unknown key 'title' ignored"));
  CHECK(anyWarning(m, "test.yaml:3:39: points[0].colour: unknown key 'colour'"));
  CHECK(anyWarning(m,
                   "planar_bodies[0].Mass: unknown key 'Mass' ignored (libmbse ignores it); "
                   "did you mean 'mass'?"));
  CHECK(m.warnings.size() == 3);
  CHECK(body(m, "body0").visualization.isMapping());
}

// A valid two-body file whose line 8 (`mass`) the error tests replace.
std::string withBody(std::string_view bodyLines, std::string_view extra = "") {
  return "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0}\n  - {x: 2, y: 0}\n"
         "planar_bodies:\n  - {points: [0, 1], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n"
         "  - points: [1, 2]\n" +
         std::string(bodyLines) + std::string(extra);
}

TEST_CASE("errors carry file:line:col, the key path and the reason") {
  const std::string rest = "    I0: 1\n    cog: [0, 0]\n";
  SUBCASE("malformed expression") {
    const std::string m = errorOf(withBody("    length: 1\n    mass: 2 +* 3\n", rest));
    CHECK(has(m, "test.yaml:9:11: planar_bodies[1].mass: cannot evaluate `2 +* 3`"));
    CHECK(has(m, "(at character 4)"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: (2\n", rest)),
              "test.yaml:9:11: planar_bodies[1].mass: cannot evaluate `(2`"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: sin\n", rest)),
              "function 'sin' needs its arguments"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: 2x\n", rest)), "write the `*`"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: sqrt(-1)\n", rest)), "NaN"));
  }
  SUBCASE("unknown variable") {
    const std::string m = errorOf(withBody("    length: 1\n    mass: 2 * foo\n", rest));
    CHECK(has(m,
              "test.yaml:9:11: planar_bodies[1].mass: cannot evaluate `2 * foo`: unknown "
              "variable 'foo' (at character 5)"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: I0\n", rest)),
              "evaluated in the order points, length, mass, I0, cog"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: 1\n    I0: auto\n    cog: [0, 0]\n")),
              "test.yaml:10:9: planar_bodies[1].I0: cannot evaluate `auto`"));
  }
  SUBCASE("reserved and invalid parameter names") {
    for (const char* name : {"index", "auto", "length", "mass", "I0", "Mass"}) {
      const std::string m = errorOf("parameters:\n  " + std::string(name) + ": 1\n" +
                                    withBody("    length: 1\n    mass: 1\n", rest));
      INFO(m);
      CHECK(has(m, "test.yaml:2:"));
      CHECK(has(m, "parameters." + std::string(name) + ": '" + name + "' is a reserved name"));
    }
    CHECK(has(errorOf("parameters:\n  sin: 1\n" + withBody("    length: 1\n    mass: 1\n", rest)),
              "test.yaml:2:8: parameters.sin: 'sin' is a function or operator name"));
    CHECK(has(errorOf("parameters:\n  2a: 1\n" + withBody("    length: 1\n    mass: 1\n", rest)),
              "test.yaml:2:7: parameters.2a: '2a' is not a valid name"));
  }
  SUBCASE("missing sections and keys") {
    CHECK(has(
        errorOf("planar_bodies:\n  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
        "test.yaml:1:1: points: missing required section 'points'"));
    CHECK(has(errorOf("points:\n  - {x: 0, y: 0, fixed: true}\n"),
              "test.yaml:1:1: planar_bodies: missing required section 'planar_bodies'"));
    CHECK(has(errorOf("points: []\nplanar_bodies: [{points: [0, 1]}]\n"),
              "test.yaml:1:9: points: at least one point is required"));
    CHECK(has(errorOf(withBody("    length: 1\n", rest)),
              "test.yaml:7:5: planar_bodies[1]: missing required key 'mass'"));
    CHECK(has(errorOf(withBody("    mass: 1\n", rest)),
              "planar_bodies[1]: missing required key 'length'"));
    CHECK(has(errorOf("points:\n  - {x: 0, y: 0, fixed: true}\nplanar_bodies: []\n"),
              "test.yaml:3:16: planar_bodies: at least one body is required"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: 1\n    I0: 1\n    cog: [0]\n")),
              "test.yaml:11:10: planar_bodies[1].cog: expected [x, y]"));
    CHECK(has(errorOf("points:\n  - {x: 0, fixed: true}\n  - {x: 1, y: 0}\nplanar_bodies:\n"
                      "  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
              "test.yaml:2:5: points[0]: missing required key 'y'"));
    CHECK(has(
        errorOf("points:\n  - {x: 0, y: 0, fixed: maybe}\n  - {x: 1, y: 0}\n"
                "planar_bodies:\n  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
        "test.yaml:2:25: points[0].fixed: expected true or false"));
  }
  SUBCASE("a body with one point, an index out of range, a point twice") {
    CHECK(has(errorOf(withBody("    length: 1\n    mass: 1\n", rest) +
                      "  - {points: [2], mass: 1, I0: 1, cog: [0, 0]}\n"),
              "test.yaml:12:14: planar_bodies[2].points: a body needs at least 2 points, found 1"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: 1\n", rest) +
                      "  - {points: [2, 2.6], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
              "test.yaml:12:18: planar_bodies[2].points[1]: point index 3 is out of range"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: 1\n", rest) +
                      "  - {points: [2, 2.4], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
              "planar_bodies[2].points[1]: point 2 is listed twice"));
  }
  SUBCASE("L <= 0") {
    CHECK(has(errorOf(withBody("    length: 0\n    mass: 1\n", rest)),
              "test.yaml:8:13: planar_bodies[1].length: the length must be > 0, found 0"));
    CHECK(has(errorOf(withBody("    length: -auto\n    mass: 1\n", rest)),
              "test.yaml:8:13: planar_bodies[1].length: the length must be > 0, found -1"));
    CHECK(has(
        errorOf("points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 0, y: 0}\n"
                "planar_bodies:\n  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
        "test.yaml:5:14: planar_bodies[0].points: points 0 and 1 coincide"));
  }
  SUBCASE("negative inertia about the centre of mass, negative mass") {
    const std::string m =
        errorOf(withBody("    length: 1\n    mass: 2\n    I0: 0.1\n    cog: [0.5, 0]\n"));
    CHECK(has(m,
              "test.yaml:10:9: planar_bodies[1].I0: the inertia about the centre of mass, "
              "I0 - mass (a^2 + b^2) = 0.10000000000000001 - 0.5"));
    CHECK(has(m, "is negative"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: -1\n", rest)),
              "test.yaml:9:11: planar_bodies[1].mass: the mass must be >= 0"));
  }
  SUBCASE("relative coordinates") {
    const std::string base = withBody("    length: 1\n    mass: 1\n", rest);
    CHECK(has(errorOf(base + "relative_coordinates:\n  - {type: RelativeAngle, points: [0, 1]}\n"),
              "test.yaml:13:12: relative_coordinates[0].type: unknown relative coordinate type "
              "'RelativeAngle'"));
    CHECK(has(
        errorOf(base +
                "relative_coordinates:\n  - {type: relativeangleabsolutedof, points: [0, 1]}\n"),
        "case-sensitive"));
    CHECK(has(
        errorOf(base +
                "relative_coordinates:\n  - {type: RelativeAngleAbsoluteDOF, points: [0, 1.5]}\n"),
        "test.yaml:13:50: relative_coordinates[0].points[1]: expected a point index"));
    CHECK(has(
        errorOf(base +
                "relative_coordinates:\n  - {type: RelativeAngleAbsoluteDOF, points: [0, 7]}\n"),
        "point index 7 is out of range"));
    const std::string fixed =
        "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0, fixed: true}\n"
        "  - {x: 1, y: 1}\nplanar_bodies:\n  - {points: [0, 2], length: auto, mass: 1, I0: 1, cog: "
        "[0, 0]}\n"
        "  - {points: [1, 2], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n"
        "relative_coordinates:\n  - {type: RelativeAngleAbsoluteDOF, points: [0, 1]}\n";
    CHECK(has(errorOf(fixed),
              "test.yaml:9:46: relative_coordinates[0].points: both points are fixed"));
  }
  SUBCASE("a free point that no body uses") {
    CHECK(has(
        errorOf("points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0}\n  - {x: 5, y: 5}\n"
                "planar_bodies:\n  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
        "test.yaml:4:5: points[2]: point 2 is not fixed and no body uses it"));
  }
  SUBCASE("not a mapping") {
    CHECK(has(errorOf("- 1\n- 2\n"), "an MBSE mechanism file is a mapping"));
    CHECK(has(errorOf("points: {a: 1}\nplanar_bodies: []\n"),
              "test.yaml:1:9: points: expected a sequence of points, found a mapping"));
  }
}

TEST_CASE("looksLikeMbse") {
  CHECK(mbse::looksLikeMbse(parseYaml("points: []\nplanar_bodies: []\n")));
  CHECK_FALSE(mbse::looksLikeMbse(parseYaml("points: []\n")));
  CHECK_FALSE(mbse::looksLikeMbse(parseYaml("chrono-version: 9.0\nmodel: {}\n")));
}

}  // namespace
}  // namespace hopsim
