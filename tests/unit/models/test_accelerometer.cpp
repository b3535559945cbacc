// Accelerometer: the specific-force convention f_N = R_WN^T (a_W - g_W) checked on bodies whose
// acceleration is known exactly (at rest, in free fall), with gravity given to the multibody
// system or applied as a force by UniformGravity, and the error model's deterministic terms.
// The accelerations are constant, so rk4 integrates the velocities exactly: the tolerances are
// rounding-level (1e-12). The shared noise model is checked statistically in test_rate_gyro.cpp
// and test_imu_acceptance.cpp.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/accelerometer.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/models/uniform_gravity.h"
#include "hopsim/signals/error.h"
#include "sensor_samples.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::vectorOf;

constexpr double kPeriod = 0.01;
const Vector3 kG(0.0, 0.0, -9.81);

enum class Gravity { Multibody, ForceModel, ForceModelUnannounced };

/// An accelerometer on node "probe" (rotated R_BN, offset) of a body that is either held at rest
/// by a PIN about the vertical through its CM (no gravity torque) or free (FULL6DOF), with
/// gravity given one of three ways: to the multibody system; as a UniformGravity force with
/// the accelerometer's `gravity` param set; as that force with the param left at zero.
void buildRig(Simulation& sim, bool free, Gravity gravity, const Matrix3& R_BN) {
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody(
      "body", kWorldBody,
      SpatialInertia::fromCmInertia(2.0, Vector3(0, 0, 0.1), 0.1 * Matrix3::Identity()),
      free ? Hinge::full6Dof() : Hinge::pin(Vector3::UnitZ()));
  tree.addNode("probe", b, RigidTransform(R_BN, Vector3(0.3, -0.2, 0.1)));
  for (const char* name : {"specific_force", "velocity", "delta_velocity"}) {
    sim.addSignal(name, ElementType::Double, 3);
  }
  for (const char* name : {"velocity_counts", "delta_velocity_counts"}) {
    sim.addSignal(name, ElementType::Int, 3);
  }
  sim.addModel<models::Accelerometer>("accel").attachToNode("probe");
  for (const char* name : {"specific_force", "velocity", "delta_velocity", "velocity_counts",
                           "delta_velocity_counts"}) {
    sim.tie("accel", name, name);
  }
  sim.setModelRate("accel", 1.0 / kPeriod);
  if (gravity == Gravity::Multibody) {
    sim.multibody().setGravity(kG);
    return;
  }
  sim.addModel<models::UniformGravity>("gravity").attachToNode("probe");
  sim.set("models.gravity.params.g", std::vector<double>{kG[0], kG[1], kG[2]});
  if (gravity == Gravity::ForceModel) {
    sim.set("models.accel.params.gravity", std::vector<double>{kG[0], kG[1], kG[2]});
  }
}

}  // namespace

TEST_CASE("Accelerometer: at rest it reads -g (up) in node axes, in free fall zero") {
  const Matrix3 R_BN = spatial::rotationFromAxisAngle(Vector3(1, -2, 0.5).normalized(), 0.9);
  struct Case {
    bool free;
    Gravity gravity;
    Vector3 expectedWorld;  // R_WN f_N: the body does not turn, so R_WN = R_BN
  };
  const Case cases[] = {
      {false, Gravity::Multibody, -kG},
      {false, Gravity::ForceModel, -kG},
      {true, Gravity::Multibody, Vector3::Zero()},
      {true, Gravity::ForceModel, Vector3::Zero()},
      // The force model's gravity is not announced: it is sensed like a thrust of m g.
      {true, Gravity::ForceModelUnannounced, kG},
  };
  for (const Case& c : cases) {
    CAPTURE(c.free);
    CAPTURE(static_cast<int>(c.gravity));
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildRig(sim, c.free, c.gravity, R_BN);
    sim.lock();
    for (int k = 0; k < 20; ++k) sim.advanceOverHop();
    const double t = sim.time() - kPeriod;  // time of the published sample
    const Vector3 f = R_BN.transpose() * c.expectedWorld;
    CHECK((vectorOf(sim, "signals.specific_force") - f).norm() < 1e-12);
    CHECK((vectorOf(sim, "signals.velocity") - f * t).norm() < 1e-12);
    CHECK((vectorOf(sim, "signals.delta_velocity") - f * kPeriod).norm() < 1e-12);
  }
}

TEST_CASE("Accelerometer: scale factor, misalignment and bias act on the specific force") {
  const Matrix3 R_BN = spatial::rotationFromAxisAngle(Vector3(0, 1, 1).normalized(), -0.4);
  Matrix3 C;
  C << 0.998, 0.01, 0.0, -0.02, 1.0, 0.003, 0.0, 0.001, 1.002;
  const Vector3 scale(-0.01, 0.002, 0.03), bias(0.05, -0.02, 0.01);
  for (const std::string type : {"CONTINUOUS", "DISCRETE"}) {
    CAPTURE(type);
    Simulation sim({.ioStepSize = kPeriod, .integrator = "rk4"});
    buildRig(sim, false, Gravity::Multibody, R_BN);
    sim.set("models.accel.params.misalignment",
            std::vector<double>{C(0, 0), C(0, 1), C(0, 2), C(1, 0), C(1, 1), C(1, 2), C(2, 0),
                                C(2, 1), C(2, 2)});
    sim.set("models.accel.params.scale_factor", std::vector<double>{scale[0], scale[1], scale[2]});
    sim.set("models.accel.params.bias", std::vector<double>{bias[0], bias[1], bias[2]});
    sim.set("models.accel.params.state_type", type);
    sim.lock();
    for (int k = 0; k < 10; ++k) sim.advanceOverHop();
    const Vector3 expected =
        (Vector3::Ones() + scale).cwiseProduct(C * R_BN.transpose() * -kG) + bias;
    CHECK((vectorOf(sim, "signals.specific_force") - expected).norm() < 1e-12);
    const auto counts = std::get<std::vector<std::int64_t>>(sim.get("signals.velocity_counts"));
    const Vector3 v = vectorOf(sim, "signals.velocity");
    for (int i = 0; i < 3; ++i) {
      CHECK(counts[static_cast<std::size_t>(i)] ==
            static_cast<std::int64_t>(std::floor(v[i] / 1e-5)));  // default lsb 1e-5 m/s
    }
  }
}

TEST_CASE("Accelerometer: bad params and attachments are refused") {
  Simulation sim({.ioStepSize = kPeriod});
  buildRig(sim, false, Gravity::Multibody, Matrix3::Identity());
  CHECK_THROWS_WITH_AS(sim.set("models.accel.params.gravity", std::vector<double>{0.0, 1.0}),
                       doctest::Contains("gravity"), InputError);
  CHECK_THROWS_WITH_AS(
      sim.set("models.accel.params.scale_factor", std::vector<double>{-1.0, 0.0, 0.0}),
      doctest::Contains("scale_factor"), InputError);
  dynamic_cast<models::Accelerometer&>(sim.model("accel")).attachToNode("missing_node");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("missing_node"), ModelError);
}

TEST_CASE("Accelerometer: the registry creates it by class name") {
  const auto accel = models::standardRegistry().create("Accelerometer", "a");
  CHECK(accel->spec().className() == "Accelerometer");
  CHECK((accel->kind() == ModelKind::Sensor));
}

}  // namespace hopsim
