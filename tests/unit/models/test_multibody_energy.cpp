// MultibodyEnergy against the multibody engine's own energy and momentum algorithm
// (core/multibody/energy.h, an independent formulation: composite sums from forward kinematics)
// on a spinning, translating tree, and against a free body's analytic values.

#include <doctest/doctest.h>

#include <vector>

#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/multibody_energy.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

/// A MultibodyEnergy "energy" with its outputs on signals of the same names.
void addEnergy(Simulation& sim) {
  sim.addModel<models::MultibodyEnergy>("energy");
  sim.addSignal("kinetic_energy", ElementType::Double);
  sim.addSignal("potential_energy", ElementType::Double);
  sim.addSignal("linear_momentum", ElementType::Double, 3);
  sim.addSignal("angular_momentum", ElementType::Double, 3);
  for (const char* s :
       {"kinetic_energy", "potential_energy", "linear_momentum", "angular_momentum"})
    sim.tie("energy", s, s);
}

std::vector<double> vector(Simulation& sim, const char* signal) {
  return std::get<std::vector<double>>(sim.get(std::string("signals.") + signal));
}

TEST_CASE("MultibodyEnergy agrees with the engine's energy and momentum on a moving tree") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0.3, -0.2, -9.81});
  const auto base =
      tree.addBody("base", kWorldBody,
                   SpatialInertia::fromCmInertia(3.0, {0.1, -0.2, 0.05},
                                                 Matrix3(Vector3(0.4, 0.5, 0.6).asDiagonal())),
                   Hinge::full6Dof());
  const auto arm = tree.addBody(
      "arm", base, SpatialInertia::fromCmInertia(1.5, {0, 0, -0.4}, 0.02 * Matrix3::Identity()),
      Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()),
      RigidTransform::fromTranslation({0.2, 0, 0}));
  tree.addBody("tip", arm,
               SpatialInertia::fromCmInertia(0.7, {0.1, 0, 0}, 0.01 * Matrix3::Identity()),
               Hinge::slider(Vector3::UnitZ()), RigidTransform::fromTranslation({0, 0, -0.8}));
  addEnergy(sim);
  sim.lock();
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()));
  sim.multibody().q() << q.w(), q.x(), q.y(), q.z(), 0.5, -1.0, 2.0, 0.3, -0.4, 0.1;
  sim.multibody().u() << 0.5, -1.2, 2.0, 1.0, 0.4, -0.3, 1.5, -0.7, 0.9;
  sim.advanceTimeTo(0.05);  // the outputs at a hop end, after some motion
  multibody::MultibodyData data(sim.multibody().model());
  multibody::computeEnergyAndMomentum(sim.multibody().model(), data, sim.multibody().q(),
                                      sim.multibody().u());
  CHECK(std::get<double>(sim.get("signals.kinetic_energy")) ==
        doctest::Approx(data.kineticEnergy).epsilon(1e-12));
  CHECK(std::get<double>(sim.get("signals.potential_energy")) ==
        doctest::Approx(data.potentialEnergy).epsilon(1e-12));
  const auto L = vector(sim, "linear_momentum"), H = vector(sim, "angular_momentum");
  for (int i = 0; i < 3; ++i) {
    CHECK(L[i] == doctest::Approx(data.L_W[i]).epsilon(1e-12));
    CHECK(H[i] == doctest::Approx(data.H_WWo_W[i]).epsilon(1e-12));
  }
}

TEST_CASE("MultibodyEnergy of a free body: ½ m v² + ½ ωᵀ I ω, m g h, m v and r × m v + I ω") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -9.81});
  tree.addBody("ball", kWorldBody,
               SpatialInertia::fromCmInertia(2.0, Vector3::Zero(), 0.1 * Matrix3::Identity()),
               Hinge::full6DofInertial());
  addEnergy(sim);
  sim.lock();
  sim.multibody().q() << 1, 0, 0, 0, 1.0, 0.0, 3.0;
  sim.multibody().u() << 0, 0, 2.0, 0, 1.5, 0;  // spin about z, moving along y
  sim.advanceTimeTo(0.01);
  // Free flight for 0.01 s: z = 3 - g t²/2, v = (0, 1.5, -g t), ω = (0, 0, 2).
  const double t = 0.01, z = 3.0 - 0.5 * 9.81 * t * t, vz = -9.81 * t, y = 1.5 * t;
  CHECK(std::get<double>(sim.get("signals.kinetic_energy")) ==
        doctest::Approx(0.5 * 2.0 * (1.5 * 1.5 + vz * vz) + 0.5 * 0.1 * 4.0).epsilon(1e-12));
  CHECK(std::get<double>(sim.get("signals.potential_energy")) ==
        doctest::Approx(2.0 * 9.81 * z).epsilon(1e-12));
  const auto L = vector(sim, "linear_momentum"), H = vector(sim, "angular_momentum");
  CHECK(L[1] == doctest::Approx(3.0).epsilon(1e-12));
  CHECK(L[2] == doctest::Approx(2.0 * vz).epsilon(1e-12));
  const Vector3 r(1.0, y, z), p(0.0, 3.0, 2.0 * vz);
  const Vector3 expected = r.cross(p) + Vector3(0, 0, 0.1 * 2.0);
  for (int i = 0; i < 3; ++i) CHECK(H[i] == doctest::Approx(expected[i]).epsilon(1e-12));
}

}  // namespace
}  // namespace hopsim
