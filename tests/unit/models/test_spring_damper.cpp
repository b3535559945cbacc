// SpringDamper against the analytic damped oscillator and against the force law by hand.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "hopsim/core/simulation.h"
#include "hopsim/models/spring_damper.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::RigidTransform;
using spatial::Vector3;
using test::pointMass;

/// A mass m on a SLIDER along x, its node "tip" at the body origin; the node "anchor" is the
/// world origin. The spring joins anchor (from) to tip (to).
void buildOscillator(Simulation& sim, double m, double K, double C, double L0) {
  auto& tree = sim.multibody().editModel();
  const auto body = tree.addBody("mass", kWorldBody, pointMass(m, Vector3::Zero()),
                                 Hinge::slider(Vector3::UnitX()));
  tree.addNode("tip", body, RigidTransform());
  tree.addNode("anchor", kWorldBody, RigidTransform());
  sim.addModel(models::standardRegistry().create("SpringDamper", "spring",
                                                 {{"K", K},
                                                  {"C", C},
                                                  {"unsprung_length", L0},
                                                  {"from_node", std::string("anchor")},
                                                  {"to_node", std::string("tip")}}));
}

}  // namespace

TEST_CASE(
    "SpringDamper: a mass on a slider is the damped oscillator m x'' + C x' + K (x - L0) = 0") {
  // Underdamped: wn = sqrt(K/m) = 4.47 rad/s, zeta = C / (2 sqrt(K m)) = 0.1118.
  const double m = 2.0, K = 40.0, C = 2.0, L0 = 0.8, x0 = 1.1, v0 = 0.5;
  const double wn = std::sqrt(K / m), zeta = C / (2.0 * std::sqrt(K * m));
  const double wd = wn * std::sqrt(1.0 - zeta * zeta);
  const double A = x0 - L0, B = (v0 + zeta * wn * A) / wd;
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  buildOscillator(sim, m, K, C, L0);
  sim.multibody().q() << x0;
  sim.multibody().u() << v0;
  sim.lock();
  for (int k = 1; k <= 3000; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    const double decay = std::exp(-zeta * wn * t);
    const double x = L0 + decay * (A * std::cos(wd * t) + B * std::sin(wd * t));
    const double v = decay * ((B * wd - zeta * wn * A) * std::cos(wd * t) -
                              (A * wd + zeta * wn * B) * std::sin(wd * t));
    CAPTURE(t);
    // rk4 at wn h = 4.5e-3 has a global error ~ (wn h)^4 ~ 1e-9 of the amplitude 0.3 m.
    REQUIRE(std::fabs(sim.multibody().q()[0] - x) < 1e-9);
    REQUIRE(std::fabs(sim.multibody().u()[0] - v) < 1e-9);
  }
}

TEST_CASE("SpringDamper: undamped frequency and the sign of F1 on the from-node") {
  // Undamped, the period is 2 pi sqrt(m/K): after one period the state returns exactly.
  const double m = 0.5, K = 20.0, L0 = 1.0;
  const double period = 2.0 * M_PI * std::sqrt(m / K);
  Simulation sim({.ioStepSize = period / 2000.0, .integrator = "rk4"});
  buildOscillator(sim, m, K, 0.0, L0);
  sim.multibody().q() << 1.25;
  sim.lock();
  sim.advanceTimeTo(period);
  // rk4 error over 2000 steps of wn h = pi / 1000: ~1e-11 of the amplitude.
  CHECK(std::fabs(sim.multibody().q()[0] - 1.25) < 1e-9);
  CHECK(std::fabs(sim.multibody().u()[0]) < 1e-8);
  // At a quarter period the mass passes L0 moving towards the anchor (pulled in: F2 along -x).
  Simulation quarter({.ioStepSize = period / 2000.0, .integrator = "rk4"});
  buildOscillator(quarter, m, K, 0.0, L0);
  quarter.multibody().q() << 1.25;
  quarter.lock();
  quarter.advanceTimeTo(period / 4.0);
  CHECK(std::fabs(quarter.multibody().q()[0] - L0) < 1e-9);
  CHECK(quarter.multibody().u()[0] == doctest::Approx(-0.25 * std::sqrt(K / m)).epsilon(1e-9));
}

TEST_CASE("SpringDamper: F1 = (K (L - L0) + C L') u on body 1, -F1 on body 2, in 3-D") {
  // Body a slides along x with p1 at (xa, 0.3, 0); body b along y with p2 at (0, yb, 0.4). One
  // Euler evaluation at the initial state: m U' = F.axis exactly (a point mass on a slider has
  // the mass matrix m and no velocity terms), compared to 1e-12 relative (rounding).
  const double ma = 2.0, mb = 5.0, K = 40.0, C = 3.0, L0 = 0.5;
  const double xa = 0.6, yb = -0.5, va = 0.7, vb = -0.2;
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  auto& tree = sim.multibody().editModel();
  const auto a = tree.addBody("a", kWorldBody, pointMass(ma, Vector3::Zero()),
                              Hinge::slider(Vector3::UnitX()));
  const auto b = tree.addBody("b", kWorldBody, pointMass(mb, Vector3::Zero()),
                              Hinge::slider(Vector3::UnitY()));
  tree.addNode("p1", a, RigidTransform::fromTranslation(Vector3(0, 0.3, 0)));
  tree.addNode("p2", b, RigidTransform::fromTranslation(Vector3(0, 0, 0.4)));
  sim.addModel(models::standardRegistry().create("SpringDamper", "spring",
                                                 {{"K", K},
                                                  {"C", C},
                                                  {"unsprung_length", L0},
                                                  {"from_node", std::string("p1")},
                                                  {"to_node", std::string("p2")}}));
  sim.multibody().q() << xa, yb;
  sim.multibody().u() << va, vb;
  sim.lock();
  sim.advanceOverHop();
  const Vector3 r = Vector3(0, yb, 0.4) - Vector3(xa, 0.3, 0);  // p2 - p1
  const Vector3 u = r.normalized();
  const double Ld = u.dot(Vector3(0, vb, 0) - Vector3(va, 0, 0));
  const Vector3 F1 = (K * (r.norm() - L0) + C * Ld) * u;
  CHECK(ma * sim.multibody().udot()[0] == doctest::Approx(F1.x()).epsilon(1e-12));
  CHECK(mb * sim.multibody().udot()[1] == doctest::Approx(-F1.y()).epsilon(1e-12));
}

TEST_CASE("SpringDamper: no force at L = 0, bad nodes are refused at lock()") {
  {
    Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
    buildOscillator(sim, 1.0, 100.0, 10.0, 0.5);
    sim.multibody().q() << 0.0;  // tip on the anchor
    sim.lock();
    sim.advanceOverHop();
    CHECK(sim.multibody().udot()[0] == 0.0);
  }
  {
    Simulation sim({.ioStepSize = 1e-3});
    buildOscillator(sim, 1.0, 1.0, 0.0, 0.0);
    sim.set("models.spring.params.to_node", std::string("tpi"));
    CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("to_node 'tpi' is not a node"), ModelError);
  }
  {
    Simulation sim({.ioStepSize = 1e-3});
    buildOscillator(sim, 1.0, 1.0, 0.0, 0.0);
    sim.multibody().editModel().addNode("tip2", 1, RigidTransform());
    sim.set("models.spring.params.from_node", std::string("tip2"));
    CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("are both on body 'mass'"), ModelError);
  }
  {
    Simulation sim({.ioStepSize = 1e-3});
    buildOscillator(sim, 1.0, 1.0, 0.0, 0.0);
    CHECK_THROWS_WITH_AS(sim.set("models.spring.params.K", -1.0),
                         doctest::Contains("models.spring.params.K"), InputError);
  }
}

}  // namespace hopsim
