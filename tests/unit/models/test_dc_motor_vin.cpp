// DCMotorVin driving a rotor (a point mass on a PIN, no gravity: constant inertia J). With the
// voltage V held, J ω' = N τ_m = N K_t V / R - N² (K_t² / R + b) ω is first order:
//   ω(t) = ω_ss (1 - exp(-t / T)),  ω_ss = K_t V / (N (K_t² + R b)),  T = J R / (N² (K_t² + R b)),
// the seed's ω_ss = K_t V / (K_t² + R b) and T = J R / (K_t² + R b) for N = 1. The outputs are
// checked against i = (V - K_t N ω) / R, τ_m = K_t i - b N ω and P = V i at the same instants.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "hopsim/core/simulation.h"
#include "hopsim/models/dc_motor_vin.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;

constexpr double kMass = 2.0, kRadius = 0.5;
constexpr double kJ = kMass * kRadius * kRadius + 1e-3 * kMass;

double signal(const Simulation& sim, const char* name) {
  return std::get<double>(sim.get(std::string("signals.") + name));
}

/// The rotor and the motor with its voltage on "V" and outputs on "i", "tau" and "P".
void build(Simulation& sim, double Kt, double R, double b, double N) {
  sim.multibody().editModel().addBody("rotor", kWorldBody,
                                      test::pointMass(kMass, Vector3(0, kRadius, 0)),
                                      Hinge::pin(Vector3::UnitX()));
  sim.addModel<models::DCMotorVin>("motor").attachToHinge("rotor");
  sim.set("models.motor.params.K_t", Kt);
  sim.set("models.motor.params.R", R);
  sim.set("models.motor.params.damping", b);
  sim.set("models.motor.params.gear_ratio", N);
  for (const char* s : {"V", "i", "tau", "P"}) sim.addSignal(s, ElementType::Double);
  sim.tie("motor", "voltage", "V");
  sim.tie("motor", "current", "i");
  sim.tie("motor", "torque", "tau");
  sim.tie("motor", "power", "P");
}

}  // namespace

TEST_CASE(
    "DCMotorVin (long): step response to ω_ss = K_t V / (K_t² + R b) with T = J R / (K_t² + R b)") {
  const double Kt = 0.5, R = 2.0, b = 0.05, V = 12.0;
  for (const double N : {1.0, 3.0, -2.0}) {
    CAPTURE(N);
    const double wss = Kt * V / (N * (Kt * Kt + R * b));
    const double T = kJ * R / (N * N * (Kt * Kt + R * b));
    Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
    build(sim, Kt, R, b, N);
    sim.set("signals.V", V);
    sim.lock();
    const double end = 5.0 * T;
    while (sim.time() < end) {
      sim.advanceOverHop();
      const double t = sim.time(), w = sim.multibody().u()[0];
      CAPTURE(t);
      // rk4 at h / T <= 1e-3 / 0.32 (T = 2.9, 0.32, 0.72 s): relative error ~ (h/T)^4 ~ 1e-10.
      REQUIRE(std::fabs(w - wss * (1.0 - std::exp(-t / T))) < 1e-8 * std::fabs(wss));
      const double i = (V - Kt * N * w) / R;
      REQUIRE(signal(sim, "i") == doctest::Approx(i).epsilon(1e-12));
      REQUIRE(signal(sim, "tau") == doctest::Approx(Kt * i - b * N * w).epsilon(1e-12));
      REQUIRE(signal(sim, "P") == doctest::Approx(V * i).epsilon(1e-12));
    }
    // After 5 T the rate is within e^-5 of ω_ss and the shaft torque nearly zero: the current
    // then only covers the damping, i -> b N ω_ss / K_t.
    CHECK(std::fabs(sim.multibody().u()[0] - wss) <= std::exp(-5.0) * std::fabs(wss));
    // (i(0) - i_ss) e^-5 / i_ss ≈ 0.017 for these values.
    CHECK(signal(sim, "i") == doctest::Approx(b * N * wss / Kt).epsilon(0.02));
  }
}

TEST_CASE("DCMotorVin: current, torque and power feed through from the voltage") {
  const auto& spec = models::DCMotorVin::declaration();
  for (const auto& out : spec.fields(FieldRole::FlowOut)) {
    CAPTURE(out.name);
    REQUIRE(out.feedsFrom.has_value());
    CHECK(*out.feedsFrom == std::vector<std::size_t>{spec.voltage.index});
  }
  // A new voltage set between hops shows in the outputs of the hop it starts: at its end
  // i = (V - K_t ω) / R with the new V.
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  build(sim, 0.5, 2.0, 0.0, 1.0);
  sim.set("signals.V", 6.0);
  sim.lock();
  for (const double V : {6.0, -3.0, 9.0}) {
    sim.set("signals.V", V);
    sim.advanceOverHop();
    const double i = (V - 0.5 * sim.multibody().u()[0]) / 2.0;
    CHECK(signal(sim, "i") == doctest::Approx(i).epsilon(1e-12));
    CHECK(signal(sim, "P") == doctest::Approx(V * i).epsilon(1e-12));
  }
}

TEST_CASE("DCMotorVin: bad params and hinges are refused") {
  Simulation sim({.ioStepSize = 1e-3});
  build(sim, 0.5, 2.0, 0.0, 1.0);
  sim.set("signals.V", 1.0);
  CHECK_THROWS_WITH_AS(sim.set("models.motor.params.R", 0.0),
                       doctest::Contains("models.motor.params.R"), InputError);
  sim.set("models.motor.params.gear_ratio", 0.0);
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       doctest::Contains("model 'motor' (DCMotorVin): gear_ratio must be nonzero"),
                       InputError);
  Simulation ball({.ioStepSize = 1e-3});
  ball.multibody().editModel().addBody("b", kWorldBody, test::pointMass(1.0, Vector3::Zero()),
                                       Hinge::ball());
  ball.addModel<models::DCMotorVin>("motor").attachToHinge("b");
  ball.set("models.motor.params.K_t", 1.0);
  ball.set("models.motor.params.R", 1.0);
  for (const char* port : {"voltage", "current", "torque", "power"}) {
    ball.addSignal(port, ElementType::Double);
    ball.tie("motor", port, port);
  }
  CHECK_THROWS_WITH_AS(ball.lock(),
                       doctest::Contains("needs a 1-DOF hinge or subhinge (PIN, SLIDER), but the "
                                         "hinge of body 'b' (BALL) has nq = 4 and nu = 3"),
                       ModelError);
}

}  // namespace hopsim
