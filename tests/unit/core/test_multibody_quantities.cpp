// The multibody system's computed variables (multibody.energy.*, .mass, .centerOfMass,
// .momentum.*): one evaluation serves every read at the same state, and a change of the mass
// properties or the gravity at the same Q and U gives new values. References are the closed
// forms of a pendulum: a point-like mass m at distance c below a PIN hinge about x.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"

namespace hopsim::test {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::SpatialInertia;
using spatial::Vector3;

constexpr double kC = 0.8;   // m, hinge to CM
constexpr double kI = 1e-3;  // kg·m², inertia about the CM
constexpr double kQ = 0.3;   // rad
constexpr double kU = 0.7;   // rad/s

SpatialInertia pendulumMass(double m) {
  return SpatialInertia::fromCmInertia(m, {0, 0, -kC}, kI * Matrix3::Identity());
}

// The pendulum at Q = kQ, U = kU under gravity g_W, locked.
multibody::BodyIndex buildPendulum(Simulation& sim, double m, const Vector3& g_W) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity(g_W);
  const auto arm = tree.addBody("arm", kWorldBody, pendulumMass(m), Hinge::pin(Vector3::UnitX()));
  sim.multibody().q()[0] = kQ;
  sim.multibody().u()[0] = kU;
  sim.lock();
  return arm;
}

// The CM in W: (0, c sin q, -c cos q).
Vector3 cmPosition() { return {0, kC * std::sin(kQ), -kC * std::cos(kQ)}; }

double kinetic(double m) { return 0.5 * (kI + m * kC * kC) * kU * kU; }

double read(const Simulation& sim, const std::string& path) {
  return sim.variables().at(path).element(0);
}

const std::vector<std::string> kEnergyVariables = {
    "multibody.energy.kinetic",   "multibody.energy.potential",
    "multibody.energy.total",     "multibody.mass",
    "multibody.centerOfMass",     "multibody.momentum.linear",
    "multibody.momentum.angular",
};

}  // namespace

TEST_CASE(
    "multibody computed variables: one energy evaluation serves every read of every "
    "element at the same state") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  buildPendulum(sim, 2.0, {0, 0, -9.81});
  const MultibodySystem& mb = sim.multibody();
  const std::uint64_t before = mb.energyEvaluations();
  for (int pass = 0; pass < 5; ++pass) {
    for (const std::string& path : kEnergyVariables) {
      const Variable& v = sim.variables().at(path);
      for (std::size_t i = 0; i < v.length(); ++i) (void)v.element(i);
      (void)v.get();
    }
    // The pose variables share the workspace; at the same Q and U they keep the energies.
    (void)sim.get("multibody.bodies.arm.position");
  }
  CHECK(mb.energyEvaluations() == before + 1);
  CHECK(read(sim, "multibody.energy.kinetic") == doctest::Approx(kinetic(2.0)).epsilon(1e-14));

  // A new state is evaluated once more, on the first read.
  sim.advanceTimeTo(0.01);
  (void)sim.get("multibody.bodies.arm.position");  // kinematics first: the energies follow
  const double q = sim.multibody().q()[0];
  CHECK(read(sim, "multibody.energy.potential") ==
        doctest::Approx(-2.0 * 9.81 * kC * std::cos(q)).epsilon(1e-14));
  (void)sim.get("multibody.momentum.angular");
  CHECK(mb.energyEvaluations() == before + 2);
}

TEST_CASE(
    "multibody computed variables: a mass change and a gravity change at the same Q and U "
    "give the closed-form energies") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  const auto arm = buildPendulum(sim, 2.0, {0, 0, -9.81});
  const Vector3 p = cmPosition();
  CHECK(read(sim, "multibody.energy.kinetic") == doctest::Approx(kinetic(2.0)).epsilon(1e-14));
  CHECK(read(sim, "multibody.energy.potential") ==
        doctest::Approx(2.0 * 9.81 * p.z()).epsilon(1e-14));
  CHECK(read(sim, "multibody.mass") == 2.0);

  // Mass 2 -> 3 kg, Q and U untouched: kinetic ½(I + m c²)u², potential m g z_cm, and the
  // linear momentum m ω × p_cm = m u (x̂ × p_cm).
  sim.multibody().setMassProperties(arm, pendulumMass(3.0));
  CHECK(read(sim, "multibody.mass") == 3.0);
  CHECK(read(sim, "multibody.energy.kinetic") == doctest::Approx(kinetic(3.0)).epsilon(1e-14));
  CHECK(read(sim, "multibody.energy.potential") ==
        doctest::Approx(3.0 * 9.81 * p.z()).epsilon(1e-14));
  const Vector3 L = 3.0 * kU * Vector3::UnitX().cross(p);
  const Variable& linear = sim.variables().at("multibody.momentum.linear");
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(linear.element(i) == doctest::Approx(L[static_cast<Eigen::Index>(i)]).epsilon(1e-14));
  }

  // Gravity along -y instead of -z: the potential is -m g·p_cm = m g y_cm; the kinetic energy
  // stays.
  sim.multibody().setGravity({0, -4.0, 0});
  CHECK(read(sim, "multibody.energy.potential") ==
        doctest::Approx(3.0 * 4.0 * p.y()).epsilon(1e-14));
  CHECK(read(sim, "multibody.energy.total") ==
        doctest::Approx(kinetic(3.0) + 3.0 * 4.0 * p.y()).epsilon(1e-14));
  CHECK(sim.multibody().q()[0] == kQ);
  CHECK(sim.multibody().u()[0] == kU);
}

}  // namespace hopsim::test

namespace hopsim::test {

TEST_CASE("hinge coordinates carry their units element by element into the recorder") {
  Simulation sim;
  auto& tree = sim.multibody().editModel();
  const auto base = tree.addBody("base", kWorldBody, pendulumMass(1.0), Hinge::full6Dof());
  tree.addBody("arm", base, pendulumMass(1.0), Hinge::pin(Vector3::UnitX()));
  sim.lock();
  const Variable& baseQ = sim.variables().at("multibody.bodies.base.Q");
  CHECK(baseQ.unit() == "");  // a quaternion and meters
  CHECK(baseQ.elementUnit(0) == "1");
  CHECK(baseQ.elementUnit(6) == "m");
  CHECK(baseQ.elementUnit(7) == "");  // past the end
  CHECK(sim.variables().at("multibody.bodies.arm.Q").unit() == "rad");
  CHECK(sim.variables().at("multibody.bodies.arm.U").unit() == "rad/s");
  // The system's Q and U: the bodies' in order.
  CHECK(sim.variables().at("multibody.Q").elementUnit(7) == "rad");
  CHECK(sim.variables().at("multibody.U").elementUnit(5) == "m/s");
  // Any other variable: its one unit for every element.
  CHECK(sim.variables().at("multibody.momentum.linear").elementUnit(2) == "kg*m/s");
  CHECK(sim.variables().at("multibody.bodies.arm.orientation").unit() == "1");

  const Recorder r(sim, {"multibody.bodies.base.U", "multibody.bodies.arm.Q"});
  CHECK(r.units() ==
        std::vector<std::string>{"s", "rad/s", "rad/s", "rad/s", "m/s", "m/s", "m/s", "rad"});
}

}  // namespace hopsim::test
