#pragma once
// A scratch directory for tests that write files (model files, OBJ meshes, includes).

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace hopsim::testing {

/// A fresh directory under the system's temporary directory, unique to the process and the
/// object, removed with everything in it when the object goes.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("hopsim-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `text` to the file `name` of the directory and returns its path.
  std::string write(const std::string& name, std::string_view text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file) << text;
    return file.string();
  }
  /// The directory's path.
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace hopsim::testing
