// Zero-crossing conditions a model class declares (ModelSpec::zeroCrossing): registered with
// the model as "<model>.<condition>", located and fired like any condition, silent while the
// model is inactive, and removed with the model. Reference: the analytic impact times of a
// bouncing ball.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim::test {
namespace {

constexpr double kG = 9.81;
constexpr double kH0 = 10.0;
constexpr double kRestitution = 0.5;

/// A ball whose class declares its impact: g = h falling through zero, reset v <- -e v.
class SelfBouncingBall final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration()
        : ModelSpec("SelfBouncingBall", ModelKind::Continuous,
                    "h' = v, v' = -g; at h = 0 falling, v <- -e v") {}
    ContinuousStateKey<double> h = continuousState<double>("h").unit("m").defaultValue(kH0);
    ContinuousStateKey<double> v = continuousState<double>("v").unit("m/s").defaultValue(0.0);
    DiscreteStateKey<std::int64_t> impacts = discreteState<std::int64_t>("impacts").defaultValue(0);
    CrossingKey impact =
        zeroCrossing("impact", CrossingDirection::Falling).describe("the ball reaches the floor");
    CrossingKey apex = zeroCrossing("apex", CrossingDirection::Falling).describe("v = 0");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit SelfBouncingBall(std::string name) : ContinuousModel(std::move(name), declaration()) {}

  void postDeriv(double /*t*/) override {
    derivative(d_.h) = state(d_.v);
    derivative(d_.v) = -kG;
  }
  double crossingResidual(CrossingKey c, double /*t*/) override {
    return c == d_.impact ? state(d_.h) : state(d_.v);
  }
  void onCrossing(CrossingKey c, double t) override {
    if (c != d_.impact) return;
    state(d_.v) = -kRestitution * state(d_.v);
    state(d_.impacts) += 1;
    impactTimes.push_back(t);
  }

  std::vector<double> impactTimes;

 private:
  const Declaration& d_ = declaration();
};

/// Declares a condition but never says what its residual is.
class ForgetfulModel final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("ForgetfulModel", ModelKind::Continuous, "declares only") {}
    CrossingKey c = zeroCrossing("c", CrossingDirection::Either);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit ForgetfulModel(std::string name) : ContinuousModel(std::move(name), declaration()) {}
};

/// Impact k (1-based) of a ball dropped from kH0 at rest: the first fall takes sqrt(2 h0/g),
/// flight k after impact k lasts 2 e^k sqrt(2 h0/g).
double impactTime(int k) {
  const double t1 = std::sqrt(2.0 * kH0 / kG);
  double t = t1;
  for (int i = 1; i < k; ++i) t += 2.0 * std::pow(kRestitution, i) * t1;
  return t;
}

TEST_CASE("a model's declared zero crossing fires at the analytic impact times") {
  Simulation sim;
  auto& ball = sim.addModel<SelfBouncingBall>("ball");
  sim.lock();
  REQUIRE(sim.findEvent("ball.impact").has_value());
  CHECK((sim.findEvent("ball.impact")->kind == EventKind::ZeroCrossing));
  CHECK(sim.findEvent("ball.apex").has_value());
  sim.advanceTimeTo(impactTime(3) + 0.05);
  REQUIRE(ball.impactTimes.size() == 3);
  // The default time tolerance is 1e-10 s; the state is integrated across the crossing by the
  // default integrator, so the located times carry its error too (rtol 1e-10 on a parabola is
  // exact to rounding for RK methods of order >= 2).
  for (int k = 1; k <= 3; ++k) {
    CHECK(ball.impactTimes[static_cast<std::size_t>(k - 1)] ==
          doctest::Approx(impactTime(k)).epsilon(1e-9));
  }
  CHECK(std::get<std::int64_t>(sim.get("models.ball.discreteStates.impacts")) == 3);
}

TEST_CASE("an inactive model's declared crossings do not fire, active again they do") {
  Simulation sim;
  auto& ball = sim.addModel<SelfBouncingBall>("ball");
  sim.lock();
  sim.deactivate("ball");  // its state is frozen at h = 10, so no crossing could happen anyway
  sim.advanceTimeTo(2.0);
  CHECK(ball.impactTimes.empty());
  sim.activate("ball");
  sim.advanceTimeTo(2.0 + impactTime(1) + 0.01);
  REQUIRE(ball.impactTimes.size() == 1);
  CHECK(ball.impactTimes[0] == doctest::Approx(2.0 + impactTime(1)).epsilon(1e-9));
}

TEST_CASE("declared crossings belong to their model") {
  Simulation sim;
  sim.addModel<SelfBouncingBall>("ball");
  SUBCASE("removeEvent refuses them and clearEvents keeps them") {
    CHECK_THROWS_WITH_AS(sim.removeEvent("ball.impact"), doctest::Contains("goes with the model"),
                         InputError);
    sim.clearEvents();
    CHECK(sim.findEvent("ball.impact").has_value());
  }
  SUBCASE("removeModel removes them") {
    sim.removeModel("ball");
    CHECK_FALSE(sim.findEvent("ball.impact").has_value());
    CHECK_FALSE(sim.findEvent("ball.apex").has_value());
    sim.addModel<SelfBouncingBall>("ball");  // the names are free again
    CHECK(sim.findEvent("ball.impact").has_value());
  }
}

TEST_CASE("a crossing name taken by an event stops addModel with nothing added") {
  Simulation sim;
  sim.registerZeroCrossing(
      "ball.apex", [](Simulation&, double t) { return t - 1.0; }, CrossingDirection::Rising,
      [](Simulation&, double) {});
  CHECK_THROWS_WITH_AS(sim.addModel<SelfBouncingBall>("ball"),
                       doctest::Contains("'ball.apex' already exists"), InputError);
  CHECK(sim.modelNames().empty());
  CHECK_FALSE(sim.findEvent("ball.impact").has_value());
  CHECK_THROWS_AS(sim.get("models.ball.continuousStates.h"), NotFoundError);
}

TEST_CASE("a class that declares a crossing without its residual fails with a clear error") {
  Simulation sim;
  sim.addModel<ForgetfulModel>("forgetful");
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceTimeTo(0.1),
                       doctest::Contains("declares the zero crossing 'c' but its class does not "
                                         "override crossingResidual"),
                       ModelError);
}

TEST_CASE("crossing declarations are checked") {
  struct Twice : ModelSpec {
    Twice() : ModelSpec("Twice", ModelKind::Continuous, "") {
      zeroCrossing("a", CrossingDirection::Either);
      zeroCrossing("a", CrossingDirection::Rising);
    }
  };
  struct BadName : ModelSpec {
    BadName() : ModelSpec("BadName", ModelKind::Continuous, "") {
      zeroCrossing("not a name", CrossingDirection::Either);
    }
  };
  CHECK_THROWS_WITH_AS(Twice(), doctest::Contains("zero crossing 'a': declared twice"), ModelError);
  CHECK_THROWS_WITH_AS(BadName(), doctest::Contains("is not an identifier"), ModelError);
}

}  // namespace
}  // namespace hopsim::test
