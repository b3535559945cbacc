// HingeEncoder against the multibody state it reads: its outputs equal the hinge's Q and U
// (multibody.bodies.<b>.Q/.U) exactly at every hop boundary, are current at the hop start for a
// FlowModel sampling them, and at every derivative evaluation for a ContinuousModel reading
// them; a subhinge attachment reads only that subhinge; a BALL gives nq = 4 and nu = 3.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/generalized_force_motor.h"
#include "hopsim/models/hinge_encoder.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::SpatialInertia;
using spatial::Vector3;

constexpr double kG = 9.81;

using test::pointMass;

/// A variable's value as a vector (length-1 values come back as a double).
std::vector<double> vec(const Value& value) {
  if (const auto* x = std::get_if<double>(&value)) return {*x};
  return std::get<std::vector<double>>(value);
}

/// A gravity pendulum "arm" on a PIN about x, swinging from 1 rad, with an encoder "enc" tied to
/// signals q and u.
void addPendulum(Simulation& sim) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  tree.addBody("arm", kWorldBody, pointMass(1.5, {0, 0, -0.8}), Hinge::pin(Vector3::UnitX()));
  sim.multibody().q()[0] = 1.0;
  sim.addSignal("q", ElementType::Double, 1, "rad");
  sim.addSignal("u", ElementType::Double, 1, "rad/s");
  sim.addModel(models::standardRegistry().create("HingeEncoder", "enc"));
  dynamic_cast<HingeModel&>(sim.model("enc")).attachToHinge("arm");
  sim.tie("enc", "q", "q");
  sim.tie("enc", "u", "u");
}

}  // namespace

TEST_CASE("HingeEncoder: q and u equal the PIN's Q and U at every hop boundary") {
  for (const char* integrator : {"rk4", "rkf45"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.01, .integrator = integrator});
    addPendulum(sim);
    sim.lock();
    // Read only by the user: the declared hop-boundary granularity.
    CHECK(sim.outputGranularity("enc") == (Sweep::StartHop | Sweep::EndHop));
    for (int k = 1; k <= 150; ++k) {
      sim.advanceOverHop();
      CAPTURE(sim.time());
      REQUIRE(vec(sim.get("signals.q")) == vec(sim.get("multibody.bodies.arm.Q")));
      REQUIRE(vec(sim.get("signals.u")) == vec(sim.get("multibody.bodies.arm.U")));
    }
    CHECK(std::fabs(sim.multibody().q()[0] - 1.0) > 0.1);  // it did swing
    // A state set between hops shows at the next hop start.
    sim.set("multibody.bodies.arm.U", 0.25);
    sim.advanceOverHop();
    REQUIRE(vec(sim.get("signals.u")) == vec(sim.get("multibody.bodies.arm.U")));
  }
}

TEST_CASE("HingeEncoder: a FlowModel sampling q at its I/O step start sees the hop-start state") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  addPendulum(sim);
  sim.addSignal("held", ElementType::Double, 1, "rad");
  sim.addModel(models::standardRegistry().create("ZeroOrderHold", "zoh"));
  sim.tie("zoh", "u", "q");
  sim.tie("zoh", "y", "held");
  sim.lock();
  CHECK(sim.outputGranularity("enc").contains(Sweep::StartIo));
  double previous = sim.multibody().q()[0];
  for (int k = 1; k <= 100; ++k) {
    sim.advanceOverHop();
    CAPTURE(sim.time());
    REQUIRE(vec(sim.get("signals.held"))[0] == previous);
    previous = sim.multibody().q()[0];
  }
}

TEST_CASE("HingeEncoder: a ContinuousModel reading u sees every derivative evaluation") {
  // A ContinuousIntegrator of u = θ' gives y = θ - θ0: rk4 integrates y' = U with the same
  // stage values and weights as Q' = U, so the two agree to rounding only if the encoder's
  // output is current at every evaluation (a hop-start value would be off by O(h) per hop).
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  addPendulum(sim);
  sim.addSignal("angle", ElementType::Double, 1, "rad");
  sim.addModel(models::standardRegistry().create("ContinuousIntegrator", "integ"));
  sim.tie("integ", "u", "u");
  sim.tie("integ", "y", "angle");
  sim.lock();
  CHECK(sim.outputGranularity("enc").contains(Sweep::PreDeriv));
  sim.advanceTimeTo(1.0);  // about half a period: near -1 rad
  CHECK(std::fabs(sim.multibody().q()[0] - 1.0) > 1.0);
  CHECK(std::fabs(vec(sim.get("signals.angle"))[0] - (sim.multibody().q()[0] - 1.0)) < 1e-12);
}

TEST_CASE("HingeEncoder: a subhinge attachment reads only that subhinge") {
  // A GIMBAL tumbling freely; the encoder on subhinge 1 reads Q[1] and U[1].
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  sim.multibody().editModel().addBody(
      "head", kWorldBody,
      SpatialInertia::fromCmInertia(2.0, {0.1, 0, 0}, Vector3(0.1, 0.2, 0.3).asDiagonal()),
      Hinge::gimbal());
  sim.multibody().q() << 0.1, 0.2, 0.3;
  sim.multibody().u() << 0.5, -0.7, 0.9;
  sim.addSignal("q", ElementType::Double, 1, "rad");
  sim.addSignal("u", ElementType::Double, 1, "rad/s");
  auto& encoder = sim.addModel<models::HingeEncoder>("enc");
  encoder.attachToHinge("head", 1);
  sim.tie("enc", "q", "q");
  sim.tie("enc", "u", "u");
  sim.lock();
  for (int k = 1; k <= 100; ++k) {
    sim.advanceOverHop();
    CAPTURE(sim.time());
    const std::vector<double> Q = vec(sim.get("multibody.bodies.head.Q"));
    const std::vector<double> U = vec(sim.get("multibody.bodies.head.U"));
    REQUIRE(Q.size() == 3);
    REQUIRE(vec(sim.get("signals.q")) == std::vector<double>{Q[1]});
    REQUIRE(vec(sim.get("signals.u")) == std::vector<double>{U[1]});
  }
  CHECK(sim.multibody().q()[1] != doctest::Approx(0.2));  // it did move
}

TEST_CASE("HingeEncoder: a BALL gives a quaternion q (nq = 4) and rates u (nu = 3)") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  sim.multibody().editModel().addBody("ball", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                      Hinge::ball());
  sim.multibody().u() << 0.3, -0.2, 0.1;
  sim.addSignal("q", ElementType::Double, 4);
  sim.addSignal("u", ElementType::Double, 3, "rad/s");
  auto& encoder = sim.addModel<models::HingeEncoder>("enc");
  encoder.attachToHinge("ball");
  sim.tie("enc", "q", "q");
  sim.tie("enc", "u", "u");
  sim.lock();
  sim.advanceTimeTo(0.5);
  CHECK(vec(sim.get("signals.q")) == vec(sim.get("multibody.bodies.ball.Q")));
  CHECK(vec(sim.get("signals.u")) == vec(sim.get("multibody.bodies.ball.U")));
  CHECK(vec(sim.get("signals.q")).size() == 4);
}

TEST_CASE("HingeEncoder: lock() rejects signals whose lengths are not the attached nq and nu") {
  Simulation sim({.ioStepSize = 0.01});
  sim.multibody().editModel().addBody("ball", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                      Hinge::ball());
  sim.addSignal("q3", ElementType::Double, 3);
  sim.addSignal("u3", ElementType::Double, 3, "rad/s");
  sim.addSignal("q4", ElementType::Double, 4);
  auto& encoder = sim.addModel<models::HingeEncoder>("enc");
  encoder.attachToHinge("ball");
  sim.tie("enc", "q", "q3");
  sim.tie("enc", "u", "u3");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("hinge of body 'ball' has nq = 4"),
                       ModelError);
  sim.tie("enc", "q", "q4");
  CHECK_NOTHROW(sim.lock());
}

TEST_CASE("HingeEncoder and GeneralizedForceMotor close a loop through a FlowModel") {
  // No gravity; a Gain (k = -c) reads the encoder's u at the hop boundaries and the motor applies
  // it, held over each hop: u_{k+1} = (1 - c h / I) u_k exactly with rk4 (constant torque).
  const double m = 1.0, r = 0.5, c = 0.2, h = 0.01;
  const double I = m * r * r + 1e-3 * m;
  Simulation sim({.ioStepSize = h, .integrator = "rk4"});
  sim.multibody().editModel().addBody("arm", kWorldBody, pointMass(m, {0, 0, -r}),
                                      Hinge::pin(Vector3::UnitX()));
  sim.multibody().u()[0] = 2.0;
  const auto& registry = models::standardRegistry();
  for (const char* name : {"q", "u", "tau"}) sim.addSignal(name, ElementType::Double, 1);
  sim.addModel(registry.create("HingeEncoder", "enc"));
  sim.addModel(registry.create("Gain", "damper", {{"k", -c}}));
  sim.addModel(registry.create("GeneralizedForceMotor", "motor"));
  dynamic_cast<HingeModel&>(sim.model("enc")).attachToHinge("arm");
  dynamic_cast<HingeModel&>(sim.model("motor")).attachToHinge("arm");
  sim.tie("enc", "q", "q");
  sim.tie("enc", "u", "u");
  sim.tie("damper", "u", "u");
  sim.tie("damper", "y", "tau");
  sim.tie("motor", "force", "tau");
  sim.lock();
  double expected = 2.0;
  for (int k = 1; k <= 100; ++k) {
    sim.advanceOverHop();
    expected *= 1.0 - c * h / I;
    REQUIRE(sim.multibody().u()[0] == doctest::Approx(expected).epsilon(1e-12));
  }
}

}  // namespace hopsim
