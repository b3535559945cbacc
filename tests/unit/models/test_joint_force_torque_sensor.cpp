// JointForceTorqueSensor against statics and Newton-Euler by hand: a pendulum held still by a
// motor (the joint carries the weight and the motor torque), and a free pendulum swinging (the
// joint force is m a_cm - m g with a_cm from the pendulum equation at the current state).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;
using test::pointMass;

constexpr double kG = 9.81, kM = 1.5, kL = 0.8, kTheta0 = 0.6;
const double kIc = 1e-3 * kM;  // pointMass' inertia about the center (small_body.h)

/// A pendulum "arm" on a PIN about x (center of mass at (0, 0, -L) in the body frame, which is
/// the hinge's outboard frame M), from theta0, with the sensor "ft" on its hinge.
void build(Simulation& sim, const std::string& mode) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  tree.addBody("arm", kWorldBody, pointMass(kM, {0, 0, -kL}), Hinge::pin(Vector3::UnitX()));
  sim.multibody().q()[0] = kTheta0;
  sim.addSignal("force", ElementType::Double, 3, "N");
  sim.addSignal("torque", ElementType::Double, 3, "N*m");
  sim.addModel(
      models::standardRegistry().create("JointForceTorqueSensor", "ft", {{"senseMode", mode}}));
  dynamic_cast<HingeModel&>(sim.model("ft")).attachToHinge("arm");
  sim.tie("ft", "force", "force");
  sim.tie("ft", "torque", "torque");
}

Vector3 vec3(const Simulation& sim, std::string_view path) {
  const auto v = std::get<std::vector<double>>(sim.get(path));
  return {v[0], v[1], v[2]};
}

}  // namespace

TEST_CASE("JointForceTorqueSensor: a pendulum held by a motor carries m g and the motor torque") {
  // Statics: the motor torque m g L sin(theta0) cancels gravity's; the joint pushes up with
  // m g (world z), which in M (rotated by theta0 about x) is (0, m g sin, m g cos), and
  // transmits the motor torque about x. PARENT reports the reaction, the negatives.
  for (const char* mode : {"BODY", "PARENT"}) {
    CAPTURE(std::string(mode));
    const double sign = std::string(mode) == "BODY" ? 1.0 : -1.0;
    Simulation sim({.ioStepSize = 0.01});
    build(sim, mode);
    const double holding = kM * kG * kL * std::sin(kTheta0);
    sim.addSignal("tau", ElementType::Double, 1, "N*m");
    sim.addModel(models::standardRegistry().create("GeneralizedForceMotor", "motor"));
    dynamic_cast<HingeModel&>(sim.model("motor")).attachToHinge("arm");
    sim.tie("motor", "force", "tau");
    sim.set("signals.tau", holding);
    sim.setBonusDerivativeEvaluation(true);
    sim.lock();
    sim.advanceTimeTo(0.5);
    CHECK(sim.multibody().q()[0] == doctest::Approx(kTheta0).epsilon(1e-12));  // it stays
    const Vector3 force = vec3(sim, "signals.force");
    const Vector3 torque = vec3(sim, "signals.torque");
    const Vector3 expectedForce(0.0, kM * kG * std::sin(kTheta0), kM * kG * std::cos(kTheta0));
    CHECK((force - sign * expectedForce).norm() < 1e-12);
    CHECK((torque - sign * Vector3(holding, 0.0, 0.0)).norm() < 1e-12);
  }
}

TEST_CASE("JointForceTorqueSensor: a free pendulum's joint force is m a_cm - m g (Newton)") {
  // At the state (theta, w) the pendulum equation gives alpha = -m g L sin / (m L^2 + I_c);
  // the center r = R_x(theta) (0, 0, -L) accelerates as alpha x r + w x (w x r). About Mo the
  // free pin transmits no torque (x: free; y, z: the planar motion about a principal axis
  // needs none). With the bonus evaluation the sensor reads the accepted state.
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  build(sim, "BODY");
  sim.setBonusDerivativeEvaluation(true);
  sim.lock();
  double fastest = 0.0;
  for (int k = 1; k <= 100; ++k) {
    sim.advanceOverHop();
    fastest = std::max(fastest, std::fabs(sim.multibody().u()[0]));
    const double theta = sim.multibody().q()[0];
    const double w = sim.multibody().u()[0];
    const spatial::Matrix3 R = spatial::rotationX(theta);
    const Vector3 r = R * Vector3(0.0, 0.0, -kL);
    const double alpha = -kM * kG * kL * std::sin(theta) / (kM * kL * kL + kIc);
    const Vector3 x = Vector3::UnitX();
    const Vector3 acm = alpha * x.cross(r) + w * x.cross(w * x.cross(r));
    const Vector3 forceWorld = kM * acm - kM * Vector3(0.0, 0.0, -kG);
    CAPTURE(sim.time());
    REQUIRE((vec3(sim, "signals.force") - R.transpose() * forceWorld).norm() < 1e-10);
    REQUIRE(vec3(sim, "signals.torque").norm() < 1e-10);
  }
  CHECK(fastest > 1.5);  // it swings through the bottom (2.07 rad/s by energy)
}

TEST_CASE("JointForceTorqueSensor: an unknown senseMode and a subhinge attachment are refused") {
  Simulation sim;
  build(sim, "CHILD");
  sim.lock();
  CHECK_THROWS_WITH_AS(
      sim.advanceOverHop(),
      doctest::Contains("senseMode: value 'CHILD' is unknown (expected BODY or PARENT)"),
      InputError);
  Simulation sub;
  build(sub, "BODY");
  dynamic_cast<HingeModel&>(sub.model("ft")).attachToHinge("arm", 0);
  CHECK_THROWS_WITH_AS(sub.lock(), doctest::Contains("expected -1"), ModelError);
}

}  // namespace hopsim
