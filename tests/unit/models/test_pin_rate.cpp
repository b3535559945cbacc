// PinRate against the hinge rate it samples: U[0] at each of its own I/O step starts, held,
// quantized as floor(U / lsb) counts; a hinge without degrees of freedom is refused.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;
using test::pointMass;

/// A gravity pendulum "arm" on a PIN about x from 1 rad, with PinRate "rate" on it.
void addPendulum(Simulation& sim, double lsb) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -9.81});
  tree.addBody("arm", kWorldBody, pointMass(1.5, {0, 0, -0.8}), Hinge::pin(Vector3::UnitX()));
  sim.multibody().q()[0] = 1.0;
  sim.addSignal("rate", ElementType::Double, 1, "rad/s");
  sim.addSignal("counts", ElementType::Int, 1);
  sim.addModel(models::standardRegistry().create("PinRate", "rate", {{"rate_lsb", lsb}}));
  dynamic_cast<HingeModel&>(sim.model("rate")).attachToHinge("arm");
  sim.tie("rate", "rate", "rate");
  sim.tie("rate", "counts", "counts");
}

}  // namespace

TEST_CASE("PinRate: samples U[0] at its own rate and holds it, quantized to floor(U / lsb)") {
  const double lsb = 0.01;  // rad/s per count
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  addPendulum(sim, lsb);
  sim.setModelRate("rate", 20.0);  // a sample every 5 hops
  sim.lock();
  double expectedRate = 0.0;
  std::int64_t expectedCounts = 0;
  bool moved = false;
  for (int k = 0; k < 150; ++k) {
    if (k % 5 == 0) {  // a sample is taken at this hop's start, from the current U
      const double U = sim.multibody().u()[0];
      expectedCounts = static_cast<std::int64_t>(std::floor(U / lsb));
      expectedRate = static_cast<double>(expectedCounts) * lsb;
      moved = moved || expectedCounts != 0;
    }
    sim.advanceOverHop();
    CAPTURE(sim.time());
    REQUIRE(std::get<std::int64_t>(sim.get("signals.counts")) == expectedCounts);
    REQUIRE(std::get<double>(sim.get("signals.rate")) == expectedRate);
  }
  CHECK(moved);
}

TEST_CASE("PinRate: with rate_lsb = 0 it reports U[0] exactly at every hop start") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  addPendulum(sim, 0.0);
  sim.lock();
  for (int k = 0; k < 50; ++k) {
    const double U = sim.multibody().u()[0];
    sim.advanceOverHop();
    REQUIRE(std::get<double>(sim.get("signals.rate")) == U);
  }
  CHECK(std::get<double>(sim.get("signals.rate")) != 0.0);
}

TEST_CASE("PinRate: a LOCKED hinge is refused at lock()") {
  Simulation sim;
  sim.multibody().editModel().addBody("box", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                      Hinge::locked());
  sim.addSignal("rate", ElementType::Double, 1, "rad/s");
  sim.addSignal("counts", ElementType::Int, 1);
  sim.addModel(models::standardRegistry().create("PinRate", "rate"));
  dynamic_cast<HingeModel&>(sim.model("rate")).attachToHinge("box");
  sim.tie("rate", "rate", "rate");
  sim.tie("rate", "counts", "counts");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("has no degree of freedom"), ModelError);
}

}  // namespace hopsim
