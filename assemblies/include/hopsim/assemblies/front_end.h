#pragma once
/// @file
/// Which kind of YAML file a document is, and the readers of the mechanism files: the one
/// entry point `hopsim run`, Scenario::load and ModelFileAssembly share.

#include <string>
#include <vector>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/mechanism.h"
#include "hopsim/assemblies/mechanism_files.h"

namespace hopsim {

/// The YAML files hopsim reads.
enum class YamlFileKind {
  Scenario,          ///< native (`hopsim: 1`)
  ChronoModel,       ///< `chrono-version` + `model`
  ChronoSimulation,  ///< `chrono-version` + `type: MBS`
  ChronoSolver,      ///< `chrono-version` + `contact_method`
  Mbse,              ///< `points` + `planar_bodies`
};

/// "native scenario", "Chrono model file", ...
std::string describe(YamlFileKind kind);

/// The kind of `document` (read from `file`). @throws InputError naming the file and the keys
/// that identify each kind when it is none of them.
YamlFileKind detectYamlFileKind(const InputNode& document, const std::string& file);

/// Reads a Chrono model document or an MBSE document (loaded from `file`). @throws InputError
/// (with file:line:col) for any other kind or a bad document.
mechanism::Mechanism readMechanism(const InputNode& document, const std::string& file);
/// Loads and reads a Chrono model file or an MBSE file (readMechanism).
mechanism::Mechanism readMechanismFile(const std::string& path);

/// A native scenario document that runs a Chrono model or simulation file or an MBSE file as
/// `hopsim run` does (docs/chrono-yaml.md, "Running"), or `document` itself for a native one.
struct RunDocument {
  InputNode document;
  std::vector<std::string> warnings;  ///< about the run settings
  /// The mechanism files read to write the document: its ModelFile assembly takes its file
  /// from here (SimulationAssembly::mechanismFiles) instead of reading it again.
  MechanismFiles files;
};
/// @param overrides the --set texts, so that a default the user overrides is not warned about.
/// @throws InputError for a solver file (it describes no model) and bad files.
RunDocument runDocumentFor(InputNode document, const std::string& file,
                           const std::vector<std::string>& overrides);

}  // namespace hopsim
