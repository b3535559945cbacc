#pragma once
/// @file
/// Scenario: a whole simulation built from a native scenario file (`hopsim: 1`; DESIGN.md
/// section 9; docs/scenario-yaml.md): settings, assemblies, extra signals and models, breaks,
/// events, logging and includes, with command-line style overrides.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hopsim/assemblies/assembly_registry.h"
#include "hopsim/assemblies/input_node.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"

namespace hopsim {

class MechanismFiles;

/// What an event's `log` action recorded.
struct EventLogEntry {
  double time;          ///< s
  std::string event;    ///< the event's name
  std::string message;  ///< the `log` text
};

/// A loaded scenario: the simulation, its assembly tree, its recorder and event log.
///
/// Loading is transactional: on any error nothing is left (the exception propagates and the
/// partly built simulation is destroyed). Every error names the file, line and column and the
/// key path. Keys a section does not know are warnings (warnings()), except inside config,
/// context and params, where an unknown field is an error.
class Scenario {
 public:
  /// Loads the scenario file at `path`. Each override is "PATH=VALUE" (VALUE in YAML flow
  /// syntax: `12 km`, `[0, 0, -9.81]`): overrides of the file's own keys (`simulation.*`,
  /// `logging.*`, the config, context and params of the assemblies it defines, the params of its
  /// models) are applied to the document before anything is built; the inputs of assemblies the
  /// file does not define (`assemblies.*` made by classes) are set before binding; any other
  /// variable path after binding, before lock(). All are validated like every other input.
  /// @throws InputError or ModelError with file:line:col and key path.
  static std::unique_ptr<Scenario> load(const std::string& path,
                                        const std::vector<std::string>& overrides = {},
                                        const AssemblyRegistry& registry = assemblyRegistry());
  /// Builds from a parsed document; `file` names it in messages and anchors relative includes.
  static std::unique_ptr<Scenario> build(InputNode document, const std::string& file,
                                         const std::vector<std::string>& overrides = {},
                                         const AssemblyRegistry& registry = assemblyRegistry());
  ~Scenario();

  Simulation& sim() { return *sim_; }
  const Simulation& sim() const { return *sim_; }
  SimulationAssembly& assemblies() { return *top_; }
  const SimulationAssembly& assemblies() const { return *top_; }
  /// The file it was loaded from (the name given to build()).
  const std::string& file() const { return file_; }
  /// `simulation.end_time`, s.
  double endTime() const { return endTime_; }
  /// Advances to the end time (or until a `stop` action). The simulation is locked at load.
  void run();
  /// The logged variables, sampled as `logging` says (empty when there is no `logging`).
  const Recorder& recorder() const { return *recorder_; }
  Recorder& recorder() { return *recorder_; }
  /// The `logging.file` the scenario names, relative paths resolved against its directory.
  const std::optional<std::string>& logFile() const { return logFile_; }
  /// What `log` actions recorded, in firing order.
  const std::vector<EventLogEntry>& eventLog() const { return eventLog_; }
  /// Unknown keys and other non-fatal findings, each with its file:line:col.
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// How many times the file's `events` have fired (whatever their actions).
  std::uint64_t eventsFired() const { return eventsFired_; }

 private:
  class Builder;
  Scenario();
  /// build(), with the mechanism files already read (`hopsim run` of a Chrono or MBSE file).
  static std::unique_ptr<Scenario> build(InputNode document, const std::string& file,
                                         const std::vector<std::string>& overrides,
                                         const AssemblyRegistry& registry, MechanismFiles files);

  std::unique_ptr<Simulation> sim_;
  std::unique_ptr<SimulationAssembly> top_;  // after sim_: destroyed first
  std::unique_ptr<Recorder> recorder_;
  std::string file_;
  double endTime_ = 0.0;
  std::optional<std::string> logFile_;
  std::vector<EventLogEntry> eventLog_;
  std::vector<std::string> warnings_;
  std::uint64_t eventsFired_ = 0;
};

}  // namespace hopsim
