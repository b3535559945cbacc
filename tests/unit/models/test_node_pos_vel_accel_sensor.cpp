// NodePosVelAccelSensor against the closed-form motion of a body on a PIN about the vertical z
// under a constant torque (gravity along the axis, CM on it: no gravity torque):
// theta = w0 t + a t^2 / 2, omega = w0 + a t, so with p = R_z(theta) r the node origin moves
// with v = omega e_z x p and acceleration a e_z x p + omega e_z x (omega e_z x p). theta is
// quadratic and omega linear in t, which rk4 integrates exactly: the 1e-10 tolerance covers
// rounding over 200 hops with values up to ~10.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/generalized_force_motor.h"
#include "hopsim/models/node_pos_vel_accel_sensor.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "sensor_samples.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::vectorOf;

constexpr double kW0 = 3.0, kJ = 0.4, kTorque = 0.2, kAlpha = kTorque / kJ, kG0 = 9.81;
const Vector3 kR(0.25, -0.15, 0.3);
const Matrix3 kR_BN = spatial::rotationFromAxisAngle(Vector3(-1, 2, 0.5).normalized(), 1.1);
const char* const kOutputs[] = {"pos",   "vel",       "accel",   "omega",
                                "alpha", "bodyOmega", "bodyVel", "bodySensedAccel"};

void buildRig(Simulation& sim) {
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody(
      "rotor", kWorldBody,
      SpatialInertia::fromCmInertia(2.0, Vector3(0, 0, -0.2), Vector3(0.3, 0.3, kJ).asDiagonal()),
      Hinge::pin(Vector3::UnitZ()));
  tree.addNode("probe", b, RigidTransform(kR_BN, kR));
  sim.multibody().u(b)[0] = kW0;
  sim.multibody().setGravity(Vector3(0, 0, -kG0));
  sim.addSignal("torque", ElementType::Double, 1, "N*m");
  sim.set("signals.torque", kTorque);
  sim.addModel<models::GeneralizedForceMotor>("motor").attachToHinge("rotor");
  sim.tie("motor", "force", "torque");
  sim.addModel<models::NodePosVelAccelSensor>("truth").attachToNode("probe");
  for (const char* name : kOutputs) {
    sim.addSignal(name, ElementType::Double, 3);
    sim.tie("truth", name, name);
  }
  sim.addSignal("quat", ElementType::Double, 4);
  sim.tie("truth", "quat", "quat");
}

}  // namespace

TEST_CASE("NodePosVelAccelSensor: pose, velocities and accelerations of a node on a spun-up body") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  buildRig(sim);
  // Accelerations at the hop ends are those of an evaluation at the accepted state.
  sim.setBonusDerivativeEvaluation(true);
  sim.lock();
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    const double theta = kW0 * t + 0.5 * kAlpha * t * t, w = kW0 + kAlpha * t;
    const Matrix3 R_WB = spatial::rotationFromAxisAngle(Vector3::UnitZ(), theta);
    const Matrix3 R_NW = (R_WB * kR_BN).transpose();
    const Vector3 ez = Vector3::UnitZ(), p = R_WB * kR;
    const Vector3 v = w * ez.cross(p);
    const Vector3 a = kAlpha * ez.cross(p) + w * ez.cross(v);
    const Vector3 g(0, 0, -kG0);
    const std::vector<std::pair<std::string, Vector3>> expected = {
        {"pos", p},
        {"vel", v},
        {"accel", a},
        {"omega", w * ez},
        {"alpha", R_NW * (kAlpha * ez)},
        {"bodyOmega", R_NW * (w * ez)},
        {"bodyVel", R_NW * v},
        {"bodySensedAccel", R_NW * (a - g)}};
    for (const auto& [name, value] : expected) {
      CAPTURE(name);
      worst = std::max(worst, (vectorOf(sim, std::string("signals.") + name) - value).norm());
    }
    const auto qv = std::get<std::vector<double>>(sim.get("signals.quat"));
    const Eigen::Vector4d q = spatial::quaternionFromRotation(R_WB * kR_BN);
    worst = std::max(worst, (Eigen::Vector4d(qv[0], qv[1], qv[2], qv[3]) - q).norm());
  }
  CHECK(worst < 1e-10);
  // A real motion: the spin grew from 3 to 4 rad/s over the 2 s.
  CHECK(kAlpha * sim.time() == doctest::Approx(1.0));
}

TEST_CASE("NodePosVelAccelSensor: a missing node is refused at lock") {
  Simulation sim({.ioStepSize = 0.01});
  buildRig(sim);
  dynamic_cast<models::NodePosVelAccelSensor&>(sim.model("truth")).attachToNode("ghost");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("ghost"), ModelError);
}

TEST_CASE("NodePosVelAccelSensor: the registry creates it by class name") {
  const auto sensor = models::standardRegistry().create("NodePosVelAccelSensor", "s");
  CHECK(sensor->spec().className() == "NodePosVelAccelSensor");
}

}  // namespace hopsim
