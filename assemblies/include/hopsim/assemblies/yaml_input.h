#pragma once
/// @file
/// YAML to InputNode: every node keeps its file, line and column; anchors and aliases are
/// resolved, and merge keys (`<<: *defaults`, `<<: [*a, *b]`) merge mappings as YAML 1.1
/// specifies (keys written in the mapping win over merged ones; earlier merged mappings win
/// over later ones).
#include <string>
#include <string_view>

#include "hopsim/assemblies/input_node.h"

namespace hopsim {

/// Parses the YAML file at `path`, a regular file of at most kMaxInputFileBytes
/// (hopsim/signals/input_file.h).
/// @throws InputError naming the file (and line:column for a syntax error) when it cannot be
/// read (readInputFile's errors) or parsed.
InputNode loadYamlFile(const std::string& path);

/// Parses YAML text; `sourceName` stands for the file in locations and messages.
InputNode parseYaml(std::string_view text, const std::string& sourceName = "<yaml>");

}  // namespace hopsim
