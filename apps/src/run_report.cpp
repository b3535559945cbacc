#include "run_report.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <thread>

#include "hopsim/assemblies/scenario.h"

namespace hopsim::apps {

std::string factorText(double factor) {
  std::ostringstream text;
  if (factor >= 100.0) {
    text << std::fixed << std::setprecision(0) << factor;
  } else {
    text << std::setprecision(2) << factor;
  }
  return text.str() + "x";
}

void writeSummary(std::ostream& err, const Scenario& scenario, double simulated, double wall,
                  double loading) {
  const Simulation& sim = scenario.sim();
  const auto plural = [](std::uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::ostringstream text;
  text << "simulated " << simulated << " s in " << std::setprecision(3) << wall << " s wall time (";
  if (wall > 0.0) {
    text << factorText(simulated / wall) << " real time";
  } else {
    text << "faster than the clock resolves";
  }
  text << "; loading " << loading << " s); " << plural(sim.hopCount(), "hop", "hops") << ", ";
  const std::int64_t steps = sim.integrator().statistics().steps;
  if (steps > 0) {
    text << plural(static_cast<std::uint64_t>(steps), "integration step", "integration steps")
         << ", ";
  }
  text << plural(sim.propagationStatistics().derivativeEvaluations, "derivative evaluation",
                 "derivative evaluations")
       << ", " << plural(scenario.eventsFired(), "event fired", "events fired");
  if (const std::uint64_t crossings = sim.propagationStatistics().crossingsFired; crossings > 0) {
    text << ", " << plural(crossings, "zero crossing", "zero crossings");
  }
  text << ", " << plural(scenario.warnings().size(), "warning", "warnings");
  err << text.str();
}

void Progress::update(double t) {
  if (realtime_) {
    std::this_thread::sleep_until(wallStart_ +
                                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>((t - start_) / *realtime_)));
  }
  if (!show_ || (t < next_ && t < end_)) return;
  next_ = start_ + (std::floor((t - start_) / slice_) + 1.0) * slice_;
  show(t);
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
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart_).count();
  std::ostringstream line;
  line << std::setprecision(3) << "t = " << t << " / " << end_ << " s  wall " << wall << " s  rate "
       << (wall > 0.0 ? factorText((t - start_) / wall) : std::string("-"));
  if (terminal_) {
    err_ << "\r" << line.str() << "\033[K" << std::flush;
    shown_ = true;
  } else {
    err_ << line.str() << "\n" << std::flush;
  }
}

}  // namespace hopsim::apps
