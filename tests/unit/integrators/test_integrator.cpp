// The integrator factory (names, option validation, messages) and the contract every integrator
// shares: argument checks, never evaluating past t1, landing exactly on t1, restart() forgetting
// all history, statistics. References: the Integrator interface's documentation.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hopsim/integrators/integrator.h"
#include "hopsim/signals/error.h"
#include "ode_problems.h"

namespace hopsim {
namespace {

using test::Vector;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Every integrator and cvode in its other configurations: (name, options, dense history on).
struct Variant {
  const char* label;
  const char* name;
  IntegratorOptions options;
  bool denseHistory;
};

std::vector<Variant> variants() {
  IntegratorOptions adams;
  adams.multistep = MultistepMethod::Adams;
  return {{"euler", "euler", {}, false},
          {"euler with dense history", "euler", {}, true},
          {"rk4", "rk4", {}, false},
          {"rk4 with dense history", "rk4", {}, true},
          {"rkf45", "rkf45", {}, false},
          {"rkf45 with dense history", "rkf45", {}, true},
          {"cvode BDF", "cvode", {}, false},
          {"cvode BDF with dense history", "cvode", {}, true},
          {"cvode Adams", "cvode", adams, false},
          {"cvode Adams with dense history", "cvode", adams, true}};
}

TEST_CASE("makeIntegrator makes each named integrator with its properties") {
  CHECK(integratorNames() == std::vector<std::string>{"euler", "rk4", "rkf45", "cvode",
                                                      "euler_implicit_linearized",
                                                      "euler_implicit"});
  struct Expected {
    const char* name;
    bool fixedStep;
    bool dense;
  };
  for (const Expected& e :
       {Expected{"euler", true, true}, Expected{"rk4", true, true}, Expected{"rkf45", false, true},
        Expected{"cvode", false, true}, Expected{"euler_implicit_linearized", true, true},
        Expected{"euler_implicit", true, true}}) {
    CAPTURE(e.name);
    const auto integrator = makeIntegrator(e.name);
    CHECK(integrator->name() == e.name);
    CHECK(integrator->isFixedStep() == e.fixedStep);
    CHECK(integrator->hasDenseOutput() == e.dense);
    CHECK_FALSE(integrator->denseHistory());
  }
}

TEST_CASE("an unknown integrator name is an InputError offering the nearest names") {
  CHECK_THROWS_WITH_AS(makeIntegrator("rk45"),
                       "makeIntegrator: unknown integrator 'rk45' (did you mean 'rk4' or "
                       "'rkf45'?); expected one of euler, rk4, rkf45, cvode, "
                       "euler_implicit_linearized, euler_implicit",
                       InputError);
  CHECK_THROWS_WITH_AS(makeIntegrator("CVODE"), doctest::Contains("unknown integrator 'CVODE'"),
                       InputError);
  CHECK_THROWS_WITH_AS(makeIntegrator("leapfrog"),
                       "makeIntegrator: unknown integrator 'leapfrog'; expected one of euler, "
                       "rk4, rkf45, cvode, euler_implicit_linearized, euler_implicit",
                       InputError);
}

TEST_CASE("bad options are InputErrors naming the option, the value and what was expected") {
  const auto bad = [](auto change) {
    IntegratorOptions o;
    change(o);
    return o;
  };
  CHECK_THROWS_WITH_AS(
      makeIntegrator("rkf45", bad([](IntegratorOptions& o) { o.relativeTolerance = -1.0; })),
      "makeIntegrator(\"rkf45\"): relativeTolerance = -1 is invalid; expected a finite value > 0",
      InputError);
  CHECK_THROWS_WITH_AS(
      makeIntegrator("cvode", bad([](IntegratorOptions& o) { o.relativeTolerance = 0.0; })),
      doctest::Contains("relativeTolerance = 0 is invalid"), InputError);
  CHECK_THROWS_WITH_AS(
      makeIntegrator("cvode", bad([](IntegratorOptions& o) { o.relativeTolerance = kNaN; })),
      doctest::Contains("relativeTolerance = nan is invalid"), InputError);
  CHECK_THROWS_WITH_AS(
      makeIntegrator("rk4", bad([](IntegratorOptions& o) { o.absoluteTolerance = 0.0; })),
      "makeIntegrator(\"rk4\"): absoluteTolerance = 0 is invalid; expected a finite value > 0",
      InputError);
  CHECK_THROWS_WITH_AS(
      makeIntegrator("cvode", bad([](IntegratorOptions& o) { o.absoluteTolerance = kInf; })),
      doctest::Contains("absoluteTolerance = inf is invalid"), InputError);
  CHECK_THROWS_WITH_AS(makeIntegrator("cvode", bad([](IntegratorOptions& o) {
                                        o.absoluteTolerances = Vector{{1e-8, 0.0, 1e-6}};
                                      })),
                       "makeIntegrator(\"cvode\"): absoluteTolerances[1] = 0 is invalid; "
                       "expected a finite value > 0",
                       InputError);
  CHECK_THROWS_WITH_AS(makeIntegrator("rkf45", bad([](IntegratorOptions& o) {
                                        o.absoluteTolerances = Vector{{kNaN}};
                                      })),
                       doctest::Contains("absoluteTolerances[0] = nan is invalid"), InputError);
  CHECK_THROWS_WITH_AS(
      makeIntegrator("rkf45", bad([](IntegratorOptions& o) { o.maxStep = -0.1; })),
      "makeIntegrator(\"rkf45\"): maxStep = -0.1 is invalid; expected a finite value >= 0 s "
      "(0: unbounded)",
      InputError);
  CHECK_THROWS_WITH_AS(makeIntegrator("cvode", bad([](IntegratorOptions& o) { o.maxStep = kInf; })),
                       doctest::Contains("maxStep = inf is invalid"), InputError);
  CHECK_THROWS_WITH_AS(
      makeIntegrator("cvode", bad([](IntegratorOptions& o) { o.initialStep = -1e-3; })),
      doctest::Contains("initialStep = -0.001 is invalid; expected a finite value >= 0 s"),
      InputError);
  CHECK_THROWS_WITH_AS(
      makeIntegrator("euler", bad([](IntegratorOptions& o) { o.maxStepsPerAdvance = 0; })),
      "makeIntegrator(\"euler\"): maxStepsPerAdvance = 0 is invalid; expected an integer >= 1",
      InputError);
}

TEST_CASE("per-state absolute tolerances must match the state count at resize") {
  IntegratorOptions o;
  o.absoluteTolerances = Vector{{1e-8, 1e-8}};
  for (const char* name : {"euler", "rk4", "rkf45", "cvode"}) {
    CAPTURE(name);
    const auto integrator = makeIntegrator(name, o);
    CHECK_THROWS_WITH_AS(
        integrator->resize(3),
        (std::string(name) + ": absoluteTolerances has 2 entries but the state vector has 3; "
                             "expected one absolute tolerance per state (or none)")
            .c_str(),
        InputError);
    integrator->resize(2);
    CHECK(integrator->size() == 2);
  }
}

TEST_CASE("restart and advance check their arguments") {
  const test::Oscillator oscillator;
  for (const char* name : {"euler", "rk4", "rkf45", "cvode"}) {
    CAPTURE(name);
    const auto integrator = test::make(name, {}, 2);
    CHECK_THROWS_WITH_AS(
        integrator->restart(0.0, Vector::Zero(3)),
        (std::string(name) + ": restart at t0 = 0: x0 has 3 entries but the integrator was sized "
                             "for 2 states (resize() sets the state count)")
            .c_str(),
        InputError);
    CHECK_THROWS_WITH_AS(integrator->restart(0.5, Vector{{1.0, kNaN}}),
                         doctest::Contains("restart at t0 = 0.5: x0[1] = nan"), InputError);
    CHECK_THROWS_AS(integrator->restart(kNaN, Vector::Zero(2)), InputError);
    integrator->restart(1.0, oscillator.initial());
    Vector x(2);
    CHECK_THROWS_WITH_AS(
        integrator->advance(oscillator.f(), 0.5, x),
        (std::string(name) + ": advance to t1 = 0.5 from the current time 1; expected a finite t1 "
                             "not before the current time (restart() to go back)")
            .c_str(),
        InputError);
    Vector wrong(3);
    CHECK_THROWS_AS(integrator->advance(oscillator.f(), 2.0, wrong), InputError);
    // Advancing to the current time changes nothing.
    integrator->advance(oscillator.f(), 1.0, x);
    CHECK(x == oscillator.initial());
    CHECK(integrator->time() == 1.0);
  }
}

TEST_CASE("advance never evaluates the derivative after t1 and lands exactly on t1") {
  // Irregular interval ends, several advance() calls per restart, and a second restart.
  const std::vector<double> ends = {0.37, 1.1, 1.1000001, 2.9, 7.3};
  for (const Variant& v : variants()) {
    CAPTURE(v.label);
    const auto integrator = test::make(v.name, v.options, 2);
    integrator->setDenseHistory(v.denseHistory);
    double bound = 0.0;
    std::int64_t late = 0;
    const DerivativeFunction f = test::countingCallsAfter(test::vanDerPol(), &bound, &late);
    for (double start : {0.0, 3.5}) {
      integrator->restart(start, Vector{{2.0, 0.0}});
      Vector x(2);
      for (double end : ends) {
        bound = start + end;
        const std::int64_t steps = integrator->statistics().steps;
        integrator->advance(f, bound, x);
        CHECK(integrator->time() == bound);
        CHECK(x.allFinite());
        if (integrator->isFixedStep()) CHECK(integrator->statistics().steps == steps + 1);
      }
    }
    CHECK(late == 0);
  }
}

TEST_CASE("restart forgets all history: the result equals a fresh integrator's, bit for bit") {
  const test::Oscillator fast{7.0};
  for (const Variant& v : variants()) {
    CAPTURE(v.label);
    const auto used = test::make(v.name, v.options, 2);
    const auto fresh = test::make(v.name, v.options, 2);
    used->setDenseHistory(v.denseHistory);
    fresh->setDenseHistory(v.denseHistory);
    // A different problem first, leaving step sizes, order and multistep memory behind.
    Vector x(2);
    used->restart(-3.0, Vector{{0.3, -2.0}});
    used->advance(fast.f(), -1.2, x);
    used->advance(fast.f(), 0.4, x);

    const Vector x0{{2.0, 0.0}};
    const Vector a = test::solve(*used, test::vanDerPol(), x0, 2.5, 3);
    const Vector b = test::solve(*fresh, test::vanDerPol(), x0, 2.5, 3);
    CHECK(a[0] == b[0]);
    CHECK(a[1] == b[1]);
    if (v.denseHistory) {
      Vector ia(2), ib(2);
      used->interpolate(1.234, ia);
      fresh->interpolate(1.234, ib);
      CHECK(ia == ib);
    }
  }
}

TEST_CASE("the dense history does not change the solution") {
  for (const Variant& v : variants()) {
    if (!v.denseHistory) continue;
    CAPTURE(v.label);
    const auto with = test::make(v.name, v.options, 2);
    const auto without = test::make(v.name, v.options, 2);
    with->setDenseHistory(true);
    const Vector x0{{2.0, 0.0}};
    const Vector a = test::solve(*with, test::vanDerPol(), x0, 6.0, 2);
    const Vector b = test::solve(*without, test::vanDerPol(), x0, 6.0, 2);
    CHECK(a == b);
    CHECK(with->statistics().steps == without->statistics().steps);
    CHECK(with->statistics().rhsEvaluations == without->statistics().rhsEvaluations);
  }
}

// A method without a continuous extension, as a user's own Integrator may be: one explicit Euler
// step per advance(), no interpolate() of its own.
class StepOnly final : public Integrator {
 public:
  StepOnly() : Integrator({}) {}
  std::string_view name() const override { return "step-only"; }
  bool isFixedStep() const override { return true; }
  bool hasDenseOutput() const override { return false; }
  void resize(Eigen::Index n) override { x_.setZero(n); }
  Eigen::Index size() const override { return x_.size(); }
  void restart(double t0, const Eigen::Ref<const Vector>& x0) override {
    t0_ = t_ = t0;
    x_ = x0;
  }
  void advance(const DerivativeFunction& f, double t1, Eigen::Ref<Vector> x) override {
    Vector xdot(x_.size());
    f(t_, x_, xdot);
    x_ += (t1 - t_) * xdot;
    t_ = t1;
    x = x_;
  }
  double time() const override { return t_; }

 private:
  double t_ = 0.0;
  Vector x_;
};

TEST_CASE("interpolate is refused without dense output, without history and outside the span") {
  const test::Oscillator oscillator;
  Vector x(2);
  StepOnly stepOnly;
  stepOnly.resize(2);
  test::solve(stepOnly, oscillator.f(), oscillator.initial(), 1.0, 4);
  CHECK_THROWS_WITH_AS(stepOnly.interpolate(0.5, x),
                       "step-only: interpolate(t = 0.5): this method has no dense output "
                       "(hasDenseOutput() is false); re-integrate to t instead",
                       InputError);
  for (const char* name : {"euler", "rk4", "rkf45", "cvode"}) {
    CAPTURE(name);
    const auto integrator = test::make(name, {}, 2);
    test::solve(*integrator, oscillator.f(), oscillator.initial(), 1.0, 4);
    CHECK_THROWS_WITH_AS(integrator->interpolate(0.5, x),
                         doctest::Contains("interpolate(t = 0.5): the dense history is off"),
                         InputError);
    integrator->setDenseHistory(true);
    test::solve(*integrator, oscillator.f(), oscillator.initial(), 1.0, 4);
    CHECK_THROWS_WITH_AS(
        integrator->interpolate(1.5, x),
        (std::string(name) + ": interpolate(t = 1.5): outside the integrated interval [0, 1]")
            .c_str(),
        InputError);
    CHECK_THROWS_AS(integrator->interpolate(-0.1, x), InputError);
    Vector wrong(1);
    CHECK_THROWS_AS(integrator->interpolate(0.5, wrong), InputError);
    CHECK(integrator->intervalStart() == 0.0);
  }
}

TEST_CASE("intervals of a few ulps, as zero-crossing localization produces, are crossed") {
  const test::Oscillator oscillator;
  for (const Variant& v : variants()) {
    CAPTURE(v.label);
    const auto integrator = test::make(v.name, v.options, 2);
    integrator->setDenseHistory(v.denseHistory);
    const double t0 = 1.0;
    integrator->restart(t0, oscillator.exact(t0));
    Vector x(2);
    double t = t0;
    for (int ulps : {1, 10, 100}) {
      for (int k = 0; k < ulps; ++k) t = std::nextafter(t, 2.0);
      integrator->advance(oscillator.f(), t, x);
      CHECK(integrator->time() == t);
      CHECK(test::maxError(x, oscillator.exact(t0)) < 1e-13);
    }
    // And it goes on as usual (50 sub-steps of 0.01 for the fixed-step methods).
    for (int k = 1; k <= 50; ++k) integrator->advance(oscillator.f(), t + (1.5 - t) * k / 50, x);
    const double tolerance = std::string(v.name) == "euler" ? 1e-2 : 1e-5;
    CHECK(test::maxError(x, oscillator.exact(1.5)) < tolerance);
    if (!v.denseHistory) continue;
    // The dense output spans the slivers and the steps after them (the history grew past its
    // first capacity on the way): exact at the restart, within the method's error inside.
    Vector xi(2);
    integrator->interpolate(t0, xi);
    CHECK(xi == oscillator.exact(t0));
    for (double s : {std::nextafter(t0, 2.0), 1.1, 1.25, 1.49}) {
      CAPTURE(s);
      integrator->interpolate(s, xi);
      CHECK(test::maxError(xi, oscillator.exact(s)) < tolerance);
    }
  }
}

TEST_CASE("an empty state vector only moves the time") {
  for (const char* name : {"euler", "rk4", "rkf45", "cvode"}) {
    CAPTURE(name);
    const auto integrator = test::make(name, {}, 0);
    std::int64_t calls = 0;
    const DerivativeFunction f = [&](double, const Eigen::Ref<const Vector>&, Eigen::Ref<Vector>) {
      ++calls;
    };
    integrator->restart(0.0, Vector());
    Vector x;
    integrator->advance(f, 1.0, x);
    CHECK(integrator->time() == 1.0);
    CHECK(calls == 0);
  }
}

TEST_CASE("statistics accumulate across restarts until resetStatistics") {
  const test::Oscillator oscillator;
  for (const Variant& v : variants()) {
    CAPTURE(v.label);
    const auto integrator = test::make(v.name, v.options, 2);
    std::int64_t calls = 0;
    const DerivativeFunction f = [&](double t, const Eigen::Ref<const Vector>& x,
                                     Eigen::Ref<Vector> xdot) {
      ++calls;
      oscillator.f()(t, x, xdot);
    };
    test::solve(*integrator, f, oscillator.initial(), 2.0, 4);
    const IntegratorStatistics first = integrator->statistics();
    test::solve(*integrator, f, oscillator.initial(), 2.0, 4);
    const IntegratorStatistics both = integrator->statistics();
    CHECK(both.restarts == 2);
    CHECK(both.steps == 2 * first.steps);  // same problem twice: same steps
    CHECK(both.rhsEvaluations == 2 * first.rhsEvaluations);
    CHECK(both.errorTestFailures == 2 * first.errorTestFailures);
    CHECK(both.rhsEvaluations == calls);  // every derivative call is counted, and only those
    CHECK(first.steps >= 4);
    integrator->resetStatistics();
    CHECK(integrator->statistics().steps == 0);
    test::solve(*integrator, f, oscillator.initial(), 2.0, 4);
    CHECK(integrator->statistics().steps == first.steps);
  }
}

}  // namespace
}  // namespace hopsim
