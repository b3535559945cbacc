// TiltVector against rotations built in the test with Eigen::AngleAxisd (not hopsim's rotation
// code): a free body at rest in a pose R_WB, the sensor on a node rotated by R_BN from the body
// frame, so R_WN = R_WB R_BN. One hop with no load keeps the pose (the body has no velocity and
// nothing acts on it), and the output is a product of exact rotations: tolerances are a few ulps
// of O(1) values.

#include <doctest/doctest.h>

#include <numbers>
#include <string_view>
#include <utility>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/tilt_vector.h"
#include "posed_body.h"

namespace hopsim {
namespace {

using spatial::Matrix3;
using spatial::Vector3;
using test::addPosedBody;
using test::list;
using test::turn;

Vector3 signalVector(const Simulation& sim, std::string_view path) {
  const auto v = std::get<std::vector<double>>(sim.get(path));
  REQUIRE(v.size() == 3);
  return {v[0], v[1], v[2]};
}

}  // namespace

TEST_CASE("TiltVector: tvec_global = R_WB R_BN tvec for several poses") {
  const Vector3 tvec(0.2, -0.4, -1.3);  // not a unit vector: rotated as given
  for (const auto& [angle, axis] :
       {std::pair{0.0, Vector3(0, 0, 1)}, std::pair{0.7, Vector3(1, 0, 0)},
        std::pair{-2.9, Vector3(1, 2, -3)}, std::pair{std::numbers::pi, Vector3(0, 1, 1)}}) {
    CAPTURE(angle);
    const Matrix3 R_WB = turn(angle, axis), R_BN = turn(0.4, Vector3(-1, 1, 0.5));
    Simulation sim({.ioStepSize = 0.01});
    addPosedBody(sim, R_WB, R_BN);
    sim.addSignal("down", ElementType::Double, 3);
    auto& sensor = sim.addModel<models::TiltVector>("tilt");
    sensor.attachToNode("probe");
    sensor.setParam("tvec", list(tvec));
    sim.tie("tilt", "tvec_global", "down");
    sim.lock();
    sim.advanceOverHop();
    const Vector3 expected = R_WB * (R_BN * tvec);
    // Two 3x3 products of O(1) entries and one quaternion round trip: ~1e-15.
    CHECK((signalVector(sim, "signals.down") - expected).norm() < 1e-14);
  }
}

TEST_CASE("TiltVector: on a spinning body the vector turns with the body") {
  // Spherical inertia, no load: the body spins at a constant w (world axes = body axes at t=0
  // when R_WB(0) = 1), R_WB(t) = exp(w t). rk4 at 1 ms: global error ~ h^4 |w|^5 T ~ 1e-12.
  const Vector3 w(0.3, -0.8, 1.1);
  Simulation sim({.ioStepSize = 0.001, .integrator = "rk4"});
  const auto body = addPosedBody(sim, Matrix3::Identity(), Matrix3::Identity());
  sim.multibody().u(body).head<3>() = w;
  sim.addSignal("down", ElementType::Double, 3);
  sim.addModel<models::TiltVector>("tilt").attachToNode("probe");
  sim.tie("tilt", "tvec_global", "down");
  sim.lock();
  sim.advanceTimeTo(1.5);
  const Vector3 expected = turn(w.norm() * 1.5, w) * Vector3(0, 0, -1);  // default tvec
  CHECK((signalVector(sim, "signals.down") - expected).norm() < 1e-10);
}

}  // namespace hopsim
