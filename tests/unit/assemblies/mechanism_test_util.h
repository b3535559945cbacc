#pragma once
// Writing model files for the lowering tests and reading what a run produced.

#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/variable_tree.h"
#include "temp_dir.h"

namespace hopsim::testing {

/// Element i of the numeric variable at `path`.
inline double element(const Simulation& sim, const std::string& path, std::size_t i) {
  return sim.variables().at(path).element(i);
}

/// The recorded `column` at the sample of time `t` (to 1e-9 s); fails when there is none.
inline double sampleAt(const Recorder& r, const std::string& column, double t) {
  const std::vector<double>& times = r.times();
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (std::abs(times[i] - t) < 1e-9) return r.values(r.column(column))[i];
  }
  FAIL("no sample at t = " << t);
  return 0.0;
}

/// The recorded pose of the Chrono body `body` (its reference frame in the world) at time `t`.
inline spatial::RigidTransform recordedPose(const Recorder& r, const std::string& body, double t) {
  const auto at = [&](const std::string& column) {
    return sampleAt(r, "bodies." + body + "." + column, t);
  };
  const spatial::Vector3 p(at("position.x"), at("position.y"), at("position.z"));
  const spatial::Quaternion q(at("orientation.e0"), at("orientation.e1"), at("orientation.e2"),
                              at("orientation.e3"));
  return spatial::RigidTransform::fromQuaternion(q, p);
}

/// Loads the Chrono or MBSE `file` and runs it for 0.2 s: every recorded value is finite. A
/// Chrono solver file (named solver_*) is refused instead, as describing no model.
inline void checkFileRuns(const std::string& file) {
  CAPTURE(file);
  if (std::filesystem::path(file).filename().string().starts_with("solver_")) {
    CHECK_THROWS_WITH_AS(Scenario::load(file), doctest::Contains("describes no model"), InputError);
    return;
  }
  auto scenario = Scenario::load(file, {"simulation.end_time=0.2"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  REQUIRE(r.rows() > 1);
  for (std::size_t c = 1; c < r.columns().size(); ++c) {
    for (double v : r.values(c)) REQUIRE(std::isfinite(v));
  }
}

}  // namespace hopsim::testing
