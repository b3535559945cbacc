// BearingAngle against an independent computation: a free body at rest in a pose R_WB (built
// with Eigen::AngleAxisd, not hopsim's rotation code), the sensor on a node at R_BN, so the
// node-fixed vector in world axes is a = R_WB R_BN body_vec. The reference angle is
// acos(a.b / |a||b|) at generic angles, and, near 0 and pi where acos loses half the digits,
// the angle by which the test itself turned the vector.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <variant>

#include "hopsim/core/simulation.h"
#include "hopsim/models/bearing_angle.h"
#include "hopsim/signals/error.h"
#include "posed_body.h"

namespace hopsim {
namespace {

using spatial::Matrix3;
using spatial::Vector3;
using test::addPosedBody;
using test::list;
using test::turn;

/// The angle the model reports after one hop, body at R_WB, node at R_BN.
double bearing(const Matrix3& R_WB, const Matrix3& R_BN, const Vector3& bodyVec,
               const Vector3& celestVec) {
  Simulation sim({.ioStepSize = 0.01});
  addPosedBody(sim, R_WB, R_BN);
  sim.addSignal("angle", ElementType::Double, 1, "rad");
  auto& sensor = sim.addModel<models::BearingAngle>("bearing");
  sensor.attachToNode("probe");
  sensor.setParam("body_vec", list(bodyVec));
  sensor.setParam("celest_vec", list(celestVec));
  sim.tie("bearing", "angle", "angle");
  sim.lock();
  sim.advanceOverHop();
  return std::get<double>(sim.get("signals.angle"));
}

double acosAngle(const Vector3& a, const Vector3& b) {
  return std::acos(std::clamp(a.dot(b) / (a.norm() * b.norm()), -1.0, 1.0));
}

const Matrix3 kR_WB = turn(1.1, Vector3(2, -1, 0.5));
const Matrix3 kR_BN = turn(-0.6, Vector3(0, 0, 1));

}  // namespace

TEST_CASE("BearingAngle: equals acos of the normalized dot product at generic angles") {
  const Vector3 bodyVec(0.4, -1.2, 2.0);  // not a unit vector
  const Vector3 a = kR_WB * (kR_BN * bodyVec);
  for (const Vector3& celest :
       {Vector3(1, 0, 0), Vector3(0.3, 2.0, -0.7), Vector3(-5, -1, 2), Vector3(0, 0, -0.01)}) {
    CAPTURE(celest);
    const double expected = acosAngle(a, celest);
    // Away from 0 and pi, acos has a bounded derivative (the test's angles have |sin| > 0.1):
    // both forms agree to ~1e-15 rad; 1e-13 leaves room for the conditioning 1/|sin|.
    REQUIRE(std::sin(expected) > 0.1);
    CHECK(std::fabs(bearing(kR_WB, kR_BN, bodyVec, celest) - expected) < 1e-13);
  }
}

TEST_CASE("BearingAngle: exactly 0 and pi for parallel and antiparallel vectors") {
  const Vector3 bodyVec(0.0, 3.0, 0.0);
  const Vector3 a = kR_WB * (kR_BN * bodyVec);
  // Parallel: |a x b| is a rounding residue of ~1e-16 |a||b|, so the angle is ~1e-16; acos of
  // the clamped dot product gives 0 or ~1e-8 (its error at 1): the tolerance is acos's.
  const double parallel = bearing(kR_WB, kR_BN, bodyVec, 2.0 * a);
  CHECK(parallel >= 0.0);
  CHECK(parallel < 1e-15);
  CHECK(std::fabs(parallel - acosAngle(a, 2.0 * a)) < 3e-8);
  const double antiparallel = bearing(kR_WB, kR_BN, bodyVec, -0.5 * a);
  CHECK(antiparallel <= std::numbers::pi);
  CHECK(std::numbers::pi - antiparallel < 1e-15);
  CHECK(std::fabs(antiparallel - acosAngle(a, -0.5 * a)) < 3e-8);
}

TEST_CASE("BearingAngle: accurate near 0 and pi, where acos is not") {
  const Vector3 bodyVec(0.0, 3.0, 0.0);  // length 3, not a unit vector
  const Matrix3 R_WN = kR_WB * kR_BN;
  // celest_vec = 0.5 R_WN turn(angle, normal) body_vec with normal orthogonal to body_vec: the
  // angle between them is `angle` by construction.
  const Vector3 normal = Vector3(1, 0, 0.3).normalized();
  for (double angle : {1e-9, 1e-5, 0.3, std::numbers::pi / 2, 2.5, std::numbers::pi - 1e-5,
                       std::numbers::pi - 1e-9}) {
    CAPTURE(angle);
    const Vector3 celest = 0.5 * (R_WN * (turn(angle, normal) * bodyVec));
    // atan2(|a x b|, a.b) of vectors known to ~1e-16 relative: the absolute angle error is a
    // few 1e-16 everywhere, where acos(a.b / |a||b|) would be off by ~1e-8 at 1e-9 from 0 or pi.
    CHECK(std::fabs(bearing(kR_WB, kR_BN, bodyVec, celest) - angle) < 2e-15);
  }
}

TEST_CASE("BearingAngle: a zero vector is refused naming the param") {
  CHECK_THROWS_WITH_AS(
      bearing(Matrix3::Identity(), Matrix3::Identity(), Vector3::Zero(), Vector3(1, 0, 0)),
      "models.bearing.params.body_vec: value [0, 0, 0] must be a finite non-zero vector (it "
      "gives a direction)",
      InputError);
  CHECK_THROWS_WITH_AS(
      bearing(Matrix3::Identity(), Matrix3::Identity(), Vector3(1, 0, 0), Vector3::Zero()),
      "models.bearing.params.celest_vec: value [0, 0, 0] must be a finite non-zero vector (it "
      "gives a direction)",
      InputError);
}

}  // namespace hopsim
