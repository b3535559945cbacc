#pragma once
// The subcommands of the hopsim program, each writing to `out`.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace hopsim::apps {

/// The built-in multi-rate dataflow demo: builds, runs 5 s and reports what it did.
int runDemo(std::ostream& out);

/// What `hopsim run` was asked to do; main() has checked each value alone (option_values.h).
struct RunOptions {
  std::string file;                       ///< the scenario file
  std::vector<std::string> overrides;     ///< "PATH=VALUE", applied as Scenario::load documents
  std::optional<double> end;              ///< s; the scenario's end_time when absent
  std::optional<double> timeStep;         ///< s; simulation.time_step
  std::optional<std::string> integrator;  ///< simulation.integrator
  std::optional<double> rtol;             ///< simulation.rtol
  std::optional<double> atol;             ///< simulation.atol
  std::optional<std::int64_t> steps;      ///< simulation.integration_steps (fixed-step sub-steps)
  std::vector<std::string> logs;       ///< paths or globs; when any, they replace logging.variables
  std::vector<std::string> logEvents;  ///< event names or globs: samples right after them,
                                       ///< besides the file's own
  std::optional<double> logRate;       ///< Hz; logging.rate
  std::optional<std::string> out;      ///< CSV file; the scenario's logging.file when absent
  bool csvToStdout = false;            ///< without any file, print the CSV on stdout
  bool quiet = false;                  ///< no event log, progress and summary on `err`
  bool terminal = false;               ///< `err` is a terminal: show a progress line
  double progressInterval = 10.0;      ///< s of wall time between plain progress lines at most
  std::optional<double> realtime;      ///< pace sim time to this many times the wall clock
  std::optional<std::string> view;     ///< write a replay page of the run (docs/viewer.md)
  std::optional<double> viewRate;      ///< Hz: the page's frames (default: kDefaultViewRate)
};

/// The frames per second of a replay page `hopsim run --view` writes unless --view-rate says
/// otherwise, and the most frames it takes by default (a longer run is sampled more slowly).
inline constexpr double kDefaultViewRate = 100.0;
inline constexpr double kDefaultViewFrames = 10000.0;

/// Loads and runs a scenario to its end time, streaming the logged variables to their file
/// (or, with csvToStdout, as CSV to stdout) as it goes, and reports the run on `err`. A run
/// stopped by an error still writes every sample up to it and the replay page, and records the
/// failure (the summary, the file's status) before the error propagates; a run stopped by
/// SIGINT or SIGTERM does the same and returns 128 + the signal. Returns 0 otherwise.
/// @throws what Scenario::load throws, the run's error, InputError for a write that fails.
int runScenario(const RunOptions& options, std::ostream& err);

/// What `hopsim check` was asked to do.
struct CheckOptions {
  std::string file;                    ///< the YAML file, of any kind `hopsim run` takes
  std::vector<std::string> overrides;  ///< "PATH=VALUE", applied as Scenario::load documents
  bool explain = false;                ///< print what the file was lowered into on `out`
};

/// Loads, validates and locks a YAML file without running it: prints its warnings on `err`
/// and, after the --explain report when asked, "FILE: ok (counts)" on `out`.
/// @throws what Scenario::load throws.
int checkScenario(const CheckOptions& options, std::ostream& out, std::ostream& err);

/// What `hopsim graph` was asked to do.
struct GraphOptions {
  std::string file;                    ///< the YAML file, of any kind `hopsim run` takes
  std::vector<std::string> overrides;  ///< "PATH=VALUE", applied as Scenario::load documents
  std::optional<std::string> output;   ///< FILE.dot/.gv or FILE.svg (via dot); else stdout
};

/// Loads and locks a YAML file like `hopsim check` and draws its dataflow (models, signals,
/// port ties, feed-through, breaks, assemblies as clusters) as Graphviz DOT: on `out` without
/// an output file, else into it, rendered to SVG by Graphviz's `dot` for FILE.svg, and then
/// "wrote FILE (SVG)" on `out`. Prints the load's warnings on `err`. @throws InputError for an
/// output that is not .dot, .gv or .svg (before loading), what Scenario::load throws, Error when
/// `dot` is missing or fails.
int graphScenario(const GraphOptions& options, std::ostream& out, std::ostream& err);

/// What `hopsim linearize` was asked to do.
struct LinearizeOptions {
  std::string file;                    ///< the YAML file, of any kind `hopsim run` takes
  std::vector<std::string> overrides;  ///< "PATH=VALUE", applied as Scenario::load documents
  std::optional<double> at;            ///< s: run to this time first
  std::vector<std::string> states;     ///< tangent state names or globs; every one when empty
  std::vector<std::string> inputs;     ///< signals or double params
  std::vector<std::string> outputs;    ///< numeric variables or globs
  std::string scheme = "richardson";   ///< the difference scheme
  bool sampled = false;                ///< (Φ, Γ) at the I/O step instead of (A, B)
  std::string output;                  ///< FILE.npz, FILE.csv or FILE.json
};

/// Loads a YAML file, runs it to `at`, linearizes there and writes the model to the output
/// file, then "wrote FILE: ..." on `out`. @throws InputError for an output that is not .npz,
/// .csv or .json (before loading), what Scenario::load, the run and Simulation::linearize throw.
int linearizeScenario(const LinearizeOptions& options, std::ostream& out, std::ostream& err);

/// What `hopsim view` was asked to do.
struct ViewOptions {
  std::string file;                   ///< a CSV or HDF5 file written by `hopsim run`
  std::optional<std::string> output;  ///< the page; FILE's stem + .html if absent
};

/// Writes the replay page of a recorded run (docs/viewer.md) and says so on `err`.
/// @throws InputError for a file that is not a recording of hopsim run, or one that lacks what
/// the page needs (the bodies' poses).
int viewRun(const ViewOptions& options, std::ostream& err);

/// What `hopsim plot` was asked to do.
struct PlotOptions {
  std::string file;                   ///< a CSV (or HDF5 file) written by `hopsim run`
  std::vector<std::string> columns;   ///< the columns to draw; every one when empty
  std::optional<std::string> output;  ///< FILE.png (.pdf, .svg); FILE's stem + .png if absent
  std::optional<int> dpi;             ///< the image's resolution
};

/// Runs `python3 -m hopsim.plot` (the interpreter hopsim was built for, or $HOPSIM_PYTHON) with
/// the build tree's package first on PYTHONPATH, without a shell, and returns its exit status;
/// it writes its own messages. @throws Error when the interpreter cannot be run or is killed.
int plotCsv(const PlotOptions& options);

/// What `hopsim campaign` was asked to do.
struct CampaignOptions {
  std::string file;                      ///< the campaign file
  std::optional<int> workers;            ///< local worker processes (0: serial, in-process)
  std::optional<std::string> scheduler;  ///< a running Dask scheduler's address
  std::optional<std::int64_t> replay;    ///< run this member alone
  std::optional<std::int64_t> runs;      ///< replaces the file's number of runs
  std::vector<std::string> overrides;    ///< PATH=VALUE overrides added to the file's
  std::optional<std::string> outDir;     ///< where the outputs go (default: the current one)
  std::optional<std::string> out;        ///< the results file
  bool quiet = false;                    ///< no progress and no summary
};

/// Runs `python3 -m hopsim.campaign` (docs/campaigns.md) as plotCsv runs hopsim.plot, and
/// returns its exit status. @throws Error when the interpreter cannot be run or is killed.
int runCampaign(const CampaignOptions& options);

/// Lists registered model classes; with `doc`, their Markdown reference. With `className`, the
/// reference of that class alone. @throws InputError naming the nearest classes for an unknown
/// `className`.
int listModels(std::ostream& out, const std::optional<std::string>& className, bool doc);

}  // namespace hopsim::apps
