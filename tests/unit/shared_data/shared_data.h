#pragma once
// Where the tests of shared_data_tests find the third-party example files (tests/shared_data.cmake
// defines HOPSIM_SHARED_DATA_DIR; shared_data_main.cpp skips every test without it).

#include <string>

#ifndef HOPSIM_SHARED_DATA_DIR
#error "HOPSIM_SHARED_DATA_DIR must name the shared data directory (tests/shared_data.cmake)"
#endif

namespace hopsim::testing {

/// `relative` (for example "mbse-examples/fourbars1.yaml") in the shared data directory.
inline std::string sharedData(const std::string& relative) {
  return std::string(HOPSIM_SHARED_DATA_DIR) + "/" + relative;
}

}  // namespace hopsim::testing
