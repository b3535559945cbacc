// The MBSE planar-mechanism reader (mbse_yaml.h, docs/mbse-yaml.md): the example files with
// hand-computed geometry and inertia, libmbse's evaluation order, the expression language,
// the Newton projection, the bodies and joints built, warnings and every error path.

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

#ifndef HOPSIM_SHARED_DATA_DIR
#error "HOPSIM_SHARED_DATA_DIR must name the shared data directory (tests/CMakeLists.txt)"
#endif

namespace hopsim {
namespace {

using mechanism::Mechanism;
using mechanism::Vector3;

std::string example(std::string_view file) {
  return std::string(HOPSIM_SHARED_DATA_DIR) + "/mbse-examples/" + std::string(file);
}

Mechanism read(std::string_view text) { return mbse::readMechanism(parseYaml(text, "test.yaml"), "test.yaml"); }

/// The message of the InputError that reading `text` throws ("" if none).
std::string errorOf(std::string_view text) {
  try {
    (void)read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& message, std::string_view part) {
  return message.find(part) != std::string::npos;
}

bool anyWarning(const Mechanism& m, std::string_view part) {
  for (const auto& w : m.warnings)
    if (has(w, part)) return true;
  return false;
}

const mechanism::Body& body(const Mechanism& m, std::string_view name) {
  for (const auto& b : m.bodies)
    if (b.name == name) return b;
  FAIL("no body ", name);
  return m.bodies.front();
}

const mechanism::Joint* joint(const Mechanism& m, std::string_view name) {
  for (const auto& j : m.joints)
    if (j.name == name) return &j;
  return nullptr;
}

Vector3 point(const Mechanism& m, std::size_t i) { return m.outputPoints.at(i).point; }

/// Checks a body's planar pose (origin p0, x toward p1), COM (a, b) and inertia (I_G).
void checkBody(const Mechanism& m, std::string_view name, Vector3 origin, double theta,
               double mass, double a, double b, double iG) {
  INFO("body ", name);
  const auto& B = body(m, name);
  CHECK_FALSE(B.fixed);
  CHECK((B.X_WR.translation() - origin).norm() < 1e-12);
  CHECK(B.X_WR.rotation()(0, 0) == doctest::Approx(std::cos(theta)).epsilon(1e-12));
  CHECK(B.X_WR.rotation()(1, 0) == doctest::Approx(std::sin(theta)).epsilon(1e-12));
  CHECK(B.X_WR.rotation()(2, 2) == doctest::Approx(1.0));
  CHECK(B.mass == doctest::Approx(mass));
  CHECK((B.X_RC.translation() - Vector3(a, b, 0.0)).norm() < 1e-12);
  CHECK(B.X_RC.rotation().isIdentity());
  CHECK(B.inertia(2, 2) == doctest::Approx(iG).epsilon(1e-12));
  CHECK(B.inertia(0, 0) == doctest::Approx(iG / 2).epsilon(1e-12));
  CHECK(B.inertia(1, 1) == doctest::Approx(iG / 2).epsilon(1e-12));
  CHECK(B.inertia(0, 1) == 0.0);
}

void checkRevolute(const Mechanism& m, std::string_view name, std::string_view body1,
                   std::string_view body2, Vector3 at) {
  INFO("joint ", name);
  const auto* j = joint(m, name);
  REQUIRE(j != nullptr);
  CHECK(j->type == mechanism::JointType::Revolute);
  CHECK(j->body1 == body1);
  CHECK(j->body2 == body2);
  CHECK((j->X_WF.translation() - at).norm() < 1e-12);
  CHECK(j->X_WF.rotation().isIdentity());
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

TEST_CASE("every MBSE example file reads") {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(example(""))) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    const auto document = loadYamlFile(entry.path().string());
    CHECK(mbse::looksLikeMbse(document));
    const Mechanism m = mbse::readMechanismFile(entry.path().string());
    CHECK(m.bodies.back().name == "ground");
    CHECK(m.bodies.back().fixed);
    CHECK(m.defaultGravity == Vector3(0.0, -9.81, 0.0));
    CHECK(m.outputPoints.size() == document.find("points")->items().size());
    ++count;
  }
  CHECK(count == 6);
}

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
  CHECK(anyWarning(m, "test.yaml:8:42: planar_bodies[1].mass: 'length23' is the stale value "
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
  CHECK(has(bad.warnings[0], "test.yaml: the points do not satisfy the body lengths after 10 "
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
  CHECK(anyWarning(m, "planar_bodies[0].Mass: unknown key 'Mass' ignored (libmbse ignores it); "
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
    CHECK(has(m, "test.yaml:9:11: planar_bodies[1].mass: cannot evaluate `2 * foo`: unknown "
                 "variable 'foo' (at character 5)"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: I0\n", rest)),
              "evaluated in the order points, length, mass, I0, cog"));
    CHECK(has(errorOf(withBody("    length: 1\n    mass: 1\n    I0: auto\n    cog: [0, 0]\n")),
              "test.yaml:10:9: planar_bodies[1].I0: cannot evaluate `auto`"));
  }
  SUBCASE("reserved and invalid parameter names") {
    for (const char* name : {"index", "auto", "length", "mass", "I0", "Mass"}) {
      const std::string m = errorOf("parameters:\n  " + std::string(name) + ": 1\n" + withBody("    length: 1\n    mass: 1\n", rest));
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
    CHECK(has(errorOf("planar_bodies:\n  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
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
    CHECK(has(errorOf("points:\n  - {x: 0, y: 0, fixed: maybe}\n  - {x: 1, y: 0}\n"
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
    CHECK(has(errorOf("points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 0, y: 0}\n"
                      "planar_bodies:\n  - {points: [0, 1], length: 1, mass: 1, I0: 1, cog: [0, 0]}\n"),
              "test.yaml:5:14: planar_bodies[0].points: points 0 and 1 coincide"));
  }
  SUBCASE("negative inertia about the centre of mass, negative mass") {
    const std::string m =
        errorOf(withBody("    length: 1\n    mass: 2\n    I0: 0.1\n    cog: [0.5, 0]\n"));
    CHECK(has(m, "test.yaml:10:9: planar_bodies[1].I0: the inertia about the centre of mass, "
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
    CHECK(has(errorOf(base + "relative_coordinates:\n  - {type: relativeangleabsolutedof, points: [0, 1]}\n"),
              "case-sensitive"));
    CHECK(has(errorOf(base + "relative_coordinates:\n  - {type: RelativeAngleAbsoluteDOF, points: [0, 1.5]}\n"),
              "test.yaml:13:50: relative_coordinates[0].points[1]: expected a point index"));
    CHECK(has(errorOf(base + "relative_coordinates:\n  - {type: RelativeAngleAbsoluteDOF, points: [0, 7]}\n"),
              "point index 7 is out of range"));
    const std::string fixed = "points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0, fixed: true}\n"
        "  - {x: 1, y: 1}\nplanar_bodies:\n  - {points: [0, 2], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n"
        "  - {points: [1, 2], length: auto, mass: 1, I0: 1, cog: [0, 0]}\n"
        "relative_coordinates:\n  - {type: RelativeAngleAbsoluteDOF, points: [0, 1]}\n";
    CHECK(has(errorOf(fixed), "test.yaml:9:46: relative_coordinates[0].points: both points are fixed"));
  }
  SUBCASE("a free point that no body uses") {
    CHECK(has(errorOf("points:\n  - {x: 0, y: 0, fixed: true}\n  - {x: 1, y: 0}\n  - {x: 5, y: 5}\n"
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
