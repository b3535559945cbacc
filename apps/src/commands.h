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
  std::optional<std::string> out;      ///< CSV file; the scenario's logging.file when absent
  bool csvToStdout = false;            ///< without any file, print the CSV on `out`
  bool quiet = false;                  ///< no event log and summary on `err`
};

/// Loads and runs a scenario to its end time, writes the logged variables as CSV and reports
/// the run on `err`.
int runScenario(const RunOptions& options, std::ostream& out, std::ostream& err);

/// Lists registered model classes; with `doc`, their Markdown reference.
int listModels(std::ostream& out, bool doc);

}  // namespace hopsim::apps
