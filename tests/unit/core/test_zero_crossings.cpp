// Zero crossings: the trigger rule, exact localization with rollback, simultaneous firing,
// re-arming, the chattering guard. References: analytic impact times of a bouncing ball and
// analytic crossing times of an oscillator.

#include <doctest/doctest.h>

#include <cmath>

#include "continuous_test_models.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim::test {
namespace {

constexpr double kG = 9.81;
constexpr double kH0 = 10.0;
constexpr double kRestitution = 0.8;

/// Impact k (1-based) of a ball dropped from kH0 at rest, bouncing with kRestitution: the first
/// fall takes sqrt(2 h0 / g); flight k after impact k lasts 2 e^k v1 / g.
double impactTime(int k) {
  const double t1 = std::sqrt(2.0 * kH0 / kG);
  double t = t1;
  for (int i = 1; i < k; ++i) t += 2.0 * std::pow(kRestitution, i) * kG * t1 / kG;
  return t;
}

/// A bouncing-ball simulation: the condition is the height falling through zero, the callback
/// reverses and scales the velocity. Impact times are appended to `impacts`.
Ball& buildBouncingBall(Simulation& sim, std::vector<double>& impacts) {
  auto& ball = sim.addModel<Ball>("ball");
  sim.lock();
  sim.registerZeroCrossing(
      "impact", [&ball](Simulation&, double) { return ball.height(); }, CrossingDirection::Falling,
      [&ball, &impacts](Simulation&, double t) {
        impacts.push_back(t);
        ball.setVelocity(-kRestitution * ball.velocity());
      });
  return ball;
}

}  // namespace

TEST_CASE("bouncing ball impact times match the analytic ones to 1e-9 s") {
  // The ball's motion is a quadratic in t, which rk4, rkf45 and cvode integrate to round-off
  // or their tolerance; the residual error is the localization tolerance (1e-10 s).
  struct Case {
    const char* integrator;
    double ioStepSize;
  };
  for (const Case c : {Case{"rkf45", 0.1}, Case{"cvode", 0.1}, Case{"rk4", 0.01}}) {
    CAPTURE(std::string(c.integrator));
    IntegratorOptions options;
    options.relativeTolerance = 1e-12;
    options.absoluteTolerance = 1e-12;
    Simulation sim(
        {.ioStepSize = c.ioStepSize, .integrator = c.integrator, .integratorOptions = options});
    std::vector<double> impacts;
    Ball& ball = buildBouncingBall(sim, impacts);
    sim.advanceTimeTo(9.0);  // the fifth impact is at 8.17 s
    REQUIRE(impacts.size() >= 5);
    for (int k = 1; k <= 5; ++k) {
      CAPTURE(k);
      CHECK(std::fabs(impacts[static_cast<std::size_t>(k - 1)] - impactTime(k)) < 1e-9);
    }
    // The clock stopped at the tick nearest each impact; the state carries the exact time.
    MESSAGE(std::string(c.integrator)
            << ": " << sim.propagationStatistics().crossingsFired << " impacts, "
            << sim.propagationStatistics().localizationResiduals << " localization residuals, "
            << sim.propagationStatistics().localizationDerivatives
            << " localization derivative evaluations, "
            << sim.propagationStatistics().discardedDerivatives
            << " discarded in rolled-back passes");
    // Rollback: the ball counts hops in a declared discrete state; re-run hops are not counted
    // twice, so the count equals the executive's hop count.
    CHECK(sim.propagationStatistics().rollbacks > 0);
    CHECK(ball.hops() == static_cast<std::int64_t>(sim.hopCount()));
  }
}

TEST_CASE(
    "rk4 localizes on its continuous extension: no re-integration in the hop's last sub-step") {
  // x = cos t falls through zero at pi/2 and 5 pi/2. Not a polynomial, so the cubic extension
  // is exact only to O(h^4): the located times agree with the analytic ones to the integration's
  // own accuracy at h = 0.1 s (rk4's global error here is about 1e-6).
  for (const int subSteps : {1, 4}) {
    CAPTURE(subSteps);
    Simulation sim(
        {.ioStepSize = subSteps * 0.1, .integrationSteps = subSteps, .integrator = "rk4"});
    auto& spring = addSpring(sim);
    sim.lock();
    std::vector<double> located;
    sim.registerZeroCrossing(
        "down", [&spring](Simulation&, double) { return spring.x(); }, CrossingDirection::Falling,
        [&located](Simulation&, double t) { located.push_back(t); });
    sim.advanceTimeTo(9.0);
    REQUIRE(located.size() == 2);
    CHECK(std::fabs(located[0] - M_PI / 2) < 1e-5);
    CHECK(std::fabs(located[1] - 5 * M_PI / 2) < 1e-5);
    const PropagationStatistics& stats = sim.propagationStatistics();
    if (subSteps == 1) {
      CHECK(stats.localizationDerivatives == 0);  // the pass's own step holds the interpolant
    } else {
      // pi/2 = 1.5708 lies in the sub-step [1.5, 1.6] of the hop [1.2, 1.6], the last one;
      // 5 pi/2 = 7.854 in [7.8, 7.9] of [7.6, 8.0], which is re-run once (4 evaluations).
      CHECK(stats.localizationDerivatives == 4);
    }
  }
}

TEST_CASE("a discrete state updated in startHop is restored by rollback") {
  Simulation sim({.ioStepSize = 0.5, .integrator = "rkf45"});
  std::vector<double> impacts;
  Ball& ball = buildBouncingBall(sim, impacts);
  sim.advanceTimeTo(1.5);  // the first impact (1.428 s) rolls back the hop [1.0, 1.5]
  REQUIRE(impacts.size() == 1);
  CHECK(sim.propagationStatistics().rollbacks == 1);
  // Hops: [0,0.5], [0.5,1], [1,1.428], [1.428,1.5]: four, although startHop ran five times.
  CHECK(sim.hopCount() == 4);
  CHECK(ball.hops() == 4);
}

TEST_CASE("the located time ends the hop: model methods see it, the clock rounds to a tick") {
  Simulation sim({.ioStepSize = 0.5, .integrator = "rkf45"});
  std::vector<double> impacts;
  buildBouncingBall(sim, impacts);
  sim.advanceTimeTo(1.5);
  // The hop after the impact starts at the tick nearest to it.
  CHECK(std::fabs(sim.time() - 1.5) < 1e-12);
  CHECK(std::fabs(impacts[0] - impactTime(1)) < 1e-9);
}

TEST_CASE("conditions crossing at the same time all fire, in (priority, registration) order") {
  Simulation sim({.integrator = "rkf45"});
  auto& spring = addSpring(sim);  // x = cos t
  sim.lock();
  std::vector<std::string> fired;
  const auto residual = [&spring](Simulation&, double) { return spring.x(); };
  sim.registerZeroCrossing("late", residual, CrossingDirection::Falling,
                           [&](Simulation&, double) { fired.push_back("late"); }, {.priority = 5});
  sim.registerZeroCrossing("early", residual, CrossingDirection::Falling,
                           [&](Simulation&, double) { fired.push_back("early"); },
                           {.priority = -5});
  sim.registerZeroCrossing("plain", residual, CrossingDirection::Either,
                           [&](Simulation&, double) { fired.push_back("plain"); });
  sim.advanceTimeTo(2.0);  // x = cos t falls through zero at pi/2
  CHECK(fired == std::vector<std::string>{"early", "plain", "late"});
  CHECK(sim.propagationStatistics().rollbacks == 1);
}

TEST_CASE("of two conditions triggering in one hop, the earliest ends it") {
  IntegratorOptions tight;
  tight.relativeTolerance = 1e-12;
  tight.absoluteTolerance = 1e-12;
  Simulation sim({.ioStepSize = 1.0, .integrator = "rkf45", .integratorOptions = tight});
  auto& spring = addSpring(sim);
  sim.lock();
  std::vector<std::pair<std::string, double>> fired;
  sim.registerZeroCrossing(
      "half", [&spring](Simulation&, double) { return spring.x() - 0.5; },
      CrossingDirection::Falling, [&](Simulation&, double t) { fired.emplace_back("half", t); });
  sim.registerZeroCrossing(
      "zero", [&spring](Simulation&, double) { return spring.x(); }, CrossingDirection::Falling,
      [&](Simulation&, double t) { fired.emplace_back("zero", t); });
  sim.advanceTimeTo(2.0);  // both cross in the hop [1, 2]: cos t = 0.5 at pi/3, 0 at pi/2
  REQUIRE(fired.size() == 2);
  CHECK(fired[0].first == "half");
  CHECK(fired[0].second == doctest::Approx(M_PI / 3).epsilon(1e-10));
  CHECK(fired[1].first == "zero");
  CHECK(fired[1].second == doctest::Approx(M_PI / 2).epsilon(1e-10));
}

TEST_CASE("touching zero exactly at a barrier fires there, without rollback, and only once") {
  // g = (t - 1)^2 touches zero at t = 1, a default-period barrier: "touching zero counts at
  // t1". At the next hop start g = 0, so it cannot trigger there; afterwards g > 0 again.
  Simulation sim;
  sim.lock();
  std::vector<double> fired;
  sim.registerZeroCrossing(
      "touch", [](Simulation&, double t) { return (t - 1.0) * (t - 1.0); },
      CrossingDirection::Either, [&](Simulation&, double t) { fired.push_back(t); });
  sim.advanceTimeTo(2.0);
  CHECK(fired == std::vector<double>{1.0});
  CHECK(sim.propagationStatistics().rollbacks == 0);
}

TEST_CASE("a touch strictly inside a hop is not seen: both ends have the same sign") {
  Simulation sim;
  sim.lock();
  int fired = 0;
  sim.registerZeroCrossing(
      "touch", [](Simulation&, double t) { return (t - 1.005) * (t - 1.005); },
      CrossingDirection::Either, [&](Simulation&, double) { ++fired; });
  sim.advanceTimeTo(2.0);
  CHECK(fired == 0);
}

TEST_CASE("an event exactly at a barrier fires at the barrier time") {
  Simulation sim({.ioStepSize = 0.25});
  sim.lock();
  std::vector<double> fired;
  sim.registerZeroCrossing(
      "at", [](Simulation&, double t) { return t - 0.75; }, CrossingDirection::Rising,
      [&](Simulation& s, double t) {
        fired.push_back(t);
        CHECK(s.time() == 0.75);
      });
  sim.advanceTimeTo(2.0);
  CHECK(fired == std::vector<double>{0.75});
  CHECK(sim.propagationStatistics().rollbacks == 0);
}

TEST_CASE("a condition already at zero at the hop start does not trigger in that hop") {
  // x = sin t starts at zero and rises: no trigger; it falls through zero at pi: trigger.
  Simulation sim({.integrator = "rkf45"});
  auto& spring = addSpring(sim);
  sim.set("models.spring.continuousStates.x", 0.0);
  sim.set("models.spring.continuousStates.v", 1.0);
  sim.lock();
  std::vector<double> fired;
  sim.registerZeroCrossing(
      "zero", [&spring](Simulation&, double) { return spring.x(); }, CrossingDirection::Either,
      [&](Simulation&, double t) { fired.push_back(t); });
  sim.advanceTimeTo(4.0);
  REQUIRE(fired.size() == 1);
  CHECK(fired[0] == doctest::Approx(M_PI).epsilon(1e-10));
}

TEST_CASE("a callback that leaves the state untouched fires once per crossing") {
  // After firing, the condition counts as crossed even if the re-propagated state lies a
  // rounding error short of the crossing: x = cos t crosses zero falling at pi/2, 5pi/2, and
  // rising at 3pi/2.
  Simulation sim({.integrator = "rk4"});
  auto& spring = addSpring(sim);
  sim.lock();
  std::vector<double> fired;
  sim.registerZeroCrossing(
      "zero", [&spring](Simulation&, double) { return spring.x(); }, CrossingDirection::Either,
      [&](Simulation&, double t) { fired.push_back(t); });
  sim.advanceTimeTo(9.0);
  REQUIRE(fired.size() == 3);
  for (int k = 0; k < 3; ++k)
    CHECK(fired[k] == doctest::Approx((2 * k + 1) * M_PI / 2).epsilon(1e-9));
}

TEST_CASE("the seed's target condition: a variable reaching a value from above") {
  for (RootFinder finder : {RootFinder::Illinois, RootFinder::Bisection}) {
    CAPTURE(std::string(toString(finder)));
    Simulation sim({.integrator = "rkf45"});
    addSpring(sim);
    sim.lock();
    std::vector<double> fired;
    sim.registerTargetCrossing("half", "models.spring.continuousStates.x", 0.5,
                               CrossingDirection::Falling,
                               [&](Simulation&, double t) { fired.push_back(t); },
                               {.rootFinder = finder, .oneShot = true});
    sim.advanceTimeTo(10.0);
    REQUIRE(fired.size() == 1);  // oneShot: removed after the first firing
    CHECK(fired[0] == doctest::Approx(M_PI / 3).epsilon(1e-10));
    CHECK_FALSE(sim.findEvent("half"));
  }
  Simulation sim;
  addSpring(sim);
  CHECK_THROWS_WITH_AS(
      sim.registerTargetCrossing("bad", "models.spring.continuousStates.xx", 0.5,
                                 CrossingDirection::Falling, [](Simulation&, double) {}),
      doctest::Contains("models.spring.continuousStates.x"), InputError);
}

TEST_CASE("a crossing callback may stop the run and deactivate models") {
  // "Stop when the ball lands": advanceTimeTo(100) ends at the first impact.
  Simulation sim({.integrator = "rkf45"});
  auto& ball = sim.addModel<Ball>("ball");
  auto& spring = addSpring(sim);
  sim.lock();
  sim.registerZeroCrossing(
      "landed", [&ball](Simulation&, double) { return ball.height(); }, CrossingDirection::Falling,
      [](Simulation& s, double) {
        s.deactivate("spring");
        s.requestStop();
      });
  sim.advanceTimeTo(100.0);
  CHECK(sim.time() == doctest::Approx(impactTime(1)).epsilon(1e-9));
  CHECK_FALSE(sim.isActive("spring"));
  const double frozen = spring.x();
  sim.advanceTimeBy(0.5);  // the deactivated spring no longer moves
  CHECK(spring.x() == frozen);
  CHECK(sim.stateCount() == 2);
}

TEST_CASE("chattering stops with a clear error") {
  // The callback puts the state back above zero by less than a tick's worth of fall, so the
  // condition triggers again at once, hop after hop.
  Simulation sim({.integrator = "rkf45"});
  auto& ball = sim.addModel<Ball>("ball");
  sim.lock();
  sim.setChatteringLimit(50);
  sim.registerZeroCrossing(
      "floor", [&ball](Simulation&, double) { return ball.height(); }, CrossingDirection::Falling,
      [](Simulation& s, double) { s.set("models.ball.continuousStates.h", 1e-12); });
  CHECK_THROWS_WITH_AS(sim.advanceTimeTo(3.0), doctest::Contains("chattering: 'floor'"),
                       NumericalError);
}

TEST_CASE("zero crossings share names with events, are listed and removed") {
  Simulation sim;
  sim.lock();
  sim.registerTimedEvent("e", 1.0, [](Simulation&, double) {});
  CHECK_THROWS_WITH_AS(sim.registerZeroCrossing(
                           "e", [](Simulation&, double t) { return t - 1; },
                           CrossingDirection::Rising, [](Simulation&, double) {}),
                       doctest::Contains("already exists"), InputError);
  int fired = 0;
  sim.registerZeroCrossing(
      "z", [](Simulation&, double t) { return t - 0.5; }, CrossingDirection::Rising,
      [&](Simulation&, double) { ++fired; });
  CHECK_THROWS_AS(sim.registerTimedEvent("z", 1.0, [](Simulation&, double) {}), InputError);
  REQUIRE(sim.findEvent("z"));
  CHECK(std::string(toString(sim.findEvent("z")->kind)) == "zero crossing");
  CHECK(sim.listEvents().size() == 2);
  sim.removeEvent("z");
  sim.advanceTimeTo(1.0);
  CHECK(fired == 0);
  CHECK_THROWS_AS(sim.registerZeroCrossing(
                      "t", [](Simulation&, double) { return 1.0; }, CrossingDirection::Rising,
                      [](Simulation&, double) {}, {.timeTolerance = 0.0}),
                  InputError);
}

}  // namespace hopsim::test
