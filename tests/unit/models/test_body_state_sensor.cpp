// BodyStateSensor against a known motion: a free body with spherical inertia and no gravity or
// load spins at a constant body rate w_B (no gyroscopic torque) and its origin, the COM,
// drifts at a constant world velocity v0. So R_WB(t) = R0 exp(w_B t), w_W = R0 w_B (constant),
// r(t) = r0 + v0 t, and a node at (R_BN, r_B) on the body is at p = r + R_WB r_B with velocity
// v0 + w_W x R_WB r_B and orientation q(R_WB R_BN). rk4 at h = 1 ms integrates the quaternion
// with a global error ~ h^4 |w|^5 T ~ 1e-11: tolerance 1e-9.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/body_state_sensor.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

Vector3 signalVector(const Simulation& sim, std::string_view path) {
  const auto v = std::get<std::vector<double>>(sim.get(path));
  REQUIRE(v.size() == 3);
  return {v[0], v[1], v[2]};
}

}  // namespace

TEST_CASE("BodyStateSensor: position, orientation and velocities of a node on a spinning body") {
  const Matrix3 R0 = spatial::rotationFromAxisAngle(Vector3(1, 2, -1).normalized(), 0.8);
  const Vector3 wB(0.4, -1.1, 0.7), v0(0.3, -0.2, 1.0), r0(1.0, 2.0, -0.5);
  const Matrix3 R_BN = spatial::rotationFromAxisAngle(Vector3(0, 0, 1), 0.5);
  const Vector3 r_B(0.2, -0.1, 0.4);

  Simulation sim({.ioStepSize = 0.001, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  const auto b =
      tree.addBody("body", kWorldBody,
                   SpatialInertia::fromCmInertia(3.0, Vector3::Zero(), 0.2 * Matrix3::Identity()),
                   Hinge::full6Dof());
  tree.addNode("probe", b, RigidTransform(R_BN, r_B));
  sim.multibody().q(b).head<4>() = spatial::quaternionFromRotation(R0);
  sim.multibody().q(b).tail<3>() = r0;
  sim.multibody().u(b).head<3>() = wB;                   // omega in M = B
  sim.multibody().u(b).tail<3>() = R0.transpose() * v0;  // v of Bo in M = B
  for (const char* name : {"p", "v", "w"}) sim.addSignal(name, ElementType::Double, 3);
  sim.addSignal("q", ElementType::Double, 4);
  sim.addModel<models::BodyStateSensor>("sensor").attachToNode("probe");
  sim.tie("sensor", "position", "p");
  sim.tie("sensor", "orientation", "q");
  sim.tie("sensor", "velocity", "v");
  sim.tie("sensor", "angular_velocity", "w");
  sim.lock();
  const Vector3 wW = R0 * wB;
  double largest = 0.0;
  for (int k = 1; k <= 2000; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    const Matrix3 R_WB = R0 * spatial::rotationFromAxisAngle(wB.normalized(), wB.norm() * t);
    const Vector3 p = r0 + v0 * t + R_WB * r_B;
    const Vector3 v = v0 + wW.cross(R_WB * r_B);
    const Eigen::Vector4d q = spatial::quaternionFromRotation(R_WB * R_BN);
    const auto qv = std::get<std::vector<double>>(sim.get("signals.q"));
    const Eigen::Vector4d qs(qv[0], qv[1], qv[2], qv[3]);
    largest = std::max({largest, (signalVector(sim, "signals.p") - p).norm(),
                        (signalVector(sim, "signals.v") - v).norm(),
                        (signalVector(sim, "signals.w") - wW).norm(),
                        std::min((qs - q).norm(), (qs + q).norm())});
    REQUIRE(std::fabs(qs.norm() - 1.0) < 1e-14);
    REQUIRE(qs[0] >= 0.0);  // canonical sign
  }
  CHECK(largest < 1e-9);
  // The body turned by |w| * 2 s = 2.7 rad and moved: the check covered a real motion.
  CHECK(wB.norm() * sim.time() > 2.5);
}

}  // namespace hopsim
