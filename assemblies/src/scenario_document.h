#pragma once
// The document-level steps of loading a scenario (private): includes (scenario_includes.cpp)
// and overrides (scenario_document.cpp).
#include <string>
#include <vector>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/mechanism_files.h"

namespace hopsim::scenario {

/// "file:line:col: " of a node, or "" when it has no location: the prefix of the section
/// errors the loader raises itself.
inline std::string at(const InputNode& node) {
  return node.location().known() ? node.location().toString() + ": " : std::string();
}

/// An override "PATH=VALUE", split and parsed.
struct Override {
  std::string path;
  InputNode value;  // parsed as YAML flow text, located at "--set PATH=VALUE"
};

/// Splits and parses "PATH=VALUE". @throws InputError for a malformed override.
Override parseOverride(const std::string& text);

/// Checks that `document` is a version-1 scenario and merges the files it includes, and the
/// files they include, into it (paths relative to the including file), in time linear in their
/// number and size (scenario_includes.cpp).
/// @throws InputError for a file that cannot be read (readInputFile), an include cycle, a file
/// that is not a scenario, or a name defined twice. An included model file's document is kept in
/// `files`, from which its ModelFile assembly reads the mechanism.
void resolveIncludes(InputNode& document, const std::string& file, MechanismFiles& files);

/// Applies the overrides that name keys of the document's own definitions to it; returns the
/// others, for the variable tree.
std::vector<Override> applyToDocument(InputNode& document, std::vector<Override> overrides);

}  // namespace hopsim::scenario
