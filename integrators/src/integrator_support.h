#pragma once
// Checks and message helpers shared by the integrators (internal: not installed). Defined in
// integrator.cpp.

#include <Eigen/Core>
#include <string>
#include <string_view>

#include "hopsim/integrators/integrator.h"
#include "hopsim/signals/value.h"

namespace hopsim::detail {

/// Per-state absolute tolerances must have one entry per state; called by resize().
/// @throws InputError naming the method and both lengths.
void checkToleranceLength(std::string_view method, const IntegratorOptions& options,
                          Eigen::Index stateCount);

/// interpolate() preconditions: a complete dense history, t inside [t0, tEnd], x sized like
/// the integrator. Cheap when they hold: it runs at every residual evaluation of a localization.
void checkInterpolation(std::string_view method, bool historyComplete, double t0, double tEnd,
                        Eigen::Index stateCount, double t, Eigen::Index xSize);

/// restart() preconditions: x0 sized like the integrator, t0 and every entry finite.
/// @throws InputError naming the method, t0 and the offending entry.
void checkRestart(std::string_view method, Eigen::Index stateCount, double t0,
                  const Eigen::Ref<const Eigen::VectorXd>& x0);

/// advance() preconditions: t1 finite and not before `t`, x sized like the integrator. Returns
/// false when t1 == t (nothing to integrate).
/// @throws InputError naming the method, t and t1.
bool checkAdvance(std::string_view method, Eigen::Index stateCount, double t, double t1,
                  Eigen::Index xSize);

/// State i's absolute tolerance: absoluteTolerances[i] when given, else absoluteTolerance.
inline double absoluteTolerance(const IntegratorOptions& options, Eigen::Index i) {
  return options.absoluteTolerances.size() > 0 ? options.absoluteTolerances[i]
                                               : options.absoluteTolerance;
}

/// Index of the first non-finite entry of v, or -1.
Eigen::Index firstNonFinite(const Eigen::Ref<const Eigen::VectorXd>& v);

/// "<method>: non-finite derivative at t = <t>: xdot[<i>] = <value>", as a NumericalError.
[[noreturn]] void throwNonFiniteDerivative(std::string_view method, double t,
                                           const Eigen::Ref<const Eigen::VectorXd>& xdot);

}  // namespace hopsim::detail
