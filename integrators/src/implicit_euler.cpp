// Implicit Euler by Newton's method on G(x1) = x1 - x0 - h f(t1, x1), one iteration
// (linearized) or to convergence.

#include "hopsim/integrators/implicit_euler.h"

#include <cmath>
#include <limits>
#include <string>

#include "hopsim/signals/error.h"
#include "integrator_support.h"

namespace hopsim {

ImplicitEulerIntegrator::ImplicitEulerIntegrator(IntegratorOptions options, bool linearized)
    : FixedStepIntegrator(std::move(options), 1), linearized_(linearized) {}

void ImplicitEulerIntegrator::resizeStages(Eigen::Index stateCount) {
  start_.setZero(stateCount);
  fx_.setZero(stateCount);
  perturbed_.setZero(stateCount);
  fPerturbed_.setZero(stateCount);
  residual_.setZero(stateCount);
  delta_.setZero(stateCount);
  jacobian_.setZero(stateCount, stateCount);
  iteration_.setZero(stateCount, stateCount);
  lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(stateCount);
}

void ImplicitEulerIntegrator::differenceJacobian(const DerivativeFunction& f, double t) {
  // Increment sqrt(eps) max(|x_j|, atol_j / rtol): relative for states well above their
  // tolerance scale, and for a state near zero a fixed fraction of the magnitude the tolerances
  // call significant, so the difference keeps about half the digits either way.
  const double root = std::sqrt(std::numeric_limits<double>::epsilon());
  perturbed_ = x_;
  for (Eigen::Index j = 0; j < x_.size(); ++j) {
    const double scale = detail::absoluteTolerance(options_, j) / options_.relativeTolerance;
    const double increment = root * std::max(std::abs(x_[j]), scale);
    perturbed_[j] = x_[j] + increment;
    const double actual = perturbed_[j] - x_[j];  // the increment as represented
    evaluate(f, t, perturbed_, fPerturbed_);
    jacobian_.col(j) = (fPerturbed_ - fx_) / actual;
    perturbed_[j] = x_[j];
  }
}

double ImplicitEulerIntegrator::correctionNorm() const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < x_.size(); ++i) {
    const double weight =
        detail::absoluteTolerance(options_, i) + options_.relativeTolerance * std::abs(x_[i]);
    const double e = delta_[i] / weight;
    sum += e * e;
  }
  return std::sqrt(sum / static_cast<double>(x_.size()));
}

void ImplicitEulerIntegrator::step(const DerivativeFunction& f, double t1) {
  const double h = t1 - t_;
  start_ = x_;
  const int iterations = linearized_ ? 1 : kMaxNewtonIterations;
  double norm = 0.0;
  for (int k = 0; k < iterations; ++k) {
    evaluate(f, t1, x_, fx_);
    differenceJacobian(f, t1);
    residual_ = start_ - x_ + h * fx_;
    iteration_ = -h * jacobian_;
    iteration_.diagonal().array() += 1.0;
    lu_.compute(iteration_);
    delta_.noalias() = lu_.solve(residual_);
    if (detail::firstNonFinite(delta_) >= 0) {
      throw NumericalError(std::string(name()) + ": the step from t = " + formatNumber(t_) +
                           " to " + formatNumber(t1) +
                           " has a singular Newton matrix I - h df/dx; use a smaller step");
    }
    x_ += delta_;
    norm = correctionNorm();
    if (linearized_ || norm <= 1.0) {
      // The step's last evaluation is at its result, as the caller expects of a step: through
      // the executive, prescribed multibody coordinates and everything the models derive in an
      // evaluation are then those of (t1, x1), not of a Jacobian column's perturbed state.
      evaluate(f, t1, x_, fx_);
      return;
    }
  }
  throw NumericalError(std::string(name()) +
                       ": Newton's iteration for the step from t = " + formatNumber(t_) + " to " +
                       formatNumber(t1) + " did not converge in " + std::to_string(iterations) +
                       " iterations (weighted norm of the last correction " + formatNumber(norm) +
                       ", expected <= 1 with rtol and atol); use a smaller step or looser "
                       "tolerances");
}

void ImplicitEulerIntegrator::writeContinuousExtension(double /*h*/,
                                                       Eigen::Ref<Eigen::MatrixXd> c) const {
  c.col(0) = x_ - start_;
}

}  // namespace hopsim
