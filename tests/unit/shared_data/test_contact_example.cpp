// Chrono's slider-crank example (the shared data's chrono-examples/mbs/mbs.yaml) as Chrono runs
// it: its slider pushes a spring-mounted ball. The same checks on the project's own shuttle are
// in tests/unit/assemblies/test_contact_lowering.cpp.

#include <doctest/doctest.h>

#include "hopsim/assemblies/scenario.h"
#include "push_contact_checks.h"
#include "shared_data.h"

namespace hopsim {
namespace {

TEST_CASE(
    "contact (long): contact lowering: Chrono's slider-crank pushes its spring-mounted ball for 20 "
    "s") {
  // The solver's 0.1 ms step, 20 fps output.
  auto scenario = Scenario::load(testing::sharedData("chrono-examples/mbs/mbs.yaml"),
                                 {"simulation.end_time=20"});
  scenario->run();
  // The ball touches the slider's front face: half the box (0.25 m) plus the radius (0.2 m)
  // ahead of the slider's centre. It stays on its rail within the slider's reach (the crank's
  // 2 m radius puts the slider's front face at most at 6.25 m). The crank stops from 4 s to 8 s
  // of every 16 s period (its DATA speed is 0 there) and the ball's damped spring settles: at
  // 8 s everything is at rest.
  testing::checkPushingRun(scenario->recorder(), {.pusher = "slider",
                                                  .pushed = "ball",
                                                  .touching = 0.45,
                                                  .lowest = 5.0,
                                                  .highest = 6.46,
                                                  .maxKinetic = 100.0,
                                                  .restTime = 8.0});
}

}  // namespace
}  // namespace hopsim
