#include "hopsim/assemblies/run_summary.h"

#include <iomanip>
#include <sstream>

#include "hopsim/assemblies/scenario.h"

namespace hopsim {

RunCounts RunCounts::of(const Scenario& scenario) {
  const Simulation& sim = scenario.sim();
  return {sim.hopCount(), sim.integrator().statistics().steps,
          sim.propagationStatistics().derivativeEvaluations, scenario.eventsFired(),
          sim.propagationStatistics().crossingsFired};
}

RunCounts RunCounts::since(const RunCounts& earlier) const {
  return {hops - earlier.hops, integrationSteps - earlier.integrationSteps,
          derivativeEvaluations - earlier.derivativeEvaluations, eventsFired - earlier.eventsFired,
          zeroCrossings - earlier.zeroCrossings};
}

std::string realTimeFactorText(double factor) {
  std::ostringstream text;
  if (factor >= 100.0) {
    text << std::fixed << std::setprecision(0) << factor;
  } else {
    text << std::setprecision(2) << factor;
  }
  return text.str() + "x";
}

std::string RunSummary::text() const {
  const auto plural = [](std::uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::ostringstream text;
  text << "simulated " << simulatedTime << " s in " << std::setprecision(3) << wallTime
       << " s wall time (";
  if (wallTime > 0.0) {
    text << realTimeFactorText(simulatedTime / wallTime) << " real time";
  } else {
    text << "faster than the clock resolves";
  }
  if (loadingTime) text << "; loading " << *loadingTime << " s";
  text << "); " << plural(counts.hops, "hop", "hops") << ", ";
  if (counts.integrationSteps > 0) {
    text << plural(static_cast<std::uint64_t>(counts.integrationSteps), "integration step",
                   "integration steps")
         << ", ";
  }
  text << plural(counts.derivativeEvaluations, "derivative evaluation", "derivative evaluations")
       << ", " << plural(counts.eventsFired, "event fired", "events fired");
  if (counts.zeroCrossings > 0) {
    text << ", " << plural(counts.zeroCrossings, "zero crossing", "zero crossings");
  }
  text << ", " << plural(warnings, "warning", "warnings");
  return text.str();
}

}  // namespace hopsim
