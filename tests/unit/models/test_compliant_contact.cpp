// CompliantContact (fed by ComputePlanePenetration on the same node) against independent
// computations: a point mass on a TRANSLATIONAL hinge (Q = world position, U = world
// velocity), so the contact force at the node is the only thing besides gravity that acts.
// - A ball dropped on the plane: the onset is the free-fall time sqrt(2 h0 / g); the rebound
//   is compared with the Hunt-Crossley ODE m x'' = -m g + kp δ^n (1 + (alpha/kp) δ̇) integrated
//   in the test with its own fine RK4, and with Hunt and Crossley's restitution estimate.
// - A block on an incline: sticks below the friction angle (held by the tangential spring),
//   slides with the Coulomb acceleration g (sin θ - mu cos θ) otherwise.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/compliant_contact.h"
#include "hopsim/models/compute_plane_penetration.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using spatial::Vector3;

constexpr double kG = 9.81;    // m/s^2, gravity along -z
constexpr double kMass = 2.0;  // kg
constexpr double kKp = 1.0e5;  // N/m^1.5, normal stiffness
constexpr double kN = 1.5;     // Hertz exponent

std::vector<double> list(const Vector3& v) { return {v.x(), v.y(), v.z()}; }

/// A point mass at p0 with velocity v0 under gravity, a plane through the origin with normal
/// `normal`, the sensor and the contact on its node "foot". Returns the contact model.
models::CompliantContact& addContactRig(Simulation& sim, const Vector3& p0, const Vector3& v0,
                                        const Vector3& normal) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity(Vector3(0.0, 0.0, -kG));
  const auto b =
      tree.addBody("block", multibody::kWorldBody, test::pointMass(kMass, Vector3::Zero()),
                   multibody::Hinge::translational());
  tree.addNode("foot", b, spatial::RigidTransform());
  sim.multibody().q(b) = p0;
  sim.multibody().u(b) = v0;
  sim.addSignal("delta", ElementType::Double, 1, "m");
  sim.addSignal("delta_rate", ElementType::Double, 1, "m/s");
  sim.addSignal("normal", ElementType::Double, 3);
  sim.addSignal("fn", ElementType::Double, 1, "N");
  sim.addSignal("ft", ElementType::Double, 3, "N");
  sim.addSignal("type", ElementType::Int);
  auto& plane = sim.addModel<models::ComputePlanePenetration>("plane");
  plane.attachToNode("foot");
  plane.setParam("normal", list(normal));
  sim.tie("plane", "penetration", "delta");
  sim.tie("plane", "penetration_rate", "delta_rate");
  sim.tie("plane", "normal", "normal");
  auto& contact = sim.addModel<models::CompliantContact>("contact");
  contact.attachToNode("foot");
  contact.setParam("kp_normal", kKp);
  contact.setParam("n", kN);
  sim.tie("contact", "penetration", "delta");
  sim.tie("contact", "penetration_rate", "delta_rate");
  sim.tie("contact", "normal", "normal");
  sim.tie("contact", "normal_force", "fn");
  sim.tie("contact", "tangent_force", "ft");
  sim.tie("contact", "contact_type", "type");
  return contact;
}

// The block is the rig's only body, so its TRANSLATIONAL hinge is the whole of Q and U.
Vector3 position(Simulation& sim) { return sim.multibody().q(); }
Vector3 velocity(Simulation& sim) { return sim.multibody().u(); }

/// The 1-D Hunt-Crossley bounce from the onset (height 0, speed v0 down) to time T after it,
/// by RK4 at step h: x'' = -g + F/m, F = max(0, kp δ^n + alpha δ^n δ̇), δ = -x. Returns (x, v).
std::pair<double, double> bounceReference(double v0, double alpha, double T, double h) {
  auto accel = [&](double x, double v) {
    const double delta = -x;
    if (delta <= 0.0) return -kG;
    const double dn = std::pow(delta, kN);
    return -kG + std::max(0.0, kKp * dn + alpha * dn * (-v)) / kMass;
  };
  double x = 0.0, v = -v0;
  const int steps = static_cast<int>(std::lround(T / h));
  for (int i = 0; i < steps; ++i) {
    const double k1x = v, k1v = accel(x, v);
    const double k2x = v + 0.5 * h * k1v, k2v = accel(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
    const double k3x = v + 0.5 * h * k2v, k3v = accel(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
    const double k4x = v + h * k3v, k4v = accel(x + h * k3x, v + h * k3v);
    x += h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
    v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
  }
  return {x, v};
}

/// The incline of angle θ rising towards +x: normal (-sin θ, 0, cos θ), downhill -x along
/// (-cos θ, 0, -sin θ).
Vector3 inclineNormal(double theta) { return {-std::sin(theta), 0.0, std::cos(theta)}; }
Vector3 downhill(double theta) { return {-std::cos(theta), 0.0, -std::sin(theta)}; }

/// Static penetration under the normal load m g cos θ: kp δ^n = m g cos θ.
double restingPenetration(double theta) {
  return std::pow(kMass * kG * std::cos(theta) / kKp, 1.0 / kN);
}

}  // namespace

TEST_CASE(
    "CompliantContact (long): a dropped ball touches at sqrt(2 h0/g) and rebounds as "
    "Hunt-Crossley") {
  const double h0 = 0.2, alpha = 1.5e4;  // alpha / kp = 0.15 s/m: restitution about 0.8
  Simulation sim({.ioStepSize = 1e-3, .integrationSteps = 10});  // rk4 at 0.1 ms
  auto& contact = addContactRig(sim, Vector3(0.0, 0.0, h0), Vector3::Zero(), Vector3::UnitZ());
  contact.setParam("alpha_normal", alpha);
  sim.lock();
  REQUIRE(sim.findEvent("contact.onset").has_value());
  // A stretch left over from an earlier contact: the onset must clear it, or the first touch
  // would push the ball sideways with up to mu Fn.
  const std::string deflection = "models.contact.continuousStates.tangent_deflection";
  sim.set(deflection, std::vector<double>{0.01, -0.02, 0.0});

  // The hop ends at the located crossing. rk4 is exact on the free-fall parabola, so the onset
  // carries only the crossing tolerance (1e-10 s by default).
  while (sim.propagationStatistics().crossingsFired == 0) sim.advanceOverHop();
  const double onset = sim.time();
  CHECK(onset == doctest::Approx(std::sqrt(2.0 * h0 / kG)).epsilon(1e-9));
  CHECK(std::fabs(position(sim).z()) < 1e-9);
  const double v0 = std::sqrt(2.0 * kG * h0);
  CHECK(velocity(sim).z() == doctest::Approx(-v0).epsilon(1e-9));
  CHECK(std::get<std::vector<double>>(sim.get(deflection)) == std::vector<double>{0.0, 0.0, 0.0});

  // 0.1 s after the onset the ball has left the plane (the contact lasts about 0.03 s) and
  // flies up. The reference integrates the same law from the same onset state with RK4 at
  // 1 µs; the simulation's rk4 at 0.1 ms differs from it mostly by its error at the separation
  // (δ^n, n = 1.5, has an unbounded second derivative at δ = 0), measured at 7e-8 relative:
  // 1e-6 bounds it.
  const double T = 0.1;
  sim.advanceTimeTo(onset + T);
  CHECK(std::get<std::int64_t>(sim.get("signals.type")) == 0);  // in flight again
  const auto [xRef, vRef] = bounceReference(v0, alpha, T, 1e-6);
  CHECK(position(sim).z() == doctest::Approx(xRef).epsilon(1e-6));
  CHECK(velocity(sim).z() == doctest::Approx(vRef).epsilon(1e-6));
  // Nothing pushes sideways once the onset has cleared the stretch; before it, the located
  // crossing may end ~1e-10 m deep, where mu Fn ~ 1e-10 N moves the ball by ~1e-17 m. A
  // stretch kept through the contact would move it by millimetres.
  CHECK(position(sim).head<2>().norm() < 1e-12);

  // Hunt and Crossley's estimate alpha/kp = 3 (1 - e) / (2 v0), first order in 1 - e: the
  // separation speed is v_sep = sqrt(v(T)^2 + 2 g x(T)); the estimate is good to ~(1 - e)^2.
  const double vSep = std::sqrt(vRef * vRef + 2.0 * kG * xRef);
  CHECK(vSep / v0 == doctest::Approx(1.0 - 2.0 * alpha * v0 / (3.0 * kKp)).epsilon(0.03));
  CHECK(vSep / v0 < 1.0);
}

TEST_CASE(
    "CompliantContact (long): below the friction angle the tangential spring holds the block") {
  const double theta = 20.0 * std::numbers::pi / 180.0, mu = 0.5;  // tan θ = 0.36 < mu
  const double alphaT = 900.0;  // about critical for kp_t = 1e5 N/m and m = 2 kg
  const Vector3 start = -restingPenetration(theta) * inclineNormal(theta);
  Simulation sim({.ioStepSize = 1e-3, .integrationSteps = 10});
  auto& contact = addContactRig(sim, start, Vector3::Zero(), inclineNormal(theta));
  contact.setParam("mu", mu);
  contact.setParam("alpha_tangent", alphaT);
  contact.setParam("alpha_normal", 1e3);
  sim.lock();
  sim.advanceTimeTo(1.0);
  CHECK(std::get<std::int64_t>(sim.get("signals.type")) == 2);  // rolling (sticking)
  // The block settles where the spring carries the downhill weight: kp_t s = m g sin θ. The
  // damped spring (ζ about 1, ω = 224 rad/s) has settled after 1 s (measured 1e-13 relative).
  const double stretch = kMass * kG * std::sin(theta) / 1.0e5;
  const Vector3 moved = position(sim) - start;
  CHECK(moved.dot(downhill(theta)) == doctest::Approx(stretch).epsilon(1e-9));
  CHECK(std::fabs(moved.dot(inclineNormal(theta))) < 1e-12);  // resting depth unchanged
  CHECK(velocity(sim).norm() < 1e-9);
  // Friction carries the downhill weight, the normal force the rest.
  CHECK(std::get<double>(sim.get("signals.fn")) ==
        doctest::Approx(kMass * kG * std::cos(theta)).epsilon(1e-9));
}

TEST_CASE("CompliantContact (long): sliding decelerates at g (mu cos θ - sin θ), then sticks") {
  const double theta = 20.0 * std::numbers::pi / 180.0, mu = 0.5, v0 = 1.0;
  const double decel = kG * (mu * std::cos(theta) - std::sin(theta));  // 1.25 m/s^2
  const Vector3 start = -restingPenetration(theta) * inclineNormal(theta);
  Simulation sim({.ioStepSize = 1e-3, .integrationSteps = 10});
  auto& contact = addContactRig(sim, start, v0 * downhill(theta), inclineNormal(theta));
  contact.setParam("mu", mu);
  contact.setParam("alpha_tangent", 900.0);  // alpha_t v0 = 900 N >> mu Fn: slides at once
  sim.lock();
  // While it slides, |Ft| = mu Fn exactly and the motion is uniformly decelerated: rk4 is
  // exact on it up to rounding.
  sim.advanceTimeTo(0.4);
  CHECK(std::get<std::int64_t>(sim.get("signals.type")) == 1);  // sliding
  CHECK(velocity(sim).dot(downhill(theta)) == doctest::Approx(v0 - decel * 0.4).epsilon(1e-9));
  CHECK((position(sim) - start).dot(downhill(theta)) ==
        doctest::Approx(v0 * 0.4 - 0.5 * decel * 0.16).epsilon(1e-9));
  // It stops at v0 / decel = 0.80 s after v0^2 / (2 decel) and is held there. The tangential
  // spring takes over at |alpha_t v_t| = mu Fn (v_t ~ 0.01 m/s) and stretches by up to
  // mu Fn / kp_t ~ 1e-4 m: 1e-3 m bounds the difference in the stopping distance.
  sim.advanceTimeTo(1.5);
  CHECK(std::get<std::int64_t>(sim.get("signals.type")) == 2);
  CHECK(velocity(sim).norm() < 1e-6);
  CHECK((position(sim) - start).dot(downhill(theta)) ==
        doctest::Approx(v0 * v0 / (2.0 * decel)).epsilon(1e-3));
}

TEST_CASE(
    "CompliantContact (long): above the friction angle the block slides at g (sin θ - mu cos θ)") {
  const double theta = 30.0 * std::numbers::pi / 180.0, mu = 0.3, v0 = 0.5;  // tan θ = 0.58
  const double accel = kG * (std::sin(theta) - mu * std::cos(theta));        // 2.36 m/s^2
  const Vector3 start = -restingPenetration(theta) * inclineNormal(theta);
  Simulation sim({.ioStepSize = 1e-3, .integrationSteps = 10});
  auto& contact = addContactRig(sim, start, v0 * downhill(theta), inclineNormal(theta));
  contact.setParam("mu", mu);
  contact.setParam("alpha_tangent", 900.0);
  sim.lock();
  sim.advanceTimeTo(1.0);
  CHECK(std::get<std::int64_t>(sim.get("signals.type")) == 1);
  // Uniform acceleration from the start (sliding throughout): rk4 is exact up to rounding.
  CHECK(velocity(sim).dot(downhill(theta)) == doctest::Approx(v0 + accel).epsilon(1e-9));
  const auto ft = std::get<std::vector<double>>(sim.get("signals.ft"));
  CHECK(Vector3(ft[0], ft[1], ft[2]).norm() ==
        doctest::Approx(mu * kMass * kG * std::cos(theta)).epsilon(1e-9));
}

TEST_CASE("CompliantContact (long): the LINEAR law rests at δ = m g / kp_n") {
  // Started at the static penetration at rest: kp_n δ = m g holds it there, and a NONLINEAR
  // law (the default) would not (kp δ^1.5 is about 70 times smaller at this depth).
  const double depth = kMass * kG / kKp;
  Simulation sim({.ioStepSize = 1e-3, .integrationSteps = 10});
  auto& contact = addContactRig(sim, Vector3(0.0, 0.0, -depth), Vector3::Zero(), Vector3::UnitZ());
  contact.setParam("normal_force_model", std::string("linear"));
  contact.setParam("alpha_normal", 100.0);
  sim.lock();
  sim.advanceTimeTo(0.5);
  // Nothing moves: only rounding in m g / kp and back.
  CHECK(position(sim).z() == doctest::Approx(-depth).epsilon(1e-12));
  CHECK(std::get<double>(sim.get("signals.fn")) == doctest::Approx(kMass * kG).epsilon(1e-12));
}

TEST_CASE("CompliantContact: max_force caps the normal force") {
  // At 1 cm depth the LINEAR spring would push with kp δ = 1000 N; the cap holds the force at
  // 50 N, above the weight m g = 19.6 N, so the ball accelerates up at 50 / m - g. It rises by
  // under 1e-5 m in the 1 ms hop, so the cap binds throughout and Fn reads exactly 50 N.
  Simulation sim({.ioStepSize = 1e-3, .integrationSteps = 10});
  auto& contact = addContactRig(sim, Vector3(0.0, 0.0, -0.01), Vector3::Zero(), Vector3::UnitZ());
  contact.setParam("normal_force_model", std::string("LINEAR"));
  contact.setParam("max_force", 50.0);
  sim.lock();
  sim.advanceOverHop();
  CHECK(std::get<double>(sim.get("signals.fn")) == 50.0);
  // Uniform acceleration (50 / m - g) over the hop: rk4 is exact up to rounding.
  CHECK(velocity(sim).z() == doctest::Approx((50.0 / kMass - kG) * 1e-3).epsilon(1e-12));
}

TEST_CASE("CompliantContact: an unknown normal force model is refused naming the param") {
  Simulation sim({.ioStepSize = 1e-3});
  addContactRig(sim, Vector3(0, 0, 1), Vector3::Zero(), Vector3::UnitZ())
      .setParam("normal_force_model", std::string("quadratic"));
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       "models.contact.params.normal_force_model: value 'quadratic' is not "
                       "NONLINEAR or LINEAR",
                       InputError);
}

}  // namespace hopsim
