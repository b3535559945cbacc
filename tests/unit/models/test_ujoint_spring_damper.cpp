// UjointSpringDamper against two analytic damped oscillators: a spherical inertia J at the
// centre of a UJOINT has ω = n1 θ1' + R(n1, θ1) n2 θ2' with orthogonal terms, so the mass matrix
// is J·1 with no velocity terms and each angle is J θ_i'' + C_i θ_i' + K_i θ_i = 0.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "damped_oscillator.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/ujoint_spring_damper.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;
using test::pointMass;

}  // namespace

TEST_CASE("UjointSpringDamper: both angles oscillate at sqrt(K_i/J) and decay as analysed") {
  const double m = 5.0, J = 1e-3 * m;  // pointMass's spherical inertia about its centre
  const test::DampedOscillator angle[2] = {
      {.J = J, .K = 0.02, .C = 1e-3, .x0 = 0.0, .a = 0.5, .v0 = 0.0},
      {.J = J, .K = 0.08, .C = 4e-3, .x0 = 0.0, .a = -0.3, .v0 = 1.0}};
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  sim.multibody().editModel().addBody("head", kWorldBody, pointMass(m, Vector3::Zero()),
                                      Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()));
  auto& motor = sim.addModel<models::UjointSpringDamper>("springs");
  motor.attachToHinge("head");
  sim.set("models.springs.params.K", std::vector<double>{angle[0].K, angle[1].K});
  sim.set("models.springs.params.C", std::vector<double>{angle[0].C, angle[1].C});
  sim.multibody().q() << angle[0].a, angle[1].a;
  sim.multibody().u() << angle[0].v0, angle[1].v0;
  sim.lock();
  // ωn = 2 and 4 rad/s, ωn h <= 4e-3: rk4 global error ~1e-9 of the amplitude.
  test::requireFollowsOscillators(sim, angle, 3000, 1e-9, 1e-8);
}

TEST_CASE("UjointSpringDamper: a hinge that is not 2-DOF is refused at lock()") {
  Simulation sim({.ioStepSize = 1e-3});
  sim.multibody().editModel().addBody("arm", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                      Hinge::gimbal());
  sim.addModel<models::UjointSpringDamper>("springs").attachToHinge("arm");
  CHECK_THROWS_WITH_AS(
      sim.lock(),
      doctest::Contains("needs a 2-DOF hinge such as UJOINT, but the hinge of body "
                        "'arm' (GIMBAL) has nq = 3 and nu = 3"),
      ModelError);
}

}  // namespace hopsim
