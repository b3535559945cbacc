// Classic Runge-Kutta: fourth-order convergence, one step per advance(), non-finite derivatives,
// and its cubic continuous extension (dense output).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "hopsim/integrators/rk4.h"
#include "hopsim/signals/error.h"
#include "ode_problems.h"

namespace hopsim {
namespace {

using test::Vector;

std::vector<double> rk4Errors(const DerivativeFunction& f, const Vector& x0, double tEnd,
                              const Vector& reference, const std::vector<double>& steps) {
  std::vector<double> errors;
  Rk4Integrator rk4;
  rk4.resize(x0.size());
  for (double h : steps) {
    const int n = static_cast<int>(std::lround(tEnd / h));
    errors.push_back(test::maxError(test::solve(rk4, f, x0, tEnd, n), reference));
  }
  return errors;
}

// Observed order: least-squares slope of log(error) over log(h), four halvings of h, +-0.3
// (at these h the next term of C h^4 + O(h^5) moves the slope by about 0.1; the smallest
// error, ~1e-8, is far above the references' accuracy).
TEST_CASE("rk4 converges at order 4 on the harmonic oscillator (analytic reference)") {
  const test::Oscillator oscillator;
  const std::vector<double> h = {1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 64};
  const std::vector<double> errors =
      rk4Errors(oscillator.f(), oscillator.initial(), 4.0, oscillator.exact(4.0), h);
  const double order = test::observedOrder(h, errors);
  MESSAGE("rk4, oscillator: errors " << errors[0] << " ... " << errors[3] << ", order " << order);
  CHECK(std::abs(order - 4.0) < 0.3);
}

TEST_CASE("rk4 converges at order 4 on Van der Pol (reference: rkf45 at rtol 1e-13)") {
  const std::vector<double> h = {1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 64};
  const std::vector<double> errors = rk4Errors(test::vanDerPol(), Vector{{2.0, 0.0}}, 8.0,
                                               test::vanDerPolReference(8.0, "rkf45"), h);
  const double order = test::observedOrder(h, errors);
  MESSAGE("rk4, Van der Pol: errors " << errors[0] << " ... " << errors[3] << ", order " << order);
  CHECK(std::abs(order - 4.0) < 0.3);
}

TEST_CASE("rk4 integrates a cubic in t exactly in one step (its quadrature is Simpson's rule)") {
  Rk4Integrator rk4;
  rk4.resize(1);
  rk4.restart(1.0, Vector{{0.0}});
  Vector x(1);
  // x' = 4 t^3, x(1) = 0: x(3) = 3^4 - 1 = 80.
  rk4.advance([](double t, const Eigen::Ref<const Vector>&,
                 Eigen::Ref<Vector> xdot) { xdot[0] = 4.0 * t * t * t; },
              3.0, x);
  CHECK(x[0] == doctest::Approx(80.0).epsilon(1e-14));
  CHECK(rk4.statistics().steps == 1);
  CHECK(rk4.statistics().rhsEvaluations == 4);
}

TEST_CASE("rk4 reports a non-finite derivative with the stage time and index") {
  Rk4Integrator rk4;
  rk4.resize(2);
  rk4.restart(0.0, Vector::Ones(2));
  // Finite at the step start, NaN from the midpoint stage on.
  const DerivativeFunction f = [](double t, const Eigen::Ref<const Vector>&,
                                  Eigen::Ref<Vector> xdot) {
    xdot[0] = t > 0.2 ? std::numeric_limits<double>::quiet_NaN() : 1.0;
    xdot[1] = 0.0;
  };
  Vector x(2);
  CHECK_THROWS_WITH_AS(rk4.advance(f, 1.0, x),
                       "rk4: non-finite derivative at t = 0.5: xdot[0] = nan; the derivative "
                       "function must return finite values",
                       NumericalError);
}

// One rk4 step of size h from (t0, x0) with the dense history on.
std::unique_ptr<Rk4Integrator> denseStep(const DerivativeFunction& f, double t0, const Vector& x0,
                                         double h) {
  auto rk4 = std::make_unique<Rk4Integrator>();
  rk4->resize(x0.size());
  rk4->setDenseHistory(true);
  rk4->restart(t0, x0);
  Vector x(x0.size());
  rk4->advance(f, t0 + h, x);
  return rk4;
}

TEST_CASE("rk4 dense output is exact when the solution is a cubic in t, and only then") {
  const std::vector<double> thetas = {0.1, 0.25, 0.5, 0.75, 0.9};
  Vector x(3);
  // Quadrature: x' = (1, 2t, 3t^2) from t = 1, x(1) = 0: x = (t - 1, t^2 - 1, t^3 - 1).
  const auto quadrature =
      denseStep([](double t, const Eigen::Ref<const Vector>&,
                   Eigen::Ref<Vector> xdot) { xdot << 1.0, 2.0 * t, 3.0 * t * t; },
                1.0, Vector::Zero(3), 2.0);
  for (double theta : thetas) {
    const double t = 1.0 + 2.0 * theta;
    quadrature->interpolate(t, x);
    CHECK(x[0] == doctest::Approx(t - 1.0).epsilon(1e-14));
    CHECK(x[1] == doctest::Approx(t * t - 1.0).epsilon(1e-14));
    CHECK(x[2] == doctest::Approx(t * t * t - 1.0).epsilon(1e-14));
  }
  // A ball under gravity, through the states: p' = v, v' = -9.81, p(0) = 2, v(0) = 3.
  Vector pv(2);
  const auto ballistic = denseStep([](double, const Eigen::Ref<const Vector>& s,
                                      Eigen::Ref<Vector> sdot) { sdot << s[1], -9.81; },
                                   0.0, Vector{{2.0, 3.0}}, 0.5);
  for (double theta : thetas) {
    const double t = 0.5 * theta;
    ballistic->interpolate(t, pv);
    CHECK(pv[0] == doctest::Approx(2.0 + 3.0 * t - 0.5 * 9.81 * t * t).epsilon(1e-14));
    CHECK(pv[1] == doctest::Approx(3.0 - 9.81 * t).epsilon(1e-14));
  }
  // x' = 4 t^3: the step is exact (Simpson's rule) but a quartic is beyond the cubic's reach.
  Vector q(1);
  const auto quartic = denseStep([](double t, const Eigen::Ref<const Vector>&,
                                    Eigen::Ref<Vector> xdot) { xdot[0] = 4.0 * t * t * t; },
                                 0.0, Vector::Zero(1), 2.0);
  quartic->interpolate(0.5, q);
  CHECK(std::abs(q[0] - 0.0625) > 0.1);  // the cubic gives -0.5, the solution t^4 = 0.0625
}

TEST_CASE("rk4 dense output has local error O(h^4): a third-order continuous extension") {
  // x' = x, x(0) = 1 (x = e^t); one step of h, interpolated at 0.3 h and 0.7 h; slope of the
  // error over h within +-0.3 of 4 (the step end itself is O(h^5)).
  const DerivativeFunction f = [](double, const Eigen::Ref<const Vector>& x,
                                  Eigen::Ref<Vector> xdot) { xdot = x; };
  const std::vector<double> h = {0.2, 0.1, 0.05, 0.025};
  std::vector<double> errors;
  Vector x(1);
  for (double step : h) {
    const auto rk4 = denseStep(f, 0.0, Vector{{1.0}}, step);
    double error = 0.0;
    for (double theta : {0.3, 0.7}) {
      rk4->interpolate(theta * step, x);
      error = std::max(error, std::abs(x[0] - std::exp(theta * step)));
    }
    errors.push_back(error);
  }
  const double order = test::observedOrder(h, errors);
  MESSAGE("rk4 dense output: local errors " << errors[0] << " ... " << errors[3] << ", slope "
                                            << order);
  CHECK(std::abs(order - 4.0) < 0.3);
}

TEST_CASE(
    "rk4 dense output over many steps: exact at the steps' ends, near the oscillator inside") {
  const test::Oscillator oscillator;
  Rk4Integrator rk4;
  rk4.resize(2);
  rk4.setDenseHistory(true);
  rk4.restart(0.0, oscillator.initial());
  // 40 steps of 0.25 s without a restart; the history keeps every one.
  std::vector<Vector> ends;
  Vector x(2);
  for (int k = 1; k <= 40; ++k) {
    rk4.advance(oscillator.f(), 0.25 * k, x);
    ends.push_back(x);
  }
  double worstStepError = 0.0;
  for (int k = 1; k <= 40; ++k) {
    worstStepError =
        std::max(worstStepError, test::maxError(ends[k - 1], oscillator.exact(0.25 * k)));
    rk4.interpolate(0.25 * k, x);  // the start of step k + 1 (the end of the last step)
    CHECK(x == ends[static_cast<std::size_t>(k - 1)]);
  }
  double worst = 0.0;
  for (int i = 0; i < 100; ++i) {
    const double t = 10.0 * (i + 0.5) / 100.0;
    rk4.interpolate(t, x);
    worst = std::max(worst, test::maxError(x, oscillator.exact(t)));
  }
  MESSAGE("rk4, h = 0.25: interpolation error " << worst << ", steps' own error "
                                                << worstStepError);
  // Inside the steps the cubic adds its own O(h^4) to the steps' accumulated error, of the same
  // order: within a small factor of it.
  CHECK(worst < 2.0 * worstStepError);
  rk4.interpolate(0.0, x);
  CHECK(x == oscillator.initial());
}

}  // namespace
}  // namespace hopsim
