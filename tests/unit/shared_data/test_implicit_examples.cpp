// Chrono's own example files run with the implicit integrator their solver files name, at their
// step, against a tight rkf45 reference: the slider-crank (mbs.yaml, EULER_IMPLICIT_LINEARIZED
// at 0.1 ms) and the bushing-held body (model_bushing.yaml, at the same step). The
// project's own stiff case, where rk4 diverges, is tests/unit/assemblies/
// test_implicit_mechanisms.cpp.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "mechanism_test_util.h"
#include "shared_data.h"

namespace hopsim {
namespace {

using testing::sharedData;

// The largest distance between the two runs' positions of `bodies` over their common samples.
double largestDeviation(const Recorder& a, const Recorder& b,
                        const std::vector<std::string>& bodies) {
  REQUIRE(a.times() == b.times());
  double worst = 0.0;
  for (const std::string& body : bodies) {
    for (std::size_t i = 0; i < a.times().size(); ++i) {
      double squared = 0.0;
      for (const char* axis : {".position.x", ".position.y", ".position.z"}) {
        const std::string column = "bodies." + body + axis;
        const double d = a.values(a.column(column))[i] - b.values(b.column(column))[i];
        squared += d * d;
      }
      worst = std::max(worst, std::sqrt(squared));
    }
  }
  return worst;
}

std::unique_ptr<Scenario> ran(const std::string& file, std::vector<std::string> overrides) {
  auto scenario = Scenario::load(file, overrides);
  scenario->run();
  return scenario;
}

// The reference is rkf45 rather than cvode: at rtol 1e-10 cvode's error test can fail with the
// step at its minimum where the slider meets the ball (penalty contact), depending
// on round-off far below the deviations measured here.
const std::vector<std::string> kReference = {"simulation.integrator=rkf45", "simulation.rtol=1e-10",
                                             "simulation.atol=1e-12"};

std::vector<std::string> with(std::vector<std::string> overrides, const std::string& more) {
  overrides.push_back(more);
  return overrides;
}

// The slider-crank's crank turns at a prescribed speed; the free motion is the ball on its
// prismatic guide, held by a 50 N/m spring. First order: the deviation from the reference halves
// with the step (ratio 2 accepted from 1.6 to 2.4).
TEST_CASE(
    "implicit examples: Chrono's slider-crank at its 0.1 ms step, first order against rkf45") {
  const std::string file = sharedData("chrono-examples/mbs/mbs.yaml");
  const std::vector<std::string> second = {"simulation.end_time=2"};
  auto fileStep = ran(file, second);
  CHECK(fileStep->sim().integrator().name() == "euler_implicit_linearized");
  auto doubleStep = ran(file, with(second, "simulation.time_step=2e-4"));
  auto reference = ran(file, with(kReference, "simulation.end_time=2"));
  const std::vector<std::string> bodies = {"crank", "rod", "slider", "ball"};
  const double atFileStep = largestDeviation(fileStep->recorder(), reference->recorder(), bodies);
  const double atDoubleStep =
      largestDeviation(doubleStep->recorder(), reference->recorder(), bodies);
  MESSAGE("slider-crank: largest deviation from rkf45 " << atFileStep << " m at 0.1 ms, "
                                                        << atDoubleStep << " m at 0.2 ms");
  CHECK(atFileStep < 1e-3);
  CHECK(atDoubleStep / atFileStep == doctest::Approx(2.0).epsilon(0.2));
}

// model_bushing.yaml: a 122 kg plate thrown spinning on a revolute joint's bushing (1e5 N/m,
// 1e5 N m/rad), run with EULER_IMPLICIT_LINEARIZED at the 0.1 ms of Chrono's MBS solver files
// (solver_mbs.yaml). Over 2 s the method's numerical damping of the bushing's oscillations
// dominates the deviation (at 1 ms it reaches 0.30 m; docs/integrators.md, "Numerical damping").
TEST_CASE("implicit examples: Chrono's bushing example at 0.1 ms, first order against rkf45") {
  const std::string file = sharedData("chrono-examples/mbs/model_bushing.yaml");
  const std::vector<std::string> implicit = {"simulation.end_time=2",
                                             "simulation.integrator=euler_implicit_linearized"};
  auto fileStep = ran(file, with(implicit, "simulation.time_step=1e-4"));
  auto doubleStep = ran(file, with(implicit, "simulation.time_step=2e-4"));
  auto reference = ran(file, with(kReference, "simulation.end_time=2"));
  const double atFileStep = largestDeviation(fileStep->recorder(), reference->recorder(), {"body"});
  const double atDoubleStep =
      largestDeviation(doubleStep->recorder(), reference->recorder(), {"body"});
  MESSAGE("bushing: largest deviation from rkf45 " << atFileStep << " m at 0.1 ms, " << atDoubleStep
                                                   << " m at 0.2 ms");
  CHECK(atFileStep < 0.05);
  CHECK(atDoubleStep / atFileStep == doctest::Approx(2.0).epsilon(0.2));
}

}  // namespace
}  // namespace hopsim
