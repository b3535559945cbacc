// Every error path of the Chrono MBS YAML readers: file:line:col, key path, value, expectation.
#include <doctest/doctest.h>

#include <numbers>
#include <string>

#include "chrono_yaml_test_util.h"

using namespace hopsim;
using namespace hopsim::chrono_test;

namespace {

/// kHead, then a joint at lines 12-18 with the given type, body2 and axis line.
std::string joint(const std::string& type, const std::string& body2, const std::string& axis) {
  return std::string(kHead) + "  joints:\n    - name: j\n      type: " + type +
         "\n      body1: ground\n      body2: " + body2 + "\n      location: [0, 0, 0]\n" + axis +
         "\n";
}

/// kHead, then a motor at lines 12-20 whose function is `fn` (line 20, column 27).
std::string motor(const std::string& fn) {
  return std::string(kHead) +
         "  motors:\n    - name: m\n      type: ROTATION\n      body1: b\n      body2: ground\n"
         "      location: [0, 0, 0]\n      axis: [0, 0, 1]\n      actuation_type: SPEED\n"
         "      actuation_function: " +
         fn + "\n";
}

}  // namespace

TEST_CASE("chrono yaml errors: malformed YAML and wrong document shapes") {
  std::string m = readError("chrono-version: 10.0\nmodel:\n  bodies: [a, b\n");
  CHECK(has(m, "m.yaml:"));
  m = readError("- 1\n- 2\n");
  CHECK(has(m, "m.yaml:1:1: expected a mapping, found a sequence"));
  m = readError("model:\n  bodies: []\n");
  CHECK(has(m, "m.yaml:1:1: chrono-version: missing required key 'chrono-version'"));
  m = readError("chrono-version: 10.0\nmodel: 3\n");
  CHECK(has(m, "m.yaml:2:8: model: expected a mapping, found a scalar 3"));
  m = readError("chrono-version: 10.0\nmodel:\n  bodies: {a: 1}\n");
  CHECK(has(m, "m.yaml:3:11: model.bodies: expected a sequence, found a mapping"));
  m = readError("chrono-version: 10.0\nmodel:\n  name: x\n");
  CHECK(has(m, "m.yaml:3:3: model.bodies: missing required key 'bodies'"));
}

TEST_CASE("chrono yaml errors: wrong value types") {
  std::string y = kHead;
  y.replace(y.find("mass: 2"), 7, "mass: heavy");
  CHECK(has(readError(y),
            "m.yaml:9:13: model.bodies[1].mass: expected a finite number, found \"heavy\""));
  y = kHead;
  y.replace(y.find("moments: [1, 2, 3]"), 18, "moments: [1, 2]");
  CHECK(has(readError(y), "m.yaml:11:18: model.bodies[1].inertia.moments: expected 3 numbers"));
  y = kHead;
  y.replace(y.find("fixed: true"), 11, "fixed: maybe");
  CHECK(has(readError(y),
            "m.yaml:6:14: model.bodies[0].fixed: expected true or false, found \"maybe\""));
  y = kHead;
  y.replace(y.find("location: [0, 0, 0]"), 19, "location: [0, 0, x]");
  CHECK(has(readError(y), "m.yaml:5:24: model.bodies[0].location[2]: expected a finite number"));
  y = kHead;
  y.replace(y.find("location: [0, 0, 0]"), 19, "location: [0, 0, 0]\n      orientation: [1, 2]");
  CHECK(has(readError(y), "m.yaml:6:20: model.bodies[0].orientation: expected 3 Cardan angles"));
}

TEST_CASE("chrono yaml errors: missing required keys") {
  std::string y = kHead;
  y.replace(y.find("      mass: 2\n"), 14, "");
  CHECK(has(readError(y), "m.yaml:7:7: model.bodies[1].mass: missing required key 'mass'"));
  y = kHead;
  y.replace(y.find("        moments: [1, 2, 3]\n"), 27, "        products: [0, 0, 0]\n");
  CHECK(has(readError(y),
            "m.yaml:11:9: model.bodies[1].inertia.moments: missing required key 'moments'"));
  CHECK(has(readError(joint("REVOLUTE", "b", "")),
            "m.yaml:13:7: model.joints[0].axis: missing required key 'axis'"));
  CHECK(has(readError(motor("{value: 2}")),
            "m.yaml:20:27: model.motors[0].actuation_function.type: missing required key 'type'"));
  CHECK(has(readError(motor("{type: SINE, amplitude: 2}")),
            "model.motors[0].actuation_function.frequency: missing required key 'frequency'"));
  CHECK(has(readError(motor("{type: DATA, data: [[0, 1]], repeat: {start: 0, width: 1}}")),
            "model.motors[0].actuation_function.repeat.shift: missing required key 'shift'"));
  // Bushing keys Chrono reads unchecked.
  CHECK(has(readError(joint("REVOLUTE", "b",
                            "      axis: [0, 0, 1]\n      bushing_data: {stiffness_linear: 1}")),
            "m.yaml:19:21: model.joints[0].bushing_data.damping_linear: missing required key"));
  // A composite constraint with the axis extension but not the sliding direction.
  const std::string rt =
      std::string(kHead) +
      "  constraints:\n    - {name: c, type: REVOLUTE-TRANSLATIONAL, body1: ground, "
      "body2: b, point1: [0, 0, 0], point2: [1, 0, 0], axis: [0, 0, 1]}\n";
  CHECK(
      has(readError(rt), "m.yaml:13:7: model.constraints[0].axis2: missing required key 'axis2'"));
  // No force keys on a TSDA.
  const std::string t = std::string(kHead) +
                        "  tsdas:\n    - {name: t, body1: ground, body2: b, point1: [0, 0, 0], "
                        "point2: [1, 0, 0], free_length: 1}\n";
  CHECK(has(readError(t), "m.yaml:13:7: model.tsdas[0]: no force keys"));
  const std::string t2 = std::string(kHead) +
                         "  tsdas:\n    - {name: t, body1: ground, body2: b, point1: [0, 0, 0], "
                         "point2: [1, 0, 0], spring_coefficient: 1}\n";
  CHECK(has(readError(t2), "model.tsdas[0].free_length: missing required key 'free_length'"));
}

TEST_CASE("chrono yaml errors: unknown bodies, bad enums, duplicate names") {
  std::string m = readError(joint("REVOLUTE", "bb", "      axis: [0, 0, 1]"));
  CHECK(has(m, "m.yaml:16:14: model.joints[0].body2: unknown body 'bb'"));
  CHECK(has(m, "did you mean 'b'"));
  m = readError(joint("HINGE", "b", "      axis: [0, 0, 1]"));
  CHECK(has(m, "m.yaml:14:13: model.joints[0].type: unknown value 'HINGE'; expected one of LOCK"));
  m = readError(joint("REVOLUT", "b", "      axis: [0, 0, 1]"));
  CHECK(has(m, "did you mean 'REVOLUTE'"));
  m = readError(motor("{type: SQUARE}"));
  CHECK(has(m, "m.yaml:20:34: model.motors[0].actuation_function.type: unknown value 'SQUARE'"));
  std::string y = motor("{type: CONSTANT, value: 1}");
  y.replace(y.find("actuation_type: SPEED"), 21, "actuation_type: TORQUE");
  CHECK(has(readError(y),
            "m.yaml:19:23: model.motors[0].actuation_type: unknown value 'TORQUE'; "
            "expected one of POSITION, SPEED, FORCE"));
  y = kHead;
  y.replace(y.find("name: b"), 7, "name: ground");
  CHECK(has(readError(y),
            "m.yaml:7:13: model.bodies[1].name: duplicate body name 'ground' (first "
            "defined at m.yaml:4:13)"));
  y = joint("LOCK", "b", "") +
      "    - {name: j, type: LOCK, body1: ground, body2: b, location: [0, 0, 0]}\n";
  CHECK(has(readError(y), "m.yaml:19:14: model.joints[1].name: duplicate joint name 'j'"));
  y = std::string(kHead) + "  data_path: {type: SOMEWHERE}\n";
  CHECK(has(readError(y), "m.yaml:12:21: model.data_path.type: unknown value 'SOMEWHERE'"));
  // Names that Chrono keeps apart but hopsim's signals and models share.
  y = std::string(kHead) +
      "  body_loads:\n    - {name: x, type: FORCE, body: b, load: [1, 0, 0], point: [0, 0, 0]}\n"
      "  load_controllers:\n    - {name: x, type: TORQUE, body: b}\n";
  CHECK(has(readError(y),
            "m.yaml:15:7: model.load_controllers: load controller 'x' has the name "
            "of the body load at m.yaml:13:7"));
  y = motor("{type: CONTROLLER}") + "  load_controllers:\n    - {name: m, type: FORCE, body: b}\n";
  CHECK(
      has(readError(y), "load controller 'm' has the name of the CONTROLLER motor at m.yaml:13:7"));
}

TEST_CASE("chrono yaml errors: geometry and inertia") {
  std::string m = readError(joint("REVOLUTE", "b", "      axis: [0, 0, 0]"));
  CHECK(has(m, "m.yaml:18:13: model.joints[0].axis: zero-length axis [0, 0, 0]"));
  m = readError(joint("UNIVERSAL", "b", "      axis1: [1, 0, 0]\n      axis2: [2, 0, 0]"));
  CHECK(has(m, "m.yaml:18:14: model.joints[0].axis1: axis1 and axis2 are parallel"));
  m = readError(
      joint("PRISMATIC", "b", "      axis: [0, 0, 1]\n      bushing_data: {stiffness_linear: 1}"));
  CHECK(has(m, "m.yaml:19:21: model.joints[0].bushing_data: a bushing on a \"PRISMATIC\" joint"));
  std::string y = kHead;
  y.replace(y.find("location: [0, 0, 0]\n      mass"), 19,
            "location: [0, 0, 0]\n      orientation: [0, 0, 0, 0]");
  CHECK(
      has(readError(y), "m.yaml:9:20: model.bodies[1].orientation: zero quaternion [0, 0, 0, 0]"));
  y = kHead;
  y.replace(y.find("moments: [1, 2, 3]"), 18, "moments: [1, 1, 0]");
  CHECK(has(readError(y), "m.yaml:11:9: model.bodies[1].inertia: inertia (moments [1, 1, 0]"));
  y = kHead;
  y.replace(y.find("moments: [1, 2, 3]"), 18, "moments: [1, 1, 1]\n        products: [2, 0, 0]");
  CHECK(has(readError(y), "model.bodies[1].inertia: inertia (moments [1, 1, 1], products [2"));
  y = kHead;
  y.replace(y.find("mass: 2"), 7, "mass: 0");
  CHECK(has(readError(y), "m.yaml:9:13: model.bodies[1].mass: non-positive mass 0"));
  m = readError(std::string(kHead) +
                "  rsdas:\n    - {name: r, body1: ground, body2: b, axis: [0, 0, 0], "
                "spring_coefficient: 1, free_angle: 0}\n");
  CHECK(has(m, "m.yaml:13:48: model.rsdas[0].axis: zero-length axis"));
}

TEST_CASE("chrono yaml errors: function data") {
  std::string m = readError(motor("{type: DATA, data: [[0, 0], [2, 1], [1, 3]]}"));
  CHECK(has(m, "m.yaml:20:63: model.motors[0].actuation_function.data[2]: abscissa 1 is smaller"));
  m = readError(motor("{type: DATA, data: [[0, 0], [0, 1]]}"));
  CHECK(has(m, "model.motors[0].actuation_function.data[1]: duplicate abscissa 0"));
  m = readError(motor("{type: DATA, data: [[0, 0, 1]]}"));
  CHECK(has(m, "model.motors[0].actuation_function.data[0]: expected a pair [t, y]"));
  m = readError(motor("{type: POLYNOMIAL, coefficients: []}"));
  CHECK(has(m, "m.yaml:20:60: model.motors[0].actuation_function.coefficients: empty polynomial"));
  m = readError(motor("{type: RAMP, slope: 1, repeat: {start: 0, width: 0, shift: 0}}"));
  CHECK(has(m, "model.motors[0].actuation_function.repeat.width: width 0 must be > 0 s"));
  // A spring curve with a duplicate abscissa (Chrono throws).
  m = readError(std::string(kHead) +
                "  tsdas:\n    - {name: t, body1: ground, body2: b, point1: [0, 0, 0], point2: "
                "[1, 0, 0], free_length: 1, spring_curve_data: [[1, 0], [1, 2]]}\n");
  CHECK(has(m, "model.tsdas[0].spring_curve_data[1]: duplicate abscissa 1"));
  m = readError(std::string(kHead) +
                "  tsdas:\n    - {name: t, body1: ground, body2: b, point1: [0, 0, 0], point2: "
                "[1, 0, 0], deformation: [1, 2], map_data: [[0, 1, 2], [1, 1]]}\n");
  CHECK(has(m, "model.tsdas[0].map_data[1]: expected 3 numbers"));
}
