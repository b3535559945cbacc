#include "hopsim/assemblies/run_progress.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "hopsim/assemblies/run_summary.h"

namespace hopsim {

ProgressClock::ProgressClock(double start, double end, double fraction, double ioStep,
                             double wallInterval)
    : start_(start),
      end_(end),
      slice_(std::max((end - start) * fraction, ioStep)),
      next_(start + slice_),
      wallInterval_(
          std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wallInterval))),
      wallStart_(Clock::now()),
      lastReport_(wallStart_) {}

bool ProgressClock::due(double t) {
  const Clock::time_point now = Clock::now();
  if (t < next_ && t < end_ && now - lastReport_ < wallInterval_) return false;
  if (t >= next_) next_ = start_ + (std::floor((t - start_) / slice_) + 1.0) * slice_;
  lastReport_ = now;
  return true;
}

double ProgressClock::done(double t) const {
  return end_ > start_ ? std::clamp((t - start_) / (end_ - start_), 0.0, 1.0) : 1.0;
}

double ProgressClock::wallSeconds() const {
  return std::chrono::duration<double>(Clock::now() - wallStart_).count();
}

std::string ProgressClock::line(double t) const {
  const double wall = wallSeconds();
  const bool measured = wall > 0.0 && t > start_;
  std::ostringstream text;
  text << std::setprecision(3) << "t = " << t << " / " << end_ << " s  wall " << wall << " s  rate "
       << (measured ? realTimeFactorText((t - start_) / wall) : std::string("-")) << "  ETA ";
  if (measured) {
    text << wall * std::max(end_ - t, 0.0) / (t - start_) << " s";
  } else {
    text << "-";
  }
  return text.str();
}

}  // namespace hopsim
