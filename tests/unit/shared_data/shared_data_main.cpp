// The main of shared_data_tests, the tests of the third-party example files
// (tests/shared_data.cmake). Without their directory it runs nothing and exits with 77, which
// ctest reports as skipped, after saying why; listing the test cases works either way, so that
// ctest knows every test by name.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string_view>

namespace {

/// Whether the command line asks doctest for information (the test cases, the suites, the
/// reporters, a count, help or the version) rather than to run tests.
bool asksForInformation(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view option = argv[i];
    option.remove_prefix(std::min(option.find_first_not_of('-'), option.size()));
    if (option.starts_with("dt-")) option.remove_prefix(3);
    option = option.substr(0, option.find('='));
    for (const std::string_view query :
         {"list-test-cases", "ltc", "list-test-suites", "lts", "list-reporters", "lr", "count", "c",
          "help", "h", "?", "version", "v"}) {
      if (option == query) return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (!asksForInformation(argc, argv) && !std::filesystem::is_directory(HOPSIM_SHARED_DATA_DIR)) {
    std::cout << "skipped: " << HOPSIM_SHARED_DATA_SKIP_REASON << "\n";
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
