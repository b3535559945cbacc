// GeneralizedSpringDamperMotor against three analytic damped oscillators at once: a point mass
// on a TRANSLATIONAL hinge has the mass matrix m·1 and no velocity terms, so each DOF is
// m x_i'' + C_i x_i' + K_i (x_i - zero_gen_i) = 0 on its own. Sizes are checked against the
// hinge at lock().

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "damped_oscillator.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/generalized_spring_damper_motor.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;
using test::pointMass;

}  // namespace

TEST_CASE("GeneralizedSpringDamperMotor: each DOF of a TRANSLATIONAL hinge is its own oscillator") {
  const double m = 2.0;
  const test::DampedOscillator dof[3] = {
      {.J = m, .K = 8.0, .C = 0.4, .x0 = 0.1, .a = 0.3, .v0 = 0.0},
      {.J = m, .K = 18.0, .C = 0.0, .x0 = -0.2, .a = -0.1, .v0 = 0.5},
      {.J = m, .K = 32.0, .C = 2.0, .x0 = 0.0, .a = 0.2, .v0 = -0.4}};
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  sim.multibody().editModel().addBody("box", kWorldBody, pointMass(m, {0.2, -0.1, 0.3}),
                                      Hinge::translational());
  auto& motor = sim.addModel<models::GeneralizedSpringDamperMotor>("springs");
  motor.attachToHinge("box");
  std::vector<double> K, C, zero;
  for (const auto& d : dof) {
    K.push_back(d.K);
    C.push_back(d.C);
    zero.push_back(d.x0);
    sim.multibody().q()[static_cast<Eigen::Index>(K.size() - 1)] = d.x0 + d.a;
    sim.multibody().u()[static_cast<Eigen::Index>(K.size() - 1)] = d.v0;
  }
  sim.set("models.springs.params.K", K);
  sim.set("models.springs.params.C", C);
  sim.set("models.springs.params.zero_gen", zero);
  sim.lock();
  // rk4 with ωn h <= 4e-3 over 3 s: global error ~1e-9 of the amplitude.
  test::requireFollowsOscillators(sim, dof, 3000, 1e-9, 1e-8);
}

TEST_CASE("GeneralizedSpringDamperMotor: C and zero_gen default to zeros, one subhinge only") {
  // On subhinge 1 (the y slider) of a PLANAR hinge, with K alone: m y'' = -K y and x is free.
  // One Euler evaluation: m U' = f exactly.
  const double m = 3.0, K = 12.0;
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  sim.multibody().editModel().addBody("puck", kWorldBody, pointMass(m, Vector3::Zero()),
                                      Hinge::planar());
  auto& motor = sim.addModel<models::GeneralizedSpringDamperMotor>("spring");
  motor.attachToHinge("puck", 1);
  sim.set("models.spring.params.K", std::vector<double>{K});
  sim.multibody().q() << 0.5, 0.25;
  sim.multibody().u() << 1.0, 2.0;
  sim.lock();
  sim.advanceOverHop();
  CHECK(sim.multibody().udot()[0] == 0.0);
  CHECK(m * sim.multibody().udot()[1] == doctest::Approx(-K * 0.25).epsilon(1e-12));
}

TEST_CASE("GeneralizedSpringDamperMotor: sizes and hinge kinds are checked at lock()") {
  const auto lockWith = [](const Hinge& hinge, std::vector<double> K) {
    Simulation sim({.ioStepSize = 1e-3});
    sim.multibody().editModel().addBody("b", kWorldBody, pointMass(1.0, Vector3::Zero()), hinge);
    auto& motor = sim.addModel<models::GeneralizedSpringDamperMotor>("springs");
    motor.attachToHinge("b");
    sim.set("models.springs.params.K", K);
    sim.lock();
  };
  CHECK_THROWS_WITH_AS(
      lockWith(Hinge::translational(), {1.0, 2.0}),
      doctest::Contains("model 'springs' (GeneralizedSpringDamperMotor): params K, "
                        "C and zero_gen have 2 entries but the attached hinge of "
                        "body 'b' has 3 DOFs"),
      ModelError);
  CHECK_THROWS_WITH_AS(
      lockWith(Hinge::ball(), {1.0, 2.0, 3.0}),
      doctest::Contains("needs a hinge whose coordinates are its DOFs (nq = nu; use "
                        "BallJointSpringDamper for a BALL), but the hinge of body "
                        "'b' (BALL) has nq = 4 and nu = 3"),
      ModelError);
  Simulation unset({.ioStepSize = 1e-3});
  unset.multibody().editModel().addBody("b", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                        Hinge::pin(Vector3::UnitZ()));
  unset.addModel<models::GeneralizedSpringDamperMotor>("springs").attachToHinge("b");
  CHECK_THROWS_WITH_AS(unset.lock(), doctest::Contains("springs"), ModelError);
}

}  // namespace hopsim
