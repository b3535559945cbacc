#include "hopsim/core/version.h"

namespace hopsim {

// version() and gitCommit() are defined in the build tree's version_info.cpp, which
// cmake/write_version_info.cmake writes at every build.

std::string versionText() {
  const std::string_view commit = gitCommit();
  std::string text(version());
  if (!commit.empty()) text += " (git " + std::string(commit) + ")";
  return text;
}

}  // namespace hopsim
