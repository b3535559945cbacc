// ThrottledThruster: the thrust law min + clamp(c, 0, 1) (max - min), or clamp(c, min, max) for
// a thrust command, checked exactly at commands inside and outside the range; the impulse of a
// throttled burn through the CM (level * t, integrated exactly); bad levels are refused.

#include <doctest/doctest.h>

#include <cstdint>

#include "hopsim/models/throttled_thruster.h"
#include "hopsim/signals/error.h"
#include "propulsion_rig.h"

namespace hopsim::test {
namespace {

using spatial::RigidTransform;
using spatial::Vector3;

constexpr double kMass = 30.0, kMin = 100.0, kMax = 500.0, kIsp = 300.0;

struct ThrottleRig {
  Simulation sim{{.ioStepSize = 0.1, .integrator = "rkf45"}};
  multibody::BodyIndex body;
  models::ThrottledThruster& engine;
  explicit ThrottleRig(bool thrustCommand)
      : body(addCraft(sim, kMass, Vector3::Zero(), RigidTransform())),
        engine(sim.addModel<models::ThrottledThruster>("engine")) {
    engine.attachToNode("nozzle");
    engine.setParam("min_level", kMin);
    engine.setParam("max_level", kMax);
    engine.setParam("isp", kIsp);
    engine.setParam("thrust_command", thrustCommand);
    addSetSignal(sim, "on", ElementType::Bool, true);
    addSetSignal(sim, "command", ElementType::Double, 0.0);
    addSetSignal(sim, "empty", ElementType::Int, std::int64_t{0});
    sim.tie("engine", "on_off", "on");
    sim.tie("engine", "command", "command");
    sim.tie("engine", "fuel_empty", "empty");
    tieThrusterOutputs(sim, "engine");
  }
  /// The thrust output one hop after setting the command.
  double thrustFor(double command) {
    sim.set("signals.command", command);
    sim.advanceOverHop();
    return number(sim, "signals.thrust");
  }
};

TEST_CASE("ThrottledThruster: throttle in [0, 1] maps onto [min_level, max_level], clamped") {
  ThrottleRig rig(false);
  rig.sim.lock();
  CHECK(rig.thrustFor(0.25) == kMin + 0.25 * (kMax - kMin));
  CHECK(rig.thrustFor(1.7) == kMax);
  CHECK(rig.thrustFor(-0.3) == kMin);
  CHECK(number(rig.sim, "signals.flow") == doctest::Approx(kMin / (kIsp * 9.80665)).epsilon(1e-15));
  rig.sim.set("signals.on", false);
  CHECK(rig.thrustFor(0.5) == 0.0);
  rig.sim.set("signals.on", true);
  rig.sim.set("signals.empty", std::int64_t{1});
  CHECK(rig.thrustFor(0.5) == 0.0);
}

TEST_CASE("ThrottledThruster: a thrust command is clamped to [min_level, max_level]") {
  ThrottleRig rig(true);
  rig.sim.lock();
  CHECK(rig.thrustFor(321.0) == 321.0);
  CHECK(rig.thrustFor(900.0) == kMax);
  CHECK(rig.thrustFor(20.0) == kMin);
}

TEST_CASE(
    "ThrottledThruster: a burn at throttle 0.6 for 2 s gives impulse and fuel of its thrust") {
  ThrottleRig rig(false);
  rig.sim.set("signals.command", 0.6);
  rig.sim.lock();
  rig.sim.advanceTimeTo(2.0);
  const double thrust = kMin + 0.6 * (kMax - kMin);
  // Constant force through the CM along +z: integrated exactly, rounding only.
  CHECK(kMass * rig.sim.multibody().u(rig.body)[5] == doctest::Approx(thrust * 2.0).epsilon(1e-12));
  CHECK(number(rig.sim, "models.engine.continuousStates.fuel_used") ==
        doctest::Approx(thrust * 2.0 / (kIsp * 9.80665)).epsilon(1e-12));
}

TEST_CASE("ThrottledThruster: max_level below min_level is refused at lock and at the next hop") {
  ThrottleRig rig(false);
  rig.engine.setParam("max_level", 50.0);
  CHECK_THROWS_WITH_AS(rig.sim.lock(),
                       doctest::Contains("model 'engine' (ThrottledThruster): param max_level = 50 "
                                         "N is below min_level = 100 N"),
                       InputError);
  rig.engine.setParam("max_level", kMax);
  rig.sim.lock();
  rig.sim.advanceOverHop();
  rig.engine.setParam("min_level", 600.0);
  CHECK_THROWS_WITH_AS(rig.sim.advanceOverHop(), doctest::Contains("is below min_level = 600 N"),
                       InputError);
}

}  // namespace
}  // namespace hopsim::test
