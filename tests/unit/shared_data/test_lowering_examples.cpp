// libmbse's and Chrono's example files (the shared data) lowered and simulated: libmbse's
// four-bar against an independent planar formulation, its relative coordinate against the
// definition, and every example file runs. The same checks on the project's own files are in
// tests/unit/assemblies/test_mechanism_lowering.cpp.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "mechanism_test_util.h"
#include "planar_mechanism_checks.h"
#include "shared_data.h"

namespace hopsim {
namespace {

using testing::sharedData;

TEST_CASE("lowering: the MBSE four-bar keeps its loop closed and matches a planar reference") {
  auto scenario =
      Scenario::load(sharedData("mbse-examples/fourbars1.yaml"), {"simulation.end_time=2"});
  scenario->run();
  // fourbars1.yaml: pivots (0, 0) and (4, 0); uniform links of 1, 2 and sqrt(13) m weighing 1,
  // 2 and 4 kg (I0 = m L² / 3), from points (1, 0) and (1, 2) at rest.
  const double l2 = std::sqrt(13.0);
  testing::FourBarReference reference({0.0, 0.0}, {4.0, 0.0},
                                      {testing::FourBarLink{0, 1, 1.0, 1.0, 1.0 / 3.0, 0.5},
                                       testing::FourBarLink{1, 2, 2.0, 2.0, 8.0 / 3.0, 1.0},
                                       testing::FourBarLink{2, 3, l2, 4.0, 52.0 / 3.0, l2 / 2}},
                                      {1.0, 0.0}, {1.0, 2.0});
  testing::checkFourBarFollowsReference(scenario->recorder(), reference);
  // It moved: the crank fell from the horizontal (slowly: the coupler starts near a toggle, and
  // the reference says y1(2 s) = -0.022 m).
  CHECK(testing::sampleAt(scenario->recorder(), "points.1.position.y", 2.0) < -0.01);
}

TEST_CASE("lowering: an MBSE relative coordinate is the unwrapped angle of its two points") {
  auto scenario = Scenario::load(sharedData("mbse-examples/fourbars1-with-rel-angle.yaml"),
                                 {"simulation.end_time=3"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  CHECK(r.values(r.column("relative_coordinates.0.angle")).front() == 0.0);  // along +X
  // The crank swings past -π within 3 s, where atan2 jumps to +π and the angle must not.
  CHECK(testing::checkRelativeAngle(r, 0, 0, 1) < -std::numbers::pi);
}

TEST_CASE("lowering: every Chrono and MBSE example file runs") {
  std::vector<std::string> files;
  for (const char* folder : {"chrono-examples/mbs", "chrono-examples/precice/sphere_drop",
                             "chrono-examples/precice/flap_openfoam", "mbse-examples"}) {
    for (const auto& entry : std::filesystem::directory_iterator(sharedData(folder))) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 16);
  for (const std::string& file : files) testing::checkFileRuns(file);
}

}  // namespace
}  // namespace hopsim
