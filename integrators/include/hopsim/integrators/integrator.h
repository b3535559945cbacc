#pragma once
/// @file
/// The interface every numerical integrator of hopsim implements, and the factory that selects
/// one by name (docs/integrators.md).

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hopsim {

/// Evaluates the state derivative: writes dx/dt at (t, x) into `xdot`. Called many times per
/// step; must not allocate.
using DerivativeFunction = std::function<void(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                                              Eigen::Ref<Eigen::VectorXd> xdot)>;

/// Maps an accepted state x at time t onto the manifold the solution lives on (unit
/// quaternions, constraints), in place.
using StepProjection = std::function<void(double t, Eigen::Ref<Eigen::VectorXd> x)>;

/// Linear multistep family for cvode.
enum class MultistepMethod : std::uint8_t { Bdf, Adams };

/// How cvode solves the implicit equation of each step (docs/integrators.md, "cvode").
/// Newton's method with a dense difference-quotient Jacobian (n derivative evaluations per
/// Jacobian, an n x n LU) converges on stiff problems; fixed-point iteration needs neither but
/// more corrector iterations per step: with Adams on a non-stiff problem of many states it can
/// be several times cheaper, and on a stiff one it converges only at tiny steps.
enum class NonlinearSolver : std::uint8_t { Newton, FixedPoint };

/// Settings of an integrator. Fixed-step methods ignore the tolerances; variable-step methods
/// ignore nothing here.
struct IntegratorOptions {
  /// Relative tolerance of the local error test (variable-step methods).
  double relativeTolerance = 1e-6;
  /// Absolute tolerance for every state, unless `absoluteTolerances` is given.
  double absoluteTolerance = 1e-9;
  /// Per-state absolute tolerances; empty means "use absoluteTolerance for all". Its length must
  /// match the state count at restart.
  Eigen::VectorXd absoluteTolerances;
  /// Largest internal step, s; 0 means unbounded (the interval end still bounds it).
  double maxStep = 0.0;
  /// First internal step of each interval, s; 0 lets the method choose.
  double initialStep = 0.0;
  /// Most internal steps allowed in one advance() call before it fails.
  std::int64_t maxStepsPerAdvance = 100000;
  /// cvode only: BDF (stiff) or Adams-Moulton (non-stiff).
  MultistepMethod multistep = MultistepMethod::Bdf;
  /// cvode only: Newton's method (any problem; CVODE's default) or fixed-point iteration
  /// (non-stiff problems, with Adams).
  NonlinearSolver nonlinearSolver = NonlinearSolver::Newton;
  /// cvode only: let the executive continue CVODE's history (order, step size, Nordsieck array)
  /// from one hop into the next where nothing changed at the hop boundary, instead of
  /// re-initialising it at every hop (docs/integrators.md, "cvode across hops").
  bool continueAcrossHops = false;
};

/// Work counters, cumulative since construction or resetStatistics().
struct IntegratorStatistics {
  std::int64_t steps = 0;              ///< accepted internal steps
  std::int64_t rhsEvaluations = 0;     ///< derivative-function calls
  std::int64_t errorTestFailures = 0;  ///< rejected steps (variable-step methods)
  std::int64_t restarts = 0;           ///< restart() calls
  std::int64_t continuations = 0;      ///< continueInterval() calls
};

/// Advances a continuous state x(t) across integration intervals. The executive calls
/// `restart` at every hop start (hops are where discontinuities live), or `continueInterval`
/// where the method can continue and nothing changed there, then `advance` once per integration
/// sub-step (fixed-step methods) or once per hop (variable-step methods).
///
/// No method allocates after `resize`, except the dense-output history, which grows to the
/// largest number of internal steps seen in one interval and then stays.
class Integrator {
 public:
  virtual ~Integrator() = default;

  /// The name it is selected by ("rk4").
  virtual std::string_view name() const = 0;
  /// True when the method takes exactly one step per advance() (euler, rk4): the executive then
  /// splits a hop into integrationSteps sub-steps. False for error-controlled methods.
  virtual bool isFixedStep() const = 0;
  /// True when interpolate() is available after advance().
  virtual bool hasDenseOutput() const = 0;

  /// Sizes internal storage for `stateCount` states. Allocates; call when the state count
  /// changes (at lock()), never inside a hop.
  virtual void resize(Eigen::Index stateCount) = 0;
  /// The state count of the last resize().
  virtual Eigen::Index size() const = 0;
  /// Which states may influence which derivatives: `groupOfState[i]` is state i's group, and a
  /// state never influences the derivative of a state in another group. A method that builds a
  /// difference-quotient Jacobian (cvode with Newton) may then perturb one state of every group
  /// in the same derivative evaluation. Forgotten by resize(); ignored by default, and cvode
  /// throws InputError if `groupOfState` does not have size() entries.
  virtual void setCouplingGroups(const std::vector<Eigen::Index>& groupOfState) {
    (void)groupOfState;
  }

  /// Starts a new interval at (t0, x0): forgets all history (multistep memory, step-size
  /// estimates, dense output). Does not allocate.
  /// @throws InputError if x0 does not have size() entries.
  virtual void restart(double t0, const Eigen::Ref<const Eigen::VectorXd>& x0) = 0;
  /// After restart(): try h (s, > 0) as the first internal step of the new interval instead of
  /// the method's own starting estimate. Only a hint: the error test still accepts or rejects
  /// the step, and a nonzero IntegratorOptions::initialStep takes precedence. The executive
  /// passes the stepProposal() that ended the previous interval when the new one starts at the
  /// same time and state (docs/integrators.md, "The step size across hops"). Ignored by
  /// default: fixed-step methods and cvode (which restarts at order 1) take no hint.
  virtual void proposeFirstStep(double h) { (void)h; }
  /// The step size (s) the method would try next: after advance(), what its error control
  /// proposed from the last accepted step; 0 when it has no proposal (by default, and for the
  /// fixed-step methods and cvode).
  virtual double stepProposal() const { return 0.0; }

  /// True when continueInterval() may be called now, at time t: the method keeps a history
  /// worth continuing (cvode with IntegratorOptions::continueAcrossHops), and its last advance()
  /// succeeded and ended at t. False by default.
  virtual bool canContinueAt(double t) const {
    (void)t;
    return false;
  }
  /// Starts a new interval at time() from the state the last advance() returned, keeping the
  /// method's history (multistep memory, order, step size); the dense output starts again
  /// there. Valid only if the derivative function is the same on both sides of time(): the
  /// caller must restart() instead where anything it reads may have jumped.
  /// @throws InputError unless canContinueAt(time()).
  virtual void continueInterval();

  /// Advances from the current time to exactly t1 (> current time), writing x(t1) into `x`.
  /// Fixed-step methods take one step; variable-step methods take as many internal steps as
  /// their error control needs and never step past t1.
  /// @throws NumericalError when the method fails (step size underflow, too many steps, a
  /// non-finite derivative, a SUNDIALS error), naming the method, t and the reason.
  virtual void advance(const DerivativeFunction& f, double t1, Eigen::Ref<Eigen::VectorXd> x) = 0;

  /// The current time: t0 of restart(), then the t1 of the last advance().
  virtual double time() const = 0;
  /// The t0 of the last restart(): the start of the span that interpolate() covers.
  double intervalStart() const { return t0_; }

  /// Dense output: x(t) for any t in [t0 of the last restart(), time()], from the method's own
  /// continuous extension over every internal step since the restart. Valid only while the
  /// history is on (setDenseHistory(true)) and only if hasDenseOutput().
  /// @throws InputError for t outside that span or a method without dense output.
  virtual void interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) const;

  /// Keeps the continuous extension of every internal step since the last restart (needed to
  /// localize zero crossings across a whole hop). Off by default: then only what the method
  /// needs is kept.
  void setDenseHistory(bool keep) { keepDenseHistory_ = keep; }
  bool denseHistory() const { return keepDenseHistory_; }

  /// Projects the state after every accepted internal step: rkf45 after each step, cvode with
  /// BDF through CVODE's projection interface, after each step's nonlinear solve (set it
  /// before resize()). The fixed-step methods
  /// and cvode with Adams do not call it (stepsProjected() is false): their caller projects
  /// after each advance(), which is one step for the fixed-step methods. Empty: no projection.
  void setStepProjection(StepProjection projection) { projection_ = std::move(projection); }
  /// Whether advance() calls the step projection after every accepted internal step.
  virtual bool stepsProjected() const { return false; }

  const IntegratorOptions& options() const { return options_; }
  const IntegratorStatistics& statistics() const { return statistics_; }
  void resetStatistics() { statistics_ = {}; }
  /// Puts back counters read earlier, so work that is not integration (the re-integrations of
  /// samples) leaves them unchanged.
  void restoreStatistics(const IntegratorStatistics& saved) { statistics_ = saved; }

 protected:
  explicit Integrator(IntegratorOptions options) : options_(std::move(options)) {}

  IntegratorOptions options_;
  IntegratorStatistics statistics_;
  double t0_ = 0.0;  // the last restart()'s t0, set by every method's restart()
  bool keepDenseHistory_ = false;
  StepProjection projection_;
};

/// The names makeIntegrator accepts: "euler", "rk4", "rkf45", "cvode",
/// "euler_implicit_linearized", "euler_implicit".
std::vector<std::string> integratorNames();

/// Creates an integrator by name after validating the options (positive tolerances, per-state
/// tolerances positive and finite, non-negative steps).
/// @throws InputError naming the bad name (with the nearest valid names) or option and value.
std::unique_ptr<Integrator> makeIntegrator(std::string_view name,
                                           const IntegratorOptions& options = {});

}  // namespace hopsim
