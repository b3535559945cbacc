#pragma once
/// @file
/// The common part of the explicit fixed-step methods (euler, rk4).

#include <Eigen/Core>
#include <memory>

#include "hopsim/integrators/integrator.h"

namespace hopsim {

namespace detail {
class DenseHistory;
}

/// An explicit fixed-step method: one step of the method per advance(), from time() to t1. The
/// executive splits each hop into integrationSteps sub-steps and calls advance() once per
/// sub-step. The tolerances and step options of IntegratorOptions do not apply.
///
/// Dense output: with setDenseHistory(true), each step keeps the method's continuous extension,
/// a polynomial in theta = (t - t_step) / h built from the step's own stages (no extra derivative
/// evaluation): x_step + sum_j theta^j c_j, degree+1 vectors per step, in storage that grows only
/// when an interval takes more steps than any before. interpolate() is exact at the interval ends
/// and at the steps' starts.
class FixedStepIntegrator : public Integrator {
 public:
  ~FixedStepIntegrator() override;

  bool isFixedStep() const final { return true; }
  bool hasDenseOutput() const final { return true; }

  void resize(Eigen::Index stateCount) final;
  Eigen::Index size() const final { return x_.size(); }
  void restart(double t0, const Eigen::Ref<const Eigen::VectorXd>& x0) final;
  /// One step of the method from time() to t1.
  /// @throws NumericalError naming the stage time and the first non-finite derivative entry.
  void advance(const DerivativeFunction& f, double t1, Eigen::Ref<Eigen::VectorXd> x) final;
  double time() const final { return t_; }
  /// Evaluates the continuous extension of the step that contains t (at a step boundary, the
  /// step that starts there); x(t0) and x(time()) are returned exactly.
  /// @throws InputError if the history is off or was off during part of the interval, or t is
  /// outside [intervalStart(), time()].
  void interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) const final;

 protected:
  /// @param options validated settings (see makeIntegrator); only the per-state tolerance
  /// length is checked here, at resize().
  /// @param extensionDegree the degree in theta of the method's continuous extension.
  FixedStepIntegrator(IntegratorOptions options, int extensionDegree);

  /// Sizes the method's stage storage for `stateCount` states.
  virtual void resizeStages(Eigen::Index stateCount) = 0;
  /// Advances x_ from t_ to t1 in place (the last stage is evaluated at t1 itself, never at a
  /// rounded t_ + h past it).
  virtual void step(const DerivativeFunction& f, double t1) = 0;
  /// Writes the coefficients c_1 .. c_degree (the columns of c, in order) of the continuous
  /// extension of the step of size h just taken, from the stages step() left behind.
  virtual void writeContinuousExtension(double h, Eigen::Ref<Eigen::MatrixXd> c) const = 0;
  /// k = f(t, at), counted; checked at once, so a message names the time at which the
  /// derivative first went bad.
  void evaluate(const DerivativeFunction& f, double t, const Eigen::VectorXd& at,
                Eigen::VectorXd& k);

  double t_ = 0.0;
  Eigen::VectorXd x_;  // state at t_

 private:
  std::unique_ptr<detail::DenseHistory> history_;  // x_step, c_1 .. c_degree per step
};

}  // namespace hopsim
