// ComputePlanePenetration against the plane geometry computed in the test: a point mass on a
// TRANSLATIONAL hinge (Q = world position, U = world velocity) moves freely (no gravity, no
// force) over one hop, so its position at the hop end is p0 + v h exactly (rk4 integrates a
// constant velocity without error); δ, δ̇ and n̂ are then dot products of O(1) numbers: 1e-14.

#include <doctest/doctest.h>

#include <string_view>
#include <variant>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/compute_plane_penetration.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using spatial::Vector3;

std::vector<double> list(const Vector3& v) { return {v.x(), v.y(), v.z()}; }

/// A free point mass at p0 with velocity v0 and the sensor on its node "foot".
models::ComputePlanePenetration& addSensedMass(Simulation& sim, const Vector3& p0,
                                               const Vector3& v0) {
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody("mass", multibody::kWorldBody, test::pointMass(1.5, Vector3::Zero()),
                              multibody::Hinge::translational());
  tree.addNode("foot", b, spatial::RigidTransform());
  sim.multibody().q(b) = p0;
  sim.multibody().u(b) = v0;
  sim.addSignal("delta", ElementType::Double, 1, "m");
  sim.addSignal("delta_rate", ElementType::Double, 1, "m/s");
  sim.addSignal("normal", ElementType::Double, 3);
  auto& sensor = sim.addModel<models::ComputePlanePenetration>("plane");
  sensor.attachToNode("foot");
  sim.tie("plane", "penetration", "delta");
  sim.tie("plane", "penetration_rate", "delta_rate");
  sim.tie("plane", "normal", "normal");
  return sensor;
}

double scalar(const Simulation& sim, std::string_view path) {
  return std::get<double>(sim.get(path));
}

}  // namespace

TEST_CASE("ComputePlanePenetration: depth, rate and normal of a tilted plane") {
  const Vector3 point(1.0, 2.0, 3.0), normal(1.0, -2.0, 2.0);  // |normal| = 3
  const Vector3 nHat = normal / 3.0;
  const Vector3 v0(0.4, 0.5, -1.2);
  for (const Vector3& p0 : {Vector3(0.0, 0.0, 0.0), Vector3(2.0, 1.0, 5.0)}) {  // below, above
    CAPTURE(p0);
    Simulation sim({.ioStepSize = 0.01});
    auto& sensor = addSensedMass(sim, p0, v0);
    sensor.setParam("point", list(point));
    sensor.setParam("normal", list(normal));
    sim.lock();
    sim.advanceOverHop();
    const Vector3 p = p0 + 0.01 * v0;
    CHECK(scalar(sim, "signals.delta") == doctest::Approx((point - p).dot(nHat)).epsilon(1e-14));
    CHECK(scalar(sim, "signals.delta_rate") == doctest::Approx(-v0.dot(nHat)).epsilon(1e-14));
    const auto n = std::get<std::vector<double>>(sim.get("signals.normal"));
    CHECK((Vector3(n[0], n[1], n[2]) - nHat).norm() < 1e-15);
  }
}

TEST_CASE("ComputePlanePenetration: the sign of δ says below (> 0) or above (< 0)") {
  // The default plane is z = 0 with normal +z: a node at height z has δ = -z.
  Simulation sim({.ioStepSize = 0.01});
  addSensedMass(sim, Vector3(0.3, -0.2, -0.05), Vector3::Zero());
  sim.lock();
  sim.advanceOverHop();
  CHECK(scalar(sim, "signals.delta") == doctest::Approx(0.05).epsilon(1e-14));
  CHECK(scalar(sim, "signals.delta_rate") == 0.0);
}

TEST_CASE("ComputePlanePenetration: a zero normal is refused naming the param") {
  Simulation sim({.ioStepSize = 0.01});
  addSensedMass(sim, Vector3::Zero(), Vector3::Zero()).setParam("normal", list(Vector3::Zero()));
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       "models.plane.params.normal: value [0, 0, 0] must be a finite non-zero "
                       "vector (it gives the plane's direction)",
                       InputError);
}

}  // namespace hopsim
