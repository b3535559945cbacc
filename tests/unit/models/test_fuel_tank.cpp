// FuelTank against its interpolation law and the rocket equation: a FixedThruster draws from
// the tank through the craft's CM (both CMs on the thrust axis, so nothing turns). While
// burning, the body's mass properties are the linear interpolation at lambda = fuel /
// starting_fuel; the burnout crossing fires at starting_fuel / mdot, after which the thrust
// and the draw stop; the velocity gained is isp g0 ln(m0 / m_empty) (Tsiolkovsky). Bad
// attachments and inertias are refused.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "hopsim/models/fixed_thruster.h"
#include "hopsim/models/fuel_tank.h"
#include "hopsim/signals/error.h"
#include "propulsion_rig.h"

namespace hopsim::test {
namespace {

using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::Vector3;

constexpr double kEmptyMass = 60.0, kFuel = 40.0, kLevel = 900.0, kIsp = 250.0;
constexpr double kG0 = 9.80665;
const Vector3 kEmptyCm(0.0, 0.0, 0.5), kFullCm(0.0, 0.0, 0.2);
const Vector3 kEmptyI(6.0, 7.0, 5.0), kFullI(9.0, 10.0, 8.0), kFullProducts(0.3, -0.2, 0.1);

Matrix3 tensor(const Vector3& d, const Vector3& p) {
  Matrix3 I;
  I << d.x(), p.x(), p.y(), p.x(), d.y(), p.z(), p.y(), p.z(), d.z();
  return I;
}

std::vector<double> list(const Vector3& v) { return {v.x(), v.y(), v.z()}; }

IntegratorOptions tight() {
  IntegratorOptions options;
  options.relativeTolerance = 1e-12;
  options.absoluteTolerance = 1e-12;
  return options;
}

/// A craft whose mass properties the tank owns, a FixedThruster "jet" through its CM line
/// along +z feeding from the tank, closed loop: jet.fuel_flow -> tank -> tank.empty -> jet.
struct TankRig {
  Simulation sim{{.ioStepSize = 0.25, .integrator = "rkf45", .integratorOptions = tight()}};
  multibody::BodyIndex body;
  models::FuelTank& tank;
  TankRig()
      : body(addCraft(sim, 1.0, Vector3::Zero(), RigidTransform::fromTranslation({0, 0, -1}))),
        tank(sim.addModel<models::FuelTank>("tank")) {
    tank.attachToNode("nozzle");
    tank.setParam("starting_fuel", kFuel);
    tank.setParam("empty_mass", kEmptyMass);
    tank.setParam("empty_cm", list(kEmptyCm));
    tank.setParam("full_cm", list(kFullCm));
    tank.setParam("empty_inertia", list(kEmptyI));
    tank.setParam("full_inertia", list(kFullI));
    tank.setParam("full_products", list(kFullProducts));
    auto& jet = sim.addModel<models::FixedThruster>("jet");
    jet.attachToNode("nozzle");
    jet.setParam("level", kLevel);
    jet.setParam("isp", kIsp);
    addSetSignal(sim, "on", ElementType::Bool, true);
    sim.addSignal("flow", ElementType::Double);
    sim.addSignal("empty", ElementType::Int);
    sim.addSignal("fuel", ElementType::Double);
    sim.addSignal("mass", ElementType::Double);
    sim.tie("jet", "on_off", "on");
    sim.tie("jet", "fuel_flow", "flow");
    sim.tie("jet", "fuel_empty", "empty");
    sim.tie("tank", "fuel_flow", "flow");
    sim.tie("tank", "empty", "empty");
    sim.tie("tank", "fuel_remaining", "fuel");
    sim.tie("tank", "mass", "mass");
    sim.addSignal("thrust", ElementType::Double);
    sim.addSignal("used", ElementType::Double);
    sim.tie("jet", "thrust", "thrust");
    sim.tie("jet", "fuel_used", "used");
  }
};

TEST_CASE("FuelTank: mass, CM and inertia follow the fill fraction linearly") {
  TankRig rig;
  rig.sim.lock();
  rig.sim.advanceTimeTo(1.5);
  const double mdot = kLevel / (kIsp * kG0);
  const double fuel = kFuel - mdot * 1.5;  // constant flow: integrated exactly
  const double lambda = fuel / kFuel;
  const auto& M = rig.sim.multibody().model().massProperties(rig.body);
  CHECK(M.mass() == doctest::Approx(kEmptyMass + fuel).epsilon(1e-13));
  CHECK((M.comPosition() - (kEmptyCm + lambda * (kFullCm - kEmptyCm))).norm() < 1e-13);
  const Matrix3 I = tensor(kEmptyI, Vector3::Zero()) +
                    lambda * (tensor(kFullI, kFullProducts) - tensor(kEmptyI, Vector3::Zero()));
  CHECK((M.rotationalInertiaAboutCm() - I).norm() < 1e-12);
  CHECK(number(rig.sim, "signals.fuel") == doctest::Approx(fuel).epsilon(1e-13));
  CHECK(number(rig.sim, "signals.mass") == doctest::Approx(kEmptyMass + fuel).epsilon(1e-13));
  CHECK(std::get<std::int64_t>(rig.sim.get("signals.empty")) == 0);
}

TEST_CASE("FuelTank: burnout at starting_fuel / mdot, then no thrust, dv = isp g0 ln(m0/m1)") {
  TankRig rig;
  rig.sim.lock();
  const double mdot = kLevel / (kIsp * kG0);
  const double burnout = kFuel / mdot;  // 10.68... s, inside a 0.25 s hop
  rig.sim.advanceTimeTo(burnout + 2.0);
  CHECK(rig.sim.propagationStatistics().crossingsFired == 1);
  CHECK(std::get<bool>(rig.sim.get("models.tank.discreteStates.empty")));
  CHECK(std::get<std::int64_t>(rig.sim.get("signals.empty")) == 1);
  CHECK(number(rig.sim, "signals.thrust") == 0.0);
  CHECK(number(rig.sim, "signals.fuel") == 0.0);
  CHECK(rig.sim.multibody().model().massProperties(rig.body).mass() == kEmptyMass);
  // The draw stopped at the located burnout (within 1e-10 s): fuel used = starting_fuel.
  CHECK(number(rig.sim, "signals.used") == doctest::Approx(kFuel).epsilon(1e-10));
  // Tsiolkovsky: thrust and mass flow are exact, so dv carries only the integrator's error
  // (rkf45 at rtol 1e-12 over ~50 hops: a few 1e-11) and the burnout's 1e-10 s (1e-10 relative).
  const double dv = kIsp * kG0 * std::log((kEmptyMass + kFuel) / kEmptyMass);
  CHECK(rig.sim.multibody().u(rig.body)[5] == doctest::Approx(dv).epsilon(1e-9));
  CHECK(rig.sim.multibody().u(rig.body).head<3>().norm() < 1e-12);

  // Setting fuel_consumed back refills the tank: it is not empty at the next hop and the
  // thruster fires again.
  rig.sim.set("models.tank.continuousStates.fuel_consumed", kFuel / 2.0);
  rig.sim.advanceOverHop();
  CHECK_FALSE(std::get<bool>(rig.sim.get("models.tank.discreteStates.empty")));
  CHECK(number(rig.sim, "signals.thrust") == kLevel);
}

TEST_CASE("FuelTank: a node on the world body and an impossible inertia are refused") {
  TankRig rig;
  rig.tank.setParam("full_inertia", std::vector<double>{1.0, 1.0, 5.0});  // 1 + 1 < 5
  CHECK_THROWS_WITH_AS(rig.sim.lock(),
                       doctest::Contains("model 'tank' (FuelTank): full_inertia/full_products"),
                       InputError);
  rig.sim.multibody().editModel().addNode("pad", multibody::kWorldBody, RigidTransform());
  rig.tank.setParam("full_inertia", list(kFullI));
  rig.tank.attachToNode("pad");
  CHECK_THROWS_WITH_AS(rig.sim.lock(), doctest::Contains("node 'pad' is fixed on the world body"),
                       ModelError);
  CHECK_THROWS_WITH_AS(rig.tank.setParam("starting_fuel", 0.0),
                       doctest::Contains("models.tank.params.starting_fuel"), InputError);
}

}  // namespace
}  // namespace hopsim::test
