// Contact from YAML: Chrono model files' shapes and materials lowered into a SmoothContact, and a
// native scenario's `contact` section, checked
// against the same analytic references as the model itself (rebound with the restitution, rest
// height), Chrono's own slider-crank that pushes a spring-mounted ball (20 s, the push against
// the geometry of the slider and the ball, energy and momentum in the log), and the errors of
// contact entries with their file:line:col.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"
#include "mechanism_test_util.h"

#ifndef HOPSIM_SHARED_DATA_DIR
#error "HOPSIM_SHARED_DATA_DIR must name ../shared/data (tests/CMakeLists.txt defines it)"
#endif

namespace hopsim {
namespace {

using testing::TempDir;

std::string shared(const std::string& relative) {
  return std::string(HOPSIM_SHARED_DATA_DIR) + "/" + relative;
}

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
  auto scenario = Scenario::load(file);
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

TEST_CASE(
    "contact (long): contact lowering: Chrono's slider-crank pushes its spring-mounted ball for 20 "
    "s") {
  // The shared example as Chrono runs it (mbs.yaml: the solver's 0.1 ms step, 20 fps output).
  auto scenario =
      Scenario::load(shared("chrono-examples/mbs/mbs.yaml"), {"simulation.end_time=20"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto column = [&](const char* name) { return r.values(r.column(name)); };
  const auto ball = column("bodies.ball.position.x");
  const auto slider = column("bodies.slider.position.x");
  const auto count = column("contact.contact_count");
  const auto kinetic = column("system.kinetic_energy");
  const auto momentum = column("system.linear_momentum.x");
  bool pushed = false;
  for (std::size_t i = 0; i < ball.size(); ++i) {
    CAPTURE(r.times()[i]);
    // No blow-up: every logged value finite, the ball on its rail within the slider's reach
    // (the crank's 2 m radius puts the slider's front face at most at 6.25 m).
    for (std::size_t c = 1; c < r.columns().size(); ++c) REQUIRE(std::isfinite(r.values(c)[i]));
    CHECK(ball[i] < 6.46);
    CHECK(ball[i] > 5.0);
    CHECK(kinetic[i] < 100.0);
    // In contact, the ball touches the slider's front face: half the box (0.25 m) plus the
    // radius (0.2 m) ahead of the slider's centre, less a penetration of well under 1 mm.
    if (count[i] > 0.0) {
      pushed = true;
      CHECK(ball[i] - slider[i] == doctest::Approx(0.45).epsilon(2e-3));
    }
  }
  CHECK(pushed);
  // The crank stops from 4 s to 8 s of every 16 s period (its DATA speed is 0 there) and the
  // ball's damped spring settles: at 8 s everything is at rest.
  const auto at = [&](double time) {
    const auto& times = r.times();
    return static_cast<std::size_t>(
        std::find_if(times.begin(), times.end(),
                     [&](double x) { return std::abs(x - time) < 1e-9; }) -
        times.begin());
  };
  CHECK(kinetic[at(8.0)] < 1e-6);
  CHECK(std::abs(momentum[at(8.0)]) < 1e-3);
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
    const std::string expected =
        "hull.yaml:11:13: cannot read '" +
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
