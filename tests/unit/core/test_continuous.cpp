// The continuous half of the executive: state assembly, the integration calling sequence,
// granularity raising, masking, and accuracy against analytic solutions.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "continuous_test_models.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "robertson_reference.h"
#include "test_models.h"

namespace hopsim::test {
namespace {

/// P = constant heater power, as a FlowModel: feeds the ThermalNode across the kind boundary.
class Heater final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Heater", ModelKind::Flow, "P = power") {}
    ParamKey<double> power = param<double>("power").unit("W").defaultValue(10.0);
    OutKey<double> p = flowOut<double>("P").unit("W");
  };
  HOPSIM_TEST_DECLARATION
  explicit Heater(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double) override { out(d_.p) = param(d_.power); }

 private:
  const Declaration& d_ = declaration();
};

}  // namespace

TEST_CASE("the mass-spring oscillator matches x0 cos(wt) under every integrator") {
  // Reference: the analytic solution. Tolerances follow each method's error at these settings:
  // rk4 with 0.01 s hops has a global error ~ (w h)^4 / 120 * w t ~ 3e-8; euler (first order, 10
  // sub-steps of 1 ms) ~ t h w^2 / 2 ~ 0.05 over 10 s (energy drift), so it only checks sign
  // and size; rkf45 and cvode run at tolerances that put them near 1e-8.
  struct Case {
    const char* integrator;
    int subSteps;
    double tolerance;
  };
  for (const Case c : {Case{"rk4", 1, 5e-8}, Case{"euler", 10, 0.06}, Case{"rkf45", 1, 1e-8},
                       Case{"cvode", 1, 1e-7}}) {
    CAPTURE(std::string(c.integrator));
    IntegratorOptions options;
    options.relativeTolerance = 1e-11;
    options.absoluteTolerance = 1e-12;
    Simulation sim(
        {.integrationSteps = c.subSteps, .integrator = c.integrator, .integratorOptions = options});
    auto& spring = addSpring(sim);
    sim.set("models.spring.params.k", 4.0);  // w = 2 rad/s
    sim.lock();
    CHECK(sim.stateNames() == std::vector<std::string>{"models.spring.continuousStates.x",
                                                       "models.spring.continuousStates.v"});
    sim.advanceTimeTo(10.0);
    CHECK(std::fabs(spring.x() - std::cos(20.0)) < c.tolerance);
    // The output signal shows the state at the hop end (ENDHOP is in its granularity).
    CHECK(std::get<double>(sim.get("signals.x")) == spring.x());
  }
}

TEST_CASE("a FlowModel input drives a thermal RC node to the analytic exponential") {
  // T(t) = Ta + P R + (T0 - Ta - P R) exp(-t / (R C)); rk4 at 0.01 s: error ~ 1e-11 K.
  Simulation sim({.integrator = "rk4"});
  sim.addSignal("P", ElementType::Double);
  sim.addSignal("T", ElementType::Double);
  sim.addModel<Heater>("heater");
  sim.addModel<ThermalNode>("node");
  sim.tie("heater", "P", "P");
  sim.tie("node", "P", "P");
  sim.tie("node", "T", "T");
  sim.lock();
  CHECK(sim.modelOrder().continuousModels == std::vector<std::string>{"node"});
  CHECK(sim.modelOrder().flowModels == std::vector<std::string>{"heater"});
  sim.advanceTimeTo(7.0);
  const double expected = 300.0 + 20.0 + (300.0 - 300.0 - 20.0) * std::exp(-7.0 / 10.0);
  CHECK(std::fabs(std::get<double>(sim.get("signals.T")) - expected) < 1e-9);
}

TEST_CASE("Robertson's stiff kinetics through the executive, cvode BDF restarted every hop") {
  // Reference: tests/reference/robertson_reference.h. The executive restarts cvode at every
  // hop, here at each output time. 4e9 s is the last output inside the executive's time range
  // (+-4e9 s, see isRepresentableTime).
  IntegratorOptions options;
  options.relativeTolerance = 1e-8;
  options.absoluteTolerances = Eigen::Vector3d(1e-14, 1e-20, 1e-12);  // as in test_cvode.cpp
  Simulation sim({.ioStepSize = 4e9, .integrator = "cvode", .integratorOptions = options});
  sim.addModel<Robertson>("chem");
  sim.lock();
  for (const RobertsonPoint& point : kRobertson) {
    if (point.t > 4e9) break;
    sim.advanceTimeTo(point.t);
    const auto y = std::get<std::vector<double>>(sim.get("models.chem.continuousStates.y"));
    for (std::size_t i = 0; i < 3; ++i) {
      CAPTURE(point.t);
      CAPTURE(i);
      CHECK(std::fabs(y[i] - point.y[i]) / point.y[i] < 1e-5);
    }
  }
  const IntegratorStatistics& stats = sim.integrator().statistics();
  MESSAGE("Robertson through the executive: " << stats.steps << " steps, " << stats.rhsEvaluations
                                              << " derivative evaluations, " << stats.restarts
                                              << " restarts");
  CHECK(stats.restarts == 11);
}

TEST_CASE("the calling sequence of a hop with two rk4 sub-steps") {
  // DESIGN.md section 3: per sub-step STARTINTEGRATION sweep, startIntegrationStep, per
  // derivative evaluation PREDERIV sweep / preDeriv / POSTDERIV sweep / postDeriv, then the
  // ENDINTEGRATION sweep and endIntegrationStep; ENDHOP sweep and endHop after the propagation.
  std::vector<std::string> log;
  Simulation sim({.integrationSteps = 2, .integrator = "rk4"});
  sim.addSignal("y", ElementType::Double);
  sim.addModel<Recorder>("r", log);
  sim.tie("r", "y", "y");
  sim.lock();
  sim.advanceOverHop();  // the step-zero update and the first hop
  log.clear();
  sim.advanceOverHop();
  std::vector<std::string> expected{"r:startHop"};
  for (int subStep = 0; subStep < 2; ++subStep) {
    expected.push_back("r:startIntegrationStep");
    for (int stage = 0; stage < 4; ++stage) {
      expected.push_back("r:preDeriv");
      expected.push_back("r:postDeriv");
    }
    expected.push_back("r:endIntegrationStep");
  }
  expected.push_back("r:updateFlowOuts");  // its declared granularity: ENDHOP only
  expected.push_back("r:endHop");
  CHECK(log == expected);
  CHECK(sim.propagationStatistics().derivativeEvaluations == 16);
}

TEST_CASE("the bonus derivative evaluation runs once after each sub-step, at the accepted state") {
  std::vector<std::string> log;
  Simulation sim({.integrationSteps = 2, .integrator = "rk4"});
  sim.addSignal("y", ElementType::Double);
  sim.addModel<Recorder>("r", log);
  sim.tie("r", "y", "y");
  sim.setBonusDerivativeEvaluation(true);
  sim.lock();
  sim.advanceOverHop();
  const auto before = sim.propagationStatistics().derivativeEvaluations;
  log.clear();
  sim.advanceOverHop();
  CHECK(sim.propagationStatistics().derivativeEvaluations - before == 2 * (4 + 1));
  // Five derivative evaluations between each startIntegrationStep and endIntegrationStep.
  const auto start = std::find(log.begin(), log.end(), "r:startIntegrationStep");
  const auto end = std::find(log.begin(), log.end(), "r:endIntegrationStep");
  CHECK(std::count(start, end, std::string("r:postDeriv")) == 5);
}

TEST_CASE("a ContinuousModel reader raises its continuous writer to the derivative sweeps") {
  // Recorder declares ENDHOP only; the ThermalNode reads it in every derivative evaluation, so
  // lock() must add PREDERIV and POSTDERIV, or the node would integrate a stale input.
  std::vector<std::string> log;
  Simulation sim;
  sim.addSignal("y", ElementType::Double);
  sim.addSignal("T", ElementType::Double);
  sim.addModel<Recorder>("r", log);
  sim.addModel<ThermalNode>("node");
  sim.tie("r", "y", "y");
  sim.tie("node", "P", "y");
  sim.tie("node", "T", "T");
  sim.lock();
  CHECK(sim.outputGranularity("r").contains(Sweep::PreDeriv));
  CHECK(sim.outputGranularity("r").contains(Sweep::PostDeriv));
  CHECK_FALSE(sim.outputGranularity("r").contains(Sweep::StartIntegration));
}

TEST_CASE("a masked state is prescribed by maskedCoordinates and never integrated") {
  // x' = y with y = sin t prescribed: x(t) = 1 - cos t. rk4 at 0.01 s: error ~ 1e-11.
  Simulation sim({.integrator = "rk4"});
  sim.addModel<Prescribed>("p");
  sim.setStateMasked("p", "y", true);
  sim.lock();
  CHECK(sim.stateCount() == 1);
  CHECK(sim.stateNames() == std::vector<std::string>{"models.p.continuousStates.x"});
  sim.advanceTimeTo(2.0);
  CHECK(std::fabs(std::get<double>(sim.get("models.p.continuousStates.x")) -
                  (1.0 - std::cos(2.0))) < 1e-9);
  // The prescribed value is current at the end of the step (ENDINTEGRATION masking).
  CHECK(std::get<double>(sim.get("models.p.continuousStates.y")) == std::sin(2.0));

  Simulation bad;
  bad.addModel<Prescribed>("p");
  CHECK_THROWS_WITH_AS(bad.setStateMasked("p", "z", true), doctest::Contains("'z'"), InputError);
  bad.setStateMasked("p", "y", 3, true);
  CHECK_THROWS_WITH_AS(bad.lock(), doctest::Contains("element 3 does not exist"), InputError);
  Simulation flows;
  flows.addModel<Pass>("pass");
  CHECK_THROWS_WITH_AS(flows.setStateMasked("pass", "x", true), doctest::Contains("is a FlowModel"),
                       InputError);
}

TEST_CASE("rkf45 carries its step size across hops while the state does not jump") {
  // The spring at w = 2 rad/s, rtol 1e-8, 10 ms hops: rkf45's natural step is longer than a
  // hop. Each hop evaluates f(t0, x0) (inputs may have changed at the hop boundary), then 6 per
  // attempted step. Only the first hop, and a hop after the state jumped, also spend one
  // evaluation on a starting step estimate instead of starting with the step the previous hop
  // proposed.
  IntegratorOptions options;
  options.relativeTolerance = 1e-8;
  options.absoluteTolerance = 1e-10;
  Simulation sim({.integrator = "rkf45", .integratorOptions = options});
  auto& spring = addSpring(sim);
  sim.set("models.spring.params.k", 4.0);
  sim.lock();
  const auto evaluationsOver = [&](double t1) {
    const std::uint64_t hops = sim.hopCount();
    const IntegratorStatistics before = sim.integrator().statistics();
    const std::uint64_t evaluations = sim.propagationStatistics().derivativeEvaluations;
    sim.advanceTimeTo(t1);
    const IntegratorStatistics after = sim.integrator().statistics();
    const auto attempts =
        (after.steps - before.steps) + (after.errorTestFailures - before.errorTestFailures);
    // What is neither a hop's f(t0, x0) nor a stage of an attempted step: the estimates.
    return static_cast<std::int64_t>(sim.propagationStatistics().derivativeEvaluations -
                                     evaluations) -
           static_cast<std::int64_t>(sim.hopCount() - hops) - 6 * attempts;
  };
  CHECK(evaluationsOver(1.0) == 1);  // 100 hops, one estimate
  CHECK(std::fabs(spring.x() - std::cos(2.0)) < 1e-7);
  // One step per hop: the proposal outgrows the hop, and a step cut to the hop end keeps it.
  const std::int64_t steps = sim.integrator().statistics().steps;
  sim.advanceTimeTo(1.5);
  CHECK(sim.integrator().statistics().steps - steps == 50);

  // A jump of the state between hops (here a set; an event's would do the same): the next hop
  // estimates again, once.
  sim.set("models.spring.continuousStates.v", 0.5);
  const double x0 = spring.x();
  CHECK(evaluationsOver(2.5) == 1);
  // From (x0, 0.5) at t = 1.5 the spring follows x0 cos(w s) + (0.5 / w) sin(w s).
  CHECK(std::fabs(spring.x() - (x0 * std::cos(2.0) + 0.25 * std::sin(2.0))) < 1e-7);
  // A param change keeps the state continuous: the step goes on (the error test guards it).
  sim.set("models.spring.params.k", 9.0);
  CHECK(evaluationsOver(3.0) == 0);
}

TEST_CASE("a state set between hops restarts the integration from the new value") {
  Simulation sim({.integrator = "rkf45"});
  auto& ball = sim.addModel<Ball>("ball");
  sim.lock();
  sim.advanceTimeTo(1.0);
  sim.set("models.ball.continuousStates.h", 10.0);
  sim.set("models.ball.continuousStates.v", 0.0);
  sim.advanceTimeTo(2.0);
  CHECK(ball.height() == doctest::Approx(10.0 - 0.5 * 9.81).epsilon(1e-12));
}

TEST_CASE("a derivative never written stops the integrator with the state's name") {
  struct Spec : ModelSpec {
    Spec() : ModelSpec("Lazy", ModelKind::Continuous, "forgets its derivative") {}
    ContinuousStateKey<double> x = continuousState<double>("x").defaultValue(1.0);
  };
  struct Lazy : ContinuousModel {
    explicit Lazy(std::string name) : ContinuousModel(std::move(name), declaration()) {}
    static const Spec& declaration() {
      static const Spec s;
      return s;
    }
  };
  Simulation sim({.integrator = "rk4"});
  sim.addModel<Lazy>("lazy");
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       doctest::Contains("derivative of models.lazy.continuousStates.x is nan"),
                       NumericalError);
}

TEST_CASE("an activation the per-state tolerances cannot follow is refused and undone") {
  IntegratorOptions options;
  options.absoluteTolerances = Eigen::Vector2d(1e-9, 1e-9);  // for the spring's (x, v)
  Simulation sim({.integrator = "rkf45", .integratorOptions = options});
  addSpring(sim);
  sim.addModel<Ball>("ball");
  sim.deactivate("ball");
  sim.lock();
  sim.advanceTimeTo(0.5);
  CHECK_THROWS_AS(sim.activate("ball"), InputError);  // 4 states, 2 tolerances
  CHECK_FALSE(sim.isActive("ball"));
  CHECK(sim.stateCount() == 2);
  sim.advanceTimeTo(1.0);  // still runs
  CHECK(std::get<double>(sim.get("signals.x")) == doctest::Approx(std::cos(1.0)).epsilon(1e-6));
}

TEST_CASE("the integrator is chosen by name, with suggestions for a wrong one") {
  Simulation sim;
  CHECK(sim.integrator().name() == "rk4");
  sim.setIntegrator("cvode");
  CHECK(sim.integrator().name() == "cvode");
  CHECK_THROWS_WITH_AS(sim.setIntegrator("rkf54"), doctest::Contains("rkf45"), InputError);
  sim.lock();
  CHECK_THROWS_AS(sim.setIntegrator("rk4"), ModelError);
}

}  // namespace hopsim::test
