// UniformGravity against free fall. A rotated, non-spinning body whose centre of mass is away
// from its origin falls with p_cm(t) = p0 + v0 t + g t^2/2, which rk4 integrates exactly (a
// quadratic), so the check is to rounding; the body does not start to spin (the force acts at
// the CM) and a second body without the model does not move (the gravity is per body).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/uniform_gravity.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

}  // namespace

TEST_CASE(
    "UniformGravity: free fall of one body's CM, p0 + v0 t + g t^2/2 and other bodies untouched") {
  const Vector3 g(0.3, -0.2, -3.71), com(0.4, -0.6, 0.25), p0(1.0, 2.0, 50.0), v0(2.0, -1.0, 3.0);
  const Matrix3 R_WB = spatial::rotationFromAxisAngle(Vector3(0.2, 1.0, -0.4).normalized(), 0.8);
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  const auto body = tree.addBody(
      "lander", kWorldBody,
      SpatialInertia::fromCmInertia(150.0, com, Matrix3(Vector3(20.0, 25.0, 30.0).asDiagonal())),
      Hinge::full6Dof());
  const auto other = tree.addBody(
      "other", kWorldBody, SpatialInertia::fromCmInertia(3.0, Vector3::Zero(), Matrix3::Identity()),
      Hinge::full6Dof());
  tree.addNode("imu", body, RigidTransform::fromTranslation({1.0, 0.0, -0.5}));
  auto& gravity = sim.addModel<models::UniformGravity>("gravity");
  gravity.attachToNode("imu");
  gravity.setParam("g", std::vector<double>{g.x(), g.y(), g.z()});
  sim.lock();
  sim.multibody().q(body).head<4>() = spatial::quaternionFromRotation(R_WB);
  sim.multibody().q(body).tail<3>() = p0 - R_WB * com;
  sim.multibody().u(body).tail<3>() = R_WB.transpose() * v0;
  sim.multibody().q(other).tail<3>() = Vector3(5.0, 5.0, 5.0);
  const double t = 2.0;
  sim.advanceTimeTo(t);
  const auto q = sim.multibody().q(body);
  const Vector3 p_cm = spatial::rotationFromQuaternion(q.head<4>()) * com + Vector3(q.tail<3>());
  const Vector3 expected = p0 + v0 * t + 0.5 * g * t * t;
  // rk4 is exact for a quadratic; 200 steps of rounding on O(50) values: 1e-12 relative.
  CHECK((p_cm - expected).norm() < 1e-12 * expected.norm());
  CHECK(sim.multibody().u(body).head<3>().norm() < 1e-13);
  CHECK((Vector3(sim.multibody().q(other).tail<3>()) - Vector3(5.0, 5.0, 5.0)).norm() == 0.0);
  CHECK(sim.multibody().u(other).norm() == 0.0);
}

}  // namespace hopsim
