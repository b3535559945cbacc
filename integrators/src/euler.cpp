// Explicit Euler: x(t1) = x(t) + (t1 - t) f(t, x).

#include "hopsim/integrators/euler.h"

namespace hopsim {

EulerIntegrator::EulerIntegrator(IntegratorOptions options)
    : FixedStepIntegrator(std::move(options), 1) {}

void EulerIntegrator::resizeStages(Eigen::Index stateCount) { xdot_.setZero(stateCount); }

void EulerIntegrator::step(const DerivativeFunction& f, double t1) {
  evaluate(f, t_, x_, xdot_);
  x_ += (t1 - t_) * xdot_;
}

void EulerIntegrator::writeContinuousExtension(double h, Eigen::Ref<Eigen::MatrixXd> c) const {
  c.col(0) = h * xdot_;
}

}  // namespace hopsim
