// GeneralizedForceMotor against closed-form motions without gravity: a PIN body under a constant
// torque turns by θ(t) = f t² / (2 I); a SLIDER body under a scaled constant force moves by
// d(t) = scale F t² / (2 m); a motor on one subhinge of a UJOINT drives that subhinge only.
// θ'' is constant, so rk4 integrates the quadratic exactly (to rounding).

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "hopsim/core/simulation.h"
#include "hopsim/models/generalized_force_motor.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;

using test::pointMass;

}  // namespace

TEST_CASE("GeneralizedForceMotor: a constant torque on a PIN turns it by f t^2 / (2 I)") {
  // m = 2 kg at 0.5 m from the x axis: I = 2 * 0.25 + 2e-3 kg m².
  const double m = 2.0, r = 0.5, torque = 0.3;
  const double I = m * r * r + 1e-3 * m;
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  sim.multibody().editModel().addBody("arm", kWorldBody, pointMass(m, {0, r, 0}),
                                      Hinge::pin(Vector3::UnitX()));
  sim.addSignal("torque", ElementType::Double, 1, "N*m");
  sim.addModel(models::standardRegistry().create("GeneralizedForceMotor", "motor"));
  dynamic_cast<HingeModel&>(sim.model("motor")).attachToHinge("arm");
  sim.tie("motor", "force", "torque");
  sim.set("signals.torque", torque);
  sim.lock();
  CHECK(sim.modelOrder().continuousModels == std::vector<std::string>{"motor"});
  for (int k = 1; k <= 200; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    CAPTURE(t);
    REQUIRE(std::fabs(sim.multibody().q()[0] - torque * t * t / (2 * I)) < 1e-9);
    REQUIRE(std::fabs(sim.multibody().u()[0] - torque * t / I) < 1e-9);
  }
  // A new torque between hops acts from the next hop on.
  const double t1 = sim.time(), q1 = sim.multibody().q()[0], u1 = sim.multibody().u()[0];
  sim.set("signals.torque", -2.0 * torque);
  sim.advanceTimeTo(t1 + 1.0);
  CHECK(sim.multibody().q()[0] == doctest::Approx(q1 + u1 - torque / I).epsilon(1e-12));
}

TEST_CASE("GeneralizedForceMotor: scale multiplies the force on a SLIDER") {
  const double m = 4.0, force = 1.5, scale = -2.5;
  Simulation sim({.ioStepSize = 0.05, .integrator = "rk4"});
  sim.multibody().editModel().addBody("cart", kWorldBody, pointMass(m, {0.1, 0.2, 0.3}),
                                      Hinge::slider(Vector3::UnitY()));
  sim.addSignal("F", ElementType::Double, 1, "N");
  auto& motor = sim.addModel<models::GeneralizedForceMotor>("motor");
  motor.attachToHinge("cart");
  sim.tie("motor", "force", "F");
  sim.set("signals.F", force);
  sim.set("models.motor.params.scale", scale);
  sim.lock();
  sim.advanceTimeTo(2.0);
  CHECK(std::fabs(sim.multibody().q()[0] - scale * force * 4.0 / (2 * m)) < 1e-9);
  CHECK(std::fabs(sim.multibody().u()[0] - scale * force * 2.0 / m) < 1e-9);
}

TEST_CASE("GeneralizedForceMotor: a motor on one subhinge of a UJOINT drives that subhinge only") {
  // A spherical inertia J at the hinge origin: ω = n1 θ1' + R(n1, θ1) n2 θ2' with the two terms
  // orthogonal, so the mass matrix is J·1 with no coupling and no velocity terms.
  const double m = 3.0, J = 1e-3 * m, torque = 0.02;
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  sim.multibody().editModel().addBody("head", kWorldBody, pointMass(m, Vector3::Zero()),
                                      Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()));
  sim.addSignal("tau", ElementType::Double, 1, "N*m");
  auto& motor = sim.addModel<models::GeneralizedForceMotor>("motor");
  motor.attachToHinge("head", 1);
  sim.tie("motor", "force", "tau");
  sim.set("signals.tau", torque);
  sim.lock();
  sim.advanceTimeTo(1.5);
  CHECK(sim.multibody().q()[0] == 0.0);
  CHECK(sim.multibody().u()[0] == 0.0);
  CHECK(std::fabs(sim.multibody().q()[1] - torque * 1.5 * 1.5 / (2 * J)) < 1e-9);
  CHECK(std::fabs(sim.multibody().u()[1] - torque * 1.5 / J) < 1e-9);
}

TEST_CASE("GeneralizedForceMotor: the whole hinge takes one force per rate") {
  // TRANSLATIONAL: three decoupled sliders, d_i(t) = F_i t² / (2 m).
  const double m = 2.0;
  Simulation sim({.ioStepSize = 0.1, .integrator = "rk4"});
  sim.multibody().editModel().addBody("box", kWorldBody, pointMass(m, Vector3::Zero()),
                                      Hinge::translational());
  sim.addSignal("F", ElementType::Double, 3, "N");
  auto& motor = sim.addModel<models::GeneralizedForceMotor>("motor");
  motor.attachToHinge("box");
  sim.tie("motor", "force", "F");
  sim.set("signals.F", std::vector<double>{1.0, -2.0, 0.5});
  sim.lock();
  sim.advanceTimeTo(1.0);
  CHECK(std::fabs(sim.multibody().q()[0] - 1.0 / (2 * m)) < 1e-12);
  CHECK(std::fabs(sim.multibody().q()[1] + 2.0 / (2 * m)) < 1e-12);
  CHECK(std::fabs(sim.multibody().q()[2] - 0.5 / (2 * m)) < 1e-12);
}

TEST_CASE("GeneralizedForceMotor: lock() rejects a force signal of the wrong length") {
  Simulation sim({.ioStepSize = 0.01});
  sim.multibody().editModel().addBody("head", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                      Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()));
  sim.addSignal("tau", ElementType::Double, 2, "N*m");
  auto& motor = sim.addModel<models::GeneralizedForceMotor>("motor");
  motor.attachToHinge("head", 0);
  sim.tie("motor", "force", "tau");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("subhinge 0 of body 'head' has nu = 1"),
                       ModelError);
  motor.attachToHinge("head");  // the whole UJOINT has nu = 2
  sim.set("signals.tau", std::vector<double>{0.0, 0.0});
  CHECK_NOTHROW(sim.lock());
}

}  // namespace hopsim
