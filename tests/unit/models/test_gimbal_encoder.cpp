// GimbalEncoder against the hinge coordinates it samples: Q[0..2] (zero-padded), quantized as
// floor(Q / lsb) counts at its own rate; quaternion and >3-DOF hinges refused.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::pointMass;

/// A body "head" on `hinge`, with GimbalEncoder "enc" tied to signals angle and counts.
void build(Simulation& sim, const Hinge& hinge, double lsb) {
  sim.multibody().editModel().addBody(
      "head", kWorldBody,
      SpatialInertia::fromCmInertia(2.0, {0.1, 0, 0}, Vector3(0.1, 0.2, 0.3).asDiagonal()), hinge);
  sim.addSignal("angle", ElementType::Double, 3, "rad");
  sim.addSignal("counts", ElementType::Int, 3);
  sim.addModel(models::standardRegistry().create("GimbalEncoder", "enc", {{"angle_lsb", lsb}}));
  dynamic_cast<HingeModel&>(sim.model("enc")).attachToHinge("head");
  sim.tie("enc", "angle", "angle");
  sim.tie("enc", "counts", "counts");
}

}  // namespace

TEST_CASE("GimbalEncoder: a tumbling GIMBAL's three angles, quantized, sampled at 25 Hz") {
  const double lsb = 1e-3;
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  build(sim, Hinge::gimbal(), lsb);
  sim.multibody().q() << 0.1, -0.2, 0.3;
  sim.multibody().u() << 0.5, -0.7, 0.9;
  sim.setModelRate("enc", 25.0);  // a sample every 4 hops
  sim.lock();
  std::vector<double> expected(3);
  std::vector<std::int64_t> expectedCounts(3);
  for (int k = 0; k < 100; ++k) {
    if (k % 4 == 0) {
      for (int i = 0; i < 3; ++i) {
        expectedCounts[i] = static_cast<std::int64_t>(std::floor(sim.multibody().q()[i] / lsb));
        expected[i] = static_cast<double>(expectedCounts[i]) * lsb;
      }
    }
    sim.advanceOverHop();
    CAPTURE(sim.time());
    REQUIRE(std::get<std::vector<double>>(sim.get("signals.angle")) == expected);
    REQUIRE(std::get<std::vector<std::int64_t>>(sim.get("signals.counts")) == expectedCounts);
  }
  CHECK(expectedCounts[1] < -200);  // negative angles count down (floor), and it moved
}

TEST_CASE("GimbalEncoder: a UJOINT's two angles are padded with a zero") {
  Simulation sim({.ioStepSize = 0.01});
  build(sim, Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()), 0.0);
  sim.multibody().q() << 0.25, -0.5;
  sim.lock();
  sim.advanceOverHop();
  // At rest without gravity: Q stays as set.
  CHECK(std::get<std::vector<double>>(sim.get("signals.angle")) ==
        std::vector<double>{0.25, -0.5, 0.0});
}

TEST_CASE("GimbalEncoder: a BALL (quaternion) is refused at lock()") {
  Simulation sim;
  build(sim, Hinge::ball(), 0.0);
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("use BallEncoder for a quaternion"),
                       ModelError);
}

}  // namespace hopsim
