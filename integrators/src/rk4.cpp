// Classic fourth-order Runge-Kutta:
//   k1 = f(t, x), k2 = f(t + h/2, x + h/2 k1), k3 = f(t + h/2, x + h/2 k2), k4 = f(t + h, x + h k3)
//   x(t + h) = x + h/6 (k1 + 2 k2 + 2 k3 + k4).
// Continuous extension (Hairer, Nørsett & Wanner, Solving ODEs I, section II.6, the cubic
// weights of RK4): x(t + theta h) = x + h (b1 k1 + b2 (k2 + k3) + b4 k4) with
//   b1 = theta - 3/2 theta^2 + 2/3 theta^3, b2 = theta^2 - 2/3 theta^3, b4 = -1/2 theta^2 + 2/3
//   theta^3,
// which are the weights above at theta = 1. It is third order (local error O(h^4)), free (the
// step's own stages) and exact when the solution is a cubic polynomial in t.

#include "hopsim/integrators/rk4.h"

namespace hopsim {

Rk4Integrator::Rk4Integrator(IntegratorOptions options)
    : FixedStepIntegrator(std::move(options), 3) {}

void Rk4Integrator::resizeStages(Eigen::Index stateCount) {
  stage_.setZero(stateCount);
  k1_.setZero(stateCount);
  k2_.setZero(stateCount);
  k3_.setZero(stateCount);
  k4_.setZero(stateCount);
}

void Rk4Integrator::step(const DerivativeFunction& f, double t1) {
  const double h = t1 - t_;
  const double tMid = t_ + 0.5 * h;
  evaluate(f, t_, x_, k1_);
  stage_ = x_ + (0.5 * h) * k1_;
  evaluate(f, tMid, stage_, k2_);
  stage_ = x_ + (0.5 * h) * k2_;
  evaluate(f, tMid, stage_, k3_);
  stage_ = x_ + h * k3_;
  evaluate(f, t1, stage_, k4_);
  x_ += (h / 6.0) * (k1_ + 2.0 * k2_ + 2.0 * k3_ + k4_);
}

void Rk4Integrator::writeContinuousExtension(double h, Eigen::Ref<Eigen::MatrixXd> c) const {
  // The b's above in powers of theta.
  c.col(0) = h * k1_;
  c.col(1) = h * (k2_ + k3_ - 1.5 * k1_ - 0.5 * k4_);
  c.col(2) = (2.0 * h / 3.0) * (k1_ - k2_ - k3_ + k4_);
}

}  // namespace hopsim
