// The step projection: rkf45 and cvode (BDF) call it after every accepted internal step, so a
// state confined to a manifold (here the unit circle of a rotating 2-vector, as a quaternion
// is to the unit sphere) stays on it; the methods that do not call it say so.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "hopsim/integrators/integrator.h"

namespace hopsim {
namespace {

// ẋ = ω J x: rotation at ω; |x| = 1 is invariant, but an integrator drifts off it.
void rotate(double, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> xdot) {
  xdot[0] = -3.0 * x[1];
  xdot[1] = 3.0 * x[0];
}

TEST_CASE("rkf45 and cvode BDF project every accepted step, the others leave it to the caller") {
  struct Case {
    const char* name;
    MultistepMethod multistep;
    bool projects;
  };
  for (const Case& c :
       {Case{"rkf45", MultistepMethod::Bdf, true}, Case{"cvode", MultistepMethod::Bdf, true},
        Case{"cvode", MultistepMethod::Adams, false}, Case{"rk4", MultistepMethod::Bdf, false},
        Case{"euler", MultistepMethod::Bdf, false}}) {
    CAPTURE(std::string(c.name));
    CAPTURE(static_cast<int>(c.multistep));
    IntegratorOptions options;
    options.relativeTolerance = 1e-5;
    options.absoluteTolerance = 1e-8;
    options.multistep = c.multistep;
    auto integrator = makeIntegrator(c.name, options);
    long calls = 0;
    double worstBefore = 0.0;
    integrator->setStepProjection([&](double, Eigen::Ref<Eigen::VectorXd> x) {
      ++calls;
      worstBefore = std::max(worstBefore, std::abs(x.norm() - 1.0));
      x.normalize();
    });
    CHECK(integrator->stepsProjected() == c.projects);
    integrator->resize(2);
    Eigen::VectorXd x(2);
    x << 1.0, 0.0;
    integrator->restart(0.0, x);
    integrator->advance(rotate, c.projects ? 10.0 : 0.01, x);
    if (c.projects) {
      // CVODE projects each step it has solved before the error test, so a step that then
      // fails the test was projected too.
      const auto& stats = integrator->statistics();
      CHECK(calls >= stats.steps);
      CHECK(calls <= stats.steps + stats.errorTestFailures);
      CHECK(worstBefore > 1e-12);  // there was drift to remove
      CHECK(std::abs(x.norm() - 1.0) < 1e-15);
    } else {
      CHECK(calls == 0);
    }
  }
}

}  // namespace
}  // namespace hopsim
