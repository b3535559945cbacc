// rkf45 (Dormand-Prince 5(4)): fifth-order convergence, error control, Shampine's dense output
// (exactness, order, accuracy over many steps), non-finite derivatives and step limits.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hopsim/integrators/rkf45.h"
#include "hopsim/signals/error.h"
#include "ode_problems.h"

namespace hopsim {
namespace {

using test::Vector;

// The order is measured at fixed step sizes (test::fixedStep: initialStep = maxStep = h with a
// tolerance so loose that every step is accepted), which isolates the 5th-order propagating
// formula from the step-size controller; dyadic h and end times keep every step exactly h.
std::vector<double> fixedStepErrors(const DerivativeFunction& f, const Vector& x0, double tEnd,
                                    const Vector& reference, const std::vector<double>& steps) {
  std::vector<double> errors;
  for (double h : steps) {
    Rkf45Integrator rkf45(test::fixedStep(h));
    rkf45.resize(x0.size());
    errors.push_back(test::maxError(test::solve(rkf45, f, x0, tEnd), reference));
    CHECK(rkf45.statistics().steps == std::lround(tEnd / h));
    CHECK(rkf45.statistics().errorTestFailures == 0);
  }
  return errors;
}

TEST_CASE("rkf45 converges at order 5 on the harmonic oscillator (analytic reference)") {
  // Least-squares slope of log(error) over log(h), +-0.3: on this linear problem the error is
  // (1/3600) t h^5 + O(h^6) per unit amplitude (the step's stability polynomial differs from
  // exp at h^6), so the slope is 5 within 0.05 here.
  const test::Oscillator oscillator;
  const std::vector<double> h = {1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32};
  const std::vector<double> errors =
      fixedStepErrors(oscillator.f(), oscillator.initial(), 8.0, oscillator.exact(8.0), h);
  const double order = test::observedOrder(h, errors);
  MESSAGE("rkf45, oscillator: errors " << errors[0] << " ... " << errors[3] << ", order " << order);
  CHECK(std::abs(order - 5.0) < 0.3);
}

TEST_CASE("rkf45 converges at order 5 or faster on Van der Pol (reference: cvode Adams 1e-13)") {
  // Dormand and Prince chose the coefficients to make the 5th-order error terms small; on this
  // non-linear problem the h^6 terms still dominate at every step size whose error (> 1e-11)
  // stands clear of the reference's and of rounding: errors fall by ~2^6 per halving here and
  // reach the asymptotic 2^5 only near 1e-12 (measured against a long-double RK4 reference
  // while writing this test). So the slope must be at least 5 - 0.3 (it is a 5th-order
  // method) and not far above 6 (a wrong coefficient would lower the order, never raise it).
  const Vector reference = test::vanDerPolReference(8.0, "cvode");
  // The reference is validated against an independent one (DOPRI5 at the same tolerance).
  CHECK(test::maxError(reference, test::vanDerPolReference(8.0, "rkf45")) < 1e-10);
  const std::vector<double> h = {1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 64};
  const std::vector<double> errors =
      fixedStepErrors(test::vanDerPol(), Vector{{2.0, 0.0}}, 8.0, reference, h);
  const double order = test::observedOrder(h, errors);
  MESSAGE("rkf45, Van der Pol: errors " << errors[0] << " ... " << errors[3] << ", order "
                                        << order);
  CHECK(order > 5.0 - 0.3);
  CHECK(order < 6.5);
}

TEST_CASE("rkf45 meets its tolerance: the global error follows rtol (analytic oscillator)") {
  const test::Oscillator oscillator;
  std::int64_t previousSteps = 0;
  for (double rtol : {1e-4, 1e-6, 1e-8, 1e-10}) {
    CAPTURE(rtol);
    IntegratorOptions o;
    o.relativeTolerance = rtol;
    o.absoluteTolerance = rtol * 1e-2;
    Rkf45Integrator rkf45(o);
    rkf45.resize(2);
    const Vector x = test::solve(rkf45, oscillator.f(), oscillator.initial(), 10.0);
    const double error = test::maxError(x, oscillator.exact(10.0));
    MESSAGE("rtol " << rtol << ": error " << error << ", " << rkf45.statistics().steps << " steps");
    // A local error test of rtol per step accumulates over ~1.6 periods to a few rtol.
    CHECK(error < 10.0 * rtol);
    CHECK(rkf45.statistics().steps > previousSteps);
    previousSteps = rkf45.statistics().steps;
  }
}

TEST_CASE("rkf45 uses 6 evaluations per attempted step plus 2 to start (first same as last)") {
  IntegratorOptions o;
  o.relativeTolerance = 1e-8;
  Rkf45Integrator rkf45(o);
  rkf45.resize(2);
  test::solve(rkf45, test::vanDerPol(), Vector{{2.0, 0.0}}, 8.0);
  const IntegratorStatistics& s = rkf45.statistics();
  // f(t0, x0), one for the initial step estimate, then 6 per attempt (the 7th stage of an
  // accepted step is the 1st of the next).
  CHECK(s.rhsEvaluations == 2 + 6 * (s.steps + s.errorTestFailures));
  CHECK(s.steps > 50);
}

TEST_CASE("rkf45 dense output is exact for solutions that are polynomials of degree <= 4") {
  // x(t) = p(t) with x' = p'(t): the quartic continuous extension reproduces p exactly (up to
  // rounding) inside every step; the 5th-order step itself is exact up to degree 5.
  const auto check = [](int degree, double expectedInteriorError) {
    CAPTURE(degree);
    // p(t) = sum_k (t - 0.3)^k / (k + 1), its derivative term by term.
    const auto p = [degree](double t) {
      double sum = 0.0;
      for (int k = 0; k <= degree; ++k) sum += std::pow(t - 0.3, k) / (k + 1);
      return sum;
    };
    const DerivativeFunction f = [degree](double t, const Eigen::Ref<const Vector>&,
                                          Eigen::Ref<Vector> xdot) {
      double sum = 0.0;
      for (int k = 1; k <= degree; ++k) sum += k * std::pow(t - 0.3, k - 1) / (k + 1);
      xdot[0] = sum;
    };
    Rkf45Integrator rkf45(test::fixedStep(0.5));
    rkf45.resize(1);
    rkf45.setDenseHistory(true);
    rkf45.restart(0.0, Vector{{p(0.0)}});
    Vector x(1);
    rkf45.advance(f, 1.5, x);  // three steps of 0.5
    CHECK(rkf45.stepsSinceRestart() == 3);
    CHECK(x[0] == doctest::Approx(p(1.5)).epsilon(1e-14));
    double worst = 0.0;
    for (int i = 0; i <= 30; ++i) {
      const double t = 1.5 * i / 30.0;
      rkf45.interpolate(t, x);
      worst = std::max(worst, std::abs(x[0] - p(t)));
    }
    if (expectedInteriorError == 0.0) {
      CHECK(worst < 1e-14);
    } else {
      CHECK(worst > expectedInteriorError);  // degree 5 is beyond the interpolant's reach
    }
  };
  check(1, 0.0);
  check(2, 0.0);
  check(3, 0.0);
  check(4, 0.0);
  check(5, 1e-8);
}

TEST_CASE("rkf45 dense output has local error O(h^5): a 4th-order continuous extension") {
  // x' = x, x(0) = 1 (x = e^t); one step of h, interpolated at 0.3 h and 0.7 h; slope of the
  // error over h within +-0.3 of 5.
  const DerivativeFunction f = [](double, const Eigen::Ref<const Vector>& x,
                                  Eigen::Ref<Vector> xdot) { xdot = x; };
  const std::vector<double> h = {0.2, 0.1, 0.05, 0.025};
  std::vector<double> errors;
  for (double step : h) {
    Rkf45Integrator rkf45(test::fixedStep(step));
    rkf45.resize(1);
    rkf45.setDenseHistory(true);
    rkf45.restart(0.0, Vector{{1.0}});
    Vector x(1);
    rkf45.advance(f, step, x);
    double error = 0.0;
    for (double theta : {0.3, 0.7}) {
      rkf45.interpolate(theta * step, x);
      error = std::max(error, std::abs(x[0] - std::exp(theta * step)));
    }
    errors.push_back(error);
  }
  const double order = test::observedOrder(h, errors);
  MESSAGE("rkf45 dense output: local errors " << errors[0] << " ... " << errors[3] << ", slope "
                                              << order);
  CHECK(std::abs(order - 5.0) < 0.3);
}

TEST_CASE("rkf45 dense output over a many-step interval matches the analytic oscillator") {
  const test::Oscillator oscillator;
  IntegratorOptions o;
  o.relativeTolerance = 1e-8;
  o.absoluteTolerance = 1e-10;
  Rkf45Integrator rkf45(o);
  rkf45.resize(2);
  rkf45.setDenseHistory(true);
  const Vector x0 = oscillator.initial();
  rkf45.restart(0.0, x0);
  Vector x1(2);
  rkf45.advance(oscillator.f(), 10.0, x1);
  CHECK(rkf45.stepsSinceRestart() > 20);
  const double endError = test::maxError(x1, oscillator.exact(10.0));
  double worst = 0.0;
  Vector x(2);
  for (int i = 0; i < 50; ++i) {
    const double t = 10.0 * (i + 0.5) / 50.0;
    rkf45.interpolate(t, x);
    worst = std::max(worst, test::maxError(x, oscillator.exact(t)));
  }
  MESSAGE("rkf45 rtol 1e-8: " << rkf45.stepsSinceRestart() << " steps, interpolation error "
                              << worst << ", error at t1 " << endError);
  // The tolerance level: the interpolant is no worse than the steps' own accumulated error.
  CHECK(worst < 1e-6);
  CHECK(worst < 5.0 * std::max(endError, 1e-8));
  // The interval ends are reproduced exactly.
  rkf45.interpolate(0.0, x);
  CHECK(x == x0);
  rkf45.interpolate(10.0, x);
  CHECK(x == x1);
}

TEST_CASE("rkf45 dense history spans several advance() calls and is cleared by restart") {
  const test::Oscillator oscillator;
  Rkf45Integrator rkf45;
  rkf45.resize(2);
  rkf45.setDenseHistory(true);
  rkf45.restart(1.0, oscillator.initial());
  Vector x(2);
  rkf45.advance(oscillator.f(), 2.0, x);
  const Vector atTwo = x;
  rkf45.advance(oscillator.f(), 4.0, x);
  rkf45.interpolate(2.0, x);
  CHECK(x == atTwo);  // a step boundary: the accepted state itself
  rkf45.interpolate(1.5, x);
  CHECK(test::maxError(x, oscillator.exact(0.5)) < 1e-5);
  rkf45.restart(4.0, oscillator.initial());
  CHECK(rkf45.stepsSinceRestart() == 0);
  CHECK_THROWS_AS(rkf45.interpolate(3.0, x), InputError);
  rkf45.interpolate(4.0, x);
  CHECK(x == oscillator.initial());
}

TEST_CASE("rkf45 reports a non-finite derivative at the interval start, naming t and index") {
  Rkf45Integrator rkf45;
  rkf45.resize(2);
  rkf45.restart(0.25, Vector::Ones(2));
  Vector x(2);
  const DerivativeFunction f = [](double, const Eigen::Ref<const Vector>&,
                                  Eigen::Ref<Vector> xdot) {
    xdot[0] = 0.0;
    xdot[1] = -std::numeric_limits<double>::infinity();
  };
  CHECK_THROWS_WITH_AS(rkf45.advance(f, 1.0, x),
                       "rkf45: non-finite derivative at t = 0.25: xdot[1] = -inf; the derivative "
                       "function must return finite values",
                       NumericalError);
}

TEST_CASE("rkf45 rejects steps into a non-finite derivative and fails when h underflows") {
  Rkf45Integrator rkf45;
  rkf45.resize(1);
  rkf45.restart(0.0, Vector{{1.0}});
  Vector x(1);
  const DerivativeFunction f = [](double t, const Eigen::Ref<const Vector>& y,
                                  Eigen::Ref<Vector> xdot) {
    xdot[0] = t > 0.5 ? std::numeric_limits<double>::quiet_NaN() : -y[0];
  };
  std::string message;
  try {
    rkf45.advance(f, 1.0, x);
  } catch (const NumericalError& e) {
    message = e.what();
  }
  MESSAGE(message);
  CHECK(message.find("rkf45: step size underflow at t = ") == 0);
  CHECK(message.find("advancing to t1 = 1): non-finite derivative at t = 0.5") !=
        std::string::npos);
  CHECK(message.find("xdot[0] = nan") != std::string::npos);
  CHECK(rkf45.statistics().errorTestFailures > 10);
  // Until then the steps were accepted: the state approaches e^-0.5.
  CHECK(rkf45.time() <= 0.5);
  CHECK(rkf45.time() > 0.5 - 1e-12);
}

TEST_CASE("rkf45 stops after maxStepsPerAdvance steps") {
  IntegratorOptions o;
  o.maxStepsPerAdvance = 10;
  o.relativeTolerance = 1e-10;
  Rkf45Integrator rkf45(o);
  rkf45.resize(2);
  rkf45.restart(0.0, Vector{{2.0, 0.0}});
  Vector x(2);
  CHECK_THROWS_WITH_AS(rkf45.advance(test::vanDerPol(), 100.0, x),
                       doctest::Contains("rkf45: took maxStepsPerAdvance = 10 steps and "
                                         "reached only t = "),
                       NumericalError);
}

TEST_CASE("rkf45 respects maxStep and initialStep") {
  IntegratorOptions o;
  o.maxStep = 0.1;
  o.initialStep = 1e-3;
  Rkf45Integrator rkf45(o);
  rkf45.resize(2);
  rkf45.setDenseHistory(true);
  test::solve(rkf45, test::Oscillator{}.f(), test::Oscillator{}.initial(), 2.0);
  // At least 2 / 0.1 steps, and more because the first is 1e-3 and grows at most 10x a step.
  CHECK(rkf45.stepsSinceRestart() >= 22);
}

TEST_CASE("rkf45 starts an interval with a proposed first step instead of its estimate") {
  // Two equal 0.5 s intervals of the oscillator. Restarted plainly, the second costs f(t0, x0),
  // one evaluation for the estimate and 6 per attempt; with the first interval's stepProposal()
  // it costs no estimate, and starts with the step the controller had reached.
  IntegratorOptions o;
  o.relativeTolerance = 1e-9;
  o.absoluteTolerance = 1e-12;
  const test::Oscillator oscillator;
  const auto secondInterval = [&](bool propose) {
    Rkf45Integrator rkf45(o);
    rkf45.resize(2);
    Vector x = oscillator.initial();
    rkf45.restart(0.0, x);
    CHECK(rkf45.stepProposal() == 0.0);
    rkf45.advance(oscillator.f(), 0.5, x);
    const double proposal = rkf45.stepProposal();
    CHECK(proposal > 0.0);
    rkf45.resetStatistics();
    rkf45.restart(0.5, x);
    if (propose) rkf45.proposeFirstStep(proposal);
    rkf45.advance(oscillator.f(), 1.0, x);
    const IntegratorStatistics s = rkf45.statistics();
    CHECK(s.rhsEvaluations == (propose ? 1 : 2) + 6 * (s.steps + s.errorTestFailures));
    // Within the tolerance either way (the global error follows rtol: 1e-8 is ten times it).
    CHECK(test::maxError(x, oscillator.exact(1.0)) < 1e-8);
    return s;
  };
  const IntegratorStatistics estimated = secondInterval(false);
  const IntegratorStatistics proposed = secondInterval(true);
  CHECK(proposed.errorTestFailures == 0);
  CHECK(proposed.rhsEvaluations < estimated.rhsEvaluations);

  Rkf45Integrator rkf45(o);
  rkf45.resize(2);
  rkf45.restart(0.0, oscillator.initial());
  for (double bad : {0.0, -1e-3, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    CHECK_THROWS_WITH_AS(rkf45.proposeFirstStep(bad),
                         doctest::Contains("the first step must be positive and finite"),
                         InputError);
  }
  // initialStep, when set, is the first step of every interval: the proposal does not replace
  // it.
  o.initialStep = 1e-3;
  Rkf45Integrator fixedStart(o);
  fixedStart.resize(2);
  fixedStart.restart(0.0, oscillator.initial());
  fixedStart.proposeFirstStep(0.25);
  CHECK(fixedStart.stepProposal() == 0.0);
  Vector x = oscillator.initial();
  fixedStart.advance(oscillator.f(), 0.5, x);
  // From 1e-3, growing at most 10x per step, 0.5 s takes at least 4 steps.
  CHECK(fixedStart.statistics().steps >= 4);
}

}  // namespace
}  // namespace hopsim
