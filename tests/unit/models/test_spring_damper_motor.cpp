// SpringDamperMotor against the analytic damped oscillator J θ'' + C θ' + K (θ - θ0) = 0 on a
// PIN (a point mass about a fixed axis: constant inertia J, no velocity terms, no gravity), the
// same law as a force on a SLIDER, and its refusal of a hinge that is not 1-DOF.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "damped_oscillator.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/spring_damper_motor.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;
using test::pointMass;

}  // namespace

TEST_CASE("SpringDamperMotor: a PIN oscillates at sqrt(K/J) and decays as the damped oscillator") {
  // m = 2 kg at 0.5 m from the x axis: J = m r² + 1e-3 m. wn = sqrt(8 / 0.502) ≈ 4 rad/s,
  // ζ = 0.3 / (2 sqrt(8 · 0.502)) ≈ 0.075.
  const double m = 2.0, r = 0.5, J = m * r * r + 1e-3 * m;
  const test::DampedOscillator ref{.J = J, .K = 8.0, .C = 0.3, .x0 = 0.2, .a = 0.4, .v0 = -0.3};
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  sim.multibody().editModel().addBody("arm", kWorldBody, pointMass(m, {0, r, 0}),
                                      Hinge::pin(Vector3::UnitX()));
  auto& motor = sim.addModel<models::SpringDamperMotor>("spring");
  motor.attachToHinge("arm");
  sim.set("models.spring.params.K", ref.K);
  sim.set("models.spring.params.C", ref.C);
  sim.set("models.spring.params.unsprung_length", ref.x0);
  sim.multibody().q() << ref.x0 + ref.a;
  sim.multibody().u() << ref.v0;
  sim.lock();
  // Upward zero crossings of θ - θ0, located by linear interpolation between hops: they are
  // 2π/ωd apart.
  double previous = sim.multibody().q()[0] - ref.x0, firstUp = -1.0, lastUp = -1.0;
  int ups = 0;
  for (int k = 1; k <= 5000; ++k) {
    sim.advanceOverHop();
    const double t = sim.time(), x = sim.multibody().q()[0] - ref.x0;
    CAPTURE(t);
    // rk4 with ωn h = 4e-3: global error ~ (ωn h)^4 ωn t ~ 1e-8 of the amplitude at most.
    REQUIRE(std::fabs(sim.multibody().q()[0] - ref.position(t)) < 1e-9);
    REQUIRE(std::fabs(sim.multibody().u()[0] - ref.rate(t)) < 1e-8);
    if (previous < 0.0 && x >= 0.0) {
      const double crossing = t - 1e-3 * x / (x - previous);
      if (ups == 0) firstUp = crossing;
      lastUp = crossing;
      ++ups;
    }
    previous = x;
  }
  REQUIRE(ups >= 3);
  // Linear interpolation of a sine near its zero errs by ~ (ωd h)² / 12 of the step: < 1e-8 s.
  const double period = (lastUp - firstUp) / (ups - 1);
  CHECK(period == doctest::Approx(2.0 * std::numbers::pi / ref.dampedFrequency()).epsilon(1e-7));
}

TEST_CASE("SpringDamperMotor: on a SLIDER it is the force -K (d - d0) - C d'") {
  // One Euler evaluation at the initial state: m d'' = f exactly for a point mass on a slider.
  const double m = 4.0, K = 50.0, C = 3.0, d0 = 0.1, d = 0.35, v = -0.2;
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  sim.multibody().editModel().addBody("cart", kWorldBody, pointMass(m, {0.1, 0.2, 0.3}),
                                      Hinge::slider(Vector3::UnitY()));
  auto& motor = sim.addModel<models::SpringDamperMotor>("spring");
  motor.attachToHinge("cart");
  sim.set("models.spring.params.K", K);
  sim.set("models.spring.params.C", C);
  sim.set("models.spring.params.unsprung_length", d0);
  sim.multibody().q() << d;
  sim.multibody().u() << v;
  sim.lock();
  sim.advanceOverHop();
  CHECK(m * sim.multibody().udot()[0] == doctest::Approx(-K * (d - d0) - C * v).epsilon(1e-12));
}

TEST_CASE("SpringDamperMotor: a hinge that is not 1-DOF is refused at lock()") {
  Simulation sim({.ioStepSize = 1e-3});
  sim.multibody().editModel().addBody("head", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                      Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()));
  auto& motor = sim.addModel<models::SpringDamperMotor>("spring");
  motor.attachToHinge("head");
  CHECK_THROWS_WITH_AS(
      sim.lock(),
      doctest::Contains("model 'spring' (SpringDamperMotor) needs a 1-DOF hinge or "
                        "subhinge (PIN, SLIDER), but the hinge of body 'head' "
                        "(UJOINT) has nq = 2 and nu = 2"),
      ModelError);
  CHECK_THROWS_WITH_AS(
      sim.set("models.spring.params.K", -1.0),
      doctest::Contains("models.spring.params.K: value -1 is below the lower bound"), InputError);
}

}  // namespace hopsim
