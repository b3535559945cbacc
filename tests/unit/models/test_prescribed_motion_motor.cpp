// PrescribedMotionMotor against a commanded motion without gravity: a masked PIN carrying a mass
// m at r from its axis follows q = n angle, u = n angVel exactly at every hop, and the dynamics
// reports the torque the prescribed acceleration needs, I n angAccel (I = m r^2 + 1e-3 m; the
// centripetal force passes through the axis). The command is a sinusoid A sin(w t) sampled at
// each hop start; a free body beside the arm gives the integrator states, so that the dynamics
// runs. A masked U-JOINT follows both of its commanded angles.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/prescribed_motion_motor.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;
using test::pointMass;

constexpr const char* kInputs[] = {"angle", "angVel", "angAccel"};

/// A motor "motor" on the hinge of `body`, its three inputs tied to signals of their names with
/// `nu` entries.
void addMotor(Simulation& sim, const std::string& body, std::size_t nu, double gearRatio = 1.0) {
  for (const char* name : kInputs) sim.addSignal(name, ElementType::Double, nu);
  sim.addModel(models::standardRegistry().create("PrescribedMotionMotor", "motor",
                                                 {{"gear_ratio", gearRatio}}));
  dynamic_cast<HingeModel&>(sim.model("motor")).attachToHinge(body);
  for (const char* name : kInputs) sim.tie("motor", name, name);
}

/// Writes the commands [angle, angVel, angAccel] (each `nu` entries: value * scale[i]).
void command(Simulation& sim, const std::vector<double>& scale, double angle, double rate,
             double accel) {
  const double values[] = {angle, rate, accel};
  for (int j = 0; j < 3; ++j) {
    std::vector<double> v;
    for (const double s : scale) v.push_back(s * values[j]);
    if (v.size() == 1) {
      sim.set(std::string("signals.") + kInputs[j], v[0]);
    } else {
      sim.set(std::string("signals.") + kInputs[j], v);
    }
  }
}

}  // namespace

TEST_CASE("PrescribedMotionMotor: a geared masked PIN follows its command and needs I n a") {
  const double m = 2.0, r = 0.5, n = 0.5, A = 0.8, w = 3.0;
  const double I = m * r * r + 1e-3 * m;
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  const auto arm = sim.multibody().editModel().addBody("arm", kWorldBody, pointMass(m, {0, r, 0}),
                                                       Hinge::pin(Vector3::UnitX()));
  sim.multibody().setMasked(arm, -1, true);
  // A free body beside it, so that there are states to integrate and derivative evaluations.
  sim.multibody().editModel().addBody("bob", kWorldBody, pointMass(1.0, {0, 0, -1}),
                                      Hinge::slider(Vector3::UnitZ()));
  addMotor(sim, "arm", 1, n);
  sim.setBonusDerivativeEvaluation(true);
  command(sim, {1.0}, 0.0, A * w, 0.0);
  sim.lock();
  for (int k = 0; k < 200; ++k) {
    const double t = sim.time();
    const double angle = A * std::sin(w * t), rate = A * w * std::cos(w * t);
    const double accel = -A * w * w * std::sin(w * t);
    command(sim, {1.0}, angle, rate, accel);
    sim.advanceOverHop();
    CAPTURE(t);
    REQUIRE(sim.multibody().q()[0] == n * angle);
    REQUIRE(sim.multibody().u()[0] == n * rate);
    REQUIRE(std::fabs(sim.multibody().generalizedForces()[0] - I * n * accel) < 1e-12);
  }
}

TEST_CASE("PrescribedMotionMotor: a masked U-JOINT follows both commanded angles") {
  Simulation sim({.ioStepSize = 0.02, .integrator = "rk4"});
  const auto link =
      sim.multibody().editModel().addBody("link", kWorldBody, pointMass(1.0, {0, 0, -0.4}),
                                          Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()));
  sim.multibody().setMasked(link, -1, true);
  addMotor(sim, "link", 2);
  command(sim, {0.3, -0.6}, 1.0, 0.5, 0.0);
  sim.lock();
  sim.advanceTimeTo(0.5);
  CHECK(sim.multibody().q(link)[0] == 0.3);
  CHECK(sim.multibody().q(link)[1] == -0.6);
  CHECK(sim.multibody().u(link)[1] == -0.3);
}

TEST_CASE("PrescribedMotionMotor: free, BALL and mis-sized attachments are refused at lock") {
  SUBCASE("free hinge") {
    Simulation sim({.ioStepSize = 0.01});
    sim.multibody().editModel().addBody("arm", kWorldBody, pointMass(1.0, {0, 0.5, 0}),
                                        Hinge::pin(Vector3::UnitX()));
    addMotor(sim, "arm", 1);
    command(sim, {1.0}, 0.0, 0.0, 0.0);
    CHECK_THROWS_WITH_AS(sim.lock(),
                         doctest::Contains("rate 0 of the hinge of body 'arm' is free; mask it"),
                         ModelError);
  }
  SUBCASE("BALL") {
    Simulation sim({.ioStepSize = 0.01});
    const auto ball = sim.multibody().editModel().addBody(
        "ball", kWorldBody, pointMass(1.0, {0, 0.5, 0}), Hinge::ball());
    sim.multibody().setMasked(ball, -1, true);
    addMotor(sim, "ball", 3);
    command(sim, {1.0, 1.0, 1.0}, 0.0, 0.0, 0.0);
    CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("has nq = 4 and nu = 3"), ModelError);
  }
  SUBCASE("angle of the wrong length") {
    Simulation sim({.ioStepSize = 0.01});
    const auto arm = sim.multibody().editModel().addBody(
        "arm", kWorldBody, pointMass(1.0, {0, 0.5, 0}), Hinge::pin(Vector3::UnitX()));
    sim.multibody().setMasked(arm, -1, true);
    addMotor(sim, "arm", 2);
    command(sim, {1.0, 1.0}, 0.0, 0.0, 0.0);
    CHECK_THROWS_WITH_AS(
        sim.lock(), doctest::Contains("flowIn 'angle' is tied to 'angle' of length 2"), ModelError);
  }
}

}  // namespace hopsim
