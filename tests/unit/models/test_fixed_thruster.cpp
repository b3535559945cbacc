// FixedThruster (and the ThrusterBase it shares with the other thrusters) against Newton-Euler
// and the fuel equation: one evaluation at rest gives U' = [alpha; a_Bo] from F = level * axis
// at the node, rotated into the body, and its moment about the CM; on a node at the CM, the
// momentum after t is level * t and the fuel used level * t / (isp g0); the thrust stops when
// off or when the tank says empty; bad axes and missing params are refused.

#include <doctest/doctest.h>

#include <cstdint>

#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/fixed_thruster.h"
#include "hopsim/signals/error.h"
#include "propulsion_rig.h"

namespace hopsim::test {
namespace {

using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::Vector3;

constexpr double kMass = 50.0, kLevel = 40.0, kIsp = 220.0;

/// A craft with a FixedThruster "jet" on its nozzle, fired, not empty; outputs on signals.
models::FixedThruster& addJet(Simulation& sim, const Vector3& axis) {
  auto& jet = sim.addModel<models::FixedThruster>("jet");
  jet.attachToNode("nozzle");
  jet.setParam("level", kLevel);
  jet.setParam("isp", kIsp);
  jet.setParam("axis", std::vector<double>{axis.x(), axis.y(), axis.z()});
  addSetSignal(sim, "on", ElementType::Bool, true);
  addSetSignal(sim, "empty", ElementType::Int, std::int64_t{0});
  sim.tie("jet", "on_off", "on");
  sim.tie("jet", "fuel_empty", "empty");
  tieThrusterOutputs(sim, "jet");
  return jet;
}

TEST_CASE("FixedThruster: level * axis at the node, in the node's axes, with its moment") {
  const Vector3 c(0.1, -0.2, 0.3), p_BN(0.5, 0.2, -1.0), axis(1.0, 2.0, 2.0);
  const Matrix3 R_BN = spatial::rotationFromAxisAngle(Vector3(1, 1, 0).normalized(), 0.7);
  Simulation sim({.ioStepSize = 0.01, .integrator = "euler"});
  addCraft(sim, kMass, c, RigidTransform(R_BN, p_BN));
  addJet(sim, axis);
  sim.lock();
  sim.advanceOverHop();  // euler: the one evaluation is at the start, at rest

  const Vector3 F = R_BN * axis / 3.0 * kLevel;  // |axis| = 3
  const Vector3 alpha = Vector3(3, 4, 5).asDiagonal().inverse() * (p_BN - c).cross(F);
  const Vector3 aBo = F / kMass - alpha.cross(c);  // a_cm = a_Bo + alpha x c at omega = 0
  const Eigen::VectorXd udot = sim.multibody().udot();
  // Rounding of O(1) quantities.
  CHECK((udot.head<3>() - alpha).norm() < 1e-13 * alpha.norm());
  CHECK((udot.tail<3>() - aBo).norm() < 1e-13 * aBo.norm());
  CHECK(number(sim, "signals.thrust") == kLevel);
  CHECK(number(sim, "signals.flow") == doctest::Approx(kLevel / (kIsp * 9.80665)).epsilon(1e-15));
}

TEST_CASE("FixedThruster: impulse level t and fuel level t / (isp g0), none when off or empty") {
  Simulation sim({.ioStepSize = 0.1, .integrator = "rkf45"});
  const Vector3 c(0.0, 0.0, -0.4);
  const multibody::BodyIndex body = addCraft(sim, kMass, c, RigidTransform::fromTranslation(c));
  auto& jet = addJet(sim, Vector3(0.0, 0.0, 1.0));
  sim.lock();
  sim.advanceTimeTo(2.5);
  // The force acts through the CM along a fixed body axis: the craft does not turn, and a
  // constant force is integrated exactly, so only rounding remains (1e-12).
  const double mdot = kLevel / (kIsp * 9.80665);
  CHECK(sim.multibody().u(body).head<3>().norm() < 1e-14);
  CHECK(sim.multibody().u(body)[5] * kMass == doctest::Approx(kLevel * 2.5).epsilon(1e-12));
  CHECK(number(sim, "models.jet.continuousStates.fuel_used") ==
        doctest::Approx(mdot * 2.5).epsilon(1e-12));
  CHECK(number(sim, "signals.used") == number(sim, "models.jet.continuousStates.fuel_used"));

  SUBCASE("off: no thrust, no flow") { sim.set("signals.on", false); }
  SUBCASE("the tank is empty: no thrust, no flow") { sim.set("signals.empty", std::int64_t{1}); }
  SUBCASE("burns_fuel false: thrust without flow") {
    jet.setParam("burns_fuel", false);
    sim.advanceTimeTo(3.5);
    CHECK(number(sim, "signals.thrust") == kLevel);
    CHECK(number(sim, "signals.flow") == 0.0);
    CHECK(sim.multibody().u(body)[5] * kMass == doctest::Approx(kLevel * 3.5).epsilon(1e-12));
    CHECK(number(sim, "models.jet.continuousStates.fuel_used") ==
          doctest::Approx(mdot * 2.5).epsilon(1e-12));
    return;
  }
  sim.advanceTimeTo(3.5);
  CHECK(number(sim, "signals.thrust") == 0.0);
  CHECK(number(sim, "signals.flow") == 0.0);
  CHECK(sim.multibody().u(body)[5] * kMass == doctest::Approx(kLevel * 2.5).epsilon(1e-12));
  CHECK(number(sim, "models.jet.continuousStates.fuel_used") ==
        doctest::Approx(mdot * 2.5).epsilon(1e-12));
}

TEST_CASE("FixedThruster: a zero axis and a missing isp are refused, naming the model") {
  Simulation sim;
  addCraft(sim, kMass, Vector3::Zero(), RigidTransform());
  auto& jet = addJet(sim, Vector3::Zero());
  CHECK_THROWS_WITH_AS(sim.lock(),
                       doctest::Contains("model 'jet' (FixedThruster): param axis = [0, 0, 0] is "
                                         "not a direction"),
                       InputError);
  jet.setParam("axis", std::vector<double>{1.0, 0.0, 0.0});
  sim.lock();  // now valid

  Simulation bare;
  addCraft(bare, kMass, Vector3::Zero(), RigidTransform());
  auto& jet2 = bare.addModel<models::FixedThruster>("jet");
  jet2.attachToNode("nozzle");
  jet2.setParam("level", kLevel);
  addSetSignal(bare, "on", ElementType::Bool, true);
  addSetSignal(bare, "empty", ElementType::Int, std::int64_t{0});
  bare.tie("jet", "on_off", "on");
  bare.tie("jet", "fuel_empty", "empty");
  tieThrusterOutputs(bare, "jet");
  CHECK_THROWS_WITH_AS(bare.lock(), doctest::Contains("isp"), ModelError);
  CHECK_THROWS_WITH_AS(jet2.setParam("level", -1.0), doctest::Contains("models.jet.params.level"),
                       InputError);
}

}  // namespace
}  // namespace hopsim::test
