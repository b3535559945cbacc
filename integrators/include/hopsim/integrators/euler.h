#pragma once
/// @file
/// The explicit Euler method: first order, one step per advance().

#include <Eigen/Core>
#include <string_view>

#include "hopsim/integrators/fixed_step_integrator.h"

namespace hopsim {

/// Explicit (forward) Euler, x(t1) = x(t) + (t1 - t) f(t, x): global error O(h), one derivative
/// evaluation per step. Dense output: the straight line of each step, x(t) + (s - t) f(t, x).
class EulerIntegrator final : public FixedStepIntegrator {
 public:
  explicit EulerIntegrator(IntegratorOptions options = {});
  std::string_view name() const override { return "euler"; }

 private:
  void resizeStages(Eigen::Index stateCount) override;
  void step(const DerivativeFunction& f, double t1) override;
  void writeContinuousExtension(double h, Eigen::Ref<Eigen::MatrixXd> c) const override;

  Eigen::VectorXd xdot_;  // f(t_, x_)
};

}  // namespace hopsim
