// The integrator factory, the default (absent) dense output, and the checks every method shares.

#include "hopsim/integrators/integrator.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "hopsim/integrators/cvode.h"
#include "hopsim/integrators/euler.h"
#include "hopsim/integrators/implicit_euler.h"
#include "hopsim/integrators/rk4.h"
#include "hopsim/integrators/rkf45.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "integrator_support.h"

namespace hopsim {

namespace detail {

void checkToleranceLength(std::string_view method, const IntegratorOptions& options,
                          Eigen::Index stateCount) {
  // An empty state vector needs no tolerances; a simulation without continuous states still
  // sizes its integrator.
  if (options.absoluteTolerances.size() == 0 || stateCount == 0) return;
  if (options.absoluteTolerances.size() != stateCount) {
    throw InputError(std::string(method) + ": absoluteTolerances has " +
                     std::to_string(options.absoluteTolerances.size()) +
                     " entries but the state vector has " + std::to_string(stateCount) +
                     "; expected one absolute tolerance per state (or none)");
  }
}

void checkRestart(std::string_view method, Eigen::Index stateCount, double t0,
                  const Eigen::Ref<const Eigen::VectorXd>& x0) {
  // restart() runs at every hop: the message is built only on failure.
  const auto where = [&] { return std::string(method) + ": restart at t0 = " + formatNumber(t0); };
  if (!std::isfinite(t0)) throw InputError(where() + ": expected a finite start time");
  if (x0.size() != stateCount) {
    throw InputError(where() + ": x0 has " + std::to_string(x0.size()) +
                     " entries but the integrator was sized for " + std::to_string(stateCount) +
                     " states (resize() sets the state count)");
  }
  if (const Eigen::Index i = firstNonFinite(x0); i >= 0) {
    throw InputError(where() + ": x0[" + std::to_string(i) + "] = " + formatNumber(x0[i]) +
                     "; expected finite initial states");
  }
}

bool checkAdvance(std::string_view method, Eigen::Index stateCount, double t, double t1,
                  Eigen::Index xSize) {
  if (xSize != stateCount) {
    throw InputError(std::string(method) + ": advance: the output vector has " +
                     std::to_string(xSize) + " entries but the integrator was sized for " +
                     std::to_string(stateCount) + " states");
  }
  if (!std::isfinite(t1) || t1 < t) {
    throw InputError(std::string(method) + ": advance to t1 = " + formatNumber(t1) +
                     " from the current time " + formatNumber(t) +
                     "; expected a finite t1 not before the current time (restart() to go back)");
  }
  return t1 > t;
}

void checkInterpolation(std::string_view method, bool historyComplete, double t0, double tEnd,
                        Eigen::Index stateCount, double t, Eigen::Index xSize) {
  const auto where = [&] {
    return std::string(method) + ": interpolate(t = " + formatNumber(t) + ")";
  };
  if (!historyComplete) {
    throw InputError(where() +
                     ": the dense history is off or was off for part of the interval; call "
                     "setDenseHistory(true) before advancing");
  }
  if (!(t >= t0 && t <= tEnd)) {
    throw InputError(where() + ": outside the integrated interval [" + formatNumber(t0) + ", " +
                     formatNumber(tEnd) + "]");
  }
  if (xSize != stateCount) {
    throw InputError(where() + ": the output vector has " + std::to_string(xSize) +
                     " entries; expected " + std::to_string(stateCount));
  }
}

Eigen::Index firstNonFinite(const Eigen::Ref<const Eigen::VectorXd>& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) return i;
  }
  return -1;
}

void throwNonFiniteDerivative(std::string_view method, double t,
                              const Eigen::Ref<const Eigen::VectorXd>& xdot) {
  const Eigen::Index i = firstNonFinite(xdot);
  throw NumericalError(std::string(method) + ": non-finite derivative at t = " + formatNumber(t) +
                       ": xdot[" + std::to_string(i) +
                       "] = " + (i >= 0 ? formatNumber(xdot[i]) : std::string("?")) +
                       "; the derivative function must return finite values");
}

}  // namespace detail

void Integrator::interpolate(double t, Eigen::Ref<Eigen::VectorXd> /*x*/) const {
  throw InputError(std::string(name()) + ": interpolate(t = " + formatNumber(t) +
                   "): this method has no dense output (hasDenseOutput() is false); re-integrate "
                   "to t instead");
}

void Integrator::continueInterval() {
  throw InputError(std::string(name()) + ": continueInterval() at t = " + formatNumber(time()) +
                   ": this method keeps no history across intervals (canContinueAt() is false); "
                   "call restart() instead");
}

std::vector<std::string> integratorNames() {
  return {"euler", "rk4", "rkf45", "cvode", "euler_implicit_linearized", "euler_implicit"};
}

namespace {

// Throws InputError "makeIntegrator("<name>"): <option> = <value> is invalid; expected <what>".
void require(bool ok, std::string_view integrator, std::string_view option, double value,
             std::string_view expected) {
  if (ok) return;
  throw InputError("makeIntegrator(\"" + std::string(integrator) + "\"): " + std::string(option) +
                   " = " + formatNumber(value) + " is invalid; expected " + std::string(expected));
}

void validate(std::string_view name, const IntegratorOptions& o) {
  require(std::isfinite(o.relativeTolerance) && o.relativeTolerance > 0.0, name,
          "relativeTolerance", o.relativeTolerance, "a finite value > 0");
  // Zero absolute tolerance makes the error test divide by zero wherever a state passes
  // through 0 (and CVODE rejects it), so it must be positive like the per-state ones.
  require(std::isfinite(o.absoluteTolerance) && o.absoluteTolerance > 0.0, name,
          "absoluteTolerance", o.absoluteTolerance, "a finite value > 0");
  for (Eigen::Index i = 0; i < o.absoluteTolerances.size(); ++i) {
    const double a = o.absoluteTolerances[i];
    require(std::isfinite(a) && a > 0.0, name, "absoluteTolerances[" + std::to_string(i) + "]", a,
            "a finite value > 0");
  }
  require(std::isfinite(o.maxStep) && o.maxStep >= 0.0, name, "maxStep", o.maxStep,
          "a finite value >= 0 s (0: unbounded)");
  require(std::isfinite(o.initialStep) && o.initialStep >= 0.0, name, "initialStep", o.initialStep,
          "a finite value >= 0 s (0: chosen by the method)");
  if (o.maxStepsPerAdvance < 1) {
    throw InputError("makeIntegrator(\"" + std::string(name) +
                     "\"): maxStepsPerAdvance = " + std::to_string(o.maxStepsPerAdvance) +
                     " is invalid; expected an integer >= 1");
  }
  if (o.multistep != MultistepMethod::Bdf && o.multistep != MultistepMethod::Adams) {
    throw InputError("makeIntegrator(\"" + std::string(name) +
                     "\"): multistep = " + std::to_string(static_cast<int>(o.multistep)) +
                     " is invalid; expected MultistepMethod::Bdf or MultistepMethod::Adams");
  }
  if (o.nonlinearSolver != NonlinearSolver::Newton &&
      o.nonlinearSolver != NonlinearSolver::FixedPoint) {
    throw InputError(
        "makeIntegrator(\"" + std::string(name) +
        "\"): nonlinearSolver = " + std::to_string(static_cast<int>(o.nonlinearSolver)) +
        " is invalid; expected NonlinearSolver::Newton or NonlinearSolver::FixedPoint");
  }
}

}  // namespace

std::unique_ptr<Integrator> makeIntegrator(std::string_view name,
                                           const IntegratorOptions& options) {
  const std::vector<std::string> names = integratorNames();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    throw InputError("makeIntegrator: unknown integrator '" + std::string(name) + "'" +
                     didYouMean(name, names) + "; expected one of " + known);
  }
  validate(name, options);
  if (name == "euler") return std::make_unique<EulerIntegrator>(options);
  if (name == "rk4") return std::make_unique<Rk4Integrator>(options);
  if (name == "rkf45") return std::make_unique<Rkf45Integrator>(options);
  if (name == "euler_implicit_linearized") {
    return std::make_unique<ImplicitEulerIntegrator>(options, true);
  }
  if (name == "euler_implicit") return std::make_unique<ImplicitEulerIntegrator>(options, false);
  return std::make_unique<CvodeIntegrator>(options);
}

}  // namespace hopsim
