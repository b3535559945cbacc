// PointMassGravity against Kepler. One evaluation on a rotated body at rest, whose centre of
// mass is far from its origin, gives U' = [0; R^T a(p_cm)] exactly (the force acts at the CM:
// no angular acceleration). A circular orbit about a displaced centre returns to its start
// after 2 pi sqrt(a^3/mu), passes the antipode at half of it, and keeps its specific energy
// |v|^2/2 - mu/r, within the bounds the integrator's tolerance gives.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/point_mass_gravity.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

std::vector<double> list(const Vector3& v) { return {v.x(), v.y(), v.z()}; }

Vector3 signal3(const Simulation& sim, const char* name) {
  const auto v = std::get<std::vector<double>>(sim.get(std::string("signals.") + name));
  return {v[0], v[1], v[2]};
}

/// A free body "sat" of mass `m` with its CM at `com` (body axes), a node "gps" away from the
/// CM, and a PointMassGravity "gravity" on that node with its outputs on signals "accel" and
/// "potential". Its hinge is FULL6DOF (rates in body axes) or, with `inertialRates`,
/// FULL6DOF_INERTIAL (rates in world axes).
struct Orbiter {
  Simulation sim;
  multibody::BodyIndex body;
  Vector3 com;
  bool inertialRates;
  Orbiter(const SimulationOptions& options, double m, const Vector3& com_B, double mu,
          const Vector3& center, bool inertial = false)
      : sim(options), com(com_B), inertialRates(inertial) {
    auto& tree = sim.multibody().editModel();
    body = tree.addBody(
        "sat", kWorldBody,
        SpatialInertia::fromCmInertia(m, com_B, Matrix3(Vector3(3.0, 4.0, 5.0).asDiagonal())),
        inertialRates ? Hinge::full6DofInertial() : Hinge::full6Dof());
    tree.addNode("gps", body, RigidTransform::fromTranslation({-0.4, 0.9, 0.1}));
    auto& gravity = sim.addModel<models::PointMassGravity>("gravity");
    gravity.attachToNode("gps");
    gravity.setParam("mu", mu);
    gravity.setParam("center", list(center));
    sim.addSignal("accel", ElementType::Double, 3);
    sim.addSignal("potential", ElementType::Double);
    sim.tie("gravity", "linearAccel", "accel");
    sim.tie("gravity", "potential", "potential");
  }
  /// Places the CM at p (W) moving at v (W), body axes rotated by R_WB, not spinning.
  void place(const Vector3& p, const Vector3& v, const Matrix3& R_WB) {
    sim.multibody().q(body).head<4>() = spatial::quaternionFromRotation(R_WB);
    sim.multibody().q(body).tail<3>() = p - R_WB * com;
    sim.multibody().u(body).head<3>().setZero();
    // v of Bo = v_cm at ω = 0
    sim.multibody().u(body).tail<3>() = inertialRates ? v : Vector3(R_WB.transpose() * v);
  }
  Vector3 cmPosition() {
    const auto q = sim.multibody().q(body);
    return spatial::rotationFromQuaternion(q.head<4>()) * com + Vector3(q.tail<3>());
  }
  /// Valid while the body does not spin (checked by the callers).
  Vector3 cmVelocity() {
    const Vector3 v(sim.multibody().u(body).tail<3>());
    if (inertialRates) return v;
    return spatial::rotationFromQuaternion(sim.multibody().q(body).head<4>()) * v;
  }
};

}  // namespace

TEST_CASE("PointMassGravity: m a at the CM, a = -mu r/|r|^3 from the CM, no torque") {
  // Unit-scale numbers so that the CM offset (|c| ~ 1.5 m at ~2.5 m from the centre) changes the
  // field by O(1): the body origin or the node used instead of the CM would be far off.
  const double mu = 7.0, m = 2.5;
  const Vector3 com(0.5, -1.2, 0.7), center(0.3, 0.2, -0.4), p_cm(1.1, -1.6, 1.5);
  const Matrix3 R_WB = spatial::rotationFromAxisAngle(Vector3(1, -2, 0.5).normalized(), 1.1);
  Orbiter o({.ioStepSize = 0.01, .integrator = "euler"}, m, com, mu, center);
  o.sim.lock();
  o.place(p_cm, Vector3::Zero(), R_WB);
  o.sim.advanceOverHop();
  const Vector3 r = p_cm - center;
  const Vector3 a = -mu / std::pow(r.norm(), 3) * r;
  const Eigen::VectorXd udot = o.sim.multibody().udot();
  // At rest, U' = [alpha_B; a_Bo_B] = [0; R^T a] exactly; 1e-13 is rounding of O(1) values.
  CHECK(udot.head<3>().norm() < 1e-13);
  CHECK((udot.tail<3>() - R_WB.transpose() * a).norm() < 1e-13 * a.norm());
}

TEST_CASE("PointMassGravity: a circular orbit has period 2 pi sqrt(a^3/mu) and keeps its energy") {
  const double mu = 3.986004418e14, a = 7.0e6, inclination = 0.9;
  const double period = 2.0 * std::numbers::pi * std::sqrt(a * a * a / mu);
  const double speed = std::sqrt(mu / a);
  const Vector3 center(1.0e5, -2.0e5, 3.0e4);  // the planet is not at the world origin
  // rkf45 at rtol 1e-12: the local error of each of the ~1.6e4 steps of the orbit is below
  // 1e-12 |x|, and the errors do not all add up: the energy drifts by ~7e-10 (measured). Hops
  // of a quarter orbit: the checks need no more, and each hop restarts the step-size control.
  // The hinge is FULL6DOF_INERTIAL (rates in world axes), so the attitude does not enter the
  // translation; its rotational states get a loose absolute tolerance because their
  // derivatives carry the rounding of the moment of m a about the world origin, 7000 km away
  // (eps |p| m |a| / I ~ 1e-6 rad/s^2), which a 1e-9 tolerance would chase with tiny steps.
  IntegratorOptions tight;
  tight.relativeTolerance = 1e-12;
  tight.absoluteTolerances.resize(13);  // [quaternion, position, omega, v] of the one body
  tight.absoluteTolerances << 1e-3, 1e-3, 1e-3, 1e-3, 1e-9, 1e-9, 1e-9, 1e-3, 1e-3, 1e-3, 1e-9,
      1e-9, 1e-9;
  Orbiter o({.ioStepSize = period / 4.0, .integrator = "rkf45", .integratorOptions = tight}, 800.0,
            Vector3(0.3, -0.2, 0.5), mu, center, true);
  o.sim.lock();
  const Vector3 r0(a, 0.0, 0.0);
  const Vector3 v0 = speed * Vector3(0.0, std::cos(inclination), std::sin(inclination));
  o.place(center + r0, v0, Matrix3::Identity());
  const double energy0 = 0.5 * speed * speed - mu / a;  // -mu/(2a)
  const auto energy = [&] {
    const Vector3 r = o.cmPosition() - center;
    return 0.5 * o.cmVelocity().squaredNorm() - mu / r.norm();
  };

  o.sim.advanceTimeTo(0.5 * period);
  // Half an orbit: at the antipode, moving backwards. A wrong mu by 1e-6 would miss by ~20 m.
  CHECK((o.cmPosition() - center + r0).norm() < 1e-8 * a);
  CHECK((o.cmVelocity() + v0).norm() < 1e-8 * speed);
  // The outputs are the field at the CM and U = -mu/r.
  const Vector3 r = o.cmPosition() - center;
  CHECK((signal3(o.sim, "accel") + mu / std::pow(r.norm(), 3) * r).norm() < 1e-12 * mu / (a * a));
  CHECK(std::get<double>(o.sim.get("signals.potential")) ==
        doctest::Approx(-mu / r.norm()).epsilon(1e-14));

  o.sim.advanceTimeTo(period);
  CHECK((o.cmPosition() - center - r0).norm() < 1e-8 * a);
  CHECK((o.cmVelocity() - v0).norm() < 1e-8 * speed);
  const double worstEnergy = std::abs(energy() / energy0 - 1.0);
  MESSAGE("relative energy drift over an orbit: " << worstEnergy);
  CHECK(worstEnergy < 3e-9);
  // The force acts at the CM, so the body, which started without spin, does not spin beyond
  // rounding: FULL6DOF_INERTIAL's rates are about the world origin, 7000 km away, where the
  // moment of m a (~5e10 N*m) cancels to eps |p| m |a| / I ~ 1e-6 rad/s^2 per evaluation. The
  // same force at the node, 1 m off the CM, would spin the body up at ~1e3 rad/s^2.
  CHECK(o.sim.multibody().u(o.body).head<3>().norm() < 1e-3);
}

TEST_CASE("PointMassGravity: a node on the world body and a body at the centre are refused") {
  Simulation sim;
  sim.multibody().editModel().addNode("ground", kWorldBody, RigidTransform());
  sim.addSignal("accel", ElementType::Double, 3);
  sim.addSignal("potential", ElementType::Double);
  auto& gravity = sim.addModel<models::PointMassGravity>("gravity");
  gravity.attachToNode("ground");
  sim.tie("gravity", "linearAccel", "accel");
  sim.tie("gravity", "potential", "potential");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("node 'ground' is fixed on the world body"),
                       ModelError);
  CHECK_THROWS_WITH_AS(gravity.setParam("mu", -1.0), doctest::Contains("models.gravity.params.mu"),
                       InputError);

  Orbiter o({.ioStepSize = 0.01, .integrator = "euler"}, 1.0, Vector3::Zero(), 1.0,
            Vector3::Zero());
  o.sim.lock();
  CHECK_THROWS_WITH_AS(o.sim.advanceOverHop(), doctest::Contains("singular"), NumericalError);
}

}  // namespace hopsim
