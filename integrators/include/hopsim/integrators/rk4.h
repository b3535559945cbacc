#pragma once
/// @file
/// The classic fourth-order Runge-Kutta method: one step per advance().

#include <Eigen/Core>
#include <string_view>

#include "hopsim/integrators/fixed_step_integrator.h"

namespace hopsim {

/// Classic Runge-Kutta (Kutta 1901; Hairer, Nørsett & Wanner, Solving ODEs I, table II.1.2):
/// global error O(h^4), four derivative evaluations per step. Dense output: the method's cubic
/// continuous extension from the same four stages (third order, no extra evaluation).
class Rk4Integrator final : public FixedStepIntegrator {
 public:
  explicit Rk4Integrator(IntegratorOptions options = {});
  std::string_view name() const override { return "rk4"; }

 private:
  void resizeStages(Eigen::Index stateCount) override;
  void step(const DerivativeFunction& f, double t1) override;
  void writeContinuousExtension(double h, Eigen::Ref<Eigen::MatrixXd> c) const override;

  Eigen::VectorXd stage_;  // the argument of the current stage evaluation
  Eigen::VectorXd k1_, k2_, k3_, k4_;
};

}  // namespace hopsim
