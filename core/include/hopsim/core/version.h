#pragma once
// hopsim's version and the git commit it was built from: what `hopsim --version`,
// `hopsim.__version__`, the CMake package and every file hopsim writes (CSV sidecars, HDF5
// recordings, checkpoints) report. The version is set in one place, the project() call of the
// top-level CMakeLists.txt; the commit is read from git at build time.

#include <string>
#include <string_view>

namespace hopsim {

/// The version, "MAJOR.MINOR.PATCH".
std::string_view version();

/// The git commit of the checkout hopsim was built from (40 hex digits, followed by "-dirty"
/// when the working tree had uncommitted changes); empty when it was not built from a git
/// checkout (a source archive).
std::string_view gitCommit();

/// "0.1.0", or "0.1.0 (git 0123...cdef)" when built from a checkout.
std::string versionText();

}  // namespace hopsim
