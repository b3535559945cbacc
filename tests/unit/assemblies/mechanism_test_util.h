#pragma once
// Writing model files for the lowering tests and reading what a run produced.

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/variable_tree.h"

namespace hopsim::testing {

/// A fresh directory for one test's files (removed with the object).
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("hopsim-mech-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `text` to `name` in the directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file) << text;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

/// Element i of the numeric variable at `path`.
inline double element(const Simulation& sim, const std::string& path, std::size_t i) {
  return sim.variables().at(path).element(i);
}

}  // namespace hopsim::testing
