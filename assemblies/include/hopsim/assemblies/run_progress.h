#pragma once
/// @file
/// ProgressClock: when a long run reports its progress, and the report's text, shared by
/// `hopsim run` and Python's Scenario.run() so that both say the same thing at the same pace.

#include <chrono>
#include <string>

namespace hopsim {

/// Decides, after each hop, whether a progress report is due: when sim time has crossed the
/// next slice of the run (`fraction` of it, at least one I/O step), or when `wallInterval` s of
/// wall time have passed since the last report, whichever comes first. It only reads clocks,
/// so a run it watches is the same as one it does not.
class ProgressClock {
 public:
  /// A run from sim time `start` to `end`, reported every `fraction` of it (0 < fraction <= 1)
  /// or every `wallInterval` s (> 0); the wall clock starts now.
  ProgressClock(double start, double end, double fraction, double ioStep, double wallInterval);

  /// Whether a report is due at sim time `t`; when it is, the next one is counted from here.
  bool due(double t);

  /// "t = 1.23 / 5 s  wall 0.4 s  rate 3.1x  ETA 1.2 s": sim time, end time, wall time since
  /// the start, sim time per wall time and the wall time left at that rate ("-" before any).
  std::string line(double t) const;

  /// The share of the run done at sim time `t`, in [0, 1].
  double done(double t) const;

  /// Wall time since the start, s.
  double wallSeconds() const;

 private:
  using Clock = std::chrono::steady_clock;

  double start_;
  double end_;
  double slice_;
  double next_;
  Clock::duration wallInterval_;
  Clock::time_point wallStart_;
  Clock::time_point lastReport_;
};

}  // namespace hopsim
