// Implicit Euler, linearized (one Newton iteration) and iterated to convergence: the method's
// known amplification on a stiff oscillator, order 1, the Newton equations it solves, failures.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/integrators/implicit_euler.h"
#include "hopsim/signals/error.h"
#include "ode_problems.h"

namespace hopsim {
namespace {

using test::Vector;

// The oscillator's energy norm sqrt(q^2 + (v / omega)^2): the amplitude.
double amplitude(const Vector& x, double omega) { return std::hypot(x[0], x[1] / omega); }

// On q'' = -omega^2 q an implicit Euler step multiplies the complex amplitude q + i v / omega
// by R = 1 / (1 + i h omega) (Hairer & Wanner, Solving ODEs II, section IV.2: the stability
// function 1 / (1 - z) at z = i h omega), so the amplitude by 1 / sqrt(1 + (h omega)^2) and the
// phase by -atan(h omega) per step. The problem is linear, so one Newton iteration solves the
// step exactly and both variants take the same steps; the difference Jacobian is exact up to
// rounding (relative 1e-8 of h omega^2 in the matrix), hence the 1e-6 relative tolerance over 50
// steps.
TEST_CASE("implicit euler: a stiff oscillator decays by 1 / sqrt(1 + (h omega)^2) per step") {
  const test::Oscillator stiff{.omega = 1e4};  // a spring of 1e8 N/m on 1 kg
  const double h = 1e-3;                       // h omega = 10: rk4 is unstable (limit 2.83)
  const int steps = 50;
  const double perStep = 1.0 / std::sqrt(1.0 + h * stiff.omega * h * stiff.omega);
  const double phase = -std::atan(h * stiff.omega);
  for (const char* name : {"euler_implicit_linearized", "euler_implicit"}) {
    CAPTURE(name);
    const auto integrator = test::make(name, {}, 2);
    const Vector x = test::solve(*integrator, stiff.f(), stiff.initial(), steps * h, steps);
    const double expected = std::pow(perStep, steps);
    CHECK(amplitude(x, stiff.omega) == doctest::Approx(expected).epsilon(1e-6));
    // q + i v / omega = expected exp(i steps phase) from 1.
    CHECK(x[0] == doctest::Approx(expected * std::cos(steps * phase)).epsilon(1e-6));
    CHECK(x[1] / stiff.omega == doctest::Approx(expected * std::sin(steps * phase)).epsilon(1e-6));
  }
  // rk4 at the same step multiplies the amplitude by |1 + z + z^2/2 + z^3/6 + z^4/24| at
  // z = 10 i, about 3.8e2 per step: after 50 steps far beyond any state bound.
  const auto rk4 = test::make("rk4", {}, 2);
  const Vector grown = test::solve(*rk4, stiff.f(), stiff.initial(), steps * h, steps);
  CHECK(amplitude(grown, stiff.omega) > 1e100);
}

// Global error C h + O(h^2): the observed order is 1 (+-0.3, as for every method) for both the
// linearized step (a Rosenbrock-Euler method, order 1) and the iterated one.
TEST_CASE("implicit euler converges at order 1 on Van der Pol (reference: rkf45 at rtol 1e-13)") {
  const std::vector<double> h = {1.0 / 512, 1.0 / 1024, 1.0 / 2048, 1.0 / 4096};
  const Vector reference = test::vanDerPolReference(8.0, "rkf45");
  IntegratorOptions tight;  // so that the iteration error stays far below the O(h) error
  tight.relativeTolerance = 1e-12;
  tight.absoluteTolerance = 1e-12;
  for (const char* name : {"euler_implicit_linearized", "euler_implicit"}) {
    CAPTURE(name);
    std::vector<double> errors;
    const auto integrator = test::make(name, tight, 2);
    for (double step : h) {
      const int n = static_cast<int>(std::lround(8.0 / step));
      errors.push_back(test::maxError(
          test::solve(*integrator, test::vanDerPol(), Vector{{2.0, 0.0}}, 8.0, n), reference));
    }
    const double order = test::observedOrder(h, errors);
    MESSAGE(std::string(name) << ", Van der Pol: errors " << errors[0] << " ... " << errors[3]
                              << ", order " << order);
    CHECK(std::abs(order - 1.0) < 0.3);
  }
}

// The iterated method solves x1 = x0 + h f(t1, x1) to its Newton tolerance; the linearized one
// stops after one iteration, whose residual is O(h^2) on a nonlinear problem (Van der Pol with
// mu = 5, one step of 0.05 from (2, 0)). Checked against the defining equation, not against
// another run of the code.
TEST_CASE("euler_implicit solves the backward Euler equation, the linearized step does not") {
  const DerivativeFunction f = test::vanDerPol(5.0);
  const Vector x0{{2.0, 0.0}};
  const double h = 0.05;
  const auto residual = [&](const Vector& x1) {
    Vector f1(2);
    f(h, x1, f1);
    return (x1 - x0 - h * f1).cwiseAbs().maxCoeff();
  };
  IntegratorOptions options;
  options.relativeTolerance = 1e-10;
  options.absoluteTolerance = 1e-10;
  const auto iterated = test::make("euler_implicit", options, 2);
  const Vector x1 = test::solve(*iterated, f, x0, h);
  // Converged: the last correction is below 1e-10 (weighted), and Newton's quadratic
  // convergence leaves the residual far below it.
  CHECK(residual(x1) < 1e-10);
  // f, then one per Jacobian column, per iteration; and f at the result.
  const std::int64_t evaluationsPerIteration = 3;
  CHECK((iterated->statistics().rhsEvaluations - 1) % evaluationsPerIteration == 0);
  CHECK(iterated->statistics().rhsEvaluations > evaluationsPerIteration + 1);  // two or more

  const auto linearized = test::make("euler_implicit_linearized", options, 2);
  const Vector y1 = test::solve(*linearized, f, x0, h);
  CHECK(linearized->statistics().rhsEvaluations == evaluationsPerIteration + 1);
  CHECK(residual(y1) > 1e-6);
  CHECK((y1 - x1).cwiseAbs().maxCoeff() < 10 * h * h);
}

// x' = -100 atan(x) from 10 with h = 1: Newton's method on x1 - 10 + 100 atan(x1) = 0 from
// x1 = 10 overshoots to -64, then to 160, and so on: it never converges, where the root is
// near 0.1. The step fails, and the integrator stays usable after a restart.
TEST_CASE("euler_implicit fails with the step, the norm reached and what to do") {
  const DerivativeFunction f = [](double, const Eigen::Ref<const Vector>& y,
                                  Eigen::Ref<Vector> ydot) { ydot[0] = -100.0 * std::atan(y[0]); };
  const auto integrator = test::make("euler_implicit", {}, 1);
  integrator->restart(0.0, Vector{{10.0}});
  Vector x(1);
  CHECK_THROWS_WITH_AS(
      integrator->advance(f, 1.0, x),
      doctest::Contains("euler_implicit: Newton's iteration for the step from t = 0 to 1 did "
                        "not converge in 10 iterations (weighted norm of the last correction"),
      NumericalError);
  // At a step that resolves the motion (h * 100 = 0.1), it converges.
  integrator->restart(0.0, Vector{{10.0}});
  integrator->advance(f, 1e-3, x);
  Vector f1(1);
  f(1e-3, x, f1);
  CHECK(std::abs(x[0] - 10.0 - 1e-3 * f1[0]) < 1e-9);
}

TEST_CASE("implicit euler: a non-finite derivative is named at the time it appears") {
  const auto integrator = test::make("euler_implicit_linearized", {}, 1);
  integrator->restart(0.0, Vector{{1.0}});
  Vector x(1);
  const DerivativeFunction bad = [](double, const Eigen::Ref<const Vector>& y,
                                    Eigen::Ref<Vector> ydot) { ydot[0] = std::log(y[0] - 1.0); };
  CHECK_THROWS_WITH_AS(integrator->advance(bad, 0.5, x),
                       "euler_implicit_linearized: non-finite derivative at t = 0.5: xdot[0] = "
                       "-inf; the derivative function must return finite values",
                       NumericalError);
}

TEST_CASE("implicit euler: dense output is each step's straight line") {
  const test::Oscillator oscillator;
  const auto integrator = test::make("euler_implicit_linearized", {}, 2);
  integrator->setDenseHistory(true);
  integrator->restart(0.0, oscillator.initial());
  Vector x1(2), x2(2), mid(2);
  integrator->advance(oscillator.f(), 0.25, x1);
  integrator->advance(oscillator.f(), 0.5, x2);
  integrator->interpolate(0.375, mid);
  CHECK((mid - 0.5 * (x1 + x2)).cwiseAbs().maxCoeff() < 1e-15);
  integrator->interpolate(0.5, mid);
  CHECK(mid == x2);
  CHECK(integrator->isFixedStep());
}

}  // namespace
}  // namespace hopsim
