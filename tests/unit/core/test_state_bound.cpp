// Divergence is caught where it starts: after every integration sub-step, an integrated state
// that is not finite, or beyond the simulation's state bound, stops the run with a
// NumericalError naming the state, the time and the integrator.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "continuous_test_models.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim::test {
namespace {

/// x' = rate: a state that moves by rate * h per step, whatever its value.
class Drift final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Drift", ModelKind::Continuous, "x' = rate") {}
    ParamKey<double> rate = param<double>("rate").defaultValue(1.0);
    ContinuousStateKey<double> x = continuousState<double>("x").defaultValue(0.0);
  };
  HOPSIM_TEST_DECLARATION
  explicit Drift(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void postDeriv(double) override { derivative(d_.x) = param(d_.rate); }

 private:
  const Declaration& d_ = declaration();
};

/// The message of the NumericalError that advancing `sim` to `t` throws.
std::string divergence(Simulation& sim, double t) {
  try {
    sim.advanceTimeTo(t);
  } catch (const NumericalError& e) {
    return e.what();
  }
  FAIL("no NumericalError");
  return {};
}

}  // namespace

TEST_CASE("rk4 on a spring too stiff for its step stops at the first step past the bound") {
  // w = 1e4 rad/s with h = 0.01 s: h w = 100, where rk4 multiplies the state by about
  // (h w)^4 / 24 = 4.2e6 per step, and v = x' carries w on top: from x = 1, |v| ~ 4e10 after
  // the first step and 1.4e16, past 1e15, after the second.
  Simulation sim(SimulationOptions{.ioStepSize = 0.01, .integrator = "rk4"});
  addSpring(sim);
  sim.set("models.spring.params.k", 1e8);
  sim.lock();
  const std::string message = divergence(sim, 1.0);
  CAPTURE(message);
  CHECK(message.find("models.spring.continuousStates.v is ") == 0);
  CHECK(message.find(" at t = 0.02 s after the rk4 step from t = 0.01 s, beyond the state bound "
                     "1e+15: the "
                     "fixed-step integration diverges; use a smaller step (more "
                     "integration_steps, or a smaller time_step) or cvode (or raise state_bound "
                     "if such magnitudes are meaningful)") != std::string::npos);
  CHECK(sim.time() == 0.01);  // the start of the hop that failed

  // A bound set higher lets the same run go on further before it stops.
  Simulation looser(
      SimulationOptions{.ioStepSize = 0.01, .integrator = "rk4", .stateBound = 1e100});
  addSpring(looser);
  looser.set("models.spring.params.k", 1e8);
  looser.lock();
  CHECK(divergence(looser, 1.0).find("beyond the state bound 1e+100") != std::string::npos);
  CHECK(looser.time() > 0.1);
}

TEST_CASE("a state that overflows to inf is caught at the step that makes it") {
  // A finite derivative, a finite state, and their sum past the largest double; with the bound
  // at infinity only finiteness is checked.
  for (const char* integrator : {"euler", "rk4"}) {
    CAPTURE(std::string(integrator));
    Simulation sim(
        SimulationOptions{.ioStepSize = 0.01, .integrationSteps = 2, .integrator = integrator});
    sim.setStateBound(std::numeric_limits<double>::infinity());
    sim.addModel<Drift>("drift");
    sim.set("models.drift.params.rate", 1e308);
    sim.set("models.drift.continuousStates.x", 1.797e308);
    sim.lock();
    const std::string message = divergence(sim, 1.0);
    CHECK(message == "models.drift.continuousStates.x is inf at t = 0.005 s after the " +
                         std::string(integrator) +
                         " step from t = 0 s: the fixed-step integration diverges; use a smaller "
                         "step (more integration_steps, or a smaller time_step) or cvode");
    CHECK(sim.time() == 0.0);
  }
}

TEST_CASE("an error-controlled integrator stops where an unstable solution passes the bound") {
  // x'' = x from x = 1: x = cosh t passes 1e15 at t = acosh(1e15) = 35.23 s.
  Simulation sim(SimulationOptions{.ioStepSize = 0.1, .integrator = "rkf45"});
  addSpring(sim);
  sim.set("models.spring.params.k", -1.0);
  sim.lock();
  const std::string message = divergence(sim, 100.0);
  CAPTURE(message);
  CHECK(message.find(" at t = 35.3 s after the rkf45 integration from t = 35.2 s") !=
        std::string::npos);
  CHECK(message.find("beyond the state bound 1e+15: the solution grows without bound; check the "
                     "model and its params (or raise state_bound") != std::string::npos);
  CHECK(sim.time() == doctest::Approx(35.2));
}

TEST_CASE("a run within the bound is not affected, and the bound is checked when set") {
  Simulation sim(SimulationOptions{.integrator = "rk4"});
  addSpring(sim);
  sim.lock();
  CHECK(sim.stateBound() == 1e15);
  sim.advanceTimeTo(10.0);
  CHECK(std::abs(std::get<double>(sim.get("models.spring.continuousStates.x"))) <= 1.0);
  for (const double bad : {0.0, -1.0, std::nan("")}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(sim.setStateBound(bad),
                         doctest::Contains("is not a valid state bound; expected a positive "
                                           "magnitude"),
                         InputError);
    CHECK_THROWS_AS(Simulation(SimulationOptions{.stateBound = bad}), InputError);
  }
  CHECK(sim.stateBound() == 1e15);
  sim.setStateBound(1e3);
  CHECK(sim.stateBound() == 1e3);
}

TEST_CASE("a non-finite derivative names the state, the time and the integrator") {
  Simulation sim(SimulationOptions{.integrator = "rkf45"});
  sim.addModel<Drift>("drift");
  sim.set("models.drift.params.rate", std::nan(""));
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceTimeTo(1.0),
                       "the derivative of models.drift.continuousStates.x is nan at t = 0 s "
                       "(rkf45); its model's postDeriv must write a finite derivative() for "
                       "every integrated state",
                       NumericalError);
}

}  // namespace hopsim::test
