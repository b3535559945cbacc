// cvode (SUNDIALS CVODE): accuracy against the analytic oscillator, the stiff Robertson problem
// against published and independently computed values, the Nordsieck dense history, failures
// and their messages, and intervals too short for CVODE.

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "hopsim/integrators/cvode.h"
#include "hopsim/signals/error.h"
#include "ode_problems.h"
#include "robertson_reference.h"

namespace hopsim {
namespace {

using test::kRobertson;
using test::RobertsonPoint;
using test::Vector;

IntegratorOptions withMethod(MultistepMethod method, double rtol, double atol) {
  IntegratorOptions o;
  o.multistep = method;
  o.relativeTolerance = rtol;
  o.absoluteTolerance = atol;
  return o;
}

std::string label(MultistepMethod method) {
  return method == MultistepMethod::Bdf ? "BDF" : "Adams";
}

TEST_CASE("cvode at rtol 1e-10 matches the analytic oscillator to 1e-8 over 10 s") {
  const test::Oscillator oscillator;
  for (MultistepMethod method : {MultistepMethod::Bdf, MultistepMethod::Adams}) {
    CAPTURE(label(method));
    CvodeIntegrator cvode(withMethod(method, 1e-10, 1e-12));
    cvode.resize(2);
    const Vector x = test::solve(cvode, oscillator.f(), oscillator.initial(), 10.0);
    const double error = test::maxError(x, oscillator.exact(10.0));
    MESSAGE("cvode " << label(method) << ": error " << error << ", " << cvode.statistics().steps
                     << " steps, " << cvode.statistics().rhsEvaluations
                     << " derivative evaluations");
    CHECK(error < 1e-8);
  }
}

TEST_CASE("cvode with fixed-point iteration: the oscillator to 1e-8, without a Jacobian") {
  const test::Oscillator oscillator;
  for (MultistepMethod method : {MultistepMethod::Adams, MultistepMethod::Bdf}) {
    CAPTURE(label(method));
    IntegratorOptions o = withMethod(method, 1e-10, 1e-12);
    o.nonlinearSolver = NonlinearSolver::FixedPoint;
    CvodeIntegrator cvode(o);
    cvode.resize(2);
    const Vector x = test::solve(cvode, oscillator.f(), oscillator.initial(), 10.0);
    CHECK(test::maxError(x, oscillator.exact(10.0)) < 1e-8);
  }

  // 100 uncoupled oscillators, omega = 1 to 1.99 (200 states), Adams at rtol 1e-8: each
  // Jacobian Newton's method renews costs 200 evaluations, which fixed-point iteration saves;
  // it takes more corrector iterations per step instead (on 10 oscillators of omega 1 to 10, 20
  // states, it needs more evaluations than Newton: 877 against 695).
  constexpr Eigen::Index kOscillators = 100;
  const auto omega = [](Eigen::Index k) { return 1.0 + 0.01 * static_cast<double>(k); };
  const DerivativeFunction many = [&omega](double, const Eigen::Ref<const Vector>& x,
                                           Eigen::Ref<Vector> xdot) {
    for (Eigen::Index k = 0; k < kOscillators; ++k) {
      xdot[2 * k] = x[2 * k + 1];
      xdot[2 * k + 1] = -omega(k) * omega(k) * x[2 * k];
    }
  };
  Vector x0 = Vector::Zero(2 * kOscillators);
  for (Eigen::Index k = 0; k < kOscillators; ++k) x0[2 * k] = 1.0;
  std::array<std::int64_t, 2> evaluations{};
  for (NonlinearSolver solver : {NonlinearSolver::Newton, NonlinearSolver::FixedPoint}) {
    IntegratorOptions o = withMethod(MultistepMethod::Adams, 1e-8, 1e-10);
    o.nonlinearSolver = solver;
    CvodeIntegrator cvode(o);
    cvode.resize(2 * kOscillators);
    const Vector x = test::solve(cvode, many, x0, 5.0);
    for (Eigen::Index k = 0; k < kOscillators; ++k) {
      CHECK(std::abs(x[2 * k] - std::cos(omega(k) * 5.0)) < 1e-5);
    }
    evaluations[static_cast<std::size_t>(solver)] = cvode.statistics().rhsEvaluations;
  }
  MESSAGE("100 oscillators, Adams: " << evaluations[0] << " evaluations with Newton, "
                                     << evaluations[1] << " with fixed-point iteration");
  CHECK(2 * evaluations[1] < evaluations[0]);
}

TEST_CASE("an unknown nonlinear solver is refused by name") {
  IntegratorOptions o;
  o.nonlinearSolver = static_cast<NonlinearSolver>(7);
  CHECK_THROWS_WITH_AS(makeIntegrator("cvode", o),
                       doctest::Contains("nonlinearSolver = 7 is invalid; expected "
                                         "NonlinearSolver::Newton or NonlinearSolver::FixedPoint"),
                       InputError);
}

// Robertson reference values and their sources: tests/reference/robertson_reference.h.

/// BDF at rtol 1e-8 with the per-species absolute tolerances of SUNDIALS' cvRoberts_dns
/// example, (1e-8, 1e-14, 1e-6), scaled by 1e-6: unscaled, they allow y1 an absolute error of
/// 1e-8 while y1 decays to 5e-8 (2e-2 relative error at 4e10 measured), so they cannot deliver
/// 1e-5 in every component larger than its atol; scaled, the relative tolerance governs
/// throughout.
IntegratorOptions robertsonOptions() {
  IntegratorOptions o;
  o.multistep = MultistepMethod::Bdf;
  o.relativeTolerance = 1e-8;
  o.absoluteTolerances = Vector{{1e-8, 1e-14, 1e-6}} * 1e-6;
  return o;
}

/// robertsonOptions() with the given nonlinear solver.
IntegratorOptions robertsonOptionsFor(NonlinearSolver solver) {
  IntegratorOptions o = robertsonOptions();
  o.nonlinearSolver = solver;
  return o;
}

TEST_CASE("cvode with fixed-point iteration on a stiff problem fails and says to use Newton") {
  IntegratorOptions o = robertsonOptionsFor(NonlinearSolver::FixedPoint);
  o.maxStepsPerAdvance = 2000;
  CvodeIntegrator cvode(o);
  cvode.resize(3);
  cvode.restart(0.0, Vector{{1.0, 0.0, 0.0}});
  Vector y(3);
  CHECK_THROWS_WITH_AS(cvode.advance(test::robertson(), 1e4, y),
                       doctest::Contains("use NonlinearSolver::Newton"), NumericalError);
  // Newton's method crosses the same interval.
  CvodeIntegrator newton(robertsonOptionsFor(NonlinearSolver::Newton));
  newton.resize(3);
  newton.restart(0.0, Vector{{1.0, 0.0, 0.0}});
  CHECK_NOTHROW(newton.advance(test::robertson(), 1e4, y));
}

TEST_CASE("cvode BDF solves the stiff Robertson problem to t = 4e10 within 1e-5 relative") {
  const IntegratorOptions o = robertsonOptions();
  CvodeIntegrator cvode(o);
  cvode.resize(3);
  cvode.restart(0.0, Vector{{1.0, 0.0, 0.0}});
  Vector y(3);
  std::ostringstream table;
  double worst = 0.0;
  for (const RobertsonPoint& point : kRobertson) {
    cvode.advance(test::robertson(), point.t, y);
    table << "\n  t = " << point.t << ":";
    for (Eigen::Index i = 0; i < 3; ++i) {
      const double reference = point.y[static_cast<std::size_t>(i)];
      const double relative = std::abs(y[i] - reference) / reference;
      table << " " << relative;
      if (reference > o.absoluteTolerances[i]) {
        CAPTURE(point.t);
        CAPTURE(i);
        CHECK(relative < 1e-5);
        worst = std::max(worst, relative);
      }
    }
  }
  const IntegratorStatistics& s = cvode.statistics();
  MESSAGE("Robertson, relative errors of y1, y2, y3:"
          << table.str() << "\n  worst " << worst << "; " << s.steps << " steps, "
          << s.rhsEvaluations << " derivative evaluations, " << s.errorTestFailures
          << " error-test failures");
  // Plausible work for a stiff solver over 11 decades of time (SUNDIALS' example, at rtol
  // 1e-4, takes 509 steps and 729 evaluations): an explicit method would need ~1e14 steps.
  CHECK(s.steps > 200);
  CHECK(s.steps < 20000);
  CHECK(s.rhsEvaluations >= s.steps);
  CHECK(s.rhsEvaluations < 3 * s.steps);
  CHECK(s.errorTestFailures < s.steps / 4);
}

TEST_CASE("cvode crosses Robertson's 11 decades in one advance") {
  // One advance from 0 to 4e10, as a standalone user (or a simulation with one long hop) asks
  // for it: the minimum step CVODE is given must follow the smallest t of the interval. A floor
  // of 16 ulps of t1 (1.4e-4 s) fails at t = 0 with CV_CONV_FAILURE, because the initial
  // transient needs steps of about 1e-6 s.
  CvodeIntegrator cvode(robertsonOptions());
  cvode.resize(3);
  const RobertsonPoint& last = kRobertson[kRobertson.size() - 2];
  REQUIRE(last.t == 4e10);
  const Vector y = test::solve(cvode, test::robertson(), Vector{{1.0, 0.0, 0.0}}, last.t);
  for (Eigen::Index i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(std::abs(y[i] - last.y[static_cast<std::size_t>(i)]) <
          1e-5 * last.y[static_cast<std::size_t>(i)]);
  }
  MESSAGE("Robertson to 4e10 in one advance: " << cvode.statistics().steps << " steps, "
                                               << cvode.statistics().rhsEvaluations
                                               << " derivative evaluations");
}

TEST_CASE("cvode dense output over a many-step interval matches the analytic oscillator") {
  const test::Oscillator oscillator;
  for (MultistepMethod method : {MultistepMethod::Bdf, MultistepMethod::Adams}) {
    CAPTURE(label(method));
    CvodeIntegrator cvode(withMethod(method, 1e-8, 1e-10));
    cvode.resize(2);
    cvode.setDenseHistory(true);
    const Vector x0 = oscillator.initial();
    cvode.restart(0.0, x0);
    Vector x1(2);
    cvode.advance(oscillator.f(), 10.0, x1);
    CHECK(cvode.stepsSinceRestart() > 20);
    double worst = 0.0;
    Vector x(2);
    for (int i = 0; i < 50; ++i) {
      const double t = 10.0 * (i + 0.5) / 50.0;
      cvode.interpolate(t, x);
      worst = std::max(worst, test::maxError(x, oscillator.exact(t)));
    }
    const double endError = test::maxError(x1, oscillator.exact(10.0));
    MESSAGE("cvode " << label(method) << " rtol 1e-8: " << cvode.stepsSinceRestart()
                     << " steps, interpolation error " << worst << ", error at t1 " << endError);
    // The tolerance level: global errors of a few 1e-7 at rtol 1e-8 over 1.6 periods.
    CHECK(worst < 2e-6);
    cvode.interpolate(0.0, x);
    CHECK(x == x0);
    cvode.interpolate(10.0, x);
    CHECK(x == x1);
  }
}

TEST_CASE("cvode names CVODE's flag and message when it fails") {
  IntegratorOptions o;
  o.maxStepsPerAdvance = 5;
  CvodeIntegrator cvode(o);
  cvode.resize(2);
  cvode.restart(0.0, Vector{{2.0, 0.0}});
  Vector x(2);
  CHECK_THROWS_WITH_AS(cvode.advance(test::vanDerPol(), 100.0, x),
                       doctest::Contains("(advancing from 0 to t1 = 100) with CV_TOO_MUCH_WORK: "
                                         "CVode: At t = "),
                       NumericalError);
  CHECK_THROWS_WITH_AS(cvode.advance(test::vanDerPol(), 100.0, x),
                       doctest::Contains("cvode: integration failed at t = "), NumericalError);
  // With the dense history, steps are counted here.
  cvode.setDenseHistory(true);
  cvode.restart(0.0, Vector{{2.0, 0.0}});
  CHECK_THROWS_WITH_AS(cvode.advance(test::vanDerPol(), 100.0, x),
                       doctest::Contains("cvode: took maxStepsPerAdvance = 5 steps and reached "
                                         "only t = "),
                       NumericalError);
}

TEST_CASE("cvode reports a non-finite derivative with CVODE's flag, the time and the index") {
  CvodeIntegrator cvode;
  cvode.resize(2);
  cvode.restart(0.0, Vector{{1.0, 1.0}});
  Vector x(2);
  const DerivativeFunction bad = [](double, const Eigen::Ref<const Vector>&,
                                    Eigen::Ref<Vector> xdot) {
    xdot[0] = 0.0;
    xdot[1] = std::numeric_limits<double>::quiet_NaN();
  };
  CHECK_THROWS_WITH_AS(cvode.advance(bad, 1.0, x), doctest::Contains("with CV_FIRST_RHSFUNC_ERR"),
                       NumericalError);
  CHECK_THROWS_WITH_AS(cvode.advance(bad, 1.0, x),
                       doctest::Contains("non-finite derivative at t = 0: xdot[1] = nan"),
                       NumericalError);
  // Later in the interval: CVODE retries smaller steps, then gives up.
  const DerivativeFunction later = [](double t, const Eigen::Ref<const Vector>& y,
                                      Eigen::Ref<Vector> xdot) {
    xdot = -y;
    if (t > 0.5) xdot[0] = std::numeric_limits<double>::quiet_NaN();
  };
  cvode.restart(0.0, Vector{{1.0, 1.0}});
  std::string message;
  try {
    cvode.advance(later, 1.0, x);
  } catch (const NumericalError& e) {
    message = e.what();
  }
  MESSAGE(message);
  CHECK(message.find("cvode: integration failed at t = 0.") == 0);
  CHECK(message.find("_RHSFUNC_") != std::string::npos);
  CHECK(message.find("; non-finite derivative at t = 0.5") != std::string::npos);
}

TEST_CASE("cvode rethrows the derivative function's exception unchanged and stays usable") {
  CvodeIntegrator cvode;
  cvode.resize(2);
  const test::Oscillator oscillator;
  const DerivativeFunction throwing = [&](double t, const Eigen::Ref<const Vector>& x,
                                          Eigen::Ref<Vector> xdot) {
    if (t > 0.3) throw std::domain_error("model exploded");
    oscillator.f()(t, x, xdot);
  };
  cvode.restart(0.0, oscillator.initial());
  Vector x(2);
  CHECK_THROWS_WITH_AS(cvode.advance(throwing, 1.0, x), "model exploded", std::domain_error);
  cvode.restart(0.0, oscillator.initial());
  cvode.advance(oscillator.f(), 1.0, x);
  CHECK(test::maxError(x, oscillator.exact(1.0)) < 1e-5);
}

TEST_CASE("cvode crosses an interval too short for CVODE with one Euler step") {
  const test::Oscillator oscillator;
  CvodeIntegrator cvode(withMethod(MultistepMethod::Bdf, 1e-8, 1e-10));
  cvode.resize(2);
  cvode.setDenseHistory(true);
  cvode.restart(0.0, oscillator.initial());
  Vector x(2);
  const double t1 = 1.0;
  cvode.advance(oscillator.f(), t1, x);
  // A restart at t = 1 and an interval of 10 ulps, as zero-crossing localization can produce.
  cvode.restart(t1, x);
  double tiny = t1;
  for (int k = 0; k < 10; ++k) tiny = std::nextafter(tiny, 2.0);
  Vector y(2);
  cvode.advance(oscillator.f(), tiny, y);
  CHECK(cvode.time() == tiny);
  CHECK(test::maxError(x, y) < 1e-14);  // 10 ulps of t times |x'| < 1
  Vector z(2);
  cvode.interpolate(tiny, z);
  CHECK(z == y);
  // It goes on from there as usual.
  cvode.advance(oscillator.f(), 3.0, y);
  CHECK(test::maxError(y, oscillator.exact(3.0)) < 1e-6);
  cvode.interpolate(2.0, z);
  CHECK(test::maxError(z, oscillator.exact(2.0)) < 1e-6);
  CHECK(cvode.stepsSinceRestart() > 10);
}

TEST_CASE("cvode honours per-state absolute tolerances") {
  // Two decoupled decays, one a million times smaller: with a scalar atol of 1e-6 the small one
  // is barely controlled; with its own atol of 1e-14 it is as accurate as the large one.
  const DerivativeFunction decay = [](double, const Eigen::Ref<const Vector>& y,
                                      Eigen::Ref<Vector> ydot) { ydot = -y; };
  const Vector y0{{1.0, 1e-6}};
  const auto relativeErrorOfSmall = [&](const IntegratorOptions& o) {
    CvodeIntegrator cvode(o);
    cvode.resize(2);
    const Vector y = test::solve(cvode, decay, y0, 2.0);
    return std::abs(y[1] / (1e-6 * std::exp(-2.0)) - 1.0);
  };
  IntegratorOptions scalar;
  scalar.relativeTolerance = 1e-8;
  scalar.absoluteTolerance = 1e-6;
  IntegratorOptions perState = scalar;
  perState.absoluteTolerances = Vector{{1e-6, 1e-14}};
  const double loose = relativeErrorOfSmall(scalar);
  const double tight = relativeErrorOfSmall(perState);
  MESSAGE("relative error of the small state: scalar atol " << loose << ", per-state " << tight);
  CHECK(tight < 1e-6);
  CHECK(loose > 10.0 * tight);
}

TEST_CASE(
    "cvode continued over 100 intervals: the oscillator to tolerance, far fewer evaluations") {
  // The oscillator over 10 s in 100 intervals of 0.1 s, once re-initialised at each interval
  // and once continued: both must stay at the tolerance level of the analytic solution (global
  // errors of a few 1e-8 at rtol 1e-10); continuing must need far fewer evaluations, since a
  // restart climbs again from order 1 and a first-step estimate at every interval.
  const test::Oscillator oscillator;
  for (MultistepMethod method : {MultistepMethod::Bdf, MultistepMethod::Adams}) {
    CAPTURE(label(method));
    IntegratorOptions o = withMethod(method, 1e-10, 1e-12);
    o.continueAcrossHops = true;
    CvodeIntegrator restarted(o);
    CvodeIntegrator continued(o);
    Vector xRestarted = oscillator.initial();
    Vector xContinued = oscillator.initial();
    restarted.resize(2);
    continued.resize(2);
    continued.restart(0.0, xContinued);
    for (int k = 1; k <= 100; ++k) {
      const double t0 = 0.1 * (k - 1);
      const double t1 = 0.1 * k;
      restarted.restart(t0, xRestarted);
      restarted.advance(oscillator.f(), t1, xRestarted);
      if (k > 1) {
        REQUIRE(continued.canContinueAt(t0));
        continued.continueInterval();
      }
      continued.advance(oscillator.f(), t1, xContinued);
    }
    const IntegratorStatistics& r = restarted.statistics();
    const IntegratorStatistics& c = continued.statistics();
    const double restartedError = test::maxError(xRestarted, oscillator.exact(10.0));
    const double continuedError = test::maxError(xContinued, oscillator.exact(10.0));
    MESSAGE("cvode " << label(method) << ", 100 intervals: restarted " << r.rhsEvaluations
                     << " evaluations, error " << restartedError << "; continued "
                     << c.rhsEvaluations << " evaluations, error " << continuedError);
    CHECK(restartedError < 1e-7);
    CHECK(continuedError < 1e-7);
    CHECK(c.restarts == 1);
    CHECK(c.continuations == 99);
    CHECK(r.continuations == 0);
    CHECK(3 * c.rhsEvaluations < r.rhsEvaluations);
  }
}

TEST_CASE("cvode continued: Robertson to 4e10 through its output times, as one advance") {
  // Continuing at each of Robertson's output times must reproduce the published values as the
  // single advance does (1e-5 relative), with about the work of that advance.
  IntegratorOptions o = robertsonOptions();
  o.continueAcrossHops = true;
  CvodeIntegrator cvode(o);
  cvode.resize(3);
  cvode.restart(0.0, Vector{{1.0, 0.0, 0.0}});
  Vector y(3);
  bool first = true;
  for (const RobertsonPoint& point : kRobertson) {
    if (!first) cvode.continueInterval();
    first = false;
    cvode.advance(test::robertson(), point.t, y);
    for (Eigen::Index i = 0; i < 3; ++i) {
      const double reference = point.y[static_cast<std::size_t>(i)];
      if (reference <= o.absoluteTolerances[i]) continue;
      CAPTURE(point.t);
      CAPTURE(i);
      CHECK(std::abs(y[i] - reference) < 1e-5 * reference);
    }
  }
  CvodeIntegrator once(robertsonOptions());
  once.resize(3);
  test::solve(once, test::robertson(), Vector{{1.0, 0.0, 0.0}}, kRobertson.back().t);
  MESSAGE("Robertson continued through "
          << kRobertson.size() << " output times: " << cvode.statistics().rhsEvaluations
          << " evaluations; one advance: " << once.statistics().rhsEvaluations);
  CHECK(cvode.statistics().restarts == 1);
  CHECK(cvode.statistics().rhsEvaluations < 2 * once.statistics().rhsEvaluations);
}

TEST_CASE("cvode's dense output after continueInterval covers the new interval only") {
  const test::Oscillator oscillator;
  IntegratorOptions o = withMethod(MultistepMethod::Bdf, 1e-8, 1e-10);
  o.continueAcrossHops = true;
  CvodeIntegrator cvode(o);
  cvode.resize(2);
  cvode.setDenseHistory(true);
  cvode.restart(0.0, oscillator.initial());
  Vector x1(2);
  cvode.advance(oscillator.f(), 5.0, x1);
  cvode.continueInterval();
  CHECK(cvode.intervalStart() == 5.0);
  CHECK(cvode.stepsSinceRestart() == 0);
  Vector x2(2);
  cvode.advance(oscillator.f(), 10.0, x2);
  CHECK(cvode.stepsSinceRestart() > 10);
  Vector x(2);
  cvode.interpolate(5.0, x);
  CHECK(x == x1);
  cvode.interpolate(10.0, x);
  CHECK(x == x2);
  double worst = 0.0;
  for (int i = 0; i < 50; ++i) {
    const double t = 5.0 + 5.0 * (i + 0.5) / 50.0;
    cvode.interpolate(t, x);
    worst = std::max(worst, test::maxError(x, oscillator.exact(t)));
  }
  CHECK(worst < 2e-6);  // as over one interval (the dense-output test above)
  CHECK_THROWS_WITH_AS(cvode.interpolate(4.0, x), doctest::Contains("4"), InputError);
}

TEST_CASE("continueInterval is refused where there is nothing to continue") {
  const test::Oscillator oscillator;
  CvodeIntegrator off(withMethod(MultistepMethod::Bdf, 1e-8, 1e-10));
  off.resize(2);
  off.restart(0.0, oscillator.initial());
  Vector x(2);
  off.advance(oscillator.f(), 1.0, x);
  CHECK_FALSE(off.canContinueAt(1.0));
  CHECK_THROWS_WITH_AS(off.continueInterval(),
                       doctest::Contains("IntegratorOptions::continueAcrossHops"), InputError);

  IntegratorOptions o = withMethod(MultistepMethod::Bdf, 1e-8, 1e-10);
  o.continueAcrossHops = true;
  CvodeIntegrator on(o);
  on.resize(2);
  on.restart(0.0, oscillator.initial());
  CHECK_FALSE(on.canContinueAt(0.0));  // restarted, not yet advanced
  CHECK_THROWS_WITH_AS(on.continueInterval(), doctest::Contains("successful advance()"),
                       InputError);
  on.advance(oscillator.f(), 1.0, x);
  CHECK(on.canContinueAt(1.0));
  CHECK_FALSE(on.canContinueAt(0.5));
  // A failed advance leaves CVODE somewhere inside the interval: nothing to continue.
  const DerivativeFunction throwing = [](double, const Eigen::Ref<const Eigen::VectorXd>&,
                                         Eigen::Ref<Eigen::VectorXd>) {
    throw std::runtime_error("model failed");
  };
  on.continueInterval();
  CHECK_THROWS_AS(on.advance(throwing, 2.0, x), std::runtime_error);
  CHECK_FALSE(on.canContinueAt(on.time()));
  on.resize(2);
  CHECK_FALSE(on.canContinueAt(on.time()));

  // The one-step methods keep no history to continue (rkf45 carries only its step size).
  for (const char* name : {"euler", "rk4", "rkf45"}) {
    CAPTURE(name);
    const std::unique_ptr<Integrator> other = makeIntegrator(name, o);
    other->resize(2);
    other->restart(0.0, oscillator.initial());
    other->advance(oscillator.f(), 1.0, x);
    CHECK_FALSE(other->canContinueAt(1.0));
    CHECK_THROWS_WITH_AS(other->continueInterval(), doctest::Contains("keeps no history"),
                         InputError);
  }
}

TEST_CASE("cvode's Jacobian perturbs one state of every coupling group at once, same bits") {
  // Three uncoupled oscillators (w = 1, 2, 3 rad/s) in one state vector: with their groups a
  // Jacobian costs 2 evaluations instead of 6, and since no state reaches another group's
  // derivative, every entry is the one the column-by-column scheme computes: same bits.
  const DerivativeFunction f = [](double, const Eigen::Ref<const Eigen::VectorXd>& x,
                                  Eigen::Ref<Eigen::VectorXd> xdot) {
    for (Eigen::Index k = 0; k < 3; ++k) {
      const double w = static_cast<double>(k + 1);
      xdot[2 * k] = x[2 * k + 1];
      xdot[2 * k + 1] = -w * w * x[2 * k];
    }
  };
  const Vector x0 = Vector::Constant(6, 1.0);
  const auto solveWith = [&](const std::vector<Eigen::Index>& groups, IntegratorStatistics& s) {
    CvodeIntegrator cvode(withMethod(MultistepMethod::Bdf, 1e-10, 1e-12));
    cvode.resize(6);
    if (!groups.empty()) cvode.setCouplingGroups(groups);
    Vector x = x0;
    for (int k = 1; k <= 20; ++k) {  // 20 intervals: a Jacobian at every restart at least
      cvode.restart(0.5 * (k - 1), x);
      cvode.advance(f, 0.5 * k, x);
    }
    s = cvode.statistics();
    return x;
  };
  IntegratorStatistics dense, grouped, wrong;
  const Vector xDense = solveWith({}, dense);
  const Vector xGrouped = solveWith({7, 7, 3, 3, 5, 5}, grouped);
  CHECK(xGrouped == xDense);
  CHECK(grouped.steps == dense.steps);
  MESSAGE("three oscillators, 20 restarts: " << dense.rhsEvaluations << " evaluations column by "
                                             << "column, " << grouped.rhsEvaluations
                                             << " with the groups");
  CHECK(grouped.rhsEvaluations < dense.rhsEvaluations);
  // Groups that split a coupled pair: the first Jacobian shows the coupling, and from then on
  // every Jacobian is built column by column, as without groups.
  const Vector xWrong = solveWith({0, 1, 2, 3, 4, 5}, wrong);
  CHECK(xWrong == xDense);
  CHECK(wrong.rhsEvaluations == dense.rhsEvaluations);

  CvodeIntegrator cvode;
  cvode.resize(6);
  CHECK_THROWS_WITH_AS(cvode.setCouplingGroups({0, 1}), doctest::Contains("2 groups for 6 states"),
                       InputError);
}

}  // namespace
}  // namespace hopsim
