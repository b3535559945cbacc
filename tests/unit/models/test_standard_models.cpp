// The standard flow models against their equations (the continuous ones have files of their
// own: test_mass_spring_damper.cpp, test_continuous_integrator.cpp).

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <numbers>

#include "hopsim/core/simulation.h"
#include "hopsim/models/gain.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

double scalar(const Simulation& sim, std::string_view path) {
  return std::get<double>(sim.get(path));
}

}  // namespace

TEST_CASE("every standard model is registered and documented") {
  const ModelRegistry& registry = models::standardRegistry();
  CHECK(registry.classNames() == std::vector<std::string>{"Accelerometer",
                                                          "ArcTraj",
                                                          "BallEncoder",
                                                          "BallJointSpringDamper",
                                                          "BearingAngle",
                                                          "BekkerWheelSoilContact",
                                                          "BodyLoad",
                                                          "BodyStateSensor",
                                                          "Bushing",
                                                          "ChronoForceMotor",
                                                          "ChronoMotor",
                                                          "CmFrameStateSensor",
                                                          "CompliantContact",
                                                          "ComputePlanePenetration",
                                                          "ContinuousIntegrator",
                                                          "DCMotorVin",
                                                          "ExternalForceTorque",
                                                          "ExternalSingleDofDisturbance",
                                                          "FialaTire",
                                                          "FirstOrderFilter",
                                                          "FixedThruster",
                                                          "FuelManifold",
                                                          "FuelTank",
                                                          "Gain",
                                                          "GeneralizedAccelMotor",
                                                          "GeneralizedForceMotor",
                                                          "GeneralizedSpringDamperMotor",
                                                          "GimbalEncoder",
                                                          "HingeEncoder",
                                                          "JointForceTorqueSensor",
                                                          "Locomotion",
                                                          "MagicFormulaTire",
                                                          "MassSpringDamper",
                                                          "MultibodyEnergy",
                                                          "NodePosVelAccelSensor",
                                                          "NoisyAttitude",
                                                          "NoisyNodePosVelAccelSensor",
                                                          "PdController",
                                                          "Pid",
                                                          "PinRate",
                                                          "PointMassGravity",
                                                          "PrescribedMotionMotor",
                                                          "PulsedThruster",
                                                          "PulsedThrusterBlowdown",
                                                          "RateGyro",
                                                          "ReactionWheel",
                                                          "RelativeAngle",
                                                          "Rsda",
                                                          "SecondOrderResponse",
                                                          "SignalMux",
                                                          "SineWave",
                                                          "SingleTrapezoidalProfile",
                                                          "SmoothContact",
                                                          "SoftJointStop",
                                                          "SphericalHarmonicGravity",
                                                          "SpringDamper",
                                                          "SpringDamperMotor",
                                                          "Steering4WFlow",
                                                          "SteeringStatus",
                                                          "TerrainPenetration",
                                                          "ThrottledThruster",
                                                          "TiltVector",
                                                          "Tsda",
                                                          "UjointSpringDamper",
                                                          "UniformGravity",
                                                          "UserClock",
                                                          "ZeroOrderHold"});
  for (const std::string& name : registry.classNames())
    CHECK_FALSE(registry.spec(name).doc().empty());
}

TEST_CASE("SineWave and UserClock follow time, Gain scales with feed-through") {
  const ModelRegistry& registry = models::standardRegistry();
  Simulation sim({.ioStepSize = 0.01});
  sim.addSignal("wave", ElementType::Double);
  sim.addSignal("scaled", ElementType::Double);
  sim.addSignal("clock", ElementType::Double, 1, "s");
  sim.addModel(registry.create("Gain", "gain", {{"k", -3.0}}));
  sim.addModel(
      registry.create("SineWave", "wave",
                      {{"amplitude", 2.0}, {"frequency", 1.5}, {"phase", 0.25}, {"offset", 0.5}}));
  sim.addModel(registry.create("UserClock", "clock", {{"offset", 1000.0}}));
  sim.tie("wave", "y", "wave");
  sim.tie("gain", "u", "wave");
  sim.tie("gain", "y", "scaled");
  sim.tie("clock", "time", "clock");
  sim.addSignal("clockTime", ElementType::Int, 2);
  sim.tie("clock", "clockTime", "clockTime");
  sim.lock();
  CHECK(sim.modelOrder().flowModels ==
        std::vector<std::string>{"wave", "gain", "clock"});  // gain reads wave
  for (int k = 1; k <= 137; ++k) {
    sim.advanceOverHop();
    const double t = sim.time();
    const double expected = 0.5 + 2.0 * std::sin(2.0 * std::numbers::pi * 1.5 * t + 0.25);
    REQUIRE(scalar(sim, "signals.wave") == doctest::Approx(expected).epsilon(1e-15));
    REQUIRE(scalar(sim, "signals.scaled") == -3.0 * scalar(sim, "signals.wave"));
    REQUIRE(scalar(sim, "signals.clock") == t + 1000.0);
  }
}

TEST_CASE("a library model handed on as a std::unique_ptr<Model> is called in batches") {
  // The library's registry names every class to recognizeClass, so a Gain made anywhere with
  // std::make_unique is recognized by its dynamic type when added: two of them in a chain form
  // one batch of Gain's updateFlowOuts, and compute y = k u through it.
  Simulation sim({.ioStepSize = 0.01});
  for (const char* name : {"u", "v", "w"}) sim.addSignal(name, ElementType::Double);
  sim.set("signals.u", 1.25);
  Model& first = sim.addModel(std::unique_ptr<Model>(std::make_unique<models::Gain>("first")));
  Model& second = sim.addModel(std::unique_ptr<Model>(std::make_unique<models::Gain>("second")));
  first.setParam("k", 2.0);
  second.setParam("k", -3.0);
  sim.tie("first", "u", "u");
  sim.tie("first", "y", "v");
  sim.tie("second", "u", "v");
  sim.tie("second", "y", "w");
  const BatchCalls* calls = ModelBinding::batchCalls(first);
  REQUIRE(calls != nullptr);
  CHECK(calls == ModelBinding::batchCalls(second));
  CHECK(calls == ModelBinding::batchCalls(*models::standardRegistry().create("Gain", "made")));
  CHECK(calls == &detail::kBatchCalls<models::Gain>);
  CHECK_FALSE(ModelBinding::needsCall(first, ModelMethod::StartHop));  // Gain leaves it empty
  sim.lock();
  sim.advanceOverHop();
  CHECK(scalar(sim, "signals.w") == -7.5);
}

TEST_CASE("ZeroOrderHold samples at its own rate and holds between samples") {
  const ModelRegistry& registry = models::standardRegistry();
  Simulation sim({.ioStepSize = 0.01});
  sim.addSignal("fast", ElementType::Double, 2);
  sim.addSignal("held", ElementType::Double, 2);
  sim.addModel(registry.create("ZeroOrderHold", "zoh"));
  sim.tie("zoh", "u", "fast");
  sim.tie("zoh", "y", "held");
  sim.setModelRate("zoh", 4.0);  // samples at 0, 0.25, 0.5, ...
  // The input ramps with time: fast = [t, -t], written by an event at every default barrier.
  sim.registerBeginIoStepEvent("ramp", [](Simulation& s, double t) {
    s.set("signals.fast", std::vector<double>{t, -t});
  });
  sim.lock();
  for (int k = 1; k <= 100; ++k) {
    sim.advanceOverHop();
    const double lastSample = std::floor((sim.time() - 1e-9) * 4.0) / 4.0;
    const auto held = std::get<std::vector<double>>(sim.get("signals.held"));
    REQUIRE(held[0] == doctest::Approx(lastSample));
    REQUIRE(held[1] == doctest::Approx(-lastSample));
  }
  CHECK(std::get<std::int64_t>(sim.get("models.zoh.discreteStates.samples")) == 4);
}

TEST_CASE("standard model params are validated by name and bound") {
  const ModelRegistry& registry = models::standardRegistry();
  CHECK_THROWS_WITH_AS(registry.create("SineWave", "w", {{"frequency", -1.0}}),
                       "models.w.params.frequency: value -1 is below the lower bound 0 Hz",
                       InputError);
}

}  // namespace hopsim
