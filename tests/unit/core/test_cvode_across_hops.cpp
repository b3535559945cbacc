// cvode continuing its history across hops (IntegratorOptions::continueAcrossHops): where the
// executive continues and where it must restart, against analytic solutions.

#include <doctest/doctest.h>

#include <cmath>

#include "continuous_test_models.h"
#include "hopsim/core/simulation.h"

namespace hopsim::test {
namespace {

/// x' = u - x with u a discrete state that startHop sets from 0 to 1 at the first hop starting
/// at or after `switchTime`: the derivative jumps at that hop boundary while X does not.
class SwitchedLag final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("SwitchedLag", ModelKind::Continuous, "x' = u - x, u: 0 -> 1") {}
    ParamKey<double> switchTime = param<double>("switchTime").unit("s").defaultValue(0.5);
    DiscreteStateKey<double> u = discreteState<double>("u").defaultValue(0.0);
    ContinuousStateKey<double> x = continuousState<double>("x").defaultValue(0.0);
  };
  HOPSIM_TEST_DECLARATION
  explicit SwitchedLag(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void startHop(double t0, double) override {
    if (t0 >= param(d_.switchTime) - 1e-12) state(d_.u) = 1.0;
  }
  void postDeriv(double) override { derivative(d_.x) = state(d_.u) - state(d_.x); }
  double x() const { return state(d_.x); }

 private:
  const Declaration& d_ = declaration();
};

IntegratorOptions tight(bool continueAcrossHops) {
  IntegratorOptions options;
  options.relativeTolerance = 1e-10;
  options.absoluteTolerance = 1e-12;
  options.continueAcrossHops = continueAcrossHops;
  return options;
}

}  // namespace

TEST_CASE("cvode across hops: the spring to tolerance, one restart, far fewer evaluations") {
  // x0 cos(w t) at w = 2 rad/s over 10 s of 10 ms hops. Continued, cvode restarts once (the
  // first hop) and continues 999 times; each hop then costs the two evaluations that check the
  // derivative at its boundary and about one step, against a climb from order 1 per restart.
  std::uint64_t evaluations[2] = {0, 0};
  for (const bool continuing : {false, true}) {
    CAPTURE(continuing);
    Simulation sim({.integrator = "cvode", .integratorOptions = tight(continuing)});
    auto& spring = addSpring(sim);
    sim.set("models.spring.params.k", 4.0);
    sim.lock();
    sim.advanceTimeTo(10.0);
    CHECK(std::fabs(spring.x() - std::cos(20.0)) < 1e-7);  // the tolerance level, as restarted
    const IntegratorStatistics& stats = sim.integrator().statistics();
    CHECK(stats.restarts == (continuing ? 1 : 1000));
    CHECK(stats.continuations == (continuing ? 999 : 0));
    evaluations[continuing ? 1 : 0] = sim.propagationStatistics().derivativeEvaluations;
  }
  MESSAGE("the spring, 1000 hops of cvode: " << evaluations[0] << " evaluations restarted, "
                                             << evaluations[1] << " continued");
  CHECK(3 * evaluations[1] < evaluations[0]);
}

TEST_CASE("cvode across hops: a derivative that jumps at a hop boundary restarts it there") {
  // x = 0 until the switch at 0.5 s, then 1 - exp(-(t - 0.5)). The switch changes only a
  // discrete state inside the model (no value set from outside, X continuous): the derivative
  // compared at the boundary is what tells the executive to restart.
  Simulation sim({.integrator = "cvode", .integratorOptions = tight(true)});
  auto& lag = sim.addModel<SwitchedLag>("lag");
  sim.lock();
  sim.advanceTimeTo(2.0);
  CHECK(std::fabs(lag.x() - (1.0 - std::exp(-1.5))) < 1e-8);
  const IntegratorStatistics& stats = sim.integrator().statistics();
  CHECK(stats.restarts == 2);  // the first hop and the switch
  CHECK(stats.continuations == 198);
}

TEST_CASE("cvode across hops: a value set from outside between hops restarts it") {
  Simulation sim({.integrator = "cvode", .integratorOptions = tight(true)});
  addSpring(sim);
  sim.lock();
  sim.advanceTimeTo(0.5);
  CHECK(sim.integrator().statistics().restarts == 1);
  // The same stiffness again: no jump anywhere, but a set is not inspected, only counted.
  sim.set("models.spring.params.k", std::get<double>(sim.get("models.spring.params.k")));
  sim.advanceTimeTo(1.0);
  CHECK(sim.integrator().statistics().restarts == 2);
  CHECK(sim.integrator().statistics().continuations == 98);
}

TEST_CASE("cvode across hops: a zero crossing's re-run restarts, the hop after it continues") {
  // The falling ball from 10 m reaches 5 m at sqrt(10 / 9.81) s; the crossing's callback
  // changes nothing, so only the re-run of the rolled-back hop restarts cvode.
  Simulation sim({.ioStepSize = 0.1, .integrator = "cvode", .integratorOptions = tight(true)});
  auto& ball = sim.addModel<Ball>("ball");
  sim.lock();
  double located = 0.0;
  sim.registerZeroCrossing(
      "halfway", [&ball](Simulation&, double) { return ball.height() - 5.0; },
      CrossingDirection::Falling, [&located](Simulation&, double t) { located = t; });
  sim.advanceTimeTo(1.4);
  CHECK(std::fabs(located - std::sqrt(10.0 / 9.81)) < 1e-9);
  CHECK(std::fabs(ball.height() - (10.0 - 0.5 * 9.81 * 1.4 * 1.4)) < 1e-8);
  const IntegratorStatistics& stats = sim.integrator().statistics();
  CHECK(sim.propagationStatistics().rollbacks == 1);
  CHECK(stats.restarts == 2);  // the first hop and the re-run
  // 15 hops and the re-run: 16 intervals.
  CHECK(stats.restarts + stats.continuations == 16);
  MESSAGE("evaluations discarded by the rollback: "
          << sim.propagationStatistics().discardedDerivatives);
  CHECK(sim.propagationStatistics().discardedDerivatives < 10);
}

}  // namespace hopsim::test
