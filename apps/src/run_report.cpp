#include "run_report.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace hopsim::apps {

namespace {

/// A terminal line is rewritten at least this often, s of wall time.
constexpr double kTerminalInterval = 1.0;

}  // namespace

Progress::Progress(std::ostream& err, bool show, bool terminal, std::optional<double> realtime,
                   double start, double end, double ioStep, double wallInterval)
    : err_(err),
      show_(show),
      terminal_(terminal),
      realtime_(realtime),
      start_(start),
      clock_(start, end, terminal ? 0.01 : 0.1, ioStep,
             terminal ? std::min(wallInterval, kTerminalInterval) : wallInterval),
      last_(start) {}

void Progress::update(double t) {
  if (realtime_) {
    std::this_thread::sleep_for(
        std::chrono::duration<double>((t - start_) / *realtime_ - clock_.wallSeconds()));
  }
  if (show_ && clock_.due(t)) show(t);
}

void Progress::finish(double t) {
  if (!show_) return;
  if (terminal_) {
    if (shown_) err_ << "\r\033[K" << std::flush;
  } else if (t != last_) {
    show(t);
  }
}

void Progress::show(double t) {
  last_ = t;
  if (terminal_) {
    err_ << "\r" << clock_.line(t) << "\033[K" << std::flush;
    shown_ = true;
  } else {
    err_ << clock_.line(t) << "\n" << std::flush;
  }
}

}  // namespace hopsim::apps
