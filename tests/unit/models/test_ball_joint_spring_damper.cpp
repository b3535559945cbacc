// BallJointSpringDamper: about one axis of the child frame the ball is a torsional oscillator
// (ω stays on a principal axis of a body whose inertia is diagonal about the hinge point, so
// Euler's equations reduce to J_i ω_i' = τ_i), checked against the analytic damped response for
// each of roll, pitch and yaw; at a combined rotation the torque is -K ∘ (roll, pitch, yaw) for
// the angles the test built the rotation from.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "damped_oscillator.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/models/ball_joint_spring_damper.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::Vector3;

const Vector3 kInertia(0.02, 0.03, 0.05);  // principal moments about the hinge point, kg m²

/// A body on a BALL hinge, its centre of mass at the hinge point, with the spring-damper.
models::BallJointSpringDamper& build(Simulation& sim) {
  sim.multibody().editModel().addBody(
      "head", kWorldBody,
      spatial::SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), kInertia.asDiagonal()),
      Hinge::ball());
  auto& motor = sim.addModel<models::BallJointSpringDamper>("springs");
  motor.attachToHinge("head");
  return motor;
}

}  // namespace

TEST_CASE("BallJointSpringDamper: roll, pitch and yaw each oscillate at sqrt(K/J) with decay") {
  const char* axes[3] = {"x", "y", "z"};
  const double K[3] = {0.5, 1.2, 0.8}, C[3] = {0.01, 0.0, 0.03};
  for (int i = 0; i < 3; ++i) {
    CAPTURE(axes[i]);
    // |angle| stays below 0.45 rad < π/2, where the pitch is unambiguous.
    const test::DampedOscillator ref{
        .J = kInertia[i], .K = K[i], .C = C[i], .x0 = 0.0, .a = 0.3, .v0 = 0.6};
    Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
    build(sim);
    sim.set(std::string("models.springs.params.K_") + axes[i], K[i]);
    sim.set(std::string("models.springs.params.C_") + axes[i], C[i]);
    sim.multibody().q() = spatial::quaternionFromAxisAngle(Vector3::Unit(i), ref.a);
    sim.multibody().u() = ref.v0 * Vector3::Unit(i);
    sim.lock();
    for (int k = 1; k <= 2000; ++k) {
      sim.advanceOverHop();
      const double t = sim.time();
      const auto axisAngle = spatial::axisAngleFromRotation(
          spatial::rotationFromQuaternion(Eigen::Vector4d(sim.multibody().q())));
      const double angle = axisAngle.angle * axisAngle.axis[i];  // signed, about the axis
      CAPTURE(t);
      // ωn = 5, 6.3 and 4 rad/s, ωn h <= 6.3e-3: rk4 error ~1e-9 of the amplitude; the
      // quaternion's renormalization adds only rounding.
      REQUIRE(std::fabs(angle - ref.position(t)) < 1e-8);
      REQUIRE(std::fabs(sim.multibody().u()[i] - ref.rate(t)) < 1e-7);
      // The motion stays on the axis: the other rates are zero to rounding.
      REQUIRE(std::fabs(sim.multibody().u()[(i + 1) % 3]) < 1e-12);
      REQUIRE(std::fabs(sim.multibody().u()[(i + 2) % 3]) < 1e-12);
    }
  }
}

TEST_CASE("BallJointSpringDamper: at a combined rotation τ = -K ∘ (roll, pitch, yaw) - C ∘ ω") {
  // R_FM = Rz(yaw) Ry(pitch) Rx(roll) built by hand; one Euler evaluation at ω = 0 has no
  // gyroscopic term, so J_i U_i' = τ_i exactly (to rounding, 1e-12 relative). A second one
  // with a rate adds -C ∘ ω and the gyroscopic term -ω × Jω.
  const double roll = 0.5, pitch = -0.2, yaw = 0.3;
  const Vector3 K(2.0, 3.0, 5.0), C(0.1, 0.2, 0.3), w(0.4, -0.7, 0.2);
  const Matrix3 R = spatial::rotationZ(yaw) * spatial::rotationY(pitch) * spatial::rotationX(roll);
  for (const bool moving : {false, true}) {
    CAPTURE(moving);
    Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
    build(sim);
    for (int i = 0; i < 3; ++i) {
      const std::string axis(1, static_cast<char>('x' + i));
      sim.set("models.springs.params.K_" + axis, K[i]);
      sim.set("models.springs.params.C_" + axis, C[i]);
    }
    const Vector3 omega = moving ? w : Vector3::Zero();
    sim.multibody().q() = spatial::quaternionFromRotation(R);
    sim.multibody().u() = omega;
    sim.lock();
    sim.advanceOverHop();
    const Vector3 tau = -K.cwiseProduct(Vector3(roll, pitch, yaw)) - C.cwiseProduct(omega);
    const Vector3 J = kInertia;
    const Vector3 expected =
        (tau - omega.cross(J.cwiseProduct(omega))).cwiseQuotient(J);  // Euler's equations
    for (int i = 0; i < 3; ++i) {
      CHECK(sim.multibody().udot()[i] == doctest::Approx(expected[i]).epsilon(1e-12));
    }
  }
}

TEST_CASE("BallJointSpringDamper: only a BALL hinge or subhinge is accepted") {
  Simulation sim({.ioStepSize = 1e-3});
  sim.multibody().editModel().addBody("free", kWorldBody, test::pointMass(1.0, Vector3::Zero()),
                                      Hinge::full6Dof());
  sim.addModel<models::BallJointSpringDamper>("springs").attachToHinge("free");
  CHECK_THROWS_WITH_AS(sim.lock(),
                       doctest::Contains("needs a BALL hinge or subhinge (nq = 4, nu = 3), but the "
                                         "hinge of body 'free' (FULL6DOF) has nq = 7 and nu = 6"),
                       ModelError);
}

}  // namespace hopsim
