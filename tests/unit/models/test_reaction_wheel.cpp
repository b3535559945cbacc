// ReactionWheel against its equations. Each friction model's hinge torque and bristle rate Z'
// are read from one euler hop at a set state: the hop's only derivative evaluation is at the
// set state, so the applied generalized force is T(omega, Z) there and Z1 = Z0 + h Z'. LuGre at
// a constant rate relaxes to Z = g(omega) sgn(omega)/sigma0 along the exponential its linear
// ODE gives. Overspeed disables the motor above k_disable_spd and enables it again only below
// k_enable_spd. The tachometer reports 2 pi dP/(ppr T) from the pulse counts at its reads,
// which need one of its I/O steps to start at each read instant.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>

#include "hopsim/core/simulation.h"
#include "hopsim/models/reaction_wheel.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::SpatialInertia;
using spatial::Vector3;

constexpr double kTorqueConstant = 0.04;                            // N*m/A
constexpr double kCoulomb = 2e-3, kStatic = 3e-3, kViscous = 5e-5;  // N*m, N*m, N*m*s/rad

/// A wheel of axial inertia J on a PIN about z from the world, driven by a ReactionWheel "rw"
/// from signals "current" (A) and "power", with outputs on "torque" and "tach".
struct WheelRig {
  Simulation sim;
  models::ReactionWheel* wheel;
  WheelRig(const SimulationOptions& options, double J, const char* friction) : sim(options) {
    sim.multibody().editModel().addBody(
        "wheel", kWorldBody,
        SpatialInertia::fromCmInertia(2.0, Vector3::Zero(),
                                      Matrix3(Vector3(0.6 * J, 0.6 * J, J).asDiagonal())),
        Hinge::pin(Vector3::UnitZ()));
    wheel = &sim.addModel<models::ReactionWheel>("rw");
    wheel->attachToHinge("wheel");
    wheel->setParam("k_friction_model", std::string(friction));
    wheel->setParam("k_mtr_trq_constant", kTorqueConstant);
    wheel->setParam("k_coulomb", kCoulomb);
    wheel->setParam("k_static", kStatic);
    wheel->setParam("k_viscous", kViscous);
    sim.addSignal("current", ElementType::Double, 1, "A");
    sim.addSignal("power", ElementType::Bool);
    sim.addSignal("torque", ElementType::Double, 1, "N*m");
    sim.addSignal("tach", ElementType::Double, 1, "rad/s");
    sim.set("signals.current", 0.0);
    sim.set("signals.power", true);
    sim.tie("rw", "mtr_current", "current");
    sim.tie("rw", "power_cmd", "power");
    sim.tie("rw", "trq_output", "torque");
    sim.tie("rw", "wheel_tach", "tach");
  }
  double omega() { return sim.multibody().u()[0]; }
  double z() { return std::get<double>(sim.get("models.rw.continuousStates.Z")); }
  bool overspeed() { return std::get<bool>(sim.get("models.rw.discreteStates.overspeed")); }
};

/// The hinge torque and Z' at (omega, Z) with current i, from one euler hop of h = 1e-3 s.
struct Evaluation {
  double torque, zRate;
};
Evaluation evaluate(const char* friction, double omega, double z, double current, bool power,
                    void (*configure)(models::ReactionWheel&) = nullptr) {
  const double h = 1e-3;
  WheelRig rig({.ioStepSize = h, .integrator = "euler"}, 0.01, friction);
  if (configure != nullptr) configure(*rig.wheel);
  rig.sim.lock();
  rig.sim.set("multibody.bodies.wheel.U", omega);
  rig.sim.set("models.rw.continuousStates.Z", z);
  rig.sim.set("signals.current", current);
  rig.sim.set("signals.power", power);
  rig.sim.advanceOverHop();
  return {rig.sim.multibody().generalizedForces()[0], (rig.z() - z) / h};
}

double lugreG(double omega, double vs, double exponent) {
  return kCoulomb + (kStatic - kCoulomb) * std::exp(-std::pow(std::abs(omega / vs), exponent));
}

}  // namespace

TEST_CASE("ReactionWheel: each friction model's torque and Z' against its formula") {
  // The torque is one product and a few sums of O(1e-3) values: 1e-15 absolute is rounding.
  // Z' comes from (Z1 - Z0)/h, which loses |Z|/h eps ~ 1e-13 relative to Z'.
  const double i = 0.5, tauM = kTorqueConstant * i;
  SUBCASE("NONE: the motor torque alone; no power, no torque") {
    CHECK(evaluate("NONE", 3.0, 0.0, i, true).torque == doctest::Approx(tauM).epsilon(1e-15));
    CHECK(evaluate("none", 3.0, 0.0, i, false).torque == 0.0);
  }
  SUBCASE("COULOMB_VISCOUS: sliding, stuck and breaking away at omega = 0") {
    for (const double omega : {3.0, -2.0}) {
      const double expected = tauM - (kCoulomb * (omega > 0 ? 1.0 : -1.0) + kViscous * omega);
      CHECK(evaluate("COULOMB_VISCOUS", omega, 0.0, i, true).torque ==
            doctest::Approx(expected).epsilon(1e-14));
    }
    // |tau_m| = 2e-3 <= k_static: friction holds the wheel, no torque on it.
    CHECK(evaluate("COULOMB_VISCOUS", 0.0, 0.0, 0.05, true).torque == 0.0);
    // |tau_m| = 4e-3 > k_static: it breaks away against k_coulomb.
    CHECK(evaluate("COULOMB_VISCOUS", 0.0, 0.0, -0.1, true).torque ==
          doctest::Approx(-4e-3 + kCoulomb).epsilon(1e-14));
  }
  SUBCASE("LUGRE: sigma0 Z + sigma1 Z' + sigma2 omega with Z' = omega - sigma0 |omega| Z/g") {
    const double sigma0 = 2.0, sigma1 = 0.01, vs = 0.5, exponent = 1.5;
    const auto configure = [](models::ReactionWheel& w) {
      w.setParam("k_lugre_stiff", 2.0);
      w.setParam("k_lugre_damp", 0.01);
      w.setParam("k_stribeck_vel", 0.5);
      w.setParam("k_stribeck_exp", 1.5);
    };
    for (const double omega : {0.3, -0.8, 4.0}) {
      CAPTURE(omega);
      const double z = 4e-4;
      const double g = lugreG(omega, vs, exponent);
      const double zRate = omega - sigma0 * std::abs(omega) * z / g;
      const Evaluation e = evaluate("LuGre", omega, z, i, true, configure);
      CHECK(e.zRate == doctest::Approx(zRate).epsilon(1e-10));
      CHECK(
          e.torque ==
          doctest::Approx(tauM - (sigma0 * z + sigma1 * zRate + kViscous * omega)).epsilon(1e-13));
    }
  }
  SUBCASE("DAHL: sigma Z with Z' = omega s|s|^(n-1), s = 1 - sigma Z sgn(omega)/Fc") {
    const auto configure = [](models::ReactionWheel& w) {
      w.setParam("k_dahl_stiff", 3.0);
      w.setParam("k_dahl_exp", 1.7);
    };
    // s = 0.7 and s = 1.3 by the sign of omega, and s = -0.35 past the saturation deflection.
    for (const auto& [omega, z] :
         {std::pair{2.0, 2e-4}, std::pair{-0.5, 2e-4}, std::pair{1.0, 9e-4}}) {
      CAPTURE(omega);
      const double s = 1.0 - 3.0 * z * (omega > 0 ? 1.0 : -1.0) / kCoulomb;
      const Evaluation e = evaluate("DAHL", omega, z, i, true, configure);
      CHECK(e.zRate == doctest::Approx(omega * s * std::pow(std::abs(s), 0.7)).epsilon(1e-10));
      CHECK(e.torque == doctest::Approx(tauM - 3.0 * z).epsilon(1e-14));
    }
  }
}

TEST_CASE("ReactionWheel: LuGre at a constant rate relaxes to Z = g(omega) sgn(omega)/sigma0") {
  // A wheel of 1e9 kg m^2 keeps its rate (friction changes it by < 1e-12 rad/s over the run), so
  // Z' = omega - sigma0 |omega| Z/g is linear with constant coefficients:
  // Z(t) = Zss + (Z0 - Zss) exp(-sigma0 |omega| t/g), Zss = g sgn(omega)/sigma0.
  const double sigma0 = 0.5, vs = 0.1;
  for (const double omega : {0.06, -0.2}) {
    CAPTURE(omega);
    IntegratorOptions tight;
    tight.relativeTolerance = 1e-12;
    tight.absoluteTolerance = 1e-15;
    WheelRig rig({.ioStepSize = 0.05, .integrator = "rkf45", .integratorOptions = tight}, 1e9,
                 "LUGRE");
    rig.wheel->setParam("k_lugre_stiff", sigma0);
    rig.wheel->setParam("k_stribeck_vel", vs);
    rig.sim.lock();
    rig.sim.set("multibody.bodies.wheel.U", omega);
    const double g = lugreG(omega, vs, 2.0);
    const double zss = g * (omega > 0 ? 1.0 : -1.0) / sigma0;
    const double rate = sigma0 * std::abs(omega) / g;  // 1/s
    for (const double t : {0.5 / rate, 2.0 / rate, 30.0 / rate}) {
      rig.sim.advanceTimeTo(std::round(t / 0.05) * 0.05);
      const double expected = zss * (1.0 - std::exp(-rate * rig.sim.time()));
      // rkf45 at rtol 1e-12 over tens of steps: 1e-10 relative to Zss.
      CHECK(std::abs(rig.z() - expected) < 1e-10 * std::abs(zss));
    }
    // Settled: the friction is g sgn(omega) + k_viscous omega, the torque its negative.
    CHECK(std::get<double>(rig.sim.get("signals.torque")) ==
          doctest::Approx(-(g * (omega > 0 ? 1.0 : -1.0) + kViscous * omega)).epsilon(1e-9));
  }
}

TEST_CASE("ReactionWheel: overspeed disables the motor above k_disable_spd until k_enable_spd") {
  // J = 0.01 kg m^2, 10 A at 0.04 N*m/A: omega = 40 t rad/s, which passes 59.9 rad/s at
  // t = 1.4975 s; the check at the next hop start (t = 1.5 s) disables the motor, and omega
  // stays at 60 rad/s (no friction).
  WheelRig rig({.ioStepSize = 0.01, .integrator = "rk4"}, 0.01, "NONE");
  rig.wheel->setParam("k_disable_spd", 59.9);
  rig.wheel->setParam("k_enable_spd", 50.0);
  rig.sim.lock();
  rig.sim.set("signals.current", 10.0);
  rig.sim.advanceTimeTo(1.49);
  CHECK_FALSE(rig.overspeed());
  rig.sim.advanceTimeTo(1.5);
  CHECK_FALSE(rig.overspeed());  // omega = 60 now; seen at the next hop start
  rig.sim.advanceTimeTo(2.0);
  CHECK(rig.overspeed());
  // rk4 integrates the linear spin-up exactly: omega(1.5) = 60 to rounding.
  CHECK(rig.omega() == doctest::Approx(60.0).epsilon(1e-12));
  CHECK(std::get<double>(rig.sim.get("signals.torque")) == 0.0);
  // Between the two speeds the motor stays disabled (hysteresis) ...
  rig.sim.set("multibody.bodies.wheel.U", 55.0);
  rig.sim.advanceTimeTo(2.5);
  CHECK(rig.overspeed());
  CHECK(rig.omega() == 55.0);
  // ... and below k_enable_spd it drives again.
  rig.sim.set("multibody.bodies.wheel.U", 49.0);
  rig.sim.advanceTimeTo(2.6);
  CHECK_FALSE(rig.overspeed());
  CHECK(rig.omega() == doctest::Approx(49.0 + 40.0 * 0.1).epsilon(1e-12));
}

TEST_CASE("ReactionWheel: the tachometer reads 2 pi dP/(ppr T) at k_tach_read_period") {
  // A free wheel at omega = 7.3 rad/s from theta0 = 0.2 rad: theta(t) = theta0 + omega t, which
  // rk4 integrates exactly. Reads every T = 0.05 s while hops are 0.01 s long.
  const double omega = 7.3, theta0 = 0.2, T = 0.05;
  const std::int64_t ppr = 16;
  WheelRig rig({.ioStepSize = 0.01, .integrator = "rk4"}, 0.01, "NONE");
  rig.wheel->setParam("k_tach_pulses_per_rev", ppr);
  rig.wheel->setParam("k_tach_read_period", T);
  rig.sim.setModelPeriod("rw", T);  // redundant with 0.01 s hops, but the documented setup
  rig.sim.lock();
  rig.sim.set("multibody.bodies.wheel.Q", theta0);
  rig.sim.set("multibody.bodies.wheel.U", omega);
  const auto pulses = [&](int k) {
    return std::floor((theta0 + omega * k * T) * static_cast<double>(ppr) /
                      (2.0 * std::numbers::pi));
  };
  for (int hop = 1; hop <= 100; ++hop) {
    rig.sim.advanceOverHop();
    // The last read was at the start of this hop's I/O step: k = floor((t - h)/T).
    const int k = static_cast<int>(std::floor((rig.sim.time() - 0.01) / T + 1e-9));
    const double expected = k == 0 ? 0.0
                                   : 2.0 * std::numbers::pi * (pulses(k) - pulses(k - 1)) /
                                         (static_cast<double>(ppr) * T);
    CAPTURE(rig.sim.time());
    REQUIRE(std::get<double>(rig.sim.get("signals.tach")) ==
            doctest::Approx(expected).epsilon(1e-14));
  }
  // Reads at t = 0, 0.05, ..., 0.95 (7.3 rad/s is 0.93 pulses per read: dP is 0 or 1).
  CHECK(std::get<std::int64_t>(rig.sim.get("models.rw.discreteStates.tach_reads")) == 20);
}

TEST_CASE("ReactionWheel: bad periods, params and hinges are refused") {
  {
    // 0.03 s I/O steps do not start at the read instant 0.1 s.
    WheelRig rig({.ioStepSize = 0.03, .integrator = "rk4"}, 0.01, "NONE");
    rig.sim.lock();
    rig.sim.advanceTimeTo(0.12);
    CHECK_THROWS_WITH_AS(rig.sim.advanceOverHop(),
                         doctest::Contains("no I/O step started at the tachometer read at t = 0.1"),
                         ModelError);
  }
  {
    WheelRig rig({.ioStepSize = 0.01, .integrator = "rk4"}, 0.01, "STICKY");
    CHECK_THROWS_WITH_AS(rig.sim.lock(), doctest::Contains("k_friction_model"), InputError);
  }
  {
    WheelRig rig({.ioStepSize = 0.01, .integrator = "rk4"}, 0.01, "NONE");
    rig.wheel->setParam("k_enable_spd", 700.0);
    CHECK_THROWS_WITH_AS(rig.sim.lock(),
                         doctest::Contains("k_enable_spd: value 700 rad/s is not below "
                                           "k_disable_spd = 600 rad/s"),
                         InputError);
  }
  Simulation sim;
  sim.multibody().editModel().addBody(
      "ball", kWorldBody, SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Matrix3::Identity()),
      Hinge::ball());
  auto& wheel = sim.addModel<models::ReactionWheel>("rw");
  wheel.attachToHinge("ball");
  for (const char* s : {"current", "power", "torque", "tach"}) {
    sim.addSignal(s, std::string(s) == "power" ? ElementType::Bool : ElementType::Double);
  }
  sim.tie("rw", "mtr_current", "current");
  sim.tie("rw", "power_cmd", "power");
  sim.tie("rw", "trq_output", "torque");
  sim.tie("rw", "wheel_tach", "tach");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("has 3 DOFs; a reaction wheel needs a 1-DOF"),
                       ModelError);
}

}  // namespace hopsim
