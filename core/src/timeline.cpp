// Timeline: the executive's clock and its barriers.

#include "hopsim/core/timeline.h"

#include <algorithm>

namespace hopsim {

void Timeline::setIoPeriod(Period period) {
  ioPeriod_ = period;
  defaultIoEnd_ = origin_;  // a barrier of the new grid too
  defaultIoIndex_ = 0;
}

void Timeline::removeAdvanceTarget(Ticks target) {
  advanceTargets_.erase(std::find(advanceTargets_.begin(), advanceTargets_.end(), target));
}

Ticks Timeline::nextAdvanceTargetAfter(Ticks t0) const {
  Ticks next = kNever;
  for (Ticks target : advanceTargets_) {
    if (target > t0) next = std::min(next, target);
  }
  return next;
}

void Timeline::restore(const Saved& saved) {
  now_ = saved.now;
  nowSeconds_ = ticksToSeconds(now_);
  hopCount_ = saved.hopCount;
  lastBeginIoStep_ = saved.lastBeginIoStep;
}

}  // namespace hopsim
