// ChronoMotor and ChronoForceMotor against hand-computed references:
// - a POSITION motor on a PIN pendulum under gravity tracks Q = sign f(t) exactly and reports
//   the torque of the pendulum's inverse dynamics, tau = I q'' + m g r cos q (point mass m at
//   distance r from the pin axis x, gravity -z, I = m r² + the body's own 1e-3 m);
// - a SPEED motor keeps Q = sign * integral of f (a continuous state) over 100 s;
// - a FORCE motor's sign on a SLIDER (x = sign F t² / (2 m));
// - a CONTROLLER's setpoint and backward-difference rate;
// - ChronoForceMotor ROTATION and LINEAR on two free bodies at rest: the accelerations of the
//   one euler evaluation at t0 against Newton-Euler by hand.
// Tolerances are stated at each check.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/chrono_force_motor.h"
#include "hopsim/models/chrono_motor.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::pointMass;

constexpr double kPi = std::numbers::pi;

double scalar(const Simulation& sim, std::string_view path) {
  return std::get<double>(sim.get(path));
}

/// A ChronoMotor "motor" on body `body`'s hinge with its ports tied to "sp" and "tau".
models::ChronoMotor& addMotor(Simulation& sim, const std::string& body,
                              const std::string& actuation, const std::string& function,
                              std::vector<double> coefficients, double sign = 1.0) {
  sim.addSignal("sp", ElementType::Double, 1);
  sim.addSignal("tau", ElementType::Double, 1);
  auto& motor = sim.addModel<models::ChronoMotor>("motor");
  motor.attachToHinge(body);
  motor.setParam("actuation", actuation);
  motor.setParam("function", function);
  motor.setParam("coefficients", coefficients);
  motor.setParam("sign", sign);
  sim.tie("motor", "setpoint", "sp");
  sim.tie("motor", "force", "tau");
  return motor;
}

}  // namespace

TEST_CASE("ChronoMotor POSITION: a PIN pendulum follows sign f(t), the torque is M q'' + gravity") {
  const double m = 2.0, r = 0.5, g = 9.81, I = m * r * r + 1e-3 * m;
  const double A = 0.8, f = 0.5, phase = 0.2, shift = 0.1, w = 2 * kPi * f;
  for (double sign : {1.0, -1.0}) {
    CAPTURE(sign);
    Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
    auto& tree = sim.multibody().editModel();
    tree.setGravity({0, 0, -g});
    const auto arm =
        tree.addBody("arm", kWorldBody, pointMass(m, {0, r, 0}), Hinge::pin(Vector3::UnitX()));
    sim.multibody().setMasked(arm, -1, true);
    auto& motor = addMotor(sim, "arm", "position", "SINE", {A, f, phase, shift}, sign);
    CHECK(motor.prescribedMotion());
    sim.setBonusDerivativeEvaluation(true);  // the ENDHOP force is the accepted state's
    sim.lock();
    CHECK(sim.stateCount() == 1);  // only the motor's integral: Q and U are masked
    for (int k = 1; k <= 200; ++k) {
      sim.advanceOverHop();
      const double t = sim.time();
      CAPTURE(t);
      const double q = sign * (A * std::sin(w * t + phase) + shift);
      const double u = sign * A * w * std::cos(w * t + phase);
      const double udot = -sign * A * w * w * std::sin(w * t + phase);
      // Q and U are set from the formula: equal to rounding.
      REQUIRE(sim.multibody().q()[0] == doctest::Approx(q).epsilon(1e-14));
      REQUIRE(sim.multibody().u()[0] == doctest::Approx(u).epsilon(1e-14));
      // Inverse dynamics by hand; RNEA's rounding is ~1e-15 of the terms (~10 N m).
      const double torqueQ = I * udot + m * g * r * std::cos(q);
      REQUIRE(scalar(sim, "signals.tau") == doctest::Approx(sign * torqueQ).epsilon(1e-12));
    }
  }
}

TEST_CASE("ChronoMotor SPEED: Q is sign times the integral of f, without drift over 100 s") {
  const double A = 2.0, f = 0.5, phase = 0.1, shift = 0.3, w = 2 * kPi * f, sign = -1.0;
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -9.81});
  const auto arm =
      tree.addBody("arm", kWorldBody, pointMass(1.0, {0, 0.3, 0}), Hinge::pin(Vector3::UnitX()));
  sim.multibody().setMasked(arm, 0, true);
  addMotor(sim, "arm", "SPEED", "SINE", {A, f, phase, shift}, sign);
  sim.lock();
  sim.advanceTimeTo(100.0);
  const double t = sim.time();
  const double integral = -A / w * (std::cos(w * t + phase) - std::cos(phase)) + shift * t;
  // The angle is the integral state itself, so Q cannot drift from it.
  CHECK(sim.multibody().q()[0] == sign * scalar(sim, "models.motor.continuousStates.integral"));
  // rk4 integrates a function of time as Simpson's rule: error <= h^4 / 180 * |f'''(T) -
  // f'''(0)| <= 1e-8 / 180 * 2 A w^3 = 7e-9 over the whole run, not growing with time.
  CHECK(std::fabs(sim.multibody().q()[0] - sign * integral) < 2e-8);
  CHECK(sim.multibody().u()[0] ==
        doctest::Approx(sign * (A * std::sin(w * t + phase) + shift)).epsilon(1e-13));

  // A constant speed integrates exactly: Q = sign c t to rounding after 10000 hops.
  Simulation constant({.ioStepSize = 0.01, .integrator = "rk4"});
  const auto wheel = constant.multibody().editModel().addBody(
      "wheel", kWorldBody, pointMass(1.0, Vector3::Zero()), Hinge::pin(Vector3::UnitZ()));
  constant.multibody().setMasked(wheel, -1, true);
  addMotor(constant, "wheel", "SPEED", "CONSTANT", {1.25}, 1.0);
  constant.lock();
  constant.advanceTimeTo(100.0);
  CHECK(constant.multibody().q()[0] == doctest::Approx(125.0).epsilon(1e-13));
  CHECK(constant.multibody().u()[0] == 1.25);
}

TEST_CASE("ChronoMotor FORCE: generalized force sign f(t) on a free SLIDER") {
  const double m = 4.0, F = 1.5;
  for (double sign : {1.0, -1.0}) {
    CAPTURE(sign);
    Simulation sim({.ioStepSize = 0.05, .integrator = "rk4"});
    sim.multibody().editModel().addBody("cart", kWorldBody, pointMass(m, {0.1, 0.2, 0.3}),
                                        Hinge::slider(Vector3::UnitY()));
    auto& motor = addMotor(sim, "cart", "Force", "RAMP", {0.0, F}, sign);  // f = F
    CHECK_FALSE(motor.prescribedMotion());
    sim.lock();
    sim.advanceTimeTo(2.0);
    // Constant acceleration: rk4 is exact to rounding.
    CHECK(sim.multibody().q()[0] == doctest::Approx(sign * F * 4.0 / (2 * m)).epsilon(1e-12));
    CHECK(scalar(sim, "signals.tau") == F);  // the force along Chrono's offset
  }
}

TEST_CASE("ChronoMotor CONTROLLER: the setpoint drives Q, U is its backward difference") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  const auto arm = sim.multibody().editModel().addBody(
      "arm", kWorldBody, pointMass(1.0, {0, 0.3, 0}), Hinge::pin(Vector3::UnitX()));
  sim.multibody().setMasked(arm, -1, true);
  addMotor(sim, "arm", "POSITION", "CONTROLLER", {0.0}, -1.0);
  sim.lock();
  sim.advanceOverHop();  // the setpoint signal was never written: f = 0
  CHECK(sim.multibody().q()[0] == 0.0);
  sim.set("signals.sp", 0.1);
  sim.advanceOverHop();  // sampled at t = 0.01: one sample, rate 0
  CHECK(sim.multibody().q()[0] == doctest::Approx(-0.1).epsilon(1e-15));
  CHECK(sim.multibody().u()[0] == 0.0);
  sim.set("signals.sp", 0.3);
  sim.advanceOverHop();  // sampled at t = 0.02: rate (0.3 - 0.1) / 0.01
  CHECK(sim.multibody().q()[0] == doctest::Approx(-0.3).epsilon(1e-15));
  CHECK(sim.multibody().u()[0] == doctest::Approx(-20.0).epsilon(1e-12));
  CHECK(scalar(sim, "models.motor.discreteStates.setpoint_rate") == doctest::Approx(20.0));
  sim.advanceOverHop();  // unchanged setpoint: rate 0
  CHECK(sim.multibody().u()[0] == 0.0);
}

TEST_CASE("ChronoMotor: attachment, mask and params are checked at lock()") {
  const auto build = [](Simulation& sim, const Hinge& hinge) {
    return sim.multibody().editModel().addBody("arm", kWorldBody, pointMass(1.0, {0, 0.3, 0}),
                                               hinge);
  };
  SUBCASE("POSITION on a free hinge") {
    Simulation sim;
    build(sim, Hinge::pin(Vector3::UnitX()));
    addMotor(sim, "arm", "POSITION", "CONSTANT", {1.0});
    CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("which is free; mask it"), ModelError);
    CHECK_FALSE(sim.locked());
  }
  SUBCASE("FORCE on a masked hinge") {
    Simulation sim;
    sim.multibody().setMasked(build(sim, Hinge::pin(Vector3::UnitX())), -1, true);
    addMotor(sim, "arm", "FORCE", "CONSTANT", {1.0});
    CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("is masked or prescribed; unmask it"),
                         ModelError);
  }
  SUBCASE("a hinge with two rates") {
    Simulation sim;
    build(sim, Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()));
    addMotor(sim, "arm", "FORCE", "CONSTANT", {1.0});
    CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("which has nu = 2"), ModelError);
  }
  SUBCASE("one subhinge of a UJOINT is fine") {
    Simulation sim;
    build(sim, Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()));
    addMotor(sim, "arm", "FORCE", "CONSTANT", {1.0}).attachToHinge("arm", 1);
    CHECK_NOTHROW(sim.lock());
  }
  SUBCASE("bad params") {
    // Each case on a fresh simulation: a lock fixes the length of coefficients.
    struct Case {
      const char* actuation;
      double sign;
      const char* function;
      std::vector<double> coefficients, repeat;
      const char* message;
    };
    const std::vector<Case> cases = {
        {"TORQUE",
         1.0,
         "CONSTANT",
         {1.0},
         {0, 0, 0},
         "model 'motor' (ChronoMotor): actuation 'TORQUE' is unknown (expected POSITION, SPEED "
         "or FORCE)"},
        {"FORCE",
         0.5,
         "CONSTANT",
         {1.0},
         {0, 0, 0},
         "model 'motor' (ChronoMotor): sign = 0.5 (expected +1 or -1)"},
        {"FORCE",
         -1.0,
         "DATA",
         {0, 1, 0, 2},
         {0, 0, 0},
         "model 'motor' (ChronoMotor): DATA: t[1] = 0 is not greater than t[0] = 0 "
         "(times must be strictly increasing)"},
        {"FORCE",
         -1.0,
         "DATA",
         {0, 1, 1, 2},
         {0, -1, 0},
         "model 'motor' (ChronoMotor): DATA repeat: width = repeat[1] = -1 is not "
         "positive (expected [start, width, shift] with width > 0)"},
        {"FORCE",
         -1.0,
         "SQUARE",
         {1.0},
         {0, 0, 0},
         "model 'motor' (ChronoMotor): function type 'SQUARE' is unknown (expected CONSTANT, "
         "POLYNOMIAL, SINE, RAMP, DATA or CONTROLLER)"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.message);
      Simulation sim;
      build(sim, Hinge::pin(Vector3::UnitX()));
      auto& motor = addMotor(sim, "arm", c.actuation, c.function, c.coefficients, c.sign);
      motor.setParam("repeat", c.repeat);
      CHECK_THROWS_WITH_AS(sim.lock(), c.message, InputError);
      CHECK_FALSE(sim.locked());
    }
    Simulation sim;
    build(sim, Hinge::pin(Vector3::UnitX()));
    addMotor(sim, "arm", "FORCE", "DATA", {0, 1, 1, 2}, -1.0)
        .setParam("repeat", std::vector<double>{0, 1, 0});
    CHECK_NOTHROW(sim.lock());
  }
}

TEST_CASE("ChronoForceMotor: ROTATION and LINEAR loads on two free bodies at rest") {
  // Two free bodies, COM at their origins, diagonal inertias, at rest and unrotated, so the one
  // euler evaluation at t0 gives U' = [alpha; a] in world axes: alpha = I^-1 tau, a = F / m.
  const double m1 = 2.0, m2 = 3.0;
  const Vector3 I1(0.2, 0.3, 0.4), I2(0.5, 0.6, 0.7);
  const Vector3 c2(1.0, 0.5, -0.2);
  const Vector3 r1(0.1, -0.2, 0.3);  // frame 1's origin from body1's COM
  // The frames coincide at r1 when body1 is at the origin; body1 has since moved to c1, so
  // frame 1's origin p1 = c1 + r1 is no longer frame 2's and the reaction on body2 must act at
  // p1, not at frame 2's origin.
  const Vector3 c1(0.05, -0.1, 0.2);
  const Vector3 p1 = c1 + r1;
  const Matrix3 R = spatial::rotationFromAxisAngle(Vector3(1, 2, 2).normalized(), 0.7);
  const Vector3 Z = R.col(2);
  const double t0 = 0.4;  // f = RAMP 2 + 0.5 t: f(t0) = 2.2
  const double f = 2.0 + 0.5 * t0;
  for (const char* kind : {"ROTATION", "linear"}) {
    CAPTURE(kind);
    Simulation sim({.startTime = t0, .ioStepSize = 0.01, .integrator = "euler"});
    auto& tree = sim.multibody().editModel();
    const auto b1 = tree.addBody(
        "b1", kWorldBody, SpatialInertia::fromCmInertia(m1, Vector3::Zero(), I1.asDiagonal()),
        Hinge::full6Dof());
    const auto b2 = tree.addBody(
        "b2", kWorldBody, SpatialInertia::fromCmInertia(m2, Vector3::Zero(), I2.asDiagonal()),
        Hinge::full6Dof());
    tree.addNode("frame1", b1, RigidTransform(R, r1));
    tree.addNode("frame2", b2, RigidTransform(R, r1 - c2));
    sim.multibody().q(b1).tail<3>() = c1;
    sim.multibody().q(b2).tail<3>() = c2;
    sim.addSignal("sp", ElementType::Double, 1);
    auto& motor = sim.addModel<models::ChronoForceMotor>("motor");
    motor.setParam("kind", std::string(kind));
    motor.setParam("node1", std::string("frame1"));
    motor.setParam("node2", std::string("frame2"));
    motor.setParam("function", std::string("RAMP"));
    motor.setParam("coefficients", std::vector<double>{0.5, 2.0});
    sim.tie("motor", "setpoint", "sp");
    sim.lock();
    sim.advanceOverHop();
    const auto udot = sim.multibody().udot();
    const bool rotation = std::string(kind) == "ROTATION";
    const Vector3 F1 = rotation ? Vector3::Zero() : Vector3(f * Z);
    const Vector3 tau1 = rotation ? Vector3(f * Z) : Vector3(r1.cross(f * Z));
    const Vector3 F2 = -F1;
    const Vector3 tau2 = rotation ? Vector3(-f * Z) : Vector3((p1 - c2).cross(-f * Z));
    // One evaluation of Newton-Euler at rest: agreement to rounding (1e-12 of O(10) values).
    const auto near = [](const Eigen::Ref<const Eigen::VectorXd>& a, const Vector3& b) {
      return (a - b).norm() < 1e-12;
    };
    CHECK(near(udot.segment<3>(0), tau1.cwiseQuotient(I1)));
    CHECK(near(udot.segment<3>(3), F1 / m1));
    CHECK(near(udot.segment<3>(6), tau2.cwiseQuotient(I2)));
    CHECK(near(udot.segment<3>(9), F2 / m2));
  }
}

TEST_CASE("ChronoForceMotor: a CONTROLLER takes the setpoint, unknown nodes fail at lock()") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "euler"});
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody(
      "b", kWorldBody, SpatialInertia::fromCmInertia(2.0, Vector3::Zero(), Matrix3::Identity()),
      Hinge::full6Dof());
  tree.addNode("n1", b, RigidTransform());
  tree.addNode("ground", kWorldBody, RigidTransform());
  sim.addSignal("sp", ElementType::Double, 1);
  auto& motor = sim.addModel<models::ChronoForceMotor>("motor");
  motor.setParam("kind", std::string("LINEAR"));
  motor.setParam("node1", std::string("n1"));
  motor.setParam("node2", std::string("grund"));
  motor.setParam("function", std::string("CONTROLLER"));
  motor.setParam("coefficients", std::vector<double>{0.0});
  sim.tie("motor", "setpoint", "sp");
  CHECK_THROWS_WITH_AS(sim.lock(),
                       doctest::Contains("(ChronoForceMotor): node2 'grund' is not a node (did "
                                         "you mean 'ground'?)"),
                       ModelError);
  motor.setParam("node2", std::string("ground"));
  motor.setParam("kind", std::string("SPIN"));
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("kind 'SPIN' is unknown"), InputError);
  motor.setParam("kind", std::string("LINEAR"));
  sim.lock();
  sim.set("signals.sp", 3.0);
  sim.advanceOverHop();
  // 3 N along the world z axis on a 2 kg body: 1.5 m/s² along z.
  CHECK(sim.multibody().udot()[5] == doctest::Approx(1.5).epsilon(1e-14));
}

}  // namespace hopsim
