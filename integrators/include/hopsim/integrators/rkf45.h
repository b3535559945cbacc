#pragma once
/// @file
/// The error-controlled embedded Runge-Kutta 4(5) method with dense output: Dormand-Prince.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string_view>

#include "hopsim/integrators/integrator.h"

namespace hopsim {

namespace detail {
class DenseHistory;
}

/// "rkf45": the embedded Runge-Kutta pair of Dormand & Prince, RK5(4)7M (J. Comp. Appl. Math. 6,
/// 1980), as in Hairer's DOPRI5 and MATLAB's ode45, chosen over Fehlberg's 4(5) pair because it
/// has the same cost per step with smaller error constants, is "first same as last" (the
/// derivative at the end of an accepted step is the first stage of the next: 6 evaluations per
/// step) and has a free continuous extension of order 4 (Shampine, Math. Comp. 46, 1986).
///
/// The step advances with the 5th-order solution (local extrapolation); the difference to the
/// embedded 4th-order one estimates the local error. A step is accepted when
///   err = sqrt(1/n sum_i (e_i / (atol_i + rtol max(|x_i(t)|, |x_i(t+h)|)))^2) <= 1,
/// the mixed norm of Hairer, Nørsett & Wanner (Solving ODEs I, II.4). The next step follows the
/// PI controller of DOPRI5: h_new = h * clamp(0.9 err^-0.17 errPrev^0.04, 0.2, 10), not growing
/// right after a rejection; a rejected step shrinks by max(0.2, 0.9 err^-0.2). The first step
/// of each interval is `initialStep` or Hairer's estimate (one extra evaluation), capped by the
/// interval and `maxStep`. Steps never pass t1: the step that would reach past t1 is shortened to
/// end exactly on t1 (and a remainder just over one step is split in two equal steps, so no
/// sliver step is left). A stage with a non-finite derivative rejects the step (h / 5); the
/// method fails when the step underflows.
///
/// Dense output: with setDenseHistory(true), each accepted step keeps the 5 coefficient vectors
/// of Shampine's quartic (5 n doubles per step) in storage that grows only when an interval
/// needs more steps than any before; interpolate() is then exact (bit for bit) at the interval
/// ends and 4th-order accurate inside.
class Rkf45Integrator final : public Integrator {
 public:
  /// @param options validated settings (see makeIntegrator).
  explicit Rkf45Integrator(IntegratorOptions options = {});
  ~Rkf45Integrator() override;

  std::string_view name() const override { return "rkf45"; }
  bool isFixedStep() const override { return false; }
  bool hasDenseOutput() const override { return true; }
  bool stepsProjected() const override { return static_cast<bool>(projection_); }

  void resize(Eigen::Index stateCount) override;
  Eigen::Index size() const override { return x_.size(); }
  void restart(double t0, const Eigen::Ref<const Eigen::VectorXd>& x0) override;
  /// The first step of this interval is h instead of the starting estimate (unless
  /// IntegratorOptions::initialStep is set); h must be positive and finite.
  /// @throws InputError otherwise.
  void proposeFirstStep(double h) override;
  /// The step the PI controller proposed after the last accepted step (a step cut short to end
  /// the interval keeps the step it replaced); after restart(), 0 until a first step is proposed.
  double stepProposal() const override { return h_; }
  /// Takes error-controlled steps from time() to exactly t1. The first advance() after a
  /// restart evaluates f(t0, x0) (and, without initialStep or a proposed first step, one more
  /// derivative for the step estimate); later ones continue with the previous step size.
  /// @throws NumericalError for a non-finite derivative at the interval start, a step size
  /// underflow (naming t and h, and the last non-finite derivative if that was the cause) or
  /// more than maxStepsPerAdvance steps.
  void advance(const DerivativeFunction& f, double t1, Eigen::Ref<Eigen::VectorXd> x) override;
  double time() const override { return t_; }
  /// Evaluates Shampine's interpolant of the step that contains t (at a step boundary, the
  /// step that starts there); x(t0) and x(time()) are returned exactly.
  /// @throws InputError if the history is off or was off during part of the interval, or t is
  /// outside [t0 of restart(), time()].
  void interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) const override;

  /// Accepted steps since the last restart() (the number of dense-output pieces when the
  /// history is on).
  std::int64_t stepsSinceRestart() const { return stepsSinceRestart_; }

 private:
  // One attempted step of size h from (t_, x_) ending at tEnd; fills y1_, k2_..k7_, returns the
  // error norm (non-finite if a stage derivative was).
  double attemptStep(const DerivativeFunction& f, double h, double tEnd);
  // Hairer's starting step size for the interval [t_, t1] (HNW I, II.4), within hMax.
  double initialStepEstimate(const DerivativeFunction& f, double t1, double hMax);
  // Appends the dense-output coefficients of the step just accepted (of size h from t_).
  void recordStep(double h);
  // Absolute tolerance of state i.
  double atol(Eigen::Index i) const;

  double t_ = 0.0;
  double h_ = 0.0;               // proposed next step; 0: not yet estimated in this interval
  double errorPrevious_ = 1e-4;  // error norm of the last accepted step (PI controller memory)
  bool haveK1_ = false;          // k1_ holds f(t_, x_) (first same as last)
  std::int64_t stepsSinceRestart_ = 0;

  Eigen::VectorXd x_, y1_, stage_, error_, scale_;
  Eigen::VectorXd k1_, k2_, k3_, k4_, k5_, k6_, k7_;

  // Dense history: the 5 coefficient vectors of Shampine's quartic per accepted step.
  std::unique_ptr<detail::DenseHistory> history_;
  // Where the last non-finite stage derivative was seen, for the failure message.
  double nonFiniteTime_ = 0.0;
  Eigen::Index nonFiniteIndex_ = -1;
  double nonFiniteValue_ = 0.0;
};

}  // namespace hopsim
