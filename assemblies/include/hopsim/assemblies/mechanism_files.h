#pragma once
/// @file
/// MechanismFiles: the Chrono model files and MBSE files of one simulation, each read once
/// however many ModelFile assemblies place it and whoever needs it first (`hopsim run` reads
/// the file to plan its output columns, the assembly to lower it).

#include <map>
#include <memory>
#include <string>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/mechanism.h"

namespace hopsim {

/// Mechanisms and the documents they come from, by the absolute, normal path of their file.
class MechanismFiles {
 public:
  /// The mechanism of the Chrono model file or MBSE file at `path`: read on first use, from
  /// the document kept for it when there is one, else from the file.
  /// @throws InputError as readMechanism (front_end.h); nothing is kept then.
  std::shared_ptr<const mechanism::Mechanism> read(const std::string& path);
  /// Keeps `mechanism`, read from `path`: a later read(path) returns it.
  void keep(const std::string& path, mechanism::Mechanism mechanism);
  /// Keeps the document loaded from `path` (a scenario's include, which loads a file to learn
  /// its kind): a later read(path) reads the mechanism from it.
  void keepDocument(const std::string& path, InputNode document);

 private:
  static std::string key(const std::string& path);
  std::map<std::string, std::shared_ptr<const mechanism::Mechanism>> mechanisms_;
  std::map<std::string, InputNode> documents_;
};

}  // namespace hopsim
