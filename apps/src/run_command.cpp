// hopsim run: load a scenario, run it to its end time, write what it logged.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <optional>
#include <sstream>

#include "commands.h"
#include "hopsim/assemblies/run_summary.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/csv_sink.h"
#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"
#include "hopsim/viewer/hdf5_recording.h"
#include "hopsim/viewer/replay_page.h"
#include "run_report.h"
#include "run_signals.h"

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

/// The replay page's frame rate: --view-rate, else 100 Hz, either lowered so that the page
/// has at most kDefaultViewFrames frames over the run's `duration` (a warning says so when it
/// lowers --view-rate).
double viewRate(const RunOptions& options, double duration, std::ostream& err) {
  const double cap = duration > 0.0 ? kDefaultViewFrames / duration : kDefaultViewRate;
  if (!options.viewRate) return std::min(kDefaultViewRate, cap);
  if (*options.viewRate <= cap) return *options.viewRate;
  err << "hopsim: warning: --view-rate " << *options.viewRate << " Hz: a replay page holds at most "
      << kDefaultViewFrames << " frames, so the " << duration << " s run is recorded for it at "
      << cap << " Hz\n";
  return cap;
}

/// "failed at t = 0.25 s; ", "interrupted at t = 1.5 s (SIGINT); ", or "" for a run that
/// completed: how the summary starts.
std::string endText(const RecordingEnd& end) {
  if (end.status == RecordingEnd::Status::Completed) return "";
  std::ostringstream text;
  text << statusName(end.status) << " at t = " << end.time << " s";
  if (end.status == RecordingEnd::Status::Interrupted) text << " (" << end.reason << ")";
  return text.str() + "; ";
}

/// Loads the scenario with the options as overrides, validated like the file, prints its
/// warnings, and adds the --log-event samples to its recorder.
std::unique_ptr<Scenario> loadScenario(const RunOptions& options, std::ostream& err) {
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
    overrides.emplace_back("simulation.time_step=~");
    setting("simulation.integration_steps", options.steps);
  }
  setting("simulation.integrator", options.integrator);
  setting("simulation.rtol", options.rtol);
  setting("simulation.atol", options.atol);
  if (!options.logs.empty()) {
    // --log replaces what the file logs: the CSV holds time and what the command line names.
    overrides.push_back(yamlList("logging.variables", options.logs));
    overrides.emplace_back("logging.columns={}");
  }
  setting("logging.rate", options.logRate);
  std::unique_ptr<Scenario> scenario = Scenario::load(options.file, overrides);
  for (const std::string& warning : scenario->warnings())
    err << "hopsim: warning: " << warning << "\n";
  if (!options.logEvents.empty()) {
    // Samples at the events, besides the file's own (periodic or not).
    Recorder& recorder = scenario->recorder();
    if (recorder.columns().empty()) {
      throw InputError("--log-event: the run logs nothing to sample; name what to log with --log");
    }
    try {
      recorder.sampleOnEvents(options.logEvents);
    } catch (const InputError& e) {
      throw InputError(std::string("--log-event: ") + e.what());
    }
  }
  return scenario;
}

/// Advances `sim` to `endTime`, or until a SIGINT or SIGTERM stops it at the end of a hop, and
/// returns how the run ended; an error that stopped it goes to `error`.
RecordingEnd advance(Simulation& sim, double endTime, std::exception_ptr& error) {
  sim.addStopCallback("hopsim run: signals",
                      [](Simulation&, double) { return RunSignals::received() != 0; });
  RecordingEnd end;
  try {
    sim.advanceTimeTo(endTime);
    if (RunSignals::received() != 0) {
      end = {RecordingEnd::Status::Interrupted, 0.0, signalName(RunSignals::received())};
    }
  } catch (const std::exception& e) {
    error = std::current_exception();
    end = {RecordingEnd::Status::Failed, 0.0, e.what()};
  }
  end.time = sim.time();
  return end;
}

}  // namespace

int runScenario(const RunOptions& options, std::ostream& err) {
  const auto wallStart = std::chrono::steady_clock::now();
  viewer::skipHdf5Termination();  // every HDF5 file of the run is closed by its own code
  checkOptions(options);
  const std::unique_ptr<Scenario> scenario = loadScenario(options, err);
  Simulation& sim = scenario->sim();
  Recorder& recorder = scenario->recorder();
  const double startTime = sim.time();
  // The scenes are taken in the initial state; the page's recorder samples from the start.
  const auto sceneFor = [&](const Recorder& r) {
    return viewer::sceneJson(
        viewer::sceneOf(sim, &scenario->assemblies(), {options.file, r.columns(), {}}));
  };
  const std::optional<std::string> file = options.out ? options.out : scenario->logFile();
  // The scene stored with a recording lets `hopsim view` replay it later; a run that cannot
  // have one (a mesh file that does not read) still runs and writes its recording.
  std::string loggedScene;
  if (file) {
    try {
      loggedScene = sceneFor(recorder);
    } catch (const InputError& e) {
      err << "hopsim: warning: the recording will have no replay scene: " << e.what() << "\n";
    }
  }
  std::unique_ptr<Recorder> replay;
  std::string replayScene;
  if (options.view) {
    const double duration = scenario->endTime() - startTime;
    const double rate = viewRate(options, duration, err);
    replay = viewer::replayRecorder(sim, &recorder, rate);
    // Room for every frame, so that sampling allocates nothing while the run goes on.
    if (duration > 0.0) replay->reserve(static_cast<std::size_t>(std::ceil(duration * rate)) + 2);
    replayScene = sceneFor(*replay);
  }

  // From here on a signal stops the run cleanly, and the recording streams as it goes.
  const RunSignals signals;
  if (file) {
    // Nothing else in this process calls HDF5 while it runs: the file is written beside it.
    recorder.streamTo(viewer::recordingSink(*file, options.file, loggedScene, true));
  } else if (options.csvToStdout && !recorder.columns().empty()) {
    recorder.streamTo(CsvSink::toStandardOutput());
  } else {
    recorder.stop();  // samples nobody reads would only fill the memory
  }
  const RunCounts countsBefore = RunCounts::of(*scenario);
  const auto runStart = std::chrono::steady_clock::now();
  std::optional<Progress> progress;
  if (!options.quiet || options.realtime) {
    progress.emplace(err, !options.quiet, options.terminal, options.realtime, startTime,
                     scenario->endTime(), sim.ioStepSize(), options.progressInterval);
    sim.addStopCallback("hopsim run: progress", [&progress](Simulation&, double t) {
      progress->update(t);
      return false;
    });
  }
  std::exception_ptr runError;
  const RecordingEnd end = advance(sim, scenario->endTime(), runError);
  const auto runEnd = std::chrono::steady_clock::now();
  if (progress) progress->finish(sim.time());

  // Whatever stopped the run, the samples up to there and the page. A write that failed while
  // running is the run's error: there is no summary of a run whose recording is incomplete.
  if (recorder.streamFailed() && runError) {
    try {
      recorder.finishStream(end.status, end.reason);  // the failure, where the file takes it
    } catch (const Error&) {
      // The same write failing again: the run's error reports it.
    }
    std::rethrow_exception(runError);
  }
  try {
    if (recorder.streaming()) recorder.finishStream(end.status, end.reason);
    if (replay && (replay->rows() > 0 || !runError)) {
      viewer::writeReplayPage(*options.view, replayScene, viewer::recordingOf(*replay));
    }
  } catch (const Error&) {
    if (runError) err << "hopsim: error: " << end.reason << "\n";
    throw;
  }
  if (!options.quiet) {
    for (const EventLogEntry& e : scenario->eventLog()) {
      err << "t = " << e.time << " s  " << e.event << ": " << e.message << "\n";
    }
    err << endText(end);
    const RunSummary summary{
        sim.time() - startTime, std::chrono::duration<double>(runEnd - runStart).count(),
        std::chrono::duration<double>(runStart - wallStart).count(),
        RunCounts::of(*scenario).since(countsBefore), scenario->warnings().size()};
    err << summary.text();
    if (file && viewer::isHdf5Path(*file)) {
      err << "; wrote " << recorder.rows() << " samples to " << *file
          << " (HDF5, units as attributes)";
    } else if (file) {
      err << "; wrote " << recorder.rows() << " samples to " << *file << " (units in "
          << sidecarPath(*file, ".units.json") << ")";
    }
    if (replay && replay->rows() > 0) {
      err << "; wrote the replay page " << *options.view << " (" << replay->rows() << " frames)";
    }
    err << "\n";
  }
  if (runError) std::rethrow_exception(runError);
  if (end.status == RecordingEnd::Status::Interrupted) return 128 + RunSignals::received();
  return 0;
}

}  // namespace hopsim::apps
