// SteeringStatus: done (1) exactly when every |angle - desired| < epsilon, checked at, just
// below and just above the tolerance, for any element, and with an undefined (NaN) angle.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <variant>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/steering_status.h"

namespace hopsim {
namespace {

std::int64_t status(const std::vector<double>& angle, const std::vector<double>& desired) {
  Simulation sim({.ioStepSize = 0.1});
  sim.addSignal("angle", ElementType::Double, angle.size(), "rad");
  sim.addSignal("desired", ElementType::Double, desired.size(), "rad");
  sim.addSignal("status", ElementType::Int);
  sim.addModel<models::SteeringStatus>("steering").setParam("epsilon", 0.01);
  sim.tie("steering", "steer_angle", "angle");
  sim.tie("steering", "steer_angle_d", "desired");
  sim.tie("steering", "steer_status", "status");
  sim.set("signals.angle", angle);
  sim.set("signals.desired", desired);
  sim.lock();
  sim.advanceOverHop();
  return std::get<std::int64_t>(sim.get("signals.status"));
}

}  // namespace

TEST_CASE("SteeringStatus: done iff every angle is within epsilon of its command") {
  const std::vector<double> desired{0.3, -0.2, 0.0, 1.1};
  CHECK(status(desired, desired) == 1);
  CHECK(status({0.305, -0.195, 0.009, 1.1}, desired) == 1);
  // One element at or beyond epsilon keeps the status at 0, whichever element it is.
  for (std::size_t i = 0; i < desired.size(); ++i) {
    CAPTURE(i);
    std::vector<double> angle = desired;
    angle[i] += (i % 2 == 0 ? 1.0 : -1.0) * 0.0101;
    CHECK(status(angle, desired) == 0);
    angle[i] = desired[i] + 0.0099;
    CHECK(status(angle, desired) == 1);
  }
  CHECK(status({0.3}, {0.31}) == 0);  // |error| = epsilon (to rounding): not below it
}

TEST_CASE("SteeringStatus: an undefined angle is never done") {
  CHECK(status({std::numeric_limits<double>::quiet_NaN(), 0.0}, {0.0, 0.0}) == 0);
}

TEST_CASE("SteeringStatus: inputs of different lengths are refused at lock") {
  CHECK_THROWS_WITH(status({0.1, 0.2, 0.3}, {0.1, 0.2}),
                    doctest::Contains("length 'dimension' is 3 from flowIns 'steer_angle' tied "
                                      "to 'angle' but 2 from flowIns 'steer_angle_d'"));
}

}  // namespace hopsim
