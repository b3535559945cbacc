// hopsim run: load a scenario, run it to its end time, write what it logged.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "commands.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"
#include "hopsim/viewer/hdf5_recording.h"
#include "hopsim/viewer/replay_page.h"

namespace hopsim::apps {

namespace {

/// Checks what the loader cannot name the option of (each value alone was checked as the
/// command line was read): @throws InputError naming the option.
void checkOptions(const RunOptions& options) {
  // Found before a long run rather than after it.
  for (const auto& [option, file] : {std::pair{"--out", options.out}, {"--view", options.view}}) {
    if (!file) continue;
    const std::filesystem::path directory = std::filesystem::path(*file).parent_path().empty()
                                                ? std::filesystem::path(".")
                                                : std::filesystem::path(*file).parent_path();
    if (!std::filesystem::is_directory(directory) || ::access(directory.c_str(), W_OK) != 0) {
      throw InputError(std::string(option) + ": cannot write '" + *file + "': the directory '" +
                       directory.string() + "' does not exist or is not writable");
    }
  }
  if (options.viewRate && !options.view) {
    throw InputError("--view-rate sets the frames of the replay page: give --view PAGE.html too");
  }
  if (options.steps && options.timeStep) {
    throw InputError("--steps and --dt both set the integration steps per hop: give one");
  }
  for (const std::string& log : options.logs) {
    if (log.empty()) throw InputError("--log: expected a variable path or glob, got ''");
  }
  for (const std::string& event : options.logEvents) {
    if (event.empty()) throw InputError("--log-event: expected an event name or glob, got ''");
  }
}

/// `text` as a YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string q = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

/// The override `key=["a", "b"]`.
std::string yamlList(const std::string& key, const std::vector<std::string>& items) {
  std::string list = key + "=[";
  for (std::size_t i = 0; i < items.size(); ++i) list += (i > 0 ? ", " : "") + quoted(items[i]);
  return list + "]";
}

/// A real-time factor: "3.1x", "0.25x", "2371x".
std::string factorText(double factor) {
  std::ostringstream text;
  if (factor >= 100.0) {
    text << std::fixed << std::setprecision(0) << factor;
  } else {
    text << std::setprecision(2) << factor;
  }
  return text.str() + "x";
}

/// "simulated 0.5 s in 0.0123 s wall time (40.7x real time; loading 0.02 s); 25 hops, 250
/// integration steps, 1000 derivative evaluations, 2 events fired, 1 zero crossing, 0
/// warnings", without a newline. The zero crossings (the file's and the contacts') only when
/// any fired; the integration steps only when the integrator counts them.
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

/// `text` as a JSON string.
std::string jsonString(const std::string& text) {
  std::string j = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      j += '\\';
      j += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      j += escaped;
    } else {
      j += c;
    }
  }
  return j + "\"";
}

/// The units sidecar of a CSV file: "run.csv" -> "run.units.json", "run" -> "run.units.json".
std::string sidecarPath(const std::string& csv) {
  const std::string base =
      csv.size() > 4 && csv.ends_with(".csv") ? csv.substr(0, csv.size() - 4) : csv;
  return base + ".units.json";
}

/// Writes the units sidecar: one entry per CSV column, in column order, with its unit ("" when
/// unknown or dimensionless), its description and the variable (element) it reads.
void writeSidecar(const std::string& file, const Simulation& sim, const Recorder& recorder) {
  std::ofstream json(file);
  if (!json) throw InputError("cannot write '" + file + "'");
  const std::vector<std::string>& columns = recorder.columns();
  const std::vector<std::string>& units = recorder.units();
  if (columns.empty()) {  // nothing logged: an empty CSV, an empty object
    json << "{}\n";
    return;
  }
  json << "{\n  " << jsonString(columns[0]) << ": {\"unit\": \"s\", \"description\": "
       << "\"simulation time of the sample\"}";
  for (std::size_t c = 1; c < columns.size(); ++c) {
    const std::string& path = recorder.path(c);
    const Variable& v = sim.variables().at(path);
    std::string variable = path;
    if (v.length() > 1) variable += "[" + std::to_string(recorder.element(c)) + "]";
    json << ",\n  " << jsonString(columns[c]) << ": {\"unit\": " << jsonString(units[c])
         << ", \"description\": " << jsonString(v.description())
         << ", \"variable\": " << jsonString(variable) << "}";
  }
  json << "\n}\n";
  if (!json) throw InputError("cannot write '" + file + "'");
}

/// Writes `text` to `file`. @throws InputError naming it when it cannot be written.
void writeText(const std::string& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text << "\n";
  if (!out) throw InputError("cannot write '" + file + "'");
}

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
  void update(double t) {
    if (realtime_) {
      std::this_thread::sleep_until(wallStart_ +
                                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                        std::chrono::duration<double>((t - start_) / *realtime_)));
    }
    if (!show_ || (t < next_ && t < end_)) return;
    next_ = start_ + (std::floor((t - start_) / slice_) + 1.0) * slice_;
    show(t);
  }

  /// Ends the report at sim time `t`: clears the terminal line, so that what follows starts on
  /// a clean one; elsewhere shows `t` when the run stopped between two lines.
  void finish(double t) {
    if (!show_) return;
    if (terminal_) {
      if (shown_) err_ << "\r\033[K" << std::flush;
    } else if (t != last_) {
      show(t);
    }
  }

 private:
  void show(double t) {
    last_ = t;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart_).count();
    std::ostringstream line;
    line << std::setprecision(3) << "t = " << t << " / " << end_ << " s  wall " << wall
         << " s  rate " << (wall > 0.0 ? factorText((t - start_) / wall) : std::string("-"));
    if (terminal_) {
      err_ << "\r" << line.str() << "\033[K" << std::flush;
      shown_ = true;
    } else {
      err_ << line.str() << "\n" << std::flush;
    }
  }

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

}  // namespace

int runScenario(const RunOptions& options, std::ostream& out, std::ostream& err) {
  const auto wallStart = std::chrono::steady_clock::now();
  checkOptions(options);
  // The options are overrides of the simulation and logging sections, validated like the file.
  std::vector<std::string> overrides = options.overrides;
  const auto setting = [&overrides](const char* key, const auto& value) {
    if (!value) return;
    std::ostringstream text;
    text.precision(17);
    text << key << "=" << *value;
    overrides.push_back(text.str());
  };
  setting("simulation.end_time", options.end);
  setting("simulation.time_step", options.timeStep);
  if (options.steps) {
    // integration_steps is ignored when the file gives time_step: --steps drops it.
    overrides.push_back("simulation.time_step=~");
    setting("simulation.integration_steps", options.steps);
  }
  setting("simulation.integrator", options.integrator);
  setting("simulation.rtol", options.rtol);
  setting("simulation.atol", options.atol);
  if (!options.logs.empty()) {
    // --log replaces what the file logs: the CSV holds time and what the command line names.
    overrides.push_back(yamlList("logging.variables", options.logs));
    overrides.push_back("logging.columns={}");
  }
  if (!options.logEvents.empty())
    overrides.push_back(yamlList("logging.events", options.logEvents));
  setting("logging.rate", options.logRate);
  std::unique_ptr<Scenario> scenario = Scenario::load(options.file, overrides);
  for (const std::string& warning : scenario->warnings())
    err << "hopsim: warning: " << warning << "\n";
  Simulation& sim = scenario->sim();
  const double startTime = sim.time();
  // The scenes are taken in the initial state; the page's recorder samples from the start.
  const auto sceneFor = [&](const Recorder& recorder) {
    return viewer::sceneJson(
        viewer::sceneOf(sim, &scenario->assemblies(), {options.file, recorder.columns(), {}}));
  };
  const std::optional<std::string> csv = options.out ? options.out : scenario->logFile();
  // The scene stored with a recording lets `hopsim view` replay it later; a run that cannot
  // have one (a mesh file that does not read) still runs and writes its recording.
  std::string loggedScene;
  if (csv) {
    try {
      loggedScene = sceneFor(scenario->recorder());
    } catch (const InputError& e) {
      err << "hopsim: warning: the recording will have no replay scene: " << e.what() << "\n";
    }
  }
  std::unique_ptr<Recorder> replay;
  std::string replayScene;
  if (options.view) {
    const double duration = scenario->endTime() - startTime;
    const double rate = options.viewRate.value_or(
        duration > 0.0 ? std::min(kDefaultViewRate, kDefaultViewFrames / duration)
                       : kDefaultViewRate);
    replay = viewer::replayRecorder(sim, &scenario->recorder(), rate);
    // Room for every frame, so that sampling allocates nothing while the run goes on.
    if (duration > 0.0) replay->reserve(static_cast<std::size_t>(std::ceil(duration * rate)) + 2);
    replayScene = sceneFor(*replay);
  }
  const auto runStart = std::chrono::steady_clock::now();
  std::optional<Progress> progress;
  const bool show = !options.quiet && (options.terminal || options.progress);
  if (show || options.realtime) {
    progress.emplace(err, show, options.terminal, options.realtime, startTime, scenario->endTime(),
                     sim.ioStepSize());
    sim.addStopCallback("hopsim run: progress", [&progress](Simulation&, double t) {
      progress->update(t);
      return false;
    });
  }
  try {
    sim.advanceTimeTo(scenario->endTime());
  } catch (...) {
    if (progress) progress->finish(sim.time());
    throw;
  }
  if (progress) progress->finish(sim.time());
  const auto runEnd = std::chrono::steady_clock::now();

  // F.h5 / F.hdf5: HDF5 with the units as attributes, no sidecar; any other name: CSV.
  const bool hdf5 = csv && viewer::isHdf5Path(*csv);
  if (hdf5) {
    viewer::writeHdf5(*csv, sim, scenario->recorder(), options.file, loggedScene);
  } else if (csv) {
    std::ofstream file(*csv);
    if (!file) throw InputError("cannot write '" + *csv + "'");
    scenario->recorder().writeCsv(file);
    writeSidecar(sidecarPath(*csv), sim, scenario->recorder());
    // No scene: no sidecar, and none of an earlier run left to pair with this recording.
    if (loggedScene.empty()) {
      std::error_code ignored;
      std::filesystem::remove(viewer::sceneSidecarPath(*csv), ignored);
    } else {
      writeText(viewer::sceneSidecarPath(*csv), loggedScene);
    }
  } else if (scenario->recorder().rows() > 0 && options.csvToStdout) {
    scenario->recorder().writeCsv(out);
  }
  if (replay) viewer::writeReplayPage(*options.view, replayScene, viewer::recordingOf(*replay));
  if (!options.quiet) {
    for (const EventLogEntry& e : scenario->eventLog()) {
      err << "t = " << e.time << " s  " << e.event << ": " << e.message << "\n";
    }
    writeSummary(err, *scenario, sim.time() - startTime,
                 std::chrono::duration<double>(runEnd - runStart).count(),
                 std::chrono::duration<double>(runStart - wallStart).count());
    if (hdf5) {
      err << "; wrote " << scenario->recorder().rows() << " samples to " << *csv
          << " (HDF5, units as attributes)";
    } else if (csv) {
      err << "; wrote " << scenario->recorder().rows() << " samples to " << *csv << " (units in "
          << sidecarPath(*csv) << ")";
    }
    if (replay) {
      err << "; wrote the replay page " << *options.view << " (" << replay->rows() << " frames)";
    }
    err << "\n";
  }
  return 0;
}

}  // namespace hopsim::apps
