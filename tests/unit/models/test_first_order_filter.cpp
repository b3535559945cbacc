// FirstOrderFilter against the analytic step response y = u + (y0 - u) exp(-t / tau).

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace hopsim {

TEST_CASE("FirstOrderFilter: step response 1 - exp(-t / tau), element by element") {
  // u = [1, -2] from y0 = [0, 0.5]; rk4 at h / tau = 5e-3: the per-step error
  // (h / tau)^5 / 120 ~ 3e-14 of the step, so 1e-11 over the run.
  const double tau = 0.2;
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  sim.addSignal("u", ElementType::Double, 2);
  sim.addSignal("y", ElementType::Double, 2);
  sim.addModel(models::standardRegistry().create("FirstOrderFilter", "lag", {{"tau", tau}}));
  sim.tie("lag", "u", "u");
  sim.tie("lag", "y", "y");
  sim.set("signals.u", std::vector<double>{1.0, -2.0});
  sim.set("models.lag.continuousStates.y", std::vector<double>{0.0, 0.5});
  sim.lock();
  for (int k = 1; k <= 1000; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    const double decay = std::exp(-t / tau);
    const auto y = std::get<std::vector<double>>(sim.get("signals.y"));
    CAPTURE(t);
    REQUIRE(std::fabs(y[0] - (1.0 - decay)) < 1e-11);
    REQUIRE(std::fabs(y[1] - (-2.0 + 2.5 * decay)) < 1e-11);
  }
  // One time constant: 63.2 % of the step.
  Simulation check({.ioStepSize = 1e-3});
  check.addSignal("u", ElementType::Double);
  check.addSignal("y", ElementType::Double);
  check.addModel(models::standardRegistry().create("FirstOrderFilter", "lag", {{"tau", tau}}));
  check.tie("lag", "u", "u");
  check.tie("lag", "y", "y");
  check.set("signals.u", 1.0);
  check.lock();
  check.advanceTimeTo(tau);
  CHECK(std::get<double>(check.get("signals.y")) ==
        doctest::Approx(1.0 - std::exp(-1.0)).epsilon(1e-10));
}

TEST_CASE("FirstOrderFilter: tau must be positive") {
  CHECK_THROWS_WITH_AS(models::standardRegistry().create("FirstOrderFilter", "lag", {{"tau", 0.0}}),
                       doctest::Contains("tau"), InputError);
}

}  // namespace hopsim
