// Acceptance: an IMU (RateGyro + Accelerometer on one node) on a spinning body reports
// the rate and specific force the kinematics predict with noise off, and the statistics its
// noise parameters predict with noise on.
//
// The body turns on a PIN about the vertical z through its CM, under gravity g = (0, 0, -g0)
// along the axis (no gravity torque) and a constant motor torque tau: omega(t) = w0 + a t with
// a = tau / J. The IMU node sits at r (body axes) off the axis, rotated by R_BN. In body axes
//   omega_B = (0, 0, omega),  f_B = omega x (omega x r) + alpha x r - R_BW g
//          = (-omega^2 r_x - a r_y, -omega^2 r_y + a r_x, g0),
// (R_BW g = g: a turn about the gravity axis leaves g unchanged) and node axes take R_BN^T.
// A sample reports the average over its period [t_a, t_b]: omega averages to
// (omega_a + omega_b)/2 and omega^2 to (omega_a^2 + omega_a omega_b + omega_b^2)/3.
//
// Tolerance: omega is linear and the sensed integrands at most quadratic in t, and rk4 is
// exact for such polynomials (Simpson's rule per stage), so the only error is rounding: the
// noise-off checks use 1e-11 (rates ~ 10, sums of ~1000 steps at 1e-16 relative each).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/accelerometer.h"
#include "hopsim/models/generalized_force_motor.h"
#include "hopsim/models/rate_gyro.h"
#include "sensor_samples.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::Moments;
using test::momentsOf;
using test::vectorOf;

constexpr double kPeriod = 0.01;  // IMU sample period, s
constexpr double kG0 = 9.80665;
constexpr double kJ = 0.5;       // inertia about the spin axis, kg m^2
constexpr double kTorque = 0.1;  // N m
constexpr double kW0 = 4.0;      // initial spin rate, rad/s
constexpr double kAlpha = kTorque / kJ;
const Vector3 kR(0.3, 0.1, 0.2);  // node offset from the spin axis, body axes, m
const Matrix3 kR_BN = spatial::rotationFromAxisAngle(Vector3(1, 2, 3).normalized(), 0.7);

void buildImu(Simulation& sim) {
  auto& tree = sim.multibody().editModel();
  const Matrix3 inertia = Vector3(0.3, 0.4, kJ).asDiagonal();
  const auto b = tree.addBody("rotor", kWorldBody,
                              SpatialInertia::fromCmInertia(3.0, Vector3(0, 0, 0.1), inertia),
                              Hinge::pin(Vector3::UnitZ()));
  tree.addNode("imu", b, RigidTransform(kR_BN, kR));
  sim.multibody().u(b)[0] = kW0;
  sim.multibody().setGravity(Vector3(0, 0, -kG0));

  sim.addSignal("torque", ElementType::Double, 1, "N*m");
  sim.set("signals.torque", kTorque);
  auto& motor = sim.addModel<models::GeneralizedForceMotor>("motor");
  motor.attachToHinge("rotor");
  sim.tie("motor", "force", "torque");

  sim.addModel<models::RateGyro>("gyro").attachToNode("imu");
  sim.addModel<models::Accelerometer>("accel").attachToNode("imu");
  for (const auto& [model, integral] : {std::pair{"gyro", "angle"}, {"accel", "velocity"}}) {
    const std::string i = integral, sensed = i == "angle" ? "rate" : "specific_force";
    for (const std::string& name : {sensed, i, "delta_" + i}) {
      sim.addSignal(name, ElementType::Double, 3);
      sim.tie(model, name, name);
    }
    for (const std::string& name : {i + "_counts", "delta_" + i + "_counts"}) {
      sim.addSignal(name, ElementType::Int, 3);
      sim.tie(model, name, name);
    }
  }
  sim.setModelRate("gyro", 1.0 / kPeriod);
  sim.setModelRate("accel", 1.0 / kPeriod);
}

/// The kinematic averages over [ta, tb], node axes.
Vector3 expectedRate(double ta, double tb) {
  const double wa = kW0 + kAlpha * ta, wb = kW0 + kAlpha * tb;
  return kR_BN.transpose() * Vector3(0, 0, 0.5 * (wa + wb));
}
Vector3 expectedSpecificForce(double ta, double tb) {
  const double wa = kW0 + kAlpha * ta, wb = kW0 + kAlpha * tb;
  const double w2 = (wa * wa + wa * wb + wb * wb) / 3.0;
  const Vector3 f_B(-w2 * kR.x() - kAlpha * kR.y(), -w2 * kR.y() + kAlpha * kR.x(), kG0);
  return kR_BN.transpose() * f_B;
}
/// The kinematic integrals from 0 to t, node axes: int omega and int f.
Vector3 expectedAngle(double t) {
  return kR_BN.transpose() * Vector3(0, 0, kW0 * t + 0.5 * kAlpha * t * t);
}
Vector3 expectedVelocity(double t) {
  // int omega^2 = ((w0 + a t)^3 - w0^3) / (3 a)
  const double w = kW0 + kAlpha * t;
  const double w2 = (w * w * w - kW0 * kW0 * kW0) / (3.0 * kAlpha);
  const Vector3 v_B(-w2 * kR.x() - kAlpha * t * kR.y(), -w2 * kR.y() + kAlpha * t * kR.x(),
                    kG0 * t);
  return kR_BN.transpose() * v_B;
}

/// Mean within 5 sigma/sqrt(n) of `mean`, variance within 5 s^2 sqrt(2/(n-1)) of s^2.
void checkNormal(const std::vector<double>& x, double mean, double sigma) {
  const Moments m = momentsOf(x);
  const double n = static_cast<double>(x.size());
  CAPTURE(m.mean);
  CAPTURE(m.variance);
  CHECK(std::fabs(m.mean - mean) < 5.0 * sigma / std::sqrt(n));
  CHECK(std::fabs(m.variance - sigma * sigma) < 5.0 * sigma * sigma * std::sqrt(2.0 / (n - 1)));
}

}  // namespace

TEST_CASE("RateGyro/Accelerometer IMU acceptance: noise off, it reports the kinematics") {
  for (const std::string type : {"CONTINUOUS", "DISCRETE"}) {
    CAPTURE(type);
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildImu(sim);
    sim.set("models.gyro.params.state_type", type);
    sim.set("models.accel.params.state_type", type);
    sim.lock();
    sim.advanceOverHop();
    double worstRate = 0.0, worstForce = 0.0, worstIntegral = 0.0;
    for (int k = 0; k < 300; ++k) {
      sim.advanceOverHop();
      const double tb = sim.time() - kPeriod, ta = tb - kPeriod;  // the published period
      worstRate =
          std::max(worstRate, (vectorOf(sim, "signals.rate") - expectedRate(ta, tb)).norm());
      worstForce = std::max(
          worstForce,
          (vectorOf(sim, "signals.specific_force") - expectedSpecificForce(ta, tb)).norm());
      worstIntegral =
          std::max({worstIntegral, (vectorOf(sim, "signals.angle") - expectedAngle(tb)).norm(),
                    (vectorOf(sim, "signals.velocity") - expectedVelocity(tb)).norm()});
    }
    CHECK(worstRate < 1e-11);
    CHECK(worstForce < 1e-11);
    CHECK(worstIntegral < 1e-11);
    // The checks covered a real motion: a centripetal force of several m/s^2 that grew with
    // the spin, and a node whose sense axes are all tilted from the spin axis.
    const double wEnd = kW0 + kAlpha * sim.time();
    CHECK(wEnd * wEnd * std::hypot(kR.x(), kR.y()) > 5.0);
    CHECK(std::fabs(expectedRate(0, kPeriod).z()) < 0.95 * kW0);
  }
}

TEST_CASE(
    "RateGyro/Accelerometer IMU acceptance: noise on, the samples have the predicted "
    "statistics") {
  // Per axis: bias b and white-noise density N. A sample's error (reported minus kinematic
  // average) is b + N xi / sqrt(h): mean b, variance N^2 / h, independent between samples.
  // The integral's noise over a window of m periods is a sum of m increments: variance
  // N^2 m h, growing linearly with the window (the random walk).
  const double gyroBias = 2e-3, gyroN = 1e-3, accelBias = -0.03, accelN = 4e-3;
  Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
  buildImu(sim);
  sim.set("models.gyro.params.bias", std::vector<double>(3, gyroBias));
  sim.set("models.gyro.params.white_noise_density", gyroN);
  sim.set("models.gyro.params.seed", std::int64_t{2026});
  sim.set("models.accel.params.bias", std::vector<double>(3, accelBias));
  sim.set("models.accel.params.white_noise_density", accelN);
  sim.set("models.accel.params.seed", std::int64_t{9});
  sim.lock();
  sim.advanceOverHop();
  std::vector<double> rateErrors, forceErrors;
  std::vector<Vector3> angleNoise, velocityNoise;
  for (int k = 0; k < 1500; ++k) {
    sim.advanceOverHop();
    const double tb = sim.time() - kPeriod, ta = tb - kPeriod;
    const Vector3 dr = vectorOf(sim, "signals.rate") - expectedRate(ta, tb);
    const Vector3 df = vectorOf(sim, "signals.specific_force") - expectedSpecificForce(ta, tb);
    rateErrors.insert(rateErrors.end(), {dr[0], dr[1], dr[2]});
    forceErrors.insert(forceErrors.end(), {df[0], df[1], df[2]});
    // The integrals' noise: reported minus kinematic integral minus the bias's integral.
    angleNoise.push_back(vectorOf(sim, "signals.angle") - expectedAngle(tb) -
                         Vector3::Constant(gyroBias * tb));
    velocityNoise.push_back(vectorOf(sim, "signals.velocity") - expectedVelocity(tb) -
                            Vector3::Constant(accelBias * tb));
  }
  checkNormal(rateErrors, gyroBias, gyroN / std::sqrt(kPeriod));
  checkNormal(forceErrors, accelBias, accelN / std::sqrt(kPeriod));
  for (const int m : {1, 10, 50}) {
    CAPTURE(m);
    std::vector<double> angleSteps, velocitySteps;
    for (std::size_t k = 0; k + m < angleNoise.size(); k += m) {
      const Vector3 da = angleNoise[k + m] - angleNoise[k];
      const Vector3 dv = velocityNoise[k + m] - velocityNoise[k];
      angleSteps.insert(angleSteps.end(), {da[0], da[1], da[2]});
      velocitySteps.insert(velocitySteps.end(), {dv[0], dv[1], dv[2]});
    }
    checkNormal(angleSteps, 0.0, gyroN * std::sqrt(m * kPeriod));
    checkNormal(velocitySteps, 0.0, accelN * std::sqrt(m * kPeriod));
  }
}

}  // namespace hopsim
