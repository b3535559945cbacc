#pragma once
// Helpers of the Chrono MBS YAML reader tests.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hopsim/assemblies/chrono_yaml.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"

namespace hopsim::chrono_test {

/// 11 lines: a fixed body "ground" and a body "b"; sections follow at two spaces.
inline constexpr const char* kHead = R"(chrono-version: 10.0
model:
  bodies:
    - name: ground
      location: [0, 0, 0]
      fixed: true
    - name: b
      location: [0, 0, 0]
      mass: 2
      inertia:
        moments: [1, 2, 3]
)";

inline mechanism::Mechanism readInline(const std::string& yaml,
                                       const std::string& file = "m.yaml") {
  return chrono::readModel(parseYaml(yaml, file), file);
}

/// The message of the InputError that reading `yaml` throws ("" when none).
inline std::string readError(const std::string& yaml) {
  try {
    readInline(yaml);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline int countHas(const std::vector<std::string>& lines, const std::string& part) {
  int n = 0;
  for (const auto& line : lines) n += has(line, part) ? 1 : 0;
  return n;
}

/// How many files of each kind readEveryFile read.
struct FileCounts {
  int models = 0, simulations = 0, solvers = 0;
  int solverSteps = 0;  ///< solver files that give integrator.time_step
};

/// Reads `path` as the kind of Chrono file it is, counting it in `counts`.
inline void readAndCount(const std::string& path, FileCounts& counts) {
  CAPTURE(path);
  const InputNode doc = loadYamlFile(path);
  switch (chrono::detectFileKind(doc, path)) {
    case chrono::FileKind::Model:
      CHECK_FALSE(chrono::readModel(doc, path).bodies.empty());
      ++counts.models;
      break;
    case chrono::FileKind::Solver:
      counts.solverSteps += chrono::readSolver(doc, path).timeStepGiven ? 1 : 0;
      ++counts.solvers;
      break;
    case chrono::FileKind::Simulation:
      CHECK_FALSE(chrono::readSimulationFile(path).model.bodies.empty());
      ++counts.simulations;
      break;
  }
}

/// Reads every .yaml file under `directories` and their subdirectories as the kind of Chrono
/// file it is: every model has bodies, and so has every simulation file's model.
inline FileCounts readEveryFile(const std::vector<std::string>& directories) {
  FileCounts counts;
  for (const std::string& directory : directories) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
      if (entry.path().extension() == ".yaml") readAndCount(entry.path().string(), counts);
    }
  }
  return counts;
}

/// The body `name` of `m` (fails the test when there is none).
inline const mechanism::Body& body(const mechanism::Mechanism& m, const std::string& name) {
  for (const auto& b : m.bodies)
    if (b.name == name) return b;
  FAIL("no body " << name);
  return m.bodies.front();
}

}  // namespace hopsim::chrono_test
