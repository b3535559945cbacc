#pragma once
/// @file
/// Implicit (backward) Euler, with its Newton iteration run to convergence or stopped after its
/// first iteration (the linearized method): one step per advance().

#include <Eigen/Core>
#include <Eigen/LU>
#include <string_view>

#include "hopsim/integrators/fixed_step_integrator.h"

namespace hopsim {

/// Implicit Euler, x1 = x0 + h f(t1, x1), solved by Newton's method on
/// G(x1) = x1 - x0 - h f(t1, x1) from x1 = x0, with the Jacobian df/dx by forward differences
/// at every iterate (n derivative evaluations) and an LU of I - h df/dx:
///
/// - "euler_implicit_linearized" takes exactly one Newton iteration per step (Chrono's default
///   EULER_IMPLICIT_LINEARIZED; a linearly implicit, Rosenbrock-Euler step): n + 2 derivative
///   evaluations (f, n Jacobian columns, f at the result, so that the step's last evaluation is
///   at its result), no convergence test, first order and A-stable on linear problems.
/// - "euler_implicit" iterates until the weighted RMS norm of the Newton correction, with the
///   rtol/atol weights of the error-controlled methods, is at most 1, and fails after
///   kMaxNewtonIterations iterations (Chrono's EULER_IMPLICIT).
///
/// For a mechanism's state (q, u) with q' = N(q) u the first-order step is Chrono's
/// velocity-level step: its q rows read q1 = q0 + h N u1 to first order (docs/integrators.md).
/// Dense output: each step's straight line.
class ImplicitEulerIntegrator final : public FixedStepIntegrator {
 public:
  /// The most Newton iterations of one euler_implicit step. Newton's quadratic convergence from
  /// the previous state reaches any tolerance above rounding in 2 to 4 iterations when the step
  /// resolves the motion; needing more means the step is too large for the nonlinearity.
  static constexpr int kMaxNewtonIterations = 10;

  /// @param linearized one Newton iteration per step ("euler_implicit_linearized") or Newton to
  /// convergence ("euler_implicit").
  ImplicitEulerIntegrator(IntegratorOptions options, bool linearized);
  std::string_view name() const override {
    return linearized_ ? "euler_implicit_linearized" : "euler_implicit";
  }

 private:
  void resizeStages(Eigen::Index stateCount) override;
  /// @throws NumericalError when the Newton iteration does not converge (euler_implicit), or
  /// the iteration matrix is singular, naming the step and the norm reached.
  void step(const DerivativeFunction& f, double t1) override;
  void writeContinuousExtension(double h, Eigen::Ref<Eigen::MatrixXd> c) const override;

  /// jacobian_ = df/dx at (t, x_), by forward differences around fx_ = f(t, x_).
  void differenceJacobian(const DerivativeFunction& f, double t);
  /// The weighted RMS norm of delta_, with weights atol_i + rtol |x_i| (the state x_).
  double correctionNorm() const;

  bool linearized_;
  Eigen::VectorXd start_;      // x at the step start
  Eigen::VectorXd fx_;         // f(t1, x_) at the current iterate
  Eigen::VectorXd perturbed_;  // x_ with one entry moved, for a Jacobian column
  Eigen::VectorXd fPerturbed_;
  Eigen::VectorXd residual_;  // -G(x_) = start_ - x_ + h fx_
  Eigen::VectorXd delta_;     // the Newton correction
  Eigen::MatrixXd jacobian_;
  Eigen::MatrixXd iteration_;  // I - h df/dx
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

}  // namespace hopsim
