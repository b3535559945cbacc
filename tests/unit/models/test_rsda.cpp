// Rsda against Chrono's torque laws (reference/chrono-yaml-semantics.md A10), computed by hand.
// Two bodies turn on pins about the world x axis; the RSDA frames have Z along x, so θ is the
// difference of the pin angles, q2 - q1, an unwrapped reference. One explicit-Euler hop
// evaluates the derivatives once, at the state set before it: a point mass on a pin has the
// constant inertia I and no velocity terms about a fixed axis, so U̇ = ±T / I exactly and the
// applied torque is compared through it to a relative 1e-12 (rounding only).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
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

constexpr double kPi = std::numbers::pi;
// Point masses 0.5 m from the x axis: I = m r^2 + 1e-3 m.
constexpr double kM1 = 2.0, kM2 = 3.0, kR = 0.5;
constexpr double kI1 = kM1 * kR * kR + 1e-3 * kM1, kI2 = kM2 * kR * kR + 1e-3 * kM2;

/// Bodies one and two on pins about x; the RSDA frames n1 (on one) and n2 (on two) have their
/// Z along x (rotated by pi/2 about y) and sit off the hinge origin; outputs on A, W and T.
void build(Simulation& sim, ParamValues params) {
  auto& tree = sim.multibody().editModel();
  const auto one = tree.addBody("one", kWorldBody, pointMass(kM1, Vector3(0, kR, 0)),
                                Hinge::pin(Vector3::UnitX()));
  const auto two = tree.addBody("two", kWorldBody, pointMass(kM2, Vector3(0, 0, kR)),
                                Hinge::pin(Vector3::UnitX()));
  const spatial::Matrix3 zAlongX = spatial::rotationY(kPi / 2);
  tree.addNode("n1", one, RigidTransform(zAlongX, Vector3(0.2, 0, 0)));
  tree.addNode("n2", two, RigidTransform(zAlongX, Vector3(-0.3, 0, 0)));
  params.emplace_back("node1", std::string("n1"));
  params.emplace_back("node2", std::string("n2"));
  sim.addModel(models::standardRegistry().create("Rsda", "rsda", params));
  for (const char* s : {"A", "W", "T"}) sim.addSignal(s, ElementType::Double);
  sim.tie("rsda", "angle", "A");
  sim.tie("rsda", "rate", "W");
  sim.tie("rsda", "torque", "T");
}

double signal(const Simulation& sim, const char* name) {
  return std::get<double>(sim.get(std::string("signals.") + name));
}

/// The torque T on body two at q = (q1, q2), u = (u1, u2): T = I2 U̇2 = -I1 U̇1 of one Euler
/// evaluation (the two must agree).
double torque(const ParamValues& params, double q1, double q2, double u1, double u2) {
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  build(sim, params);
  sim.multibody().q() << q1, q2;
  sim.multibody().u() << u1, u2;
  sim.set("models.rsda.continuousStates.angle", q2 - q1);  // the turn to start on
  sim.lock();
  sim.advanceOverHop();
  const double t = kI2 * sim.multibody().udot()[1];
  CHECK(-kI1 * sim.multibody().udot()[0] == doctest::Approx(t).epsilon(1e-12));
  return t;
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::max(1.0, std::fabs(b)); }

}  // namespace

TEST_CASE("Rsda laws: LINEAR, DAMPER, CURVES and DAMPER_CURVE at a known angle and rate") {
  // θ = 1.0 - 0.3 = 0.7, θ' = 0.4 + 0.2 = 0.6.
  const ParamValues linear{
      {"stiffness", 3.0}, {"damping", 0.5}, {"free_angle", 0.2}, {"preload", 0.1}};
  CHECK(near(torque(linear, 0.3, 1.0, -0.2, 0.4), 0.1 - 3.0 * 0.5 - 0.5 * 0.6));  // -1.7
  ParamValues damper = linear;
  damper.emplace_back("law", std::string("Damper"));
  CHECK(near(torque(damper, 0.3, 1.0, -0.2, 0.4), -0.3));
  const ParamValues curves{{"law", std::string("curves")},
                           {"spring_curve", std::vector<double>{0, 0, 1, 2}},
                           {"damping_curve", std::vector<double>{-1, -1, 1, 1}},
                           {"free_angle", 0.2},
                           {"preload", 0.1}};
  CHECK(near(torque(curves, 0.3, 1.0, -0.2, 0.4), 0.1 - 1.0 - 0.6));
  CHECK(near(torque(curves, 0.3, 4.0, -0.2, 2.4), 0.1 - 2.0 - 1.0));  // both clamped
  const ParamValues damperCurve{{"law", std::string("DAMPER_CURVE")},
                                {"damping_curve", std::vector<double>{-1, -1, 1, 1}},
                                {"preload", 0.1}};
  CHECK(near(torque(damperCurve, 0.3, 1.0, -0.2, 0.4), -0.6));
  // Beyond a turn the spring sees the whole angle: θ = 2π + 0.5.
  const ParamValues spring{{"stiffness", 2.0}};
  CHECK(near(torque(spring, -0.5, 2 * kPi, 0.0, 0.0), -2.0 * (2 * kPi + 0.5)));
}

TEST_CASE("Rsda: θ is body2 relative to body1 and +T acts on body2") {
  // Only body two turned: θ = +0.4; a spring about θ0 = 0 turns two back (negative U̇2) and one
  // forward.
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  build(sim, {{"stiffness", 5.0}});
  sim.multibody().q() << 0.0, 0.4;
  sim.lock();
  sim.advanceOverHop();
  CHECK(sim.multibody().udot()[1] == doctest::Approx(-2.0 / kI2).epsilon(1e-12));
  CHECK(sim.multibody().udot()[0] == doctest::Approx(2.0 / kI1).epsilon(1e-12));
}

TEST_CASE("Rsda unwraps the angle past ±π and 2π over several turns") {
  // Body two spins while body one turns slowly the other way, under a spring too weak to change
  // the motion: θ passes π, 2π and several turns in both directions. The output must equal
  // q2 - q1 (the pins' unwrapped angles) at every hop, to 1e-9 rad (the two are integrated
  // separately, so they differ by the integrator's rounding and error), and the torque must
  // follow that unwrapped θ.
  for (const char* integrator : {"rk4", "rkf45"}) {
    for (const double spin : {7.0, -7.0}) {
      CAPTURE(integrator);
      CAPTURE(spin);
      // rkf45 integrates each 0.6 s hop in one step: θ moves by about 4.3 rad per hop, more than
      // π, so the branch comes from the integrated state, not from the previous hop.
      const double hop = std::string(integrator) == "rk4" ? 0.01 : 0.6;
      Simulation sim({.ioStepSize = hop, .integrator = integrator});
      build(sim, {{"stiffness", 1e-9}, {"preload", 0.0}});
      sim.multibody().u() << -0.5, spin;
      sim.lock();
      double largest = 0.0;
      while (sim.time() < 6.0) {
        sim.advanceOverHop();
        const double theta = sim.multibody().q()[1] - sim.multibody().q()[0];
        REQUIRE(std::fabs(signal(sim, "A") - theta) < 1e-9);
        REQUIRE(signal(sim, "T") == doctest::Approx(-1e-9 * signal(sim, "A")).epsilon(1e-12));
        largest = std::max(largest, std::fabs(theta));
      }
      CHECK(largest > 6 * kPi);  // more than three turns
      CHECK(signal(sim, "W") == doctest::Approx(spin + 0.5).epsilon(1e-6));
    }
  }
}

TEST_CASE("Rsda: the turn is kept through a checkpoint") {
  const std::string file =
      (std::filesystem::temp_directory_path() / "hopsim_rsda_checkpoint_test.txt").string();
  double angle = 0.0;
  {
    Simulation sim({.ioStepSize = 0.01});
    build(sim, {{"stiffness", 1e-9}});
    sim.multibody().u() << 0.0, 5.0;
    sim.lock();
    sim.advanceTimeTo(3.0);  // θ ≈ 15 rad
    angle = signal(sim, "A");
    CHECK(angle > 4 * kPi);
    sim.saveCheckpoint(file);
  }
  Simulation restored({.ioStepSize = 0.01});
  build(restored, {{"stiffness", 1e-9}});
  restored.lock();
  restored.restoreCheckpoint(file);
  restored.advanceTimeTo(3.5);
  CHECK(signal(restored, "A") == doctest::Approx(angle + 2.5).epsilon(1e-6));
  std::remove(file.c_str());
}

TEST_CASE("Rsda rejects bad laws, curves and nodes with clear messages") {
  const auto lockWith = [](const ParamValues& params) {
    Simulation sim({.ioStepSize = 1e-3});
    build(sim, params);
    sim.lock();
  };
  CHECK_THROWS_WITH_AS(lockWith({{"law", std::string("MAP")}}),
                       doctest::Contains("models.rsda.params.law: unknown law 'MAP' (expected "
                                         "LINEAR, DAMPER, CURVES, DAMPER_CURVE"),
                       InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"spring_curve", std::vector<double>{0, 1, 0, 2}}}),
                       doctest::Contains("spring_curve: x must be strictly increasing"),
                       InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"damping_curve", std::vector<double>{0}}}),
                       doctest::Contains("damping_curve: a curve is [x0, y0, x1, y1, ...] with at "
                                         "least one point, but 1 values were given"),
                       InputError);
  Simulation sim({.ioStepSize = 1e-3});
  build(sim, {});
  sim.set("models.rsda.params.node1", std::string("n0"));
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("node1 'n0' is not a node"), ModelError);
  sim.set("models.rsda.params.node1", std::string("n2"));
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("are both on body 'two'"), ModelError);
}

}  // namespace hopsim
