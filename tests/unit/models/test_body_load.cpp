// BodyLoad against Newton-Euler by hand. A free body (FULL6DOF, COM at its origin, diagonal
// inertia) at rest in a rotated pose, the load's node at the COM with the COM frame rotated
// from the body frame. One euler evaluation at t0 gives U' = [alpha_B; a_B] in body axes with
// alpha_B = I^-1 R_WB^T tau_W and a_B = R_WB^T F_W / m (no velocity terms at rest), so every
// case is checked to rounding (1e-12 of O(10) values). A moving body then checks that a global
// point stays fixed in the world.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/body_load.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

const double kMass = 2.5;
const Vector3 kInertia(0.3, 0.5, 0.8);
const Vector3 kCom(0.4, -1.0, 2.0);  // the body's position at t0
const double kT0 = 0.3;              // modulation RAMP 0.5 + 2 t: s(t0) = 1.1
const double kS = 0.5 + 2.0 * kT0;

Matrix3 bodyRotation() {
  return spatial::rotationFromAxisAngle(Vector3(1, -1, 2).normalized(), 0.9);
}
Matrix3 comRotation() {
  return spatial::rotationFromAxisAngle(Vector3(0, 1, 1).normalized(), -0.6);
}

struct Expected {
  Vector3 force_W, torque_W;
};

/// Builds the body and a BodyLoad "load" with `params`, runs one euler hop from t0 and returns
/// U' (6 entries).
Eigen::VectorXd evaluate(const std::vector<std::pair<std::string, Value>>& params,
                         const Vector3& command = Vector3::Zero()) {
  Simulation sim({.startTime = kT0, .ioStepSize = 0.01, .integrator = "euler"});
  auto& tree = sim.multibody().editModel();
  const auto b =
      tree.addBody("body", kWorldBody,
                   SpatialInertia::fromCmInertia(kMass, Vector3::Zero(), kInertia.asDiagonal()),
                   Hinge::full6Dof());
  tree.addNode("com", b, RigidTransform::fromRotation(comRotation()));
  sim.multibody().q(b).head<4>() = spatial::quaternionFromRotation(bodyRotation());
  sim.multibody().q(b).tail<3>() = kCom;
  sim.addSignal("command", ElementType::Double, 3);
  sim.set("signals.command", std::vector<double>{command.x(), command.y(), command.z()});
  auto& load = sim.addModel<models::BodyLoad>("load");
  load.attachToNode("com");
  load.setParam("function", std::string("RAMP"));
  load.setParam("coefficients", std::vector<double>{2.0, 0.5});
  for (const auto& [name, value] : params) load.setParam(name, value);
  sim.tie("load", "command", "command");
  sim.lock();
  sim.advanceOverHop();
  return sim.multibody().udot();
}

void check(const Eigen::VectorXd& udot, const Expected& e) {
  const Matrix3 R_WB = bodyRotation();
  const Vector3 alpha = (R_WB.transpose() * e.torque_W).cwiseQuotient(kInertia);
  const Vector3 a = R_WB.transpose() * e.force_W / kMass;
  CHECK((udot.head<3>() - alpha).norm() < 1e-12);
  CHECK((udot.tail<3>() - a).norm() < 1e-12);
}

std::vector<double> list(const Vector3& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace

TEST_CASE("BodyLoad FORCE: local and global loads at local and global points") {
  const Vector3 L(1.0, -2.0, 0.5), point(0.2, 0.1, -0.3);
  const Matrix3 R_WN = bodyRotation() * comRotation();
  SUBCASE("local load at a local point: both in COM axes, moving with the body") {
    const Vector3 F = kS * (R_WN * L);
    check(evaluate({{"type", std::string("FORCE")}, {"load", list(L)}, {"point", list(point)}}),
          {F, (R_WN * point).cross(F)});
  }
  SUBCASE("global load at a global point: torque (p - r_com) x F") {
    const Vector3 F = kS * L;
    check(evaluate({{"type", std::string("force")},
                    {"load", list(L)},
                    {"local_load", false},
                    {"point", list(point)},
                    {"local_point", false}}),
          {F, (point - kCom).cross(F)});
  }
  SUBCASE("local load at a global point") {
    const Vector3 F = kS * (R_WN * L);
    check(evaluate({{"type", std::string("FORCE")},
                    {"load", list(L)},
                    {"point", list(point)},
                    {"local_point", false}}),
          {F, (point - kCom).cross(F)});
  }
  SUBCASE("controlled: the command is the load, without modulation") {
    const Vector3 command(-0.7, 0.4, 1.3);
    const Vector3 F = R_WN * command;
    check(evaluate({{"type", std::string("FORCE")},
                    {"load", list(L)},
                    {"point", list(point)},
                    {"controlled", true}},
                   command),
          {F, (R_WN * point).cross(F)});
  }
}

TEST_CASE("BodyLoad TORQUE: local and global couples, the point does not matter") {
  const Vector3 L(0.3, 0.9, -1.2);
  const Matrix3 R_WN = bodyRotation() * comRotation();
  check(
      evaluate(
          {{"type", std::string("TORQUE")}, {"load", list(L)}, {"point", list(Vector3(5, 5, 5))}}),
      {Vector3::Zero(), kS * (R_WN * L)});
  check(evaluate({{"type", std::string("Torque")}, {"load", list(L)}, {"local_load", false}}),
        {Vector3::Zero(), kS * L});
}

TEST_CASE("BodyLoad: a global point stays fixed in the world while the body moves") {
  // A body with spherical inertia J (no gyroscopic term: alpha_B = R_WB^T tau_W / J) moving at
  // 1 m/s along x under a world-fixed force F = (0, 0, 2) N applied at the world point p. In
  // each euler hop the one evaluation is at the hop-start state, whose pose gives the lever
  // p - r_com(t); over 1 s the body moves 1 m, so the torque changes by ~2 N m.
  const double m = 2.0, J = 0.4;
  const Vector3 F(0, 0, 2.0), p(0.5, 0.2, 0.0);
  Simulation sim({.ioStepSize = 0.01, .integrator = "euler"});
  auto& tree = sim.multibody().editModel();
  const auto b =
      tree.addBody("body", kWorldBody,
                   SpatialInertia::fromCmInertia(m, Vector3::Zero(), J * Matrix3::Identity()),
                   Hinge::full6Dof());
  tree.addNode("com", b, RigidTransform::fromRotation(comRotation()));
  sim.multibody().u(b).tail<3>() = Vector3(1.0, 0, 0);
  sim.addSignal("command", ElementType::Double, 3);
  auto& load = sim.addModel<models::BodyLoad>("load");
  load.attachToNode("com");
  load.setParam("type", std::string("FORCE"));
  load.setParam("coefficients", std::vector<double>{1.0});
  load.setParam("load", list(F));
  load.setParam("local_load", false);
  load.setParam("point", list(p));
  load.setParam("local_point", false);
  sim.tie("load", "command", "command");
  sim.lock();
  double largest = 0.0;
  for (int k = 0; k < 100; ++k) {
    const Vector3 r_com = sim.multibody().q(b).tail<3>();
    const Matrix3 R_WB = spatial::rotationFromQuaternion(sim.multibody().q(b).head<4>());
    sim.advanceOverHop();
    const Vector3 alpha = R_WB.transpose() * (p - r_com).cross(F) / J;
    largest = std::max(largest, (sim.multibody().udot().head<3>() - alpha).norm());
  }
  CHECK(largest < 1e-12);
  CHECK(sim.multibody().q(b)[4] > 0.9);  // the body did move about 1 m along x
}

TEST_CASE("BodyLoad: bad type and modulation fail at lock()") {
  Simulation sim;
  const auto b = sim.multibody().editModel().addBody(
      "body", kWorldBody, SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Matrix3::Identity()),
      Hinge::full6Dof());
  sim.multibody().editModel().addNode("com", b, RigidTransform());
  sim.addSignal("command", ElementType::Double, 3);
  auto& load = sim.addModel<models::BodyLoad>("load");
  load.attachToNode("com");
  load.setParam("type", std::string("PRESSURE"));
  load.setParam("coefficients", std::vector<double>{1.0});
  sim.tie("load", "command", "command");
  CHECK_THROWS_WITH_AS(sim.lock(),
                       "model 'load' (BodyLoad): type 'PRESSURE' is unknown (expected FORCE or "
                       "TORQUE)",
                       InputError);
  load.setParam("type", std::string("FORCE"));
  load.setParam("function", std::string("SINE"));
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("(BodyLoad): SINE: expected 4 coefficients"),
                       InputError);
  load.setParam("function", std::string("CONSTANT"));
  CHECK_NOTHROW(sim.lock());
}

}  // namespace hopsim
