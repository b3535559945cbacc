// SoftJointStop on a rotor (a point mass on a PIN about a fixed axis, no gravity: constant
// inertia J, no velocity terms, so between the stops θ' is constant). References:
// - the contact onset at the free-motion time (upper - θ0) / ω0, located by the declared zero
//   crossing;
// - the rebound speed of the Hunt-Crossley law: with β = alpha / k, J v dv / (1 + β v) =
//   -k δⁿ dδ integrates over a contact (δ from 0 back to 0) to F(v_out) = F(v_in), with
//   F(v) = v / β - ln(1 + β v) / β², whatever n (the classical Hunt-Crossley restitution);
//   alpha = 0 gives v_out = -v_in exactly;
// - no torque anywhere within the bounds.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/soft_joint_stop.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;

constexpr double kMass = 2.0, kRadius = 0.5;
constexpr double kJ = kMass * kRadius * kRadius + 1e-3 * kMass;
constexpr double kLower = -0.3, kUpper = 0.4567;

/// The rotor with the stop (k, alpha, n) and its torque on the signal "T", at θ0 with rate w0.
void build(Simulation& sim, double k, double alpha, double n, double theta0, double w0) {
  sim.multibody().editModel().addBody("rotor", kWorldBody,
                                      test::pointMass(kMass, Vector3(0, kRadius, 0)),
                                      Hinge::pin(Vector3::UnitX()));
  auto& stop = sim.addModel<models::SoftJointStop>("stop");
  stop.attachToHinge("rotor");
  sim.set("models.stop.params.k", k);
  sim.set("models.stop.params.alpha", alpha);
  sim.set("models.stop.params.n", n);
  sim.set("models.stop.params.lower_bound", kLower);
  sim.set("models.stop.params.upper_bound", kUpper);
  sim.addSignal("T", ElementType::Double, 1, "N*m");
  sim.tie("stop", "torque", "T");
  sim.multibody().q() << theta0;
  sim.multibody().u() << w0;
}

/// The speed out of a Hunt-Crossley contact entered at v_in (> 0, into the stop):
/// F(v_out) = F(v_in) on (-1/β, 0), by bisection to rounding (F falls monotonically there).
double reboundSpeed(double vIn, double beta) {
  const auto F = [beta](double v) { return v / beta - std::log1p(beta * v) / (beta * beta); };
  double a = -1.0 / beta * (1.0 - 1e-15), b = 0.0;  // F(a) > F(vIn) > F(b) = 0
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (a + b);
    (F(mid) > F(vIn) ? a : b) = mid;
  }
  return 0.5 * (a + b);
}

}  // namespace

TEST_CASE("SoftJointStop: no torque inside the bounds, the onset is at the free-motion time") {
  for (const double w0 : {2.0, -1.5}) {
    CAPTURE(w0);
    // From θ0 = 0.1 the rotor reaches upper (w0 > 0) or lower (w0 < 0) at this time.
    const double onset = ((w0 > 0 ? kUpper : kLower) - 0.1) / w0;
    Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
    build(sim, 500.0, 100.0, 1.5, 0.1, w0);
    sim.lock();
    std::vector<double> hopEnds;
    while (sim.time() < onset + 0.005) {
      sim.advanceOverHop();
      hopEnds.push_back(sim.time());
      if (sim.time() <= onset) {
        // Free motion: the rate is untouched and the stop reports no torque.
        REQUIRE(sim.multibody().u()[0] == w0);
        REQUIRE(std::get<double>(sim.get("signals.T")) == 0.0);
      }
    }
    // The declared crossing ended a hop at the onset; the located time is within the default
    // time tolerance of 1e-10 s (θ is linear in t there, so rk4 adds only rounding).
    double nearest = 1.0;
    for (double t : hopEnds) nearest = std::min(nearest, std::fabs(t - onset));
    CHECK(nearest < 1e-9);
    CHECK(std::get<std::int64_t>(sim.get("models.stop.discreteStates.contacts")) == 1);
  }
}

TEST_CASE("SoftJointStop: the rebound speed is the Hunt-Crossley restitution of the damping") {
  // k = 500 N m/rad^n on J ≈ 0.502 kg m²: a contact lasts about 0.1 s; 10 rk4 sub-steps per
  // 1 ms hop keep the step error far below the 1e-7 tolerance (ω h ≈ 3e-3). β v_in = 0.4.
  const double k = 500.0, vIn = 2.0;
  for (const double n : {1.0, 1.5}) {
    for (const double alpha : {0.0, 100.0}) {
      for (const double side : {1.0, -1.0}) {
        CAPTURE(n);
        CAPTURE(alpha);
        CAPTURE(side);
        Simulation sim({.ioStepSize = 1e-3, .integrationSteps = 10, .integrator = "rk4"});
        build(sim, k, alpha, n, 0.0, side * vIn);
        sim.lock();
        // Into the stop and out again: stop at the first hop after the release, before the
        // rotor can reach the other stop.
        const auto inside = [&] {
          const double theta = sim.multibody().q()[0];
          return theta > kLower && theta < kUpper;
        };
        while (!(side * sim.multibody().u()[0] < 0.0 && inside())) {
          sim.advanceOverHop();
          REQUIRE(sim.time() < 0.5);
        }
        const double vOut = side * sim.multibody().u()[0];  // along the stop's inward direction
        const double expected = alpha == 0.0 ? -vIn : reboundSpeed(vIn, alpha / k);
        CHECK(vOut == doctest::Approx(expected).epsilon(1e-7));
        // Kinetic energy lost = J (v_in² - v_out²) / 2 > 0 exactly when alpha > 0.
        const double lost = 0.5 * kJ * (vIn * vIn - vOut * vOut);
        if (alpha > 0.0) CHECK(lost > 0.1);
        CHECK(std::get<double>(sim.get("signals.T")) == 0.0);
        CHECK(std::get<std::int64_t>(sim.get("models.stop.discreteStates.contacts")) == 1);
      }
    }
  }
}

TEST_CASE("SoftJointStop: bad bounds and hinges are refused") {
  {
    Simulation sim({.ioStepSize = 1e-3});
    build(sim, 1.0, 0.0, 1.0, 0.0, 0.0);
    sim.set("models.stop.params.lower_bound", 0.5);
    sim.lock();
    CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                         doctest::Contains("model 'stop' (SoftJointStop): lower_bound 0.500000 "
                                           "must be below upper_bound 0.456700"),
                         InputError);
  }
  {
    Simulation sim({.ioStepSize = 1e-3});
    build(sim, 1.0, 0.0, 1.0, 0.0, 0.0);
    CHECK_THROWS_WITH_AS(sim.set("models.stop.params.n", 0.0),
                         doctest::Contains("models.stop.params.n"), InputError);
  }
  Simulation sim({.ioStepSize = 1e-3});
  sim.multibody().editModel().addBody("ball", kWorldBody, test::pointMass(1.0, Vector3::Zero()),
                                      Hinge::ball());
  auto& stop = sim.addModel<models::SoftJointStop>("stop");
  stop.attachToHinge("ball");
  sim.addSignal("T", ElementType::Double);
  sim.tie("stop", "torque", "T");
  sim.set("models.stop.params.lower_bound", -1.0);
  sim.set("models.stop.params.upper_bound", 1.0);
  CHECK_THROWS_WITH_AS(sim.lock(),
                       doctest::Contains("needs a 1-DOF hinge or subhinge (PIN, SLIDER), but the "
                                         "hinge of body 'ball' (BALL) has nq = 4 and nu = 3"),
                       ModelError);
}

}  // namespace hopsim
