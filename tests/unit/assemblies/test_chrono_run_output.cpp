// A Chrono simulation file's `output` section: the file `hopsim run` writes without --out.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "hopsim/assemblies/scenario.h"

#ifndef HOPSIM_SOURCE_DIR
#error "HOPSIM_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

namespace hopsim {
namespace {

std::string chronoData(const std::string& name) {
  return std::string(HOPSIM_SOURCE_DIR) + "/tests/data/chrono/" + name;
}

std::string inWorkingDirectory(const std::string& name) {
  return (std::filesystem::current_path() / name).lexically_normal().string();
}

TEST_CASE("chrono output: the file and format the simulation file's output section asks for") {
  // ASCII: hopsim's CSV, at the section's fps (shuttle.yaml: 50 per second).
  auto shuttle = Scenario::load(chronoData("shuttle.yaml"));
  REQUIRE(shuttle->logFile());
  CHECK(*shuttle->logFile() == inWorkingDirectory("shuttle.csv"));
  CHECK(shuttle->sim().ioStepSize() == doctest::Approx(1.0 / 50.0).epsilon(1e-15));
  // HDF5.
  auto hoist = Scenario::load(chronoData("hoist.yaml"));
  REQUIRE(hoist->logFile());
  CHECK(*hoist->logFile() == inWorkingDirectory("hoist.h5"));
  // A model file names no output.
  CHECK_FALSE(Scenario::load(chronoData("springs_model.yaml"))->logFile());
}

}  // namespace
}  // namespace hopsim
