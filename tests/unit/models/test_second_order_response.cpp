// SecondOrderResponse against the analytic step response of x'' + 2 zeta w_n x' + w_n^2 x =
// w_n^2 u (overshoot exp(-zeta pi / sqrt(1 - zeta^2)) at the peak time pi / w_d), and each
// saturation against the motion it implies by hand.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

constexpr double kZeta = 0.3;
constexpr double kFc = 2.0;  // Hz
const double kWn = 2.0 * std::numbers::pi * kFc;
const double kWd = kWn * std::sqrt(1.0 - kZeta * kZeta);

double scalar(const Simulation& sim, std::string_view path) {
  return std::get<double>(sim.get(path));
}

/// A filter "f" stepped by u (signal u, constant) with the given extra params; outputs on
/// signals x, xd, xdd. rk4 at 1 ms.
void build(Simulation& sim, double u, std::vector<std::pair<std::string, Value>> params = {}) {
  params.emplace_back("Fc", kFc);
  params.emplace_back("damping", kZeta);
  sim.addSignal("u", ElementType::Double);
  sim.addSignal("x", ElementType::Double);
  sim.addSignal("xd", ElementType::Double);
  sim.addSignal("xdd", ElementType::Double);
  sim.addModel(models::standardRegistry().create("SecondOrderResponse", "f", params));
  sim.tie("f", "u", "u");
  sim.tie("f", "state", "x");
  sim.tie("f", "stateDeriv", "xd");
  sim.tie("f", "state2ndDeriv", "xdd");
  sim.set("signals.u", u);
}

/// The unsaturated unit-step response from rest.
double stepResponse(double t) {
  const double s = kZeta / std::sqrt(1.0 - kZeta * kZeta);
  return 1.0 - std::exp(-kZeta * kWn * t) * (std::cos(kWd * t) + s * std::sin(kWd * t));
}

}  // namespace

TEST_CASE(
    "SecondOrderResponse: step overshoot exp(-zeta pi / sqrt(1 - zeta^2)) at t_p = pi / w_d") {
  const double overshoot = std::exp(-kZeta * std::numbers::pi / std::sqrt(1.0 - kZeta * kZeta));
  const double tPeak = std::numbers::pi / kWd;
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  build(sim, 1.0);
  sim.lock();
  // rk4 at w_n h = 0.0126: global error ~ (w_n h)^4 ~ 3e-8 of the unit step over a period.
  for (int k = 1; k <= 200; ++k) {
    sim.advanceOverHop();
    CAPTURE(sim.time());
    REQUIRE(std::fabs(scalar(sim, "signals.x") - stepResponse(sim.time())) < 1e-7);
  }
  sim.advanceTimeTo(tPeak);
  CHECK(sim.time() == doctest::Approx(tPeak).epsilon(1e-8));  // time is kept in 1 ns ticks
  CHECK(std::fabs(scalar(sim, "signals.x") - (1.0 + overshoot)) < 1e-7);
  CHECK(std::fabs(scalar(sim, "signals.xd")) < 1e-6);  // the peak: the rate changes sign here
  // x'' = w_n^2 (1 - x) at x' = 0: feed-through output, from the same state.
  CHECK(scalar(sim, "signals.xdd") == doctest::Approx(kWn * kWn * (1.0 - scalar(sim, "signals.x")) -
                                                      2.0 * kZeta * kWn * scalar(sim, "signals.xd"))
                                          .epsilon(1e-12));
  // The settled value is u: the decay exp(-zeta w_n t) is 6e-9 at t = 5 s.
  sim.advanceTimeTo(5.0);
  CHECK(std::fabs(scalar(sim, "signals.x") - 1.0) < 1e-7);
}

TEST_CASE("SecondOrderResponse: InputMax clamps the command, the response scales with it") {
  const double overshoot = std::exp(-kZeta * std::numbers::pi / std::sqrt(1.0 - kZeta * kZeta));
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  build(sim, 1.0, {{"InputMax", 0.4}});
  sim.lock();
  sim.advanceTimeTo(std::numbers::pi / kWd);
  CHECK(std::fabs(scalar(sim, "signals.x") - 0.4 * (1.0 + overshoot)) < 1e-7);
  // InputMin clamps from below: u = -1 -> -0.25.
  sim.set("models.f.params.InputMin", -0.25);
  sim.set("signals.u", -1.0);
  sim.advanceTimeTo(8.0);
  CHECK(std::fabs(scalar(sim, "signals.x") + 0.25) < 1e-7);
}

TEST_CASE(
    "SecondOrderResponse: State2ndDerivMax gives constant acceleration x2 = A t, x1 = A t^2 / 2") {
  // Unclamped x2' = w_n^2 (1 - x1) - 2 zeta w_n x2 is ~150 over the first 0.1 s, far above
  // A = 10: the clamp holds throughout and the motion is a polynomial rk4 integrates exactly.
  const double A = 10.0;
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  build(sim, 1.0, {{"State2ndDerivMax", A}});
  sim.lock();
  for (int k = 1; k <= 100; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    CAPTURE(t);
    REQUIRE(scalar(sim, "signals.xdd") == A);
    REQUIRE(std::fabs(scalar(sim, "signals.xd") - A * t) < 1e-12);
    REQUIRE(std::fabs(scalar(sim, "signals.x") - 0.5 * A * t * t) < 1e-12);
  }
}

TEST_CASE("SecondOrderResponse: StateDerivMax freezes x2, so x1 ramps at exactly that rate") {
  // Unclamped the rate peaks near 0.7 w_n = 8.8; with StateDerivMax = 1, x2 reaches 1 early and
  // stays there while x2' = w_n^2 (1 - x1) - 2 zeta w_n > 0, i.e. x1 < 0.95.
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  build(sim, 1.0, {{"StateDerivMax", 1.0}});
  sim.lock();
  sim.advanceTimeTo(0.3);
  const double x1At03 = scalar(sim, "signals.x");
  for (int k = 1; k <= 500; ++k) {
    sim.advanceOverHop();
    CAPTURE(sim.time());
    REQUIRE(scalar(sim, "signals.xd") == 1.0);
    REQUIRE(scalar(sim, "signals.xdd") == 0.0);
  }
  CHECK(scalar(sim, "signals.x") == doctest::Approx(x1At03 + 0.5).epsilon(1e-12));
  sim.advanceTimeTo(6.0);  // and it settles at u once the ramp is over
  CHECK(std::fabs(scalar(sim, "signals.x") - 1.0) < 1e-6);
}

TEST_CASE("SecondOrderResponse: StateMax freezes x1 at the bound instead of overshooting") {
  // u = StateMax = 1: unbounded, x1 would overshoot to 1.37. Bounded, x1 follows the step
  // response until it reaches 1, then stays there: x1' is zeroed while x2 > 0, and x2 decays
  // (x2' = -2 zeta w_n x2 at x1 = u) without changing sign.
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  build(sim, 1.0, {{"StateMax", 1.0}});
  sim.lock();
  bool reached = false;
  for (int k = 1; k <= 1000; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    const double x = scalar(sim, "signals.x");
    CAPTURE(t);
    REQUIRE(x <= 1.0);
    if (!reached && stepResponse(t) < 1.0) {
      REQUIRE(std::fabs(x - stepResponse(t)) < 1e-7);
    } else {
      reached = true;
      REQUIRE(x == 1.0);
    }
  }
  CHECK(reached);
  CHECK(std::get<double>(sim.get("models.f.continuousStates.x1")) ==
        doctest::Approx(1.0).epsilon(1e-9));
  CHECK(std::get<double>(sim.get("models.f.continuousStates.x2")) > 0.0);
}

TEST_CASE("SecondOrderResponse: a Min above its Max is refused, naming both params") {
  Simulation sim;
  build(sim, 1.0, {{"StateMin", 2.0}, {"StateMax", 1.0}});
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       doctest::Contains("models.f.params.StateMin = 2 exceeds StateMax = 1"),
                       InputError);
  Simulation bad;
  CHECK_THROWS_WITH_AS(
      bad.addModel(models::standardRegistry().create("SecondOrderResponse", "g", {{"Fc", 0.0}})),
      doctest::Contains("Fc"), InputError);
}

TEST_CASE("SecondOrderResponse: only state2ndDeriv feeds through, so x and x' close a loop") {
  // u = -x through a Gain: no algebraic loop since state has no feed-through.
  Simulation sim({.ioStepSize = 1e-3});
  build(sim, 0.0);
  sim.addModel(models::standardRegistry().create("Gain", "neg", {{"k", -1.0}}));
  sim.tie("neg", "u", "x");
  sim.tie("neg", "y", "u");
  CHECK_NOTHROW(sim.lock());
}

}  // namespace hopsim
