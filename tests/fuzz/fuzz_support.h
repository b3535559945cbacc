#pragma once
// What the two fuzz targets share (docs/fuzzing.md): the rule that a rejected input is a
// hopsim::Error and anything else escaping is a finding, a scratch directory for the entry
// points that take a path, and the lowering and building of a mechanism that was read.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "hopsim/assemblies/front_end.h"
#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/mechanism.h"
#include "hopsim/assemblies/mechanism_lowering.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/signals/error.h"

namespace hopsim::fuzz {

/// Whether HOPSIM_FUZZ_VERBOSE=1 is in the environment: then every rejection is printed (to
/// check what a corpus file exercises: `HOPSIM_FUZZ_VERBOSE=1 fuzz_chrono_yaml_replay FILE`).
inline bool verbose() {
  static const bool on = [] {
    const char* value = std::getenv("HOPSIM_FUZZ_VERBOSE");
    return value != nullptr && std::string_view(value) == "1";
  }();
  return on;
}

/// Runs `f`. A hopsim::Error is how a front end rejects bad input, so it is swallowed; any other
/// exception propagates out of LLVMFuzzerTestOneInput, and libFuzzer reports it (std::terminate).
/// Returns whether `f` completed.
template <class F>
bool acceptOrReject(F&& f) {
  try {
    f();
    return true;
  } catch (const hopsim::Error& e) {
    if (verbose()) std::cerr << "rejected: " << e.what() << "\n";
    return false;
  }
}

/// A directory of this process's own under the system temporary directory, for the entry points
/// that read files (readSimulationFile, runDocumentFor, the ModelFile assembly). It holds the
/// fuzzed input as `input.yaml` and fixed companion files that Chrono simulation inputs may name.
class ScratchDir {
 public:
  /// The one directory of this process, made on first use with its companion files.
  static const ScratchDir& get() {
    static const ScratchDir dir;
    return dir;
  }

  /// Writes `text` to `name` in the directory; returns its path.
  std::string write(const std::string& name, std::string_view text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    return file.string();
  }

  /// The path of `name` in the directory.
  std::string file(const std::string& name) const { return (path_ / name).string(); }

  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

 private:
  ScratchDir();

  std::filesystem::path path_;
};

// A small valid Chrono model (a pendulum on a revolute joint) and solver file, written into the
// scratch directory under the names the seed simulation files use.
inline constexpr std::string_view kCompanionModel = R"(chrono-version: 10.0
model:
  name: companion
  bodies:
    - {name: ground, fixed: true, location: [0, 0, 0]}
    - name: arm
      location: [0.5, 0, 0]
      mass: 1.0
      inertia: {moments: [0.01, 0.1, 0.1]}
  joints:
    - {name: pin, type: REVOLUTE, body1: arm, body2: ground, location: [0, 0, 0], axis: [0, 1, 0]}
  tsdas:
    - {name: spring, body1: arm, body2: ground, point1: [1, 0, 0], point2: [1, 0, 1],
       free_length: 1, spring_coefficient: 10, damping_coefficient: 1}
)";
inline constexpr std::string_view kCompanionSolver = R"(chrono-version: 10.0
contact_method: SMC
integrator: {type: EULER_IMPLICIT_LINEARIZED, time_step: 1e-3}
solver: {type: BARZILAI_BORWEIN, max_iterations: 100}
)";

inline ScratchDir::ScratchDir()
    : path_(std::filesystem::temp_directory_path() /
            ("hopsim-fuzz-" + std::to_string(::getpid()))) {
  std::filesystem::create_directories(path_);
  for (const char* name :
       {"model.yaml", "model_slider_crank.yaml", "model_inverted_pendulum_load.yaml"}) {
    write(name, kCompanionModel);
  }
  for (const char* name : {"solver.yaml", "solver_mbs.yaml"}) write(name, kCompanionSolver);
}

/// Whether every path the root of `document` names under `keys` (a Chrono simulation file's
/// `model` and `solver`) stays inside the scratch directory: relative, without `..`. The
/// targets follow only those, so that a fuzzed path cannot make them read /dev/zero or the
/// rest of the machine.
inline bool pathsStayInScratch(const InputNode& document,
                               std::initializer_list<std::string_view> keys) {
  if (!document.isMapping()) return true;
  for (const InputNode::Entry& entry : document.entries()) {
    bool named = false;
    for (std::string_view key : keys) named = named || entry.first == key;
    if (!named) continue;
    const auto* text = std::get_if<std::string>(&entry.second.scalar());
    if (text == nullptr) continue;
    const std::filesystem::path p(*text);
    if (p.is_absolute() || text->find('~') != std::string::npos) return false;
    for (const auto& part : p) {
      if (part == "..") return false;
    }
  }
  return true;
}

/// Lowers a mechanism that was read: the lowering plan (spanning tree, cut joints, poses) and the
/// output columns of `hopsim run`.
inline void lower(const mechanism::Mechanism& mechanism) {
  const mechanism::MechanismBuilder builder(mechanism, {"fuzz.", {}});
  const auto columns = builder.outputColumns("model.");
  (void)columns;
}

/// Whether a mechanism that runDocumentFor accepted is also built into a whole simulation
/// (Scenario::build: multibody system, models, constraints, initial state, lock), as `hopsim run`
/// does before running: yes unless HOPSIM_FUZZ_BUILD=0 is in the environment, which stops at
/// runDocumentFor (in a 45 s trial the MBSE target ran 3.7 times faster so, the Chrono one about
/// as fast).
inline bool buildSimulations() {
  static const bool on = [] {
    const char* value = std::getenv("HOPSIM_FUZZ_BUILD");
    return value == nullptr || std::string_view(value) != "0";
  }();
  return on;
}

/// `hopsim run`'s path for the input written at `path` (document `document`): runDocumentFor,
/// then, when buildSimulations(), Scenario::build of the document it returns. Native scenarios
/// are left alone (not a front end fuzzed here; their `include:` could name any file).
inline void runPath(const InputNode& document, const std::string& path) {
  acceptOrReject([&] {
    if (detectYamlFileKind(document, path) == YamlFileKind::Scenario) return;
    const RunDocument run = runDocumentFor(document, path, {});
    if (buildSimulations()) {
      const auto scenario = Scenario::build(run.document, path);
      (void)scenario;
    }
  });
}

}  // namespace hopsim::fuzz
