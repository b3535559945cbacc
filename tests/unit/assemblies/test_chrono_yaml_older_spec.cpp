// Files Chrono loads that go beyond the current spec's letter: models in the older YAML model
// spec, and composite constraints written without hopsim's axis extension, which Chrono ignores.
#include <doctest/doctest.h>

#include <string>

#include "../core/same_bits.h"
#include "chrono_yaml_test_util.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"

#ifndef HOPSIM_SOURCE_DIR
#error "HOPSIM_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

using namespace hopsim;
using namespace hopsim::chrono_test;

namespace {

std::string chronoData(const std::string& name) {
  return std::string(HOPSIM_SOURCE_DIR) + "/tests/data/chrono/" + name;
}

}  // namespace

TEST_CASE("chrono yaml older spec: a pendulum reads as its current-spec twin, with a warning") {
  const mechanism::Mechanism older = chrono::readModelFile(chronoData("pendulum_older_model.yaml"));
  const mechanism::Mechanism current = chrono::readModelFile(chronoData("pendulum_model.yaml"));
  CHECK(current.warnings.empty());
  REQUIRE(older.warnings.size() == 1);
  CHECK(has(older.warnings[0],
            "pendulum_older_model.yaml:6:1: read as a model of Chrono's older "
            "YAML model spec"));
  CHECK(older.name == current.name);
  REQUIRE(older.bodies.size() == 2);
  // com given as a point: the COM frame at that point, with the reference frame's axes.
  CHECK(older.bodies[1].X_RC.translation() == mechanism::Vector3(0.1, 0.0, 0.02));
  CHECK(older.bodies[1].X_RC.rotation() == mechanism::Matrix3::Identity());
  CHECK(older.bodies[1].X_RC.translation() == current.bodies[1].X_RC.translation());
  CHECK(older.bodies[1].X_WR.rotation() == current.bodies[1].X_WR.rotation());
  // spring_dampers: the TSDA and the RSDA, by their type.
  REQUIRE(older.tsdas.size() == 1);
  REQUIRE(older.rsdas.size() == 1);
  CHECK(older.tsdas[0].name == "tether");
  CHECK(older.tsdas[0].stiffness == current.tsdas[0].stiffness);
  CHECK(older.tsdas[0].freeLength == current.tsdas[0].freeLength);
  CHECK(older.rsdas[0].name == "friction");
  CHECK(older.rsdas[0].damping == current.rsdas[0].damping);
}

TEST_CASE("chrono yaml older spec: the pendulum and its twin run to the same bits") {
  auto older = Scenario::load(chronoData("pendulum_older_model.yaml"), {"simulation.end_time=2"});
  auto current = Scenario::load(chronoData("pendulum_model.yaml"), {"simulation.end_time=2"});
  older->run();
  current->run();
  const Recorder& a = older->recorder();
  const Recorder& b = current->recorder();
  REQUIRE(a.columns() == b.columns());
  REQUIRE(a.times().size() > 100);
  CHECK(test::sameBits(a.times(), b.times()));
  for (std::size_t c = 1; c < a.columns().size(); ++c) {
    CAPTURE(a.columns()[c]);
    CHECK(test::sameBits(a.values(c), b.values(c)));
  }
  // It moves: the spring and the weight turn the arm.
  const std::vector<double>& angle = a.values(a.column("joints.pivot.q[0]"));
  CHECK(std::abs(angle.back() - angle.front()) > 1e-3);
}

TEST_CASE("chrono yaml older spec: its errors and the forms read in a current-spec file") {
  constexpr const char* kOlder = R"(bodies:
  - {name: ground, location: [0, 0, 0], fixed: true}
  - {name: b, location: [0, 0, 0], mass: 2, inertia: {moments: [1, 2, 3]}, com: [0, 0, 1]}
spring_dampers:
  - {name: s, type: BUSHING, body1: ground, body2: b, point1: [0, 0, 0], point2: [0, 0, 1]}
)";
  CHECK(has(readError(kOlder),
            "m.yaml:5:21: model.spring_dampers[0].type: unknown value "
            "'BUSHING'; expected one of TSDA, RSDA"));
  std::string twice = kOlder;
  twice.replace(twice.find("type: BUSHING"), 13, "type: TSDA, damping_coefficient: 1");
  twice +=
      "  - {name: s, type: RSDA, body1: ground, body2: b, axis: [0, 0, 1], "
      "damping_coefficient: 1}\n";
  CHECK(has(readError(twice),
            "m.yaml:6:12: model.spring_dampers[1].name: duplicate "
            "spring-damper name 's'"));
  // A current-spec file: `com` as a point reads with a warning; `spring_dampers` is unknown.
  const std::string current = std::string(kHead) + "      com: [0, 0, 1]\n  spring_dampers: []\n";
  const mechanism::Mechanism m = readInline(current);
  CHECK(m.bodies[1].X_RC.translation() == mechanism::Vector3(0.0, 0.0, 1.0));
  CHECK(countHas(m.warnings, "model.bodies[1].com given as a point, the older model spec's") == 1);
  CHECK(countHas(m.warnings, "unknown key 'model.spring_dampers' ignored") == 1);
}

TEST_CASE("chrono yaml: a composite constraint without 'axis' is ignored, as Chrono ignores it") {
  for (const char* type : {"REVOLUTE-SPHERICAL", "REVOLUTE-TRANSLATIONAL"}) {
    CAPTURE(type);
    const std::string yaml = std::string(kHead) + "  constraints:\n    - {name: c, type: " + type +
                             ", body1: ground, body2: b, point1: [0, 0, 0], point2: [1, 0, 0]}\n"
                             "    - {name: d, type: DISTANCE, body1: ground, body2: b, "
                             "point1: [0, 0, 0], point2: [1, 0, 0]}\n";
    const mechanism::Mechanism m = readInline(yaml);
    REQUIRE(m.constraints.size() == 1);
    CHECK(m.constraints[0].name == "d");
    CHECK(countHas(m.warnings, "m.yaml:13:7: model.constraints[0]: " + std::string(type) +
                                   " constraint 'c' without 'axis' is ignored, as Chrono "
                                   "ignores it") == 1);
  }
}
