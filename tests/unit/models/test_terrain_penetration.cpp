// TerrainPenetration against the terrain geometry computed in the test: a point mass on a
// TRANSLATIONAL hinge (Q = world position, U = world velocity) moving freely over one hop, so
// that its position is p0 + v h exactly; δ is then the perpendicular distance to a plane, and
// for a curved surface (h - z) n̂_z with n̂ from the closed-form gradient: 1e-13 on O(1)
// numbers.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string_view>
#include <variant>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/terrain_penetration.h"
#include "hopsim/signals/error.h"
#include "small_body.h"
#include "temp_dir.h"

namespace hopsim {
namespace {

using spatial::Vector3;

/// A free point mass at p0 with velocity v0 and the sensor "ground" on its node "foot".
models::TerrainPenetration& addSensedMass(Simulation& sim, const Vector3& p0, const Vector3& v0) {
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody("mass", multibody::kWorldBody, test::pointMass(1.5, Vector3::Zero()),
                              multibody::Hinge::translational());
  tree.addNode("foot", b, spatial::RigidTransform());
  sim.multibody().q(b) = p0;
  sim.multibody().u(b) = v0;
  sim.addSignal("delta", ElementType::Double, 1, "m");
  sim.addSignal("delta_rate", ElementType::Double, 1, "m/s");
  sim.addSignal("normal", ElementType::Double, 3);
  sim.addSignal("h", ElementType::Double, 1, "m");
  sim.addSignal("soil", ElementType::Double, 6);
  auto& sensor = sim.addModel<models::TerrainPenetration>("ground");
  sensor.attachToNode("foot");
  sim.tie("ground", "penetration", "delta");
  sim.tie("ground", "penetration_rate", "delta_rate");
  sim.tie("ground", "normal", "normal");
  sim.tie("ground", "surface_height", "h");
  sim.tie("ground", "soil", "soil");
  return sensor;
}

double scalar(const Simulation& sim, std::string_view path) {
  return std::get<double>(sim.get(path));
}
Vector3 vector3(const Simulation& sim, std::string_view path) {
  const auto v = std::get<std::vector<double>>(sim.get(path));
  return {v[0], v[1], v[2]};
}

}  // namespace

TEST_CASE("TerrainPenetration: on a slope δ is the distance below the inclined plane") {
  const double slope = 0.3, heading = std::numbers::pi / 2, h0 = 0.2;  // uphill along +y
  const Vector3 nHat(0.0, -std::sin(slope), std::cos(slope));
  const Vector3 v0(0.4, 0.5, -1.2), p0(1.0, 2.0, 0.5);
  Simulation sim({.ioStepSize = 0.01});
  auto& sensor = addSensedMass(sim, p0, v0);
  sensor.setParam("terrain", std::string("slope"));
  sensor.setParam("slope", slope);
  sensor.setParam("slope_heading", heading);
  sensor.setParam("height", h0);
  sim.lock();
  sim.advanceOverHop();
  const Vector3 p = p0 + 0.01 * v0;
  // The plane holds (0, 0, h0) with normal n̂: the distance of p below it is (q - p)·n̂.
  CHECK(scalar(sim, "signals.delta") ==
        doctest::Approx((Vector3(0, 0, h0) - p).dot(nHat)).epsilon(1e-13));
  CHECK(scalar(sim, "signals.delta_rate") == doctest::Approx(-v0.dot(nHat)).epsilon(1e-13));
  CHECK((vector3(sim, "signals.normal") - nHat).norm() < 1e-15);
  CHECK(scalar(sim, "signals.h") == doctest::Approx(h0 + std::tan(slope) * p.y()).epsilon(1e-13));
}

TEST_CASE("TerrainPenetration: on a sinusoid, a height map and soil regions") {
  const Vector3 p0(0.3, -0.2, 0.05);
  SUBCASE("sinusoid") {
    Simulation sim({.ioStepSize = 0.01});
    auto& sensor = addSensedMass(sim, p0, Vector3::Zero());
    sensor.setParam("terrain", std::string("SINUSOID"));
    sensor.setParam("amplitude", std::vector<double>{0.1, 0.0});
    sensor.setParam("wavelength", std::vector<double>{2.0, 1.0});
    sim.lock();
    sim.advanceOverHop();
    const double k = std::numbers::pi;  // 2π / 2 m
    const double h = 0.1 * std::sin(k * p0.x());
    const Vector3 n = Vector3(-0.1 * k * std::cos(k * p0.x()), 0.0, 1.0).normalized();
    CHECK(scalar(sim, "signals.h") == doctest::Approx(h).epsilon(1e-14));
    CHECK(scalar(sim, "signals.delta") == doctest::Approx((h - p0.z()) * n.z()).epsilon(1e-13));
    CHECK((vector3(sim, "signals.normal") - n).norm() < 1e-15);
  }
  SUBCASE("height map and soils") {
    testing::TempDir dir;
    const std::string file = dir.write(
        "step.txt",
        "hopsim_height_map 1\norigin 0 -1\nspacing 1 2\nsize 2 2\nheights\n0 0.4\n0 0.4\n");
    Simulation sim({.ioStepSize = 0.01});
    auto& sensor = addSensedMass(sim, p0, Vector3::Zero());
    sensor.setParam("terrain", std::string("height_map"));
    sensor.setParam("file", file);
    sensor.setParam(
        "soils", std::vector<double>{1e3, 2e6, 1.1, 800, 0.5, 0.02, 5e3, 1e6, 0.8, 200, 0.6, 0.01});
    sensor.setParam("soil_regions", std::vector<double>{0.0, 1.0, -1.0, 0.0, 1});
    sim.lock();
    sim.advanceOverHop();
    const double h = 0.4 * p0.x();
    const Vector3 n = Vector3(-0.4, 0.0, 1.0).normalized();
    CHECK(scalar(sim, "signals.h") == doctest::Approx(h).epsilon(1e-14));
    CHECK(scalar(sim, "signals.delta") == doctest::Approx((h - p0.z()) * n.z()).epsilon(1e-13));
    CHECK(std::get<std::vector<double>>(sim.get("signals.soil")) ==
          std::vector<double>{5e3, 1e6, 0.8, 200, 0.6, 0.01});
  }
}

TEST_CASE("TerrainPenetration: bad params are refused naming the param and keep the terrain") {
  Simulation sim({.ioStepSize = 0.01});
  auto& sensor = addSensedMass(sim, Vector3(0, 0, -0.1), Vector3::Zero());
  sim.lock();
  sim.advanceOverHop();
  CHECK(scalar(sim, "signals.delta") == doctest::Approx(0.1));
  sim.set("models.ground.params.terrain", std::string("HILLS"));
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       "models.ground.params.terrain: value 'HILLS' is not PLANE, SLOPE, "
                       "SINUSOID or HEIGHT_MAP",
                       InputError);
  CHECK(sensor.terrainSurface()->height(0.0, 0.0) == 0.0);
  sim.set("models.ground.params.terrain", std::string("HEIGHT_MAP"));
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       "models.ground.params.file: empty; HEIGHT_MAP needs a height-map file",
                       InputError);
  testing::TempDir dir;
  const std::string file = dir.write("bad.txt", "hopsim_height_map 2\n");
  sim.set("models.ground.params.file", file);
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       ("models.ground.params.file: " + file +
                        ":1: expected 'hopsim_height_map 1' (the format and its version) first")
                           .c_str(),
                       InputError);
}

}  // namespace hopsim
