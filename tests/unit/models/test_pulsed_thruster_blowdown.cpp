// PulsedThrusterBlowdown against the blow-down closed forms. A FuelTank feeds the thruster,
// which fires a pulse of kOnTime at every 0.1 s I/O step. Reference: the recurrence of the
// ideal-gas law for the pressurant, computed here, with the fuel of each pulse level * T /
// (isp g0) at the pressure sampled at the pulse start:
//   ratio_k = ((V - m0/rho) / (V - m_k/rho))^gamma,  m_k+1 = m_k - L ratio_k^a T / (I ratio_k^b
//   g0).
// The pulse ends are located within the default time tolerance (1e-10 s), so each pulse's fuel
// is exact to mdot 1e-10 (2e-11 kg) plus rounding: 1e-9 kg over 100 pulses is the tolerance.
// For gamma = 1 Boyle's law p (V - m/rho) = p0 (V - m0/rho) is checked as well.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "hopsim/models/fuel_tank.h"
#include "hopsim/models/pulsed_thruster_blowdown.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "propulsion_rig.h"

namespace hopsim::test {
namespace {

using spatial::RigidTransform;
using spatial::Vector3;

constexpr double kVolume = 0.1, kDensity = 1000.0, kFuel = 96.0, kPressure = 2.0e6;
constexpr double kLevel = 400.0, kIsp = 220.0, kOnTime = 0.08, kStep = 0.1;

struct BlowdownRig {
  Simulation sim{{.ioStepSize = kStep, .integrator = "rk4"}};
  explicit BlowdownRig(double gamma, double levelExp, double ispExp) {
    addCraft(sim, 50.0, Vector3::Zero(), RigidTransform::fromTranslation({0, 0, -1}));
    auto& tank = sim.addModel<models::FuelTank>("tank");
    tank.attachToNode("nozzle");
    tank.setParam("starting_fuel", kFuel);
    tank.setParam("empty_mass", 50.0);
    tank.setParam("empty_inertia", std::vector<double>{3, 4, 5});
    tank.setParam("full_inertia", std::vector<double>{4, 5, 6});
    auto& jet = sim.addModel<models::PulsedThrusterBlowdown>("jet");
    jet.attachToNode("nozzle");
    jet.setParam("level", kLevel);
    jet.setParam("isp", kIsp);
    jet.setParam("V_tank", kVolume);
    jet.setParam("fuel_density", kDensity);
    jet.setParam("fuel_mass_init", kFuel);
    jet.setParam("p_tank_init", kPressure);
    jet.setParam("gamma", gamma);
    jet.setParam("level_exp", levelExp);
    jet.setParam("isp_exp", ispExp);
    addSetSignal(sim, "cmd", ElementType::Double, kOnTime);
    for (const char* name : {"flow", "fuel", "mass", "p_tank", "level_out", "isp_out"}) {
      sim.addSignal(name, ElementType::Double);
    }
    sim.addSignal("empty", ElementType::Int);
    sim.tie("jet", "on_time_cmd", "cmd");
    sim.tie("jet", "fuel_flow", "flow");
    sim.tie("jet", "fuel_empty", "empty");
    sim.tie("jet", "fuel_mass", "fuel");
    for (const char* name : {"p_tank", "level_out", "isp_out"}) sim.tie("jet", name, name);
    sim.tie("tank", "fuel_flow", "flow");
    sim.tie("tank", "empty", "empty");
    sim.tie("tank", "fuel_remaining", "fuel");
    sim.tie("tank", "mass", "mass");
    tieThrustAndUsed(sim, "jet");
  }
};

}  // namespace

TEST_CASE("PulsedThrusterBlowdown: pressure, level, isp and fuel follow the ideal-gas blow-down") {
  struct Case {
    double gamma, levelExp, ispExp;
  };
  for (const Case c : {Case{1.0, 1.0, 0.0}, Case{1.4, 1.0, 0.1}, Case{1.2, 0.8, 0.05}}) {
    CAPTURE(c.gamma);
    BlowdownRig rig(c.gamma, c.levelExp, c.ispExp);
    rig.sim.lock();
    double m = kFuel;
    const double gas0 = kVolume - kFuel / kDensity;
    for (int k = 0; k < 100; ++k) {
      const double ratio = std::pow(gas0 / (kVolume - m / kDensity), c.gamma);
      const double level = kLevel * std::pow(ratio, c.levelExp);
      const double isp = kIsp * std::pow(ratio, c.ispExp);
      // A step of two hops: the pulse end is a zero crossing.
      rig.sim.advanceTimeTo((k + 1) * kStep);
      // The outputs hold the sample taken at this step's start, from the fuel m_k.
      CHECK(number(rig.sim, "signals.p_tank") == doctest::Approx(kPressure * ratio).epsilon(1e-12));
      CHECK(number(rig.sim, "signals.level_out") == doctest::Approx(level).epsilon(1e-12));
      CHECK(number(rig.sim, "signals.isp_out") == doctest::Approx(isp).epsilon(1e-12));
      if (c.gamma == 1.0) {
        CHECK(number(rig.sim, "signals.p_tank") * (kVolume - m / kDensity) ==
              doctest::Approx(kPressure * gas0).epsilon(1e-12));
      }
      m -= level * kOnTime / (isp * models::kStandardGravity);
      REQUIRE(std::fabs(number(rig.sim, "signals.fuel") - m) < 1e-9);
    }
    // A real blow-down: the pressurant's volume grew by a fifth or more.
    CHECK((kVolume - m / kDensity) / gas0 > 1.2);
    CHECK(number(rig.sim, "signals.used") == doctest::Approx(kFuel - m).epsilon(1e-10));
  }
}

TEST_CASE("PulsedThrusterBlowdown: a tank too full for its pressurant is refused") {
  SUBCASE("fuel_mass_init fills V_tank") {
    BlowdownRig rig(1.0, 1.0, 0.0);
    rig.sim.set("models.jet.params.fuel_mass_init", 100.0);
    rig.sim.lock();
    CHECK_THROWS_WITH_AS(rig.sim.advanceOverHop(),
                         doctest::Contains("fuel_mass_init = 100 kg of fuel at 1000 kg/m^3 fills "
                                           "the tank's V_tank = 0.1 m^3"),
                         InputError);
  }
  SUBCASE("negative density and gamma below 1") {
    BlowdownRig rig(1.0, 1.0, 0.0);
    CHECK_THROWS_WITH_AS(rig.sim.set("models.jet.params.fuel_density", -1.0),
                         doctest::Contains("fuel_density"), InputError);
    CHECK_THROWS_WITH_AS(rig.sim.set("models.jet.params.gamma", 0.5), doctest::Contains("gamma"),
                         InputError);
  }
}

TEST_CASE("PulsedThrusterBlowdown: the registry creates it by class name") {
  const auto jet = models::standardRegistry().create(
      "PulsedThrusterBlowdown", "jet", {{"level", 10.0}, {"isp", 200.0}, {"V_tank", 0.01}});
  CHECK(jet->spec().className() == "PulsedThrusterBlowdown");
}

}  // namespace hopsim::test
