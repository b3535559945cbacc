#pragma once
// What hopsim run reports on stderr while it runs: the progress (the summary is RunSummary's).

#include <optional>
#include <ostream>

#include "hopsim/assemblies/run_progress.h"

namespace hopsim::apps {

/// Watches the simulation advance, from a stop callback that never stops: it is asked after
/// every hop and changes nothing, so the results are those of a run without it.
///
/// With `show`, it reports progress (ProgressClock::line): on a terminal one line, rewritten
/// every 1% of the run or every second of wall time; elsewhere a plain line every 10% of the
/// run or every `wallInterval` s, whichever comes first (a slice is at least one I/O step).
/// With a `realtime` factor, it sleeps after each hop until the wall clock has caught up with
/// (t - start) / factor.
class Progress {
 public:
  Progress(std::ostream& err, bool show, bool terminal, std::optional<double> realtime,
           double start, double end, double ioStep, double wallInterval);

  /// Called after each hop at sim time `t`.
  void update(double t);

  /// Ends the report at sim time `t`: clears the terminal line, so that what follows starts on
  /// a clean one; elsewhere shows `t` when the run stopped after the last line.
  void finish(double t);

 private:
  void show(double t);

  std::ostream& err_;
  bool show_;
  bool terminal_;
  std::optional<double> realtime_;
  double start_;
  ProgressClock clock_;
  double last_;  // the sim time last shown
  bool shown_ = false;
};

}  // namespace hopsim::apps
