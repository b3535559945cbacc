#pragma once
/// @file
/// SUNDIALS CVODE (variable-order, variable-step BDF or Adams-Moulton) behind the Integrator
/// interface.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/integrators/integrator.h"

namespace hopsim {

/// "cvode": CVODE of SUNDIALS 6 (Hindmarsh et al., ACM TOMS 31, 2005) with the serial N_Vector,
/// a dense matrix and dense direct linear solver for the Newton iteration (Jacobian by
/// difference quotients: CVODE's dense scheme, evaluated here without its per-call allocation), BDF
/// of order 1-5 (stiff problems; IntegratorOptions::multistep) or Adams-Moulton of order 1-12
/// (smooth non-stiff problems). Local error test with relativeTolerance and the scalar or per-state
/// absolute tolerance (CVodeSStolerances / CVodeSVtolerances); maxStep, initialStep (0: CVODE's
/// estimate) and maxStepsPerAdvance (CVodeSetMaxNumSteps) map onto CVODE's options.
///
/// Every restart() re-initialises CVODE (CVodeReInit: order 1, new step estimate). With
/// IntegratorOptions::continueAcrossHops, continueInterval() after a successful advance() goes
/// on from where it ended with CVODE's order, step size and Nordsieck history. Every
/// advance() sets CVODE's stop time to t1, so no step and no derivative evaluation passes t1.
/// CVODE's minimum step is 16 ulps of t, so that a step that cannot advance t fails promptly;
/// it follows t across the interval, which advance() crosses in segments within which |t| at
/// most doubles (a hop much shorter than its start time is one segment). Statistics accumulate
/// across restarts: steps and error-test failures from CVODE's counters, derivative evaluations
/// counted at the call (including the difference-quotient Jacobian ones).
///
/// Dense output: with setDenseHistory(true), advance() steps with CV_ONE_STEP and keeps, for
/// every internal step, its end tn, size hu, order q and the derivatives CVodeGetDky(tn, k),
/// k = 0..q, which define exactly the Nordsieck polynomial CVODE itself interpolates with over
/// [tn - hu, tn]: (q + 1) n doubles per step (q <= 5 for BDF, <= 12 for Adams) in storage that
/// grows only when an interval needs more than any before. Without the history, advance()
/// takes its first step with CV_ONE_STEP, then goes on with CV_NORMAL to each segment's end
/// (fewer returns from CVODE, same steps).
///
/// CVODE's own error printing is silenced; its message becomes part of the NumericalError.
/// Not copyable or movable: CVODE keeps a pointer to the object.
class CvodeIntegrator final : public Integrator {
 public:
  /// @param options validated settings (see makeIntegrator).
  explicit CvodeIntegrator(IntegratorOptions options = {});
  ~CvodeIntegrator() override;
  CvodeIntegrator(const CvodeIntegrator&) = delete;
  CvodeIntegrator& operator=(const CvodeIntegrator&) = delete;

  std::string_view name() const override { return "cvode"; }
  bool isFixedStep() const override { return false; }
  bool hasDenseOutput() const override { return true; }
  bool stepsProjected() const override {
    return projection_ && options_.multistep == MultistepMethod::Bdf;
  }

  /// Creates the CVODE memory, vectors, matrix and linear solver for `stateCount` states (none
  /// for 0 states).
  /// @throws InputError if per-state absolute tolerances do not match `stateCount`;
  /// NumericalError if SUNDIALS fails to set up.
  void resize(Eigen::Index stateCount) override;
  Eigen::Index size() const override { return size_; }
  /// The difference-quotient Jacobian then perturbs one state of every group per evaluation (as
  /// many evaluations as the largest group has states) once a first Jacobian, built column by
  /// column, has shown every entry between different groups to be exactly zero; if one is not,
  /// the groups are dropped and every Jacobian is built column by column. Where the groups are
  /// right, both ways give the same matrix bit for bit.
  void setCouplingGroups(const std::vector<Eigen::Index>& groupOfState) override;
  void restart(double t0, const Eigen::Ref<const Eigen::VectorXd>& x0) override;
  /// continueAcrossHops set, a state to integrate, and the last advance() succeeded and ended
  /// at t.
  bool canContinueAt(double t) const override;
  /// Makes time() the start of a new interval without CVodeReInit: the next advance() steps on
  /// from CVODE's own last step (CVODE stops a few ulps short of a stop time and interpolates
  /// there, so its first step in the new interval starts those few ulps before time()).
  void continueInterval() override;
  /// Integrates to exactly t1 with stop time t1. An interval too short for CVODE (below 16
  /// ulps of t, as zero-crossing localization can produce) is crossed with one explicit Euler
  /// step, after which CVODE is re-initialised at t1.
  /// @throws NumericalError naming "cvode", the time reached, CVODE's return flag name
  /// (CV_TOO_MUCH_WORK, CV_CONV_FAILURE, ...) and its message, or a non-finite derivative;
  /// an exception thrown by `f` is rethrown unchanged.
  void advance(const DerivativeFunction& f, double t1, Eigen::Ref<Eigen::VectorXd> x) override;
  double time() const override { return t_; }
  /// Evaluates CVODE's interpolating polynomial of the internal step containing t (at a step
  /// boundary, the step ending there); x(t0) and x(time()) are returned exactly.
  /// @throws InputError if the history is off or was off during part of the interval, or t is
  /// outside [t0 of restart(), time()].
  void interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) const override;

  /// Internal steps since the last restart() or continueInterval() (the number of dense-output
  /// pieces when the history is on).
  std::int64_t stepsSinceRestart() const { return stepOffset_ + cvodeSteps_; }

 private:
  struct Sundials;  // CVODE memory, context, vectors, nonlinear or linear solver (cvode.cpp)

  // Reads CVODE's counters and adds what is new since the last read to statistics_.
  void collectStatistics();
  // Appends the Nordsieck data of CVODE's last step to the dense history.
  void recordStep();
  // Appends a step of polynomial order `order` ending at tEnd; returns its first column.
  Eigen::Index appendStep(double tEnd, double h, int order);
  // Crosses an interval too short for CVODE with one explicit Euler step.
  void eulerStep(const DerivativeFunction& f, double t1);
  // Throws the NumericalError (or the derivative function's exception) for a failed CVode call.
  [[noreturn]] void fail(int flag, double t1);
  // Advice appended to a failure's message when fixed-point iteration may be its cause.
  std::string stiffnessHint() const;

  std::unique_ptr<Sundials> sundials_;
  Eigen::Index size_ = 0;
  double t_ = 0.0;
  bool advanced_ = false;    // the last advance() succeeded and nothing has reset CVODE since
  Eigen::VectorXd x0_;       // state at t0_, for the exact interval start
  Eigen::VectorXd scratch_;  // a derivative outside CVODE (the Euler fallback)

  // Set during advance(): the derivative function, and what went wrong inside it.
  const DerivativeFunction* f_ = nullptr;
  std::exception_ptr derivativeException_;
  double nonFiniteTime_ = 0.0;
  Eigen::Index nonFiniteIndex_ = -1;
  double nonFiniteValue_ = 0.0;
  // CVODE's last error message (fixed storage: the handler must not allocate).
  std::array<char, 512> cvodeMessage_{};

  // CVODE's counters at the last read (they restart from 0 at CVodeReInit).
  long cvodeSteps_ = 0;
  long cvodeErrorTestFailures_ = 0;
  std::int64_t stepOffset_ = 0;  // steps taken outside CVODE since the restart

  // Dense history: step i ends at stepEnd_[i], has size stepSize_[i], order stepOrder_[i], and
  // its Taylor coefficients d^k x/dt^k (tn) / k! are columns stepColumn_[i] + k of history_.
  bool historyComplete_ = false;
  std::size_t recordedSteps_ = 0;
  Eigen::Index usedColumns_ = 0;
  std::vector<double> stepEnd_, stepSize_;
  std::vector<int> stepOrder_;
  std::vector<Eigen::Index> stepColumn_;
  Eigen::MatrixXd history_;
};

}  // namespace hopsim
