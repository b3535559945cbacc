#pragma once
/// @file
/// Timeline: the executive's clock and its barriers (docs/executive.md, "Timeline, barriers
/// and hops").

#include <cstdint>
#include <limits>
#include <vector>

#include "hopsim/core/period.h"
#include "hopsim/core/time.h"

namespace hopsim {

/// The current time, the default period's grid phased from the start time, the targets of the
/// advances in progress and the count of hops. A hop ends at the earliest barrier of any
/// source; the timeline knows the default grid's and the advances' barriers, the executive
/// adds those of the events and of the models' own I/O steps.
class Timeline {
 public:
  /// Before any barrier: the mark of a default barrier whose I/O step has not begun.
  static constexpr Ticks kNotStarted = std::numeric_limits<Ticks>::min();

  Timeline(Ticks origin, Period ioPeriod)
      : origin_(origin),
        now_(origin),
        nowSeconds_(ticksToSeconds(origin)),
        ioPeriod_(ioPeriod),
        defaultIoEnd_(origin) {}

  /// The start time, which every periodic schedule is phased from.
  Ticks origin() const { return origin_; }
  Ticks now() const { return now_; }
  /// now() in seconds, converted once when the clock moves.
  double nowSeconds() const { return nowSeconds_; }
  std::uint64_t hopCount() const { return hopCount_; }

  /// The default model period.
  const Period& ioPeriod() const { return ioPeriod_; }
  /// Changes the default period; its barriers stay phased from the origin.
  void setIoPeriod(Period period);
  /// Barrier n >= 1 after now of the default grid (barrier 1 is the next one).
  Ticks defaultBarrierAfterNow(std::int64_t n) const {
    return ioPeriod_.barrier(origin_, ioPeriod_.indexAfter(origin_, now_) + n - 1);
  }
  /// Whether t is a barrier of the default grid. The hops mostly start and end at the current
  /// default I/O step's end, which is recognized without arithmetic.
  bool onDefaultGrid(Ticks t) const {
    return t == defaultIoEnd_ || ioPeriod_.nextAfter(origin_, t - 1) == t;
  }
  /// Moves the current default I/O step's end to the first default barrier after t0 and
  /// returns it. From a barrier, that is the next index: no division.
  Ticks advanceDefaultIoEnd(Ticks t0) {
    defaultIoIndex_ = t0 == defaultIoEnd_ ? defaultIoIndex_ + 1 : ioPeriod_.indexAfter(origin_, t0);
    defaultIoEnd_ = ioPeriod_.barrier(origin_, defaultIoIndex_);
    return defaultIoEnd_;
  }
  /// The end of the current default I/O step (the origin before the first hop).
  Ticks defaultIoEnd() const { return defaultIoEnd_; }
  /// Whether a default I/O step begins at t0, a hop's start: a default barrier not begun
  /// before (hops that end by a zero crossing may start at one twice). Marks it begun.
  bool beginDefaultIoStep(Ticks t0) {
    if (!onDefaultGrid(t0) || lastBeginIoStep_ == t0) return false;
    lastBeginIoStep_ = t0;
    return true;
  }

  /// The target of an advance in progress is a barrier until the advance ends.
  void addAdvanceTarget(Ticks target) { advanceTargets_.push_back(target); }
  void removeAdvanceTarget(Ticks target);
  /// The earliest advance target after t0, or kNever.
  Ticks nextAdvanceTargetAfter(Ticks t0) const;

  /// Ends a hop at t1 (t1s: t1 in seconds).
  void endHopAt(Ticks t1, double t1s) {
    now_ = t1;
    nowSeconds_ = t1s;
    ++hopCount_;
  }

  /// What a checkpoint saves of the clock, and restores.
  struct Saved {
    Ticks now = 0;
    std::uint64_t hopCount = 0;
    Ticks lastBeginIoStep = kNotStarted;
  };
  Saved save() const { return {now_, hopCount_, lastBeginIoStep_}; }
  void restore(const Saved& saved);

 private:
  Ticks origin_;
  Ticks now_;
  double nowSeconds_;
  Period ioPeriod_;
  std::uint64_t hopCount_ = 0;
  // The current default I/O step's end and its index on the grid; before the first hop (and
  // after the period changes) the origin, index 0.
  Ticks defaultIoEnd_;
  std::int64_t defaultIoIndex_ = 0;
  Ticks lastBeginIoStep_ = kNotStarted;
  std::vector<Ticks> advanceTargets_;
};

}  // namespace hopsim
