#pragma once
// The subcommands of the hopsim program, each writing to `out`.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace hopsim::apps {

/// The built-in multi-rate dataflow demo: builds, runs 5 s and reports what it did.
int runDemo(std::ostream& out);

/// What `hopsim run` was asked to do.
struct RunOptions {
  std::string file;                    ///< the scenario file
  std::vector<std::string> overrides;  ///< "PATH=VALUE", applied as Scenario::load documents
  std::optional<double> end;           ///< s; the scenario's end_time when absent
  std::optional<double> timeStep;      ///< s; simulation.time_step
  std::optional<std::string> integrator;  ///< simulation.integrator
  std::optional<double> rtol;          ///< simulation.rtol
  std::optional<double> atol;          ///< simulation.atol
  std::optional<std::string> out;      ///< CSV file; the scenario's logging.file when absent
  bool csvToStdout = false;            ///< without any file, print the CSV on `out`
  bool quiet = false;                  ///< no event log and summary on `err`
};

/// Loads and runs a scenario to its end time, writes the logged variables as CSV and reports
/// the run on `err`.
int runScenario(const RunOptions& options, std::ostream& out, std::ostream& err);

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

/// Lists registered model classes; with `doc`, their Markdown reference. With `className`, the
/// reference of that class alone. @throws InputError naming the nearest classes for an unknown
/// `className`.
int listModels(std::ostream& out, const std::optional<std::string>& className, bool doc);

}  // namespace hopsim::apps
