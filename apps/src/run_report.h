#pragma once
// What hopsim run reports on stderr while and after it runs: the progress and the summary.

#include <algorithm>
#include <chrono>
#include <optional>
#include <ostream>
#include <string>

namespace hopsim {
class Scenario;
}  // namespace hopsim

namespace hopsim::apps {

/// A real-time factor: "3.1x", "0.25x", "2371x".
std::string factorText(double factor);

/// "simulated 0.5 s in 0.0123 s wall time (40.7x real time; loading 0.02 s); 25 hops, 250
/// integration steps, 1000 derivative evaluations, 2 events fired, 1 zero crossing, 0
/// warnings", without a newline. The zero crossings (the file's and the contacts') only when
/// any fired; the integration steps only when the integrator counts them.
void writeSummary(std::ostream& err, const Scenario& scenario, double simulated, double wall,
                  double loading);

/// Watches the simulation advance, from a stop callback that never stops: it is asked after
/// every hop and changes nothing, so the results are those of a run without it.
///
/// With `show`, it reports progress: on a terminal one line, rewritten every 1% of the run (or
/// every I/O step, whichever is longer); elsewhere a plain line every 10% (or every I/O step).
/// With a `realtime` factor, it sleeps after each hop until the wall clock has caught up with
/// (t - start) / factor.
class Progress {
 public:
  Progress(std::ostream& err, bool show, bool terminal, std::optional<double> realtime,
           double start, double end, double ioStep)
      : err_(err),
        show_(show),
        terminal_(terminal),
        realtime_(realtime),
        start_(start),
        end_(end),
        slice_(std::max((end - start) / (terminal ? 100.0 : 10.0), ioStep)),
        next_(start + slice_),
        last_(start),
        wallStart_(std::chrono::steady_clock::now()) {}

  /// Called after each hop at sim time `t`.
  void update(double t);

  /// Ends the report at sim time `t`: clears the terminal line, so that what follows starts on
  /// a clean one; elsewhere shows `t` when the run stopped between two lines.
  void finish(double t);

 private:
  void show(double t);

  std::ostream& err_;
  bool show_;
  bool terminal_;
  std::optional<double> realtime_;
  double start_;
  double end_;
  double slice_;
  double next_;
  double last_;  // the sim time last shown
  std::chrono::steady_clock::time_point wallStart_;
  bool shown_ = false;
};

}  // namespace hopsim::apps
