// PdController against its law u = clamp(-kp (q - setpoint) - kd (qdot - rate_setpoint),
// -limit, limit): open loop on set inputs, and closing a loop around a double integrator,
// where the exact sampled-data recursion is the reference.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

std::vector<double> vector(const Simulation& sim, std::string_view path) {
  return std::get<std::vector<double>>(sim.get(path));
}

double scalar(const Simulation& sim, std::string_view path) {
  return std::get<double>(sim.get(path));
}

}  // namespace

TEST_CASE("PdController computes the saturated PD law element by element") {
  Simulation sim;
  sim.addSignal("q", ElementType::Double, 2);
  sim.addSignal("qdot", ElementType::Double, 2);
  sim.addSignal("u", ElementType::Double, 2);
  sim.addModel(models::standardRegistry().create(
      "PdController", "pd",
      {{"kp", 4.0}, {"kd", 0.5}, {"setpoint", 0.25}, {"rate_setpoint", -1.0}}));
  sim.tie("pd", "q", "q");
  sim.tie("pd", "qdot", "qdot");
  sim.tie("pd", "u", "u");
  sim.set("signals.q", std::vector<double>{1.0, -2.0});
  sim.set("signals.qdot", std::vector<double>{0.5, 3.0});
  sim.lock();
  CHECK(sim.modelOrder().flowModels == std::vector<std::string>{"pd"});
  // Unsaturated: -4 (1 - 0.25) - 0.5 (0.5 + 1) = -3.75 and -4 (-2 - 0.25) - 0.5 (3 + 1) = 7,
  // exact in binary.
  sim.advanceOverHop();
  CHECK(vector(sim, "signals.u") == std::vector<double>{-3.75, 7.0});
  // Saturated on the element that exceeds the limit only.
  sim.set("models.pd.params.limit", 5.0);
  sim.advanceOverHop();
  CHECK(vector(sim, "signals.u") == std::vector<double>{-3.75, 5.0});
  sim.set("models.pd.params.limit", 1.0);
  sim.advanceOverHop();
  CHECK(vector(sim, "signals.u") == std::vector<double>{-1.0, 1.0});
}

TEST_CASE("PdController rejects negative gains and a limit that is not positive") {
  Simulation sim;
  sim.addModel(models::standardRegistry().create("PdController", "pd"));
  CHECK(std::isinf(std::get<double>(sim.get("models.pd.params.limit"))));
  CHECK_THROWS_WITH_AS(sim.set("models.pd.params.kp", -1.0),
                       doctest::Contains("models.pd.params.kp: value -1"), InputError);
  CHECK_THROWS_WITH_AS(sim.set("models.pd.params.kd", -0.5),
                       doctest::Contains("models.pd.params.kd: value -0.5"), InputError);
  CHECK_THROWS_WITH_AS(sim.set("models.pd.params.limit", 0.0),
                       doctest::Contains("models.pd.params.limit: value 0"), InputError);
}

TEST_CASE("PdController closes a loop around a double integrator") {
  // Plant: qdot' = u, q' = qdot, two ContinuousIntegrators. The controller's output is held
  // over each hop, so within a hop qdot is linear and q quadratic in time, which rk4 integrates
  // exactly: the reference is the exact zero-order-hold recursion
  //   q+ = q + h qdot + h^2/2 u,  qdot+ = qdot + h u,  u = clamp(-kp (q - s) - kd qdot, +-limit)
  // evaluated here (to rounding). kp = 4, kd = 4 is critically damped (w = 2 rad/s); the limit
  // saturates the first part of the move from q = 0 to the setpoint 1.
  const double h = 0.01;
  const double kp = 4.0;
  const double kd = 4.0;
  const double setpoint = 1.0;
  const double limit = 2.0;
  Simulation sim({.ioStepSize = h, .integrator = "rk4"});
  for (const char* signal : {"q", "qdot", "u"}) sim.addSignal(signal, ElementType::Double, 1);
  const ModelRegistry& registry = models::standardRegistry();
  sim.addModel(registry.create("PdController", "pd",
                               {{"kp", kp}, {"kd", kd}, {"setpoint", setpoint}, {"limit", limit}}));
  sim.addModel(registry.create("ContinuousIntegrator", "rate"));
  sim.addModel(registry.create("ContinuousIntegrator", "position"));
  sim.tie("pd", "q", "q");
  sim.tie("pd", "qdot", "qdot");
  sim.tie("pd", "u", "u");
  sim.tie("rate", "u", "u");
  sim.tie("rate", "y", "qdot");
  sim.tie("position", "u", "qdot");
  sim.tie("position", "y", "q");
  sim.lock();
  double q = 0.0;
  double qdot = 0.0;
  bool saturated = false;
  for (int k = 1; k <= 500; ++k) {
    const double u = std::clamp(-kp * (q - setpoint) - kd * qdot, -limit, limit);
    saturated = saturated || std::fabs(u) == limit;
    q += h * qdot + 0.5 * h * h * u;
    qdot += h * u;
    sim.advanceOverHop();
    CAPTURE(sim.time());
    REQUIRE(std::fabs(scalar(sim, "signals.q") - q) < 1e-12);
    REQUIRE(std::fabs(scalar(sim, "signals.qdot") - qdot) < 1e-12);
  }
  CHECK(saturated);
  CHECK(std::fabs(q - setpoint) < 1e-2);  // settled after 5 s
}

}  // namespace hopsim
