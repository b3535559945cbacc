// Explicit Euler: first-order convergence, one step per advance(), non-finite derivatives.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "hopsim/integrators/euler.h"
#include "hopsim/signals/error.h"
#include "ode_problems.h"

namespace hopsim {
namespace {

using test::Vector;

// Global error at tEnd for the sub-step sizes h (dyadic, so tEnd / h steps land exactly).
std::vector<double> eulerErrors(const DerivativeFunction& f, const Vector& x0, double tEnd,
                                const Vector& reference, const std::vector<double>& steps) {
  std::vector<double> errors;
  EulerIntegrator euler;
  euler.resize(x0.size());
  for (double h : steps) {
    const int n = static_cast<int>(std::lround(tEnd / h));
    errors.push_back(test::maxError(test::solve(euler, f, x0, tEnd, n), reference));
  }
  return errors;
}

// The observed order is the least-squares slope of log(error) over log(h) for four halvings of
// h. Euler's global error is C h + O(h^2); at these h the O(h^2) term changes the slope by
// less than 0.01, so +-0.3 (the tolerance for every method) is a loose, robust bound that still
// tells first order from any other.
TEST_CASE("euler converges at order 1 on the harmonic oscillator (analytic reference)") {
  const test::Oscillator oscillator;
  const std::vector<double> h = {1.0 / 512, 1.0 / 1024, 1.0 / 2048, 1.0 / 4096};
  const std::vector<double> errors =
      eulerErrors(oscillator.f(), oscillator.initial(), 4.0, oscillator.exact(4.0), h);
  const double order = test::observedOrder(h, errors);
  MESSAGE("euler, oscillator: errors " << errors[0] << " ... " << errors[3] << ", order " << order);
  CHECK(std::abs(order - 1.0) < 0.3);
}

TEST_CASE("euler converges at order 1 on Van der Pol (reference: rkf45 at rtol 1e-13)") {
  const std::vector<double> h = {1.0 / 512, 1.0 / 1024, 1.0 / 2048, 1.0 / 4096};
  const std::vector<double> errors = eulerErrors(test::vanDerPol(), Vector{{2.0, 0.0}}, 8.0,
                                                 test::vanDerPolReference(8.0, "rkf45"), h);
  const double order = test::observedOrder(h, errors);
  MESSAGE("euler, Van der Pol: errors " << errors[0] << " ... " << errors[3] << ", order "
                                        << order);
  CHECK(std::abs(order - 1.0) < 0.3);
}

TEST_CASE("euler takes exactly one step x + h f(t, x) per advance") {
  EulerIntegrator euler;
  euler.resize(2);
  euler.restart(0.5, Vector{{1.0, 2.0}});
  Vector x(2);
  const DerivativeFunction f = [](double t, const Eigen::Ref<const Vector>& y,
                                  Eigen::Ref<Vector> ydot) {
    ydot[0] = t;
    ydot[1] = -y[1];
  };
  euler.advance(f, 0.75, x);
  CHECK(x[0] == 1.0 + 0.25 * 0.5);
  CHECK(x[1] == 2.0 - 0.25 * 2.0);
  CHECK(euler.statistics().steps == 1);
  CHECK(euler.statistics().rhsEvaluations == 1);
}

TEST_CASE("euler reports a non-finite derivative with its time and index") {
  EulerIntegrator euler;
  euler.resize(3);
  euler.restart(0.0, Vector::Ones(3));
  const DerivativeFunction f = [](double t, const Eigen::Ref<const Vector>&,
                                  Eigen::Ref<Vector> xdot) {
    xdot.setZero();
    if (t >= 0.5) xdot[2] = std::numeric_limits<double>::infinity();
  };
  Vector x(3);
  euler.advance(f, 0.25, x);
  euler.advance(f, 0.5, x);
  CHECK_THROWS_WITH_AS(euler.advance(f, 0.75, x),
                       "euler: non-finite derivative at t = 0.5: xdot[2] = inf; the derivative "
                       "function must return finite values",
                       NumericalError);
}

TEST_CASE("euler dense output is each step's straight line, exact at the steps' ends") {
  // x' = -x t: f depends on both t and x, so the line's slope is f at the step start only.
  const DerivativeFunction f = [](double t, const Eigen::Ref<const Vector>& x,
                                  Eigen::Ref<Vector> xdot) { xdot = -t * x; };
  EulerIntegrator euler;
  euler.resize(1);
  euler.setDenseHistory(true);
  euler.restart(0.5, Vector{{2.0}});
  Vector x1(1), x2(1), x(1);
  euler.advance(f, 1.0, x1);  // x1 = 2 - 0.5 * 0.5 * 2 = 1.5
  euler.advance(f, 2.0, x2);  // x2 = 1.5 - 1 * 1 * 1.5 = 0
  CHECK(x1[0] == 1.5);
  euler.interpolate(0.75, x);
  CHECK(x[0] == doctest::Approx(1.75).epsilon(1e-15));
  euler.interpolate(1.0, x);
  CHECK(x[0] == x1[0]);
  euler.interpolate(1.5, x);
  CHECK(x[0] == doctest::Approx(0.75).epsilon(1e-15));
  euler.interpolate(2.0, x);
  CHECK(x[0] == x2[0]);
}

}  // namespace
}  // namespace hopsim
