// Contact from YAML: Chrono model files' shapes and materials lowered into a SmoothContact, and a
// native scenario's `contact` section, checked against the same analytic references as the
// model itself (rebound with the restitution, rest height), the project's crank-driven shuttle
// that pushes a spring-mounted block (tests/data/chrono/shuttle.yaml: the push against the
// geometry of the head and the block, the kinematics, energy and momentum in the log), bodies
// of every collision shape at rest on a floor, and the errors of contact entries with their
// file:line:col.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"
#include "mechanism_test_util.h"
#include "push_contact_checks.h"

#ifndef HOPSIM_SOURCE_DIR
#error "HOPSIM_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

namespace hopsim {
namespace {

using testing::TempDir;

/// A ball (SPHERE r = 0.1, 2 kg) dropped from 0.3 m onto a fixed ground body carrying a BOX
/// whose top face is at z = 0; `restitution` for both materials.
std::string ballOnGround(double restitution) {
  const std::string e = std::to_string(restitution);
  return R"(chrono-version: 10.0
model:
  name: drop
  bodies:
    - name: ground
      location: [0, 0, 0]
      fixed: true
      contact:
        materials:
          - {name: floor, coefficient_of_friction: 0.5, coefficient_of_restitution: )" +
         e + R"(, physical_properties: {Young_modulus: 2e10, Poisson_ratio: 0.3}}
        shapes:
          - {type: BOX, material: floor, location: [0, 0, -0.5], orientation: [0, 0, 0], dimensions: [4, 4, 1]}
    - name: ball
      location: [0, 0, 0.4]
      mass: 2
      inertia: {moments: [0.008, 0.008, 0.008]}
      contact:
        materials:
          - {name: steel, coefficient_of_restitution: )" +
         e + R"(, physical_properties: {Young_modulus: 2e10, Poisson_ratio: 0.3}}
        shapes:
          - {type: SPHERE, material: steel, location: [0, 0, 0], radius: 0.1}
)";
}

TEST_CASE(
    "contact (long): contact lowering: a ball from a Chrono file rebounds with its restitution and "
    "rests") {
  TempDir dir;
  const double e = 0.5;
  dir.write("drop.yaml", ballOnGround(e));
  dir.write(
      "solver.yaml",
      "chrono-version: 10.0\ncontact_method: SMC\nintegrator: {type: HHT, time_step: 1e-4}\n");
  // Hops and samples of 0.1 ms (output fps 1e4): the Hertz contact lasts about 1 ms.
  const std::string file =
      dir.write("drop_sim.yaml",
                "chrono-version: 10.0\ntype: MBS\nmodel: drop.yaml\nsolver: solver.yaml\n"
                "simulation: {end_time: 1.5}\noutput: {format: ASCII, fps: 10000}\n");
  // rk4: the rebound measures the contact law, and the file's implicit integrator would damp
  // the 1 ms impact, 10 steps of 0.1 ms, by a third (docs/integrators.md, "Numerical damping").
  auto scenario = Scenario::load(file, {"simulation.integrator=rk4"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto& t = r.times();
  const auto& z = r.values(r.column("bodies.ball.position.z"));
  const auto& vz = r.values(r.column("bodies.ball.velocity.z"));
  // The first impact and rebound speeds where the ball crosses z = r (contact starts/ends).
  double impact = NAN, rebound = NAN;
  for (std::size_t i = 1; i < t.size(); ++i) {
    if (std::isnan(impact) && z[i] < 0.1 && z[i - 1] >= 0.1) impact = -vz[i - 1];
    if (!std::isnan(impact) && z[i] >= 0.1 && z[i - 1] < 0.1) {
      rebound = vz[i];
      break;
    }
  }
  // Drop of 0.3 m: v = √(2 g h) = 2.43 m/s; gravity over the contact and the hop give < 1%.
  CHECK(impact == doctest::Approx(std::sqrt(2 * 9.8 * 0.3)).epsilon(0.01));
  CHECK(rebound / impact == doctest::Approx(e).epsilon(0.02));
  // At rest after 1.5 s: on the box at z = r minus a Hertz penetration (3mg / 4E*√R)^(2/3).
  const double young = 2e10 / (2 * (1 - 0.09));
  const double delta = std::pow(3 * 2 * 9.8 / (4 * young * std::sqrt(0.1)), 2.0 / 3.0);
  CHECK(z.back() == doctest::Approx(0.1 - delta).epsilon(1e-6));
  CHECK(r.values(r.column("contact.contact_count")).back() == 1.0);
  CHECK(r.values(r.column("contact.max_penetration")).back() ==
        doctest::Approx(delta).epsilon(1e-3));
}

TEST_CASE("contact lowering: an NSC solver file's contact runs as SMC, with a warning") {
  TempDir dir;
  dir.write("drop.yaml", ballOnGround(0.5));
  const std::string solver =
      dir.write("solver.yaml", "chrono-version: 10.0\ncontact_method: NSC\n");
  const std::string file =
      dir.write("drop_sim.yaml",
                "chrono-version: 10.0\ntype: MBS\nmodel: drop.yaml\nsolver: solver.yaml\n"
                "simulation: {end_time: 0.1}\n");
  const auto scenario = Scenario::load(file);
  const auto& w = scenario->warnings();
  CHECK(std::any_of(w.begin(), w.end(), [&](const std::string& s) {
    return s.find(solver + ": contact_method NSC (complementarity) is run as SMC") !=
           std::string::npos;
  }));
}

TEST_CASE("contact (long): contact lowering: the shuttle pushes its spring-mounted block") {
  // tests/data/chrono/shuttle.yaml as written: 8 s, the solver file's 0.2 ms step, 50 fps.
  auto scenario =
      Scenario::load(std::string(HOPSIM_SOURCE_DIR) + "/tests/data/chrono/shuttle.yaml");
  scenario->run();
  const Recorder& r = scenario->recorder();
  // The block's centre is the head's offset (0.2 m), its radius (0.1 m) and half the block
  // (0.15 m) ahead of the shuttle in contact; the block stays within its spring's reach and the
  // head's (1.9 m at most). The crank stops from 2.5 s to 4 s of every 4 s period (its DATA
  // speed is 0 there) and the block's critically damped spring settles: at 4 s everything is
  // at rest.
  testing::checkPushingRun(r, {.pusher = "shuttle",
                               .pushed = "block",
                               .touching = 0.45,
                               .lowest = 1.85,
                               .highest = 2.1,
                               .maxKinetic = 50.0,
                               .restTime = 4.0});
  // Contact does not disturb the kinematics: the crank is prescribed, so the shuttle is where
  // the crank angle puts it, x = r cos θ + √(l² - r² sin² θ) with θ = 90° + the motor's angle.
  const auto& t = r.times();
  const auto& x = r.values(r.column("bodies.shuttle.position.x"));
  const auto& phi = r.values(r.column("motors.drive.q[0]"));
  for (std::size_t i = 0; i < t.size(); ++i) {
    CAPTURE(t[i]);
    const double theta = std::numbers::pi / 2.0 + phi[i];
    CHECK(x[i] == doctest::Approx(0.6 * std::cos(theta) +
                                  std::sqrt(1.0 - 0.36 * std::sin(theta) * std::sin(theta)))
                      .epsilon(1e-9));
  }
  // Two periods of 12 rad each.
  CHECK(phi.back() == doctest::Approx(24.0).epsilon(1e-9));
}

TEST_CASE(
    "contact (long): contact lowering: bodies of every collision shape come to rest on the floor") {
  // tests/data/chrono/drop.yaml: 1.5 s at 0.2 ms under g = 9.81.
  auto scenario = Scenario::load(std::string(HOPSIM_SOURCE_DIR) + "/tests/data/chrono/drop.yaml");
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto pose = [&r](const char* body) { return testing::recordedPose(r, body, 1.5); };
  // The SPHERE at its radius less the Hertz penetration (3 m g / (4 E* √R))^(2/3), E* of two
  // materials of E = 5e7 Pa and ν = 0.3.
  const double young = 5e7 / (2.0 * (1.0 - 0.09));
  const double delta = std::pow(3.0 * 0.5 * 9.81 / (4.0 * young * std::sqrt(0.08)), 2.0 / 3.0);
  CHECK(pose("ball").translation().z() == doctest::Approx(0.08 - delta).epsilon(1e-6));
  // The BOX and the CYLINDER on their faces, less a penetration under 1 mm.
  CHECK(std::abs(pose("crate").translation().z() - 0.1) < 1e-3);
  CHECK(std::abs(pose("can").translation().z() - 0.1) < 1e-3);
  // The HULL (the octahedron's vertices) and the MESH (the wedge's vertices swept by its 5 mm
  // radius) with their lowest point on the floor.
  const auto lowest = [](const spatial::RigidTransform& X, const std::vector<Eigen::Vector3d>& v) {
    double z = INFINITY;
    for (const auto& p : v) z = std::min(z, (X * p).z());
    return z;
  };
  const double a = 0.12;
  CHECK(std::abs(lowest(pose("rock"),
                        {{a, 0, 0}, {-a, 0, 0}, {0, a, 0}, {0, -a, 0}, {0, 0, a}, {0, 0, -a}})) <
        1e-3);
  CHECK(std::abs(lowest(pose("wedge"), {{-0.1, -0.08, -0.05},
                                        {0.1, -0.08, -0.05},
                                        {-0.1, -0.08, 0.05},
                                        {-0.1, 0.08, -0.05},
                                        {0.1, 0.08, -0.05},
                                        {-0.1, 0.08, 0.05}}) -
                 0.005) < 1e-3);
  // All at rest: under 1 mm/s (the cylinder and the hull, each on EPA's single deepest point,
  // creep at 0.1 to 0.3 mm/s: docs/contact.md, "Limitations").
  for (const char* body : {"ball", "crate", "can", "rock", "wedge"}) {
    CAPTURE(body);
    const auto speed = [&](const char* axis) {
      return testing::sampleAt(r, std::string("bodies.") + body + ".velocity." + axis, 1.5);
    };
    CHECK(std::hypot(speed("x"), speed("y"), speed("z")) < 1e-3);
  }
}

/// A unit cube's OBJ, centred, with quads.
constexpr const char* kCubeObj = R"(# a 0.2 m cube
v -0.1 -0.1 -0.1
v 0.1 -0.1 -0.1
v 0.1 0.1 -0.1
v -0.1 0.1 -0.1
v -0.1 -0.1 0.1
v 0.1 -0.1 0.1
v 0.1 0.1 0.1
v -0.1 0.1 0.1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
)";

TEST_CASE(
    "contact (long): contact lowering: HULL and MESH shapes from OBJ files rest on a fixed body's "
    "box") {
  // Hooke on the coefficients: k = 2e5 N/m per contact point, four corners under a 2 kg body.
  TempDir dir;
  dir.write("cube.obj", kCubeObj);
  for (const char* shape : {"{type: HULL, material: m, filename: cube.obj}",
                            "{type: MESH, material: m, filename: cube.obj, scale: 0.5, "
                            "contact_radius: 0.01}"}) {
    CAPTURE(shape);
    const std::string file = dir.write("objects.yaml", std::string(R"(chrono-version: 10.0
model:
  bodies:
    - name: ground
      location: [0, 0, 0]
      fixed: true
      contact:
        materials: [{name: m, coefficients: {normal_stiffness: 2e5, normal_damping: 40, tangential_stiffness: 2e5, tangential_damping: 20}}]
        shapes:
          - {type: BOX, material: m, location: [0, 0, -0.5], orientation: [0, 0, 0], dimensions: [4, 4, 1]}
    - name: object
      location: [0, 0, 0.2]
      mass: 2
      inertia: {moments: [0.02, 0.02, 0.02]}
      contact:
        materials: [{name: m}]
        shapes:
          - )") + shape + "\n");
    // The model's params take HOOKE on the coefficients through an override of the model.
    auto scenario = Scenario::load(file, {"simulation.end_time=1.5"});
    Simulation& sim = scenario->sim();
    sim.unlock();
    sim.set("models.model.contact.params.law", std::string("HOOKE"));
    sim.set("models.model.contact.params.use_material_properties", false);
    sim.lock();
    scenario->run();
    const bool mesh = std::string(shape).find("MESH") != std::string::npos;
    // The hull: the cube's corners 0.1 below the centre; the mesh: scaled by 0.5 and swept by
    // 0.01. The box-hull and box-mesh contacts have one point per corner (or per triangle).
    const double z =
        std::get<std::vector<double>>(sim.get("signals.model.bodies.object.position"))[2];
    CHECK(z == doctest::Approx(mesh ? 0.06 : 0.1).epsilon(2e-3));
  }
}

TEST_CASE("contact lowering: bad contact entries are located errors") {
  TempDir dir;
  const auto model = [](const std::string& contact) {
    return R"(chrono-version: 10.0
model:
  bodies:
    - name: ball
      location: [0, 0, 1]
      mass: 1
      inertia: {moments: [0.1, 0.1, 0.1]}
      contact:
)" + contact;
  };
  SUBCASE("an OBJ file that is missing is an error at its shape") {
    const std::string file = dir.write("hull.yaml", model(R"(        materials: [{name: m}]
        shapes:
          - {type: HULL, material: m, filename: hull.obj}
)"));
    const std::string expected = "hull.yaml:11:13: cannot read '" +
                                 (std::filesystem::path(file).parent_path() / "hull.obj").string() +
                                 "': No such file or directory";
    CHECK_THROWS_WITH_AS(Scenario::load(file), doctest::Contains(expected.c_str()), InputError);
  }
  SUBCASE("an unknown material") {
    const std::string file = dir.write("material.yaml", model(R"(        materials: [{name: m}]
        shapes:
          - {type: SPHERE, material: rubber, location: [0, 0, 0], radius: 0.1}
)"));
    CHECK_THROWS_WITH_AS(Scenario::load(file),
                         doctest::Contains("material.yaml:11:38: model.bodies[0].contact.shapes[0]."
                                           "material: unknown contact material 'rubber'"),
                         InputError);
  }
  SUBCASE("a restitution out of range") {
    const std::string file = dir.write(
        "restitution.yaml", model(R"(        materials: [{name: m, coefficient_of_restitution: 1.5}]
)"));
    CHECK_THROWS_WITH_AS(Scenario::load(file),
                         doctest::Contains("restitution.yaml:9:21: model.bodies[0].contact."
                                           "materials[0]: coefficient_of_restitution = 1.5, "
                                           "expected a value in [0, 1]"),
                         InputError);
  }
  SUBCASE("a box without positive dimensions") {
    const std::string file = dir.write("box.yaml", model(R"(        materials: [{name: m}]
        shapes:
          - {type: BOX, material: m, location: [0, 0, 0], orientation: [0, 0, 0], dimensions: [1, 0, 1]}
)"));
    CHECK_THROWS_WITH_AS(Scenario::load(file),
                         doctest::Contains("box.yaml:11:95: model.bodies[0].contact.shapes[0]."
                                           "dimensions: expected three lengths > 0"),
                         InputError);
  }
  SUBCASE("a sphere without a radius") {
    const std::string file = dir.write("radius.yaml", model(R"(        materials: [{name: m}]
        shapes:
          - {type: SPHERE, material: m, location: [0, 0, 0]}
)"));
    CHECK_THROWS_WITH_AS(Scenario::load(file), doctest::Contains("radius"), InputError);
  }
}

/// tests/data/contact_ball_on_ground.yaml, a native scenario whose ball (2 kg, r = 0.1 m)
/// drops 5 cm onto a HALFSPACE ground (Hooke, k = 2e5 N/m), with `extra` appended to its last
/// section, `contact`.
std::string nativeDrop(const std::string& extra = "") {
  std::ifstream in(std::string(HOPSIM_SOURCE_DIR) + "/tests/data/contact_ball_on_ground.yaml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str() + extra;
}

TEST_CASE(
    "contact (long): contact in a native scenario: a ball on the ground rests at mg/k below its "
    "radius") {
  TempDir dir;
  auto scenario = Scenario::load(dir.write("drop.yaml", nativeDrop()));
  CHECK(scenario->warnings().empty());
  scenario->run();
  Simulation& sim = scenario->sim();
  CHECK(sim.multibody().q()[6] == doctest::Approx(0.1 - 2 * 9.81 / 2e5).epsilon(1e-9));
  CHECK(std::get<double>(sim.get("signals.contact.contact_count")) == 1.0);
  CHECK(std::get<double>(sim.get("signals.contact.normal_force")) ==
        doctest::Approx(2 * 9.81).epsilon(1e-6));
}

TEST_CASE("contact in a native scenario: event_accurate ends hops where contacts start and end") {
  TempDir dir;
  // The ball starts 5 cm up: it lands after √(2 · 0.05 / g) = 0.101 s and bounces (Hooke on
  // the coefficients: e ≈ 0.9), each landing and lift-off a crossing of the pair's gap.
  auto scenario = Scenario::load(dir.write("events.yaml", nativeDrop("  event_accurate: true\n")),
                                 {"simulation.end_time=0.3"});
  scenario->run();
  CHECK(scenario->sim().propagationStatistics().crossingsFired >= 2);
}

TEST_CASE("contact in a native scenario: errors and warnings are located") {
  TempDir dir;
  SUBCASE("an unknown body, with a suggestion") {
    const std::string file =
        dir.write("body.yaml", nativeDrop("    - {body: bal, type: SPHERE, material: rubber, "
                                          "location: [0, 0, 0], radius: 0.1}\n"));
    CHECK_THROWS_WITH_AS(
        Scenario::load(file),
        doctest::Contains("body.yaml:28:14: contact.shapes[2].body: no body 'bal' in "
                          "the simulation (did you mean 'ball'?)"),
        InputError);
  }
  SUBCASE("a shape type only scenarios know is refused in a Chrono file") {
    const std::string file = dir.write("capsule.yaml", R"(chrono-version: 10.0
model:
  bodies:
    - name: rod
      location: [0, 0, 1]
      mass: 1
      inertia: {moments: [0.1, 0.1, 0.1]}
      contact:
        materials: [{name: m}]
        shapes:
          - {type: CAPSULE, material: m, location: [0, 0, 0], axis: [0, 0, 1], radius: 0.1, length: 1}
)");
    CHECK_THROWS_WITH_AS(
        Scenario::load(file),
        doctest::Contains(
            "capsule.yaml:11:20: model.bodies[0].contact.shapes[0].type: unknown value 'CAPSULE'"),
        InputError);
  }
  SUBCASE("an unknown key warns with a suggestion") {
    const std::string file = dir.write("key.yaml", nativeDrop("  exclud: []\n"));
    const auto scenario = Scenario::load(file);
    REQUIRE(scenario->warnings().size() == 1);
    CHECK(scenario->warnings()[0].find("key.yaml:28:11") != std::string::npos);
    CHECK(scenario->warnings()[0].find("did you mean 'exclude'") != std::string::npos);
  }
}

}  // namespace
}  // namespace hopsim
