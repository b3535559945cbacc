// CVODE (SUNDIALS 6) behind the Integrator interface: setup, re-initialisation at restarts,
// continuation across intervals, stepping to a stop time, the Nordsieck dense history, and errors
// turned into exceptions.

#include "hopsim/integrators/cvode.h"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

#include "column_coloring.h"
#include "hopsim/signals/error.h"
#include "integrator_support.h"

namespace hopsim {

static_assert(std::is_same_v<sunrealtype, double>, "hopsim needs SUNDIALS built for double");

namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// Steps below this many ulps of t make no progress: CVODE's minimum step (see advance()), and
// the length below which an interval is crossed with one Euler step instead of CVODE (which
// refuses intervals of 2 ulps, CV_TOO_CLOSE, and would fail a step clipped below its minimum at
// the first error-test failure).
constexpr double kMinStepUlps = 16.0;

// CVODE takes one minimum step (CVodeSetMinStep) per CVode call, but a step makes progress only
// if it exceeds a few ulps of the current t, which grows along a long interval. So advance()
// crosses [t0, t1] in segments, each with the floor of kMinStepUlps ulps of its smallest |t|:
// within a segment |t| at most doubles (halves, for negative t), and a segment is at least
// 2^-20 of the interval long (a segment that reaches 0 has the floor 0). A hop much shorter
// than its start time is one segment; an interval from 0 is about 21. CVODE's steps are the
// same as in one call: only the floor follows t.
struct Segment {
  double end;    // where the segment ends (at most t1)
  double floor;  // CVODE's minimum step within it
};

Segment segmentFrom(double tn, double t0, double t1) {
  const double minLength = std::ldexp(t1 - t0, -20);
  double end = tn > 0.0 ? 2.0 * tn : 0.5 * tn;
  end = std::min(std::max(end, tn + minLength), t1);
  const double smallestMagnitude =
      (tn <= 0.0 && end >= 0.0) ? 0.0 : std::min(std::abs(tn), std::abs(end));
  return {end, kMinStepUlps * kEpsilon * smallestMagnitude};
}

}  // namespace

// Everything SUNDIALS, owned; released in reverse order of creation.
struct CvodeIntegrator::Sundials {
  SUNContext context = nullptr;
  void* memory = nullptr;
  N_Vector y = nullptr;    // the state handed to and returned by CVODE
  N_Vector dky = nullptr;  // CVodeGetDky output
  N_Vector atol = nullptr;
  SUNMatrix matrix = nullptr;                     // Newton only
  SUNLinearSolver linearSolver = nullptr;         // Newton only
  SUNNonlinearSolver fixedPointSolver = nullptr;  // NonlinearSolver::FixedPoint only
  // The Jacobian's column coloring (setCouplingGroups), used once a first Jacobian built column
  // by column has matched it; the states of one color and their increments while perturbed.
  detail::ColumnColoring coloring;
  bool coloringVerified = false;
  Eigen::VectorXd colorSaved, colorIncrement;

  Sundials() = default;
  Sundials(const Sundials&) = delete;
  Sundials& operator=(const Sundials&) = delete;
  ~Sundials() {
    if (memory != nullptr) CVodeFree(&memory);
    if (fixedPointSolver != nullptr) SUNNonlinSolFree(fixedPointSolver);
    if (linearSolver != nullptr) SUNLinSolFree(linearSolver);
    if (matrix != nullptr) SUNMatDestroy(matrix);
    if (atol != nullptr) N_VDestroy(atol);
    if (dky != nullptr) N_VDestroy(dky);
    if (y != nullptr) N_VDestroy(y);
    if (context != nullptr) SUNContext_Free(&context);
  }

  static Eigen::Map<Eigen::VectorXd> map(N_Vector v) {
    return {N_VGetArrayPointer(v), N_VGetLength(v)};
  }

  // The right-hand side CVODE calls: views on its vectors (no copies), the user's exceptions
  // kept for rethrowing after CVode returns (they must not unwind through C), non-finite
  // derivatives reported as recoverable so that CVODE retries with a smaller step.
  static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user) {
    auto& self = *static_cast<CvodeIntegrator*>(user);
    Eigen::Map<Eigen::VectorXd> xdot = map(ydot);
    ++self.statistics_.rhsEvaluations;
    try {
      (*self.f_)(t, map(y), xdot);
    } catch (...) {
      self.derivativeException_ = std::current_exception();
      return -1;  // unrecoverable: CVode returns at once
    }
    if (!xdot.allFinite()) {
      self.nonFiniteTime_ = t;
      self.nonFiniteIndex_ = detail::firstNonFinite(xdot);
      self.nonFiniteValue_ = xdot[self.nonFiniteIndex_];
      return 1;
    }
    return 0;
  }

  // The dense difference-quotient Jacobian of CVODE's cvLsDenseDQJac (column j from one
  // derivative evaluation at y + inc_j e_j, inc_j = max(sqrt(eps) |y_j|, minInc / ewt_j)), done
  // here because CVODE's own allocates a vector wrapper (three mallocs) at every evaluation,
  // i.e. at least once per hop. The one difference: minInc uses the step size CVODE reports
  // (CVodeGetCurrentStep, the last one accepted), as the one being attempted is not public.
  // With a verified coloring (setCouplingGroups), the columns of one color come from one
  // evaluation.
  static int jacobian(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix jacobianMatrix, void* user,
                      N_Vector derivative, N_Vector weights, N_Vector /*unused*/) {
    auto& self = *static_cast<CvodeIntegrator*>(user);
    Sundials& s = *self.sundials_;
    void* memory = s.memory;
    CVodeGetErrWeights(memory, weights);
    double h = 0.0;
    CVodeGetCurrentStep(memory, &h);
    Eigen::Map<Eigen::VectorXd> x = map(y);
    const Eigen::Map<Eigen::VectorXd> f = map(fy);
    const Eigen::Map<Eigen::VectorXd> f1 = map(derivative);
    const Eigen::Map<Eigen::VectorXd> w = map(weights);
    const Eigen::Index n = x.size();
    const double fNorm = std::sqrt((f.array() * w.array()).square().mean());
    const double minIncrement =
        fNorm != 0.0 ? 1000.0 * std::abs(h) * kEpsilon * static_cast<double>(n) * fNorm : 1.0;
    const double sqrtEpsilon = std::sqrt(kEpsilon);
    const auto incrementOf = [&](Eigen::Index j) {
      return std::max(sqrtEpsilon * std::abs(x[j]), minIncrement / w[j]);
    };
    const auto column = [&](Eigen::Index j) {
      return Eigen::Map<Eigen::VectorXd>(SUNDenseMatrix_Column(jacobianMatrix, j), n);
    };
    if (s.coloringVerified) {
      for (std::size_t c = 0; c < s.coloring.colorCount(); ++c) {
        const std::vector<Eigen::Index>& columns = s.coloring.columns(c);
        const auto k = static_cast<Eigen::Index>(columns.size());
        for (Eigen::Index m = 0; m < k; ++m) {
          s.colorSaved[m] = x[columns[m]];
          s.colorIncrement[m] = incrementOf(columns[m]);
        }
        for (Eigen::Index m = 0; m < k; ++m) x[columns[m]] += s.colorIncrement[m];
        const int flag = rhs(t, y, derivative, user);
        for (Eigen::Index m = 0; m < k; ++m) x[columns[m]] = s.colorSaved[m];
        if (flag != 0) return flag;
        // Each column as the dense loop computes it, then the rows other groups' perturbations
        // moved (structural zeros) cleared.
        for (Eigen::Index m = 0; m < k; ++m) {
          const Eigen::Index j = columns[m];
          const double increment = s.colorIncrement[m];
          Eigen::Map<Eigen::VectorXd> columnJ = column(j);
          columnJ = (1.0 / increment) * f1 - (1.0 / increment) * f;
          for (Eigen::Index i = 0; i < n; ++i) {
            if (!s.coloring.coupled(i, j)) columnJ[i] = 0.0;
          }
        }
      }
      return 0;
    }
    for (Eigen::Index j = 0; j < n; ++j) {
      const double xj = x[j];
      const double increment = incrementOf(j);
      x[j] += increment;
      const int flag = rhs(t, y, derivative, user);
      x[j] = xj;
      if (flag != 0) return flag;
      column(j) = (1.0 / increment) * f1 - (1.0 / increment) * f;
    }
    if (s.coloring.saves()) {
      // The first Jacobian since the groups were given checks them: a coupling they miss (a
      // model reading another's state outside the signals) shows as a nonzero entry here.
      s.coloringVerified = s.coloring.matches(
          Eigen::Map<Eigen::MatrixXd>(SUNDenseMatrix_Data(jacobianMatrix), n, n));
      if (!s.coloringVerified) s.coloring = detail::ColumnColoring();
    }
    return 0;
  }

  // Replaces CVODE's printing to stderr: errors are kept for the exception message, warnings
  // (CV_WARNING, such as "t + h = t") are dropped.
  // CVODE's projection (BDF only): corr moves the accepted ycur onto the manifold.
  static int project(sunrealtype t, N_Vector ycur, N_Vector corr, sunrealtype /*epsProj*/,
                     N_Vector /*err*/, void* user) {
    auto& self = *static_cast<CvodeIntegrator*>(user);
    Eigen::Map<Eigen::VectorXd> c = map(corr);
    c = map(ycur);
    try {
      self.projection_(t, c);
    } catch (...) {
      self.derivativeException_ = std::current_exception();
      return -1;  // unrecoverable: CVode returns at once and advance() rethrows
    }
    c -= map(ycur);
    return 0;
  }

  static void errorHandler(int code, const char* /*module*/, const char* function, char* message,
                           void* user) {
    if (code >= 0) return;
    auto& self = *static_cast<CvodeIntegrator*>(user);
    std::snprintf(self.cvodeMessage_.data(), self.cvodeMessage_.size(), "%s: %s", function,
                  message);
  }
};

namespace {

// A CVODE setup call that failed: a NumericalError naming the call and the flag.
void check(int flag, const char* call) {
  if (flag >= 0) return;
  char* flagName = CVodeGetReturnFlagName(flag);  // malloc'ed by SUNDIALS
  const std::string text = flagName != nullptr ? flagName : std::to_string(flag);
  std::free(flagName);
  throw NumericalError(std::string("cvode: ") + call + " failed with " + text);
}

void checkCreated(const void* made, const char* call) {
  if (made == nullptr) throw NumericalError(std::string("cvode: ") + call + " failed");
}

}  // namespace

CvodeIntegrator::CvodeIntegrator(IntegratorOptions options) : Integrator(std::move(options)) {}

CvodeIntegrator::~CvodeIntegrator() = default;

void CvodeIntegrator::resize(Eigen::Index n) {
  detail::checkToleranceLength(name(), options_, n);
  sundials_.reset();
  size_ = 0;  // until the setup below has succeeded
  advanced_ = false;
  x0_.setZero(n);
  scratch_.setZero(n);
  history_.setZero(n, history_.cols());
  recordedSteps_ = 0;
  usedColumns_ = 0;
  historyComplete_ = false;
  cvodeSteps_ = 0;
  cvodeErrorTestFailures_ = 0;
  stepOffset_ = 0;
  if (n == 0) return;  // nothing to integrate: advance() only moves the time

  auto s = std::make_unique<Sundials>();
  check(SUNContext_Create(nullptr, &s->context), "SUNContext_Create");
  s->y = N_VNew_Serial(n, s->context);
  checkCreated(s->y, "N_VNew_Serial");
  s->dky = N_VNew_Serial(n, s->context);
  checkCreated(s->dky, "N_VNew_Serial");
  Sundials::map(s->y).setZero();
  s->memory =
      CVodeCreate(options_.multistep == MultistepMethod::Adams ? CV_ADAMS : CV_BDF, s->context);
  checkCreated(s->memory, "CVodeCreate");
  check(CVodeSetErrHandlerFn(s->memory, &Sundials::errorHandler, this), "CVodeSetErrHandlerFn");
  check(CVodeInit(s->memory, &Sundials::rhs, 0.0, s->y), "CVodeInit");
  check(CVodeSetUserData(s->memory, this), "CVodeSetUserData");
  if (options_.absoluteTolerances.size() > 0) {
    s->atol = N_VNew_Serial(n, s->context);
    checkCreated(s->atol, "N_VNew_Serial");
    Sundials::map(s->atol) = options_.absoluteTolerances;
    check(CVodeSVtolerances(s->memory, options_.relativeTolerance, s->atol), "CVodeSVtolerances");
  } else {
    check(CVodeSStolerances(s->memory, options_.relativeTolerance, options_.absoluteTolerance),
          "CVodeSStolerances");
  }
  if (options_.nonlinearSolver == NonlinearSolver::FixedPoint) {
    // No Jacobian and no linear solver; no Anderson acceleration (m = 0), CVODE's recommended
    // setting for Adams on non-stiff problems.
    s->fixedPointSolver = SUNNonlinSol_FixedPoint(s->y, 0, s->context);
    checkCreated(s->fixedPointSolver, "SUNNonlinSol_FixedPoint");
    check(CVodeSetNonlinearSolver(s->memory, s->fixedPointSolver), "CVodeSetNonlinearSolver");
  } else {
    s->matrix = SUNDenseMatrix(n, n, s->context);
    checkCreated(s->matrix, "SUNDenseMatrix");
    s->linearSolver = SUNLinSol_Dense(s->y, s->matrix, s->context);
    checkCreated(s->linearSolver, "SUNLinSol_Dense");
    check(CVodeSetLinearSolver(s->memory, s->linearSolver, s->matrix), "CVodeSetLinearSolver");
    check(CVodeSetJacFn(s->memory, &Sundials::jacobian), "CVodeSetJacFn");
  }
  // 0 means "unbounded" / "CVODE estimates" in CVODE as in IntegratorOptions.
  check(CVodeSetMaxStep(s->memory, options_.maxStep), "CVodeSetMaxStep");
  check(CVodeSetInitStep(s->memory, options_.initialStep), "CVodeSetInitStep");
  check(CVodeSetMaxNumSteps(s->memory, static_cast<long>(options_.maxStepsPerAdvance)),
        "CVodeSetMaxNumSteps");
  if (stepsProjected()) check(CVodeSetProjFn(s->memory, &Sundials::project), "CVodeSetProjFn");
  sundials_ = std::move(s);
  size_ = n;
}

void CvodeIntegrator::restart(double t0, const Eigen::Ref<const Eigen::VectorXd>& x0) {
  detail::checkRestart(name(), size_, t0, x0);
  t_ = t0;
  t0_ = t0;
  x0_ = x0;
  recordedSteps_ = 0;
  usedColumns_ = 0;
  historyComplete_ = true;
  stepOffset_ = 0;
  advanced_ = false;
  ++statistics_.restarts;
  if (size_ == 0) return;
  // What CVODE counted since the last read belongs to the interval that ends here.
  collectStatistics();
  Sundials::map(sundials_->y) = x0;
  check(CVodeReInit(sundials_->memory, t0, sundials_->y), "CVodeReInit");
  cvodeSteps_ = 0;
  cvodeErrorTestFailures_ = 0;
}

void CvodeIntegrator::setCouplingGroups(const std::vector<Eigen::Index>& groupOfState) {
  if (static_cast<Eigen::Index>(groupOfState.size()) != size_) {
    throw InputError("cvode: setCouplingGroups got " + std::to_string(groupOfState.size()) +
                     " groups for " + std::to_string(size_) + " states; expected one per state");
  }
  if (size_ == 0) return;
  Sundials& s = *sundials_;
  s.coloring = detail::ColumnColoring(groupOfState);
  s.coloringVerified = false;
  s.colorSaved.setZero(s.coloring.widestColor());
  s.colorIncrement.setZero(s.coloring.widestColor());
}

bool CvodeIntegrator::canContinueAt(double t) const {
  return options_.continueAcrossHops && size_ > 0 && advanced_ && t == t_;
}

void CvodeIntegrator::continueInterval() {
  if (!canContinueAt(t_)) {
    throw InputError("cvode: continueInterval() at t = " + formatNumber(t_) + " needs " +
                     (options_.continueAcrossHops
                          ? "a state to integrate and a successful advance() since the "
                            "last restart() or resize()"
                          : "IntegratorOptions::continueAcrossHops") +
                     "; call restart() instead");
  }
  t0_ = t_;
  x0_ = Sundials::map(sundials_->y);
  recordedSteps_ = 0;
  usedColumns_ = 0;
  historyComplete_ = true;
  // CVODE's step counter runs on: the new interval's steps are counted from here.
  collectStatistics();
  stepOffset_ = -cvodeSteps_;
  ++statistics_.continuations;
}

void CvodeIntegrator::collectStatistics() {
  long steps = 0;
  long errorTestFailures = 0;
  CVodeGetNumSteps(sundials_->memory, &steps);
  CVodeGetNumErrTestFails(sundials_->memory, &errorTestFailures);
  statistics_.steps += steps - cvodeSteps_;
  statistics_.errorTestFailures += errorTestFailures - cvodeErrorTestFailures_;
  cvodeSteps_ = steps;
  cvodeErrorTestFailures_ = errorTestFailures;
}

Eigen::Index CvodeIntegrator::appendStep(double tEnd, double h, int order) {
  const Eigen::Index columns = order + 1;
  if (usedColumns_ + columns > history_.cols()) {
    // Grows only when an interval needs more than any before (then stays).
    history_.conservativeResize(size_, std::max<Eigen::Index>(64, 2 * (usedColumns_ + columns)));
  }
  if (recordedSteps_ == stepEnd_.size()) {
    const std::size_t capacity = std::max<std::size_t>(16, 2 * recordedSteps_);
    stepEnd_.resize(capacity);
    stepSize_.resize(capacity);
    stepOrder_.resize(capacity);
    stepColumn_.resize(capacity);
  }
  const Eigen::Index first = usedColumns_;
  stepEnd_[recordedSteps_] = tEnd;
  stepSize_[recordedSteps_] = h;
  stepOrder_[recordedSteps_] = order;
  stepColumn_[recordedSteps_] = first;
  ++recordedSteps_;
  usedColumns_ += columns;
  return first;
}

void CvodeIntegrator::recordStep() {
  void* memory = sundials_->memory;
  double tn = 0.0;
  double hu = 0.0;
  int order = 0;
  CVodeGetCurrentTime(memory, &tn);
  CVodeGetLastStep(memory, &hu);
  CVodeGetLastOrder(memory, &order);
  const Eigen::Index first = appendStep(tn, hu, order);
  // CVODE's interpolant over [tn - hu, tn] is sum_j z_j ((t - tn) / hu)^j with its Nordsieck
  // array z; GetDky(tn, k) = k! z_k / hu^k, so the Taylor coefficients GetDky(tn, k) / k! give
  // the same polynomial in (t - tn).
  double factorial = 1.0;
  for (int k = 0; k <= order; ++k) {
    if (k > 0) factorial *= k;
    check(CVodeGetDky(memory, tn, k, sundials_->dky), "CVodeGetDky");
    history_.col(first + k) = Sundials::map(sundials_->dky) / factorial;
  }
}

void CvodeIntegrator::eulerStep(const DerivativeFunction& f, double t1) {
  Eigen::Map<Eigen::VectorXd> y = Sundials::map(sundials_->y);
  f(t_, y, scratch_);
  ++statistics_.rhsEvaluations;
  if (!scratch_.allFinite()) detail::throwNonFiniteDerivative(name(), t_, scratch_);
  y += (t1 - t_) * scratch_;
  if (keepDenseHistory_) {
    const Eigen::Index first = appendStep(t1, t1 - t_, 1);
    history_.col(first) = y;
    history_.col(first + 1) = scratch_;
  } else {
    historyComplete_ = false;
  }
  // CVODE continues from the new point; its counters restart, so bank what they hold.
  collectStatistics();
  stepOffset_ += cvodeSteps_ + 1;
  ++statistics_.steps;
  check(CVodeReInit(sundials_->memory, t1, sundials_->y), "CVodeReInit");
  cvodeSteps_ = 0;
  cvodeErrorTestFailures_ = 0;
}

std::string CvodeIntegrator::stiffnessHint() const {
  if (options_.nonlinearSolver != NonlinearSolver::FixedPoint) return "";
  return " (with NonlinearSolver::FixedPoint, a stiff problem converges only at tiny steps: "
         "use NonlinearSolver::Newton, nonlinear_solver: newton)";
}

void CvodeIntegrator::fail(int flag, double t1) {
  collectStatistics();
  f_ = nullptr;
  historyComplete_ = false;  // CVODE's state now lies somewhere inside the interval
  if (derivativeException_) {
    std::exception_ptr e = derivativeException_;
    derivativeException_ = nullptr;
    std::rethrow_exception(e);
  }
  double reached = t_;
  CVodeGetCurrentTime(sundials_->memory, &reached);
  char* flagName = CVodeGetReturnFlagName(flag);  // malloc'ed by SUNDIALS
  std::string message = "cvode: integration failed at t = " + formatNumber(reached) +
                        " (advancing from " + formatNumber(t_) + " to t1 = " + formatNumber(t1) +
                        ") with " + (flagName != nullptr ? flagName : std::to_string(flag));
  std::free(flagName);
  if (cvodeMessage_[0] != '\0') message += ": " + std::string(cvodeMessage_.data());
  if (flag == CV_CONV_FAILURE || flag == CV_TOO_MUCH_WORK) message += stiffnessHint();
  if (nonFiniteIndex_ >= 0) {
    message += "; non-finite derivative at t = " + formatNumber(nonFiniteTime_) + ": xdot[" +
               std::to_string(nonFiniteIndex_) + "] = " + formatNumber(nonFiniteValue_);
  }
  throw NumericalError(message);
}

void CvodeIntegrator::advance(const DerivativeFunction& f, double t1,
                              Eigen::Ref<Eigen::VectorXd> x) {
  if (!detail::checkAdvance(name(), size_, t_, t1, x.size()) || size_ == 0) {
    t_ = t1;
    if (size_ > 0) x = Sundials::map(sundials_->y);
    return;
  }
  f_ = &f;
  advanced_ = false;  // until this advance() has succeeded
  derivativeException_ = nullptr;
  nonFiniteIndex_ = -1;
  cvodeMessage_[0] = '\0';

  if (t1 - t_ < kMinStepUlps * kEpsilon * std::max(std::abs(t_), std::abs(t1))) {
    eulerStep(f, t1);
  } else {
    void* memory = sundials_->memory;
    check(CVodeSetStopTime(memory, t1), "CVodeSetStopTime");
    // CVODE's default minimum step is 0: at a point where every step meets a non-finite
    // derivative it would go on with steps for which t + h == t until maxStepsPerAdvance. A step
    // of a few ulps of t makes no progress, so it is the floor (as in rkf45), and CVODE fails
    // promptly instead. The floor follows t segment by segment (segmentFrom): one floor of a
    // few ulps of t1 would forbid the small steps a long interval needs near its start
    // (Robertson from 0 to 4e10 in one advance: 1.4e-4 s, where its initial transient needs
    // steps of 1e-6 s).
    const double tStart = t_;
    double reached = t_;
    Segment segment = segmentFrom(reached, tStart, t1);
    check(CVodeSetMinStep(memory, segment.floor), "CVodeSetMinStep");
    if (keepDenseHistory_) {
      // One internal step per call, so that each step's polynomial can be recorded.
      std::int64_t stepsThisAdvance = 0;
      long recorded = cvodeSteps_;
      while (reached < t1) {
        if (reached >= segment.end) {
          segment = segmentFrom(reached, tStart, t1);
          check(CVodeSetMinStep(memory, segment.floor), "CVodeSetMinStep");
        }
        const int flag = CVode(memory, t1, sundials_->y, &reached, CV_ONE_STEP);
        if (flag < 0) fail(flag, t1);
        long steps = 0;
        CVodeGetNumSteps(memory, &steps);
        if (steps == recorded + 1) {
          recordStep();
          ++stepsThisAdvance;
        } else if (steps != recorded) {
          historyComplete_ = false;  // cannot happen with CV_ONE_STEP; never interpolate a gap
        }
        recorded = steps;
        if (reached < t1 && stepsThisAdvance >= options_.maxStepsPerAdvance) {
          collectStatistics();
          f_ = nullptr;
          historyComplete_ = false;
          throw NumericalError(
              "cvode: took maxStepsPerAdvance = " + std::to_string(options_.maxStepsPerAdvance) +
              " steps and reached only t = " + formatNumber(reached) +
              " of t1 = " + formatNumber(t1) + "; raise maxStepsPerAdvance" + stiffnessHint());
        }
      }
    } else {
      historyComplete_ = false;
      // The first step with CV_ONE_STEP and tout = t1, as with the history: CVODE estimates
      // its initial step from tout, which must therefore be t1 and not a segment's end. Then
      // one CV_NORMAL call per segment, to the segment's end (CVODE interpolates there and
      // goes on from its own last step at the next call). CVODE's step limit counts per call:
      // each call gets what is left of maxStepsPerAdvance.
      long stepsAtStart = 0;
      CVodeGetNumSteps(memory, &stepsAtStart);
      int flag = CVode(memory, t1, sundials_->y, &reached, CV_ONE_STEP);
      if (flag < 0) fail(flag, t1);
      while (reached < t1) {
        if (reached >= segment.end) {
          double tn = reached;
          CVodeGetCurrentTime(memory, &tn);  // CVODE's own time: at or past the segment's end
          segment = segmentFrom(std::max(tn, reached), tStart, t1);
          check(CVodeSetMinStep(memory, segment.floor), "CVodeSetMinStep");
        }
        long steps = 0;
        CVodeGetNumSteps(memory, &steps);
        const long left = static_cast<long>(options_.maxStepsPerAdvance) - (steps - stepsAtStart);
        if (left <= 0) fail(CV_TOO_MUCH_WORK, t1);
        check(CVodeSetMaxNumSteps(memory, left), "CVodeSetMaxNumSteps");
        flag = CVode(memory, segment.end, sundials_->y, &reached, CV_NORMAL);
        if (flag < 0) fail(flag, t1);
      }
    }
    collectStatistics();
  }
  f_ = nullptr;
  t_ = t1;  // CVODE returns exactly tstop
  advanced_ = true;
  x = Sundials::map(sundials_->y);
}

void CvodeIntegrator::interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) const {
  detail::checkInterpolation(name(), historyComplete_, t0_, t_, size_, t, x.size());
  if (size_ == 0) return;
  if (t == t_) {
    x = Sundials::map(sundials_->y);  // exactly what advance() returned
    return;
  }
  if (t == t0_ || recordedSteps_ == 0) {
    x = x0_;
    return;
  }
  // The step ending at or after t; the last one also covers the few ulps between its end and
  // tstop (CVODE stops just short of tstop and interpolates there with the same polynomial).
  const auto first = stepEnd_.begin();
  const auto last = first + static_cast<std::ptrdiff_t>(recordedSteps_);
  const auto found = std::lower_bound(first, last, t);
  const std::size_t step =
      found == last ? recordedSteps_ - 1 : static_cast<std::size_t>(found - first);
  const double s = t - stepEnd_[step];
  const Eigen::Index column = stepColumn_[step];
  x = history_.col(column + stepOrder_[step]);
  for (int k = stepOrder_[step] - 1; k >= 0; --k) x = s * x + history_.col(column + k);
}

}  // namespace hopsim
