// GeneralizedAccelMotor against closed-form prescribed motions without gravity. A prescribed PIN
// driven at a constant input a through a gear ratio n turns by theta = n a t^2 / 2 at the rate
// n a t, and the dynamics reports the torque the motion needs, I n a (a mass m at r from the
// axis: I = m r^2 + 1e-3 m). A prescribed GIMBAL follows q_i = a_i t^2 / 2 on each angle, and a
// motor on one prescribed subhinge of a U-JOINT drives that subhinge only. The accelerations are
// constant, so rk4 integrates the quadratics exactly (to rounding): the 1e-12 tolerances.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/generalized_accel_motor.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;
using test::pointMass;

/// A motor "motor" from the registry on the hinge (or `subhinge`) of `body`, its accel input
/// tied to the signal "accel" of `length` entries holding `accel`.
void addMotor(Simulation& sim, const std::string& body, const std::vector<double>& accel,
              double gearRatio = 1.0, int subhinge = -1) {
  sim.addSignal("accel", ElementType::Double, accel.size(), "rad/s^2");
  sim.addModel(models::standardRegistry().create("GeneralizedAccelMotor", "motor",
                                                 {{"gear_ratio", gearRatio}}));
  dynamic_cast<HingeModel&>(sim.model("motor")).attachToHinge(body, subhinge);
  sim.tie("motor", "accel", "accel");
  if (accel.size() == 1) {
    sim.set("signals.accel", accel[0]);
  } else {
    sim.set("signals.accel", accel);
  }
}

}  // namespace

TEST_CASE("GeneralizedAccelMotor: a geared PIN follows n a t^2 / 2 and needs the torque I n a") {
  const double m = 2.0, r = 0.5, a = 3.0, n = 0.25;
  const double I = m * r * r + 1e-3 * m;
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  const auto arm =
      tree.addBody("arm", kWorldBody, pointMass(m, {0, r, 0}), Hinge::pin(Vector3::UnitX()));
  tree.setPrescribed(arm, true);
  addMotor(sim, "arm", {a}, n);
  sim.setBonusDerivativeEvaluation(true);
  sim.lock();
  for (int k = 1; k <= 200; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    CAPTURE(t);
    REQUIRE(std::fabs(sim.multibody().q()[0] - n * a * t * t / 2) < 1e-12);
    REQUIRE(std::fabs(sim.multibody().u()[0] - n * a * t) < 1e-12);
    REQUIRE(sim.multibody().generalizedForces()[0] == doctest::Approx(I * n * a).epsilon(1e-12));
  }
}

TEST_CASE("GeneralizedAccelMotor: a prescribed GIMBAL follows each commanded acceleration") {
  const std::vector<double> a = {1.0, -2.0, 0.5};
  Simulation sim({.ioStepSize = 0.02, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  const auto head =
      tree.addBody("head", kWorldBody, pointMass(1.5, {0.1, 0.2, 0.3}), Hinge::gimbal());
  tree.setPrescribed(head, true);
  addMotor(sim, "head", a);
  sim.lock();
  sim.advanceTimeTo(1.0);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(std::fabs(sim.multibody().q()[i] - a[i] / 2) < 1e-12);
    CHECK(std::fabs(sim.multibody().u()[i] - a[i]) < 1e-12);
  }
}

TEST_CASE("GeneralizedAccelMotor: on one prescribed subhinge of a U-JOINT it drives that one") {
  Simulation sim({.ioStepSize = 0.02, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  const auto link = tree.addBody("link", kWorldBody, pointMass(1.0, {0, 0, -0.4}),
                                 Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()));
  tree.setPrescribed(link, 1, true);
  sim.multibody().u(link)[0] = 0.0;
  addMotor(sim, "link", {-0.8}, 1.0, 1);
  sim.lock();
  sim.advanceTimeTo(1.0);
  CHECK(std::fabs(sim.multibody().q(link)[1] - (-0.4)) < 1e-12);
  // No gravity, nothing acts on the free axis and the driven one is along the CM line's
  // symmetry: the first angle stays at rest.
  CHECK(std::fabs(sim.multibody().q(link)[0]) < 1e-12);
}

TEST_CASE("GeneralizedAccelMotor: a free hinge and a wrong input length are refused at lock") {
  SUBCASE("free hinge") {
    Simulation sim({.ioStepSize = 0.01});
    sim.multibody().editModel().addBody("arm", kWorldBody, pointMass(1.0, {0, 0.5, 0}),
                                        Hinge::pin(Vector3::UnitX()));
    addMotor(sim, "arm", {1.0});
    CHECK_THROWS_WITH_AS(sim.lock(),
                         doctest::Contains("rate 0 of the hinge of body 'arm' is free; a "
                                           "GeneralizedAccelMotor drives prescribed rates only"),
                         ModelError);
  }
  SUBCASE("two entries for one rate") {
    Simulation sim({.ioStepSize = 0.01});
    auto& tree = sim.multibody().editModel();
    const auto arm =
        tree.addBody("arm", kWorldBody, pointMass(1.0, {0, 0.5, 0}), Hinge::pin(Vector3::UnitX()));
    tree.setPrescribed(arm, true);
    addMotor(sim, "arm", {1.0, 2.0});
    CHECK_THROWS_WITH_AS(sim.lock(),
                         doctest::Contains("flowIn 'accel' is tied to 'accel' of length 2 but "
                                           "the attached hinge of body 'arm' has nu = 1"),
                         ModelError);
  }
}

}  // namespace hopsim
