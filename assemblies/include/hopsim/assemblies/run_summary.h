#pragma once
/// @file
/// RunSummary: what a run of a scenario did (simulated and wall time, hops, integration steps,
/// derivative evaluations, events, zero crossings, warnings), as `hopsim run` prints it on
/// stderr and Python's Scenario.run() returns it.

#include <cstdint>
#include <optional>
#include <string>

namespace hopsim {

class Scenario;

/// The simulation's counters at one instant; a run's counts are the difference of two.
struct RunCounts {
  std::uint64_t hops = 0;
  std::int64_t integrationSteps = 0;  ///< accepted internal steps; 0 for an integrator without
  std::uint64_t derivativeEvaluations = 0;
  std::uint64_t eventsFired = 0;    ///< firings of the file's `events`
  std::uint64_t zeroCrossings = 0;  ///< the events' and the contacts'

  /// The counters of `scenario`'s simulation now.
  static RunCounts of(const Scenario& scenario);
  /// What happened between `earlier` and this.
  RunCounts since(const RunCounts& earlier) const;
};

/// One run: its times and counts.
struct RunSummary {
  double simulatedTime = 0.0;         ///< s of sim time advanced
  double wallTime = 0.0;              ///< s of wall time the advance took
  std::optional<double> loadingTime;  ///< s of wall time the load took, when known
  RunCounts counts;                   ///< what happened during the run
  std::uint64_t warnings = 0;         ///< the load's warnings

  /// "simulated 0.5 s in 0.0123 s wall time (40.7x real time; loading 0.02 s); 25 hops, 250
  /// integration steps, 1000 derivative evaluations, 2 events fired, 1 zero crossing, 0
  /// warnings", without a newline. The loading time only when known, the integration steps
  /// only when the integrator counts them, the zero crossings only when any fired.
  std::string text() const;
};

/// A real-time factor: "3.1x", "0.25x", "2371x".
std::string realTimeFactorText(double factor);

}  // namespace hopsim
