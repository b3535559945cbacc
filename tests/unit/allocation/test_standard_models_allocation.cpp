// The standard component models allocate nothing per hop or per derivative evaluation once a
// simulation is warm (DESIGN.md section 12). Each scenario puts several models to work on the
// paths they take in use: crossings that roll hops back (tank burnout, contact onset, pulse
// ends, joint stops, a user touchdown), multi-rate sensors with noise, every reaction-wheel
// friction law, closed control and navigation loops.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "allocation_counter.h"
#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/models/standard_models.h"

namespace hopsim {
namespace {

using multibody::BodyIndex;
using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::allocationsDuring;

using Params = std::vector<std::pair<std::string, Value>>;

/// Adds a standard model of `className`; `attach` names the node (node models) or the body of
/// the hinge (hinge models) it attaches to, or is empty.
Model& add(Simulation& sim, const std::string& className, const std::string& name,
           const std::string& attach = "", const Params& params = {}) {
  Model& model = sim.addModel(models::standardRegistry().create(className, name, params));
  if (auto* hinge = dynamic_cast<HingeModel*>(&model)) {
    hinge->attachToHinge(attach);
  } else if (auto* node = dynamic_cast<NodeModel*>(&model)) {
    node->attachToNode(attach);
  }
  return model;
}

/// Zero (false) of a signal's type and length.
Value zero(ElementType type, std::size_t length) {
  if (type == ElementType::Bool) return false;
  if (type == ElementType::Int) {
    return length == 1 ? Value(std::int64_t{0}) : Value(std::vector<std::int64_t>(length));
  }
  return length == 1 ? Value(0.0) : Value(std::vector<double>(length));
}

/// Ties every port of `model` not tied yet to the signal "<model>_<port>", added unless it
/// exists, holding zero for an input (a variable-length port gets `length` elements).
void tieRest(Simulation& sim, const std::string& model, std::size_t length = 1) {
  const Model& m = sim.model(model);
  const std::vector<std::string> existing = sim.signalNames();
  for (const FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
    const auto& fields = m.spec().fields(role);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (m.binding(role, i).valid()) continue;
      const FieldSpec& field = fields[i];
      const std::string signal = model + "_" + field.name;
      if (std::find(existing.begin(), existing.end(), signal) == existing.end()) {
        const std::size_t n = field.variableLength() ? length : field.length;
        sim.addSignal(signal, field.type, n);
        if (role == FieldRole::FlowIn) sim.set("signals." + signal, zero(field.type, n));
      }
      sim.tie(model, field.name, signal);
    }
  }
}

/// Adds the signal `name` holding `value`.
template <class T>
void constant(Simulation& sim, const std::string& name, ElementType type, T value,
              std::size_t length = 1) {
  sim.addSignal(name, type, length);
  sim.set("signals." + name, value);
}

SpatialInertia block(double mass) {
  return SpatialInertia::fromCmInertia(mass, Vector3::Zero(), 0.1 * mass * Matrix3::Identity());
}

std::uint64_t crossingsFired(const Simulation& sim) {
  return sim.propagationStatistics().crossingsFired;
}

TEST_CASE("standard models allocate nothing once warm: a lander burns out and touches down") {
  // Three thrusters draw through a manifold from two tanks, which empty one after the other
  // (burnout crossings); the pulsed thruster's pulses end on crossings; the feet meet compliant
  // ground (the contact's onset crossing and a user touchdown crossing) sliding sideways.
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.01, .integrationSteps = 2, .integrator = integrator});
    auto& tree = sim.multibody().editModel();
    const BodyIndex lander = tree.addBody("lander", kWorldBody, block(1.0), Hinge::full6Dof());
    const BodyIndex pod = tree.addBody("pod", lander, block(1.0), Hinge::locked(),
                                       RigidTransform::fromTranslation({0, 0, 0.5}));
    tree.addNode("feet", lander, RigidTransform());
    tree.addNode("pod_node", pod, RigidTransform());

    constant(sim, "on", ElementType::Bool, true);
    constant(sim, "throttle", ElementType::Double, 0.5);
    constant(sim, "pulse_length", ElementType::Double, 0.03);
    sim.addSignal("thruster_flows", ElementType::Double, 3);
    sim.addSignal("tank_flows", ElementType::Double, 2);
    sim.addSignal("tank_empty", ElementType::Int, 2);
    constant(sim, "fuel_empty", ElementType::Int, std::int64_t{0});  // read through breaks

    add(sim, "ThrottledThruster", "engine", "feet",
        {{"min_level", 20.0}, {"max_level", 60.0}, {"isp", 200.0}});
    sim.tie("engine", "on_off", "on");
    sim.tie("engine", "command", "throttle");
    add(sim, "FixedThruster", "jet", "feet", {{"level", 10.0}, {"isp", 200.0}});
    sim.tie("jet", "on_off", "on");
    add(sim, "PulsedThruster", "rcs", "feet",
        {{"level", 30.0}, {"isp", 200.0}, {"min_commanded_time", 0.01}});
    sim.tie("rcs", "on_time_cmd", "pulse_length");
    sim.setModelRate("rcs", 10.0);
    const char* thrusters[] = {"engine", "jet", "rcs"};
    for (std::size_t i = 0; i < 3; ++i) {
      sim.tie(thrusters[i], "fuel_flow", "thruster_flows", i, 1);
      sim.tie(thrusters[i], "fuel_empty", "fuel_empty");
      sim.addBreak(thrusters[i], "fuel_empty");
      tieRest(sim, thrusters[i]);
    }
    // A vernier commanded in newtons that burns no fuel (and reads the manifold's flag).
    add(sim, "ThrottledThruster", "vernier", "pod_node",
        {{"min_level", 1.0},
         {"max_level", 20.0},
         {"isp", 250.0},
         {"thrust_command", true},
         {"burns_fuel", false}});
    constant(sim, "vernier_command", ElementType::Double, 12.0);
    sim.tie("vernier", "on_off", "on");
    sim.tie("vernier", "fuel_empty", "fuel_empty");
    sim.addBreak("vernier", "fuel_empty");
    tieRest(sim, "vernier");
    add(sim, "FuelManifold", "manifold", "", {{"draw_weights", std::vector<double>{1.0, 3.0}}});
    sim.tie("manifold", "thruster_flow", "thruster_flows");
    sim.tie("manifold", "tank_flow", "tank_flows");
    sim.tie("manifold", "tank_empty", "tank_empty");
    sim.tie("manifold", "fuel_empty", "fuel_empty");
    // 0.04 kg each against ~0.03 kg/s drawn 1 : 3: tank_b empties at ~1.8 s, tank_a at ~2.6 s.
    const struct {
      const char* name;
      const char* node;
      double emptyMass;
    } tanks[] = {{"tank_a", "feet", 100.0}, {"tank_b", "pod_node", 10.0}};
    for (std::size_t i = 0; i < 2; ++i) {
      add(sim, "FuelTank", tanks[i].name, tanks[i].node,
          {{"starting_fuel", 0.04},
           {"empty_mass", tanks[i].emptyMass},
           {"empty_inertia", std::vector<double>{20.0, 20.0, 10.0}},
           {"full_inertia", std::vector<double>{21.0, 21.0, 11.0}},
           {"full_cm", std::vector<double>{0.0, 0.0, 0.1}}});
      sim.tie(tanks[i].name, "fuel_flow", "tank_flows", i, 1);
      sim.tie(tanks[i].name, "empty", "tank_empty", i, 1);
      tieRest(sim, tanks[i].name);
    }
    for (const auto& [name, node] : {std::pair{"gravity", "feet"}, {"pod_gravity", "pod_node"}}) {
      add(sim, "UniformGravity", name, node, {{"g", std::vector<double>{0.0, 0.0, -1.62}}});
    }
    add(sim, "ComputePlanePenetration", "ground", "feet");
    tieRest(sim, "ground");
    add(sim, "CompliantContact", "contact", "feet",
        {{"kp_normal", 1e5},
         {"alpha_normal", 1.0},
         {"kp_tangent", 1e4},
         {"alpha_tangent", 300.0},
         {"mu", 0.5}});
    // A second contact on the same ground: linear, force-limited, frictionless.
    add(sim, "CompliantContact", "linear_contact", "feet",
        {{"normal_force_model", std::string("LINEAR")},
         {"kp_normal", 2e4},
         {"alpha_normal", 50.0},
         {"max_force", 100.0},
         {"mu", 0.0}});
    for (const char* contact : {"contact", "linear_contact"}) {
      sim.tie(contact, "penetration", "ground_penetration");
      sim.tie(contact, "penetration_rate", "ground_penetration_rate");
      sim.tie(contact, "normal", "ground_normal");
      tieRest(sim, contact);
    }
    sim.lock();
    int touchdowns = 0;
    sim.registerZeroCrossing(
        "touchdown", [lander](Simulation& s, double) { return s.multibody().q(lander)[6]; },
        CrossingDirection::Falling, [&touchdowns](Simulation&, double) { ++touchdowns; });
    // 0.15 m up, falling at 0.5 m/s and drifting at 0.2 m/s: touchdown at ~0.3 s.
    sim.multibody().q(lander)[6] = 0.15;
    sim.multibody().u(lander).tail<3>() = Vector3(0.2, 0.0, -0.5);

    // Warm-up through the touchdown: the integrators' step history grows to the most steps a
    // hop has needed, and the contact needs the most.
    sim.advanceTimeBy(0.8);
    const std::uint64_t before = crossingsFired(sim);
    const int touchdownsBefore = touchdowns;
    CHECK(allocationsDuring([&] { sim.advanceTimeBy(3.0); }) == 0);
    // Two burnouts, ~30 pulse ends, and the lander bounced back onto the ground.
    CHECK(crossingsFired(sim) - before >= 30);
    CHECK(touchdowns > touchdownsBefore);
    CHECK(std::get<bool>(sim.get("models.tank_a.discreteStates.empty")));
    CHECK(std::get<bool>(sim.get("models.tank_b.discreteStates.empty")));
  }
}

TEST_CASE(
    "standard models allocate nothing once warm: a spacecraft with reaction wheels, noisy "
    "IMUs and orbit gravity") {
  for (const char* integrator : {"rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.01, .integrator = integrator});
    auto& tree = sim.multibody().editModel();
    const BodyIndex bus = tree.addBody("bus", kWorldBody, block(60.0), Hinge::full6Dof());
    tree.addNode("imu", bus, RigidTransform(spatial::rotationY(0.3), Vector3(0.2, -0.1, 0.3)));
    const BodyIndex probe = tree.addBody("probe", kWorldBody, block(5.0), Hinge::full6Dof());
    tree.addNode("probe_node", probe, RigidTransform());

    // One wheel per friction law; the Coulomb-viscous one starts at rest with a current below
    // its static torque (stuck), the others spin.
    constant(sim, "power", ElementType::Bool, true);
    const char* laws[] = {"NONE", "COULOMB_VISCOUS", "LUGRE", "DAHL"};
    const Vector3 axes[] = {Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ(),
                            Vector3(1, 1, 1).normalized()};
    const double rates[] = {30.0, 0.0, -20.0, 5.0};
    std::vector<BodyIndex> wheels;
    for (int i = 0; i < 4; ++i) {
      const std::string wheel = "wheel_" + std::to_string(i), rw = "rw_" + std::to_string(i);
      wheels.push_back(tree.addBody(wheel, bus, block(1.5), Hinge::pin(axes[i])));
      add(sim, "ReactionWheel", rw, wheel,
          {{"k_friction_model", std::string(laws[i])},
           {"k_mtr_trq_constant", 0.05},
           {"k_coulomb", 0.002},
           {"k_static", 0.004},
           {"k_viscous", 1e-4},
           {"k_lugre_stiff", 0.5},
           {"k_lugre_damp", 1e-4},
           {"k_dahl_stiff", 0.5}});
      sim.tie(rw, "power_cmd", "power");
      if (i == 3) {
        add(sim, "SineWave", "current_source", "", {{"amplitude", 0.8}, {"frequency", 2.0}});
        sim.addSignal("rw_3_mtr_current", ElementType::Double);
        sim.set("signals.rw_3_mtr_current", 0.0);
        sim.tie("current_source", "y", "rw_3_mtr_current");
      } else {
        constant(sim, rw + "_mtr_current", ElementType::Double, i == 1 ? 0.01 : 0.5);
      }
      tieRest(sim, rw);
    }

    // IMUs with every noise term on, one pair with continuous integrals, one with discrete.
    for (const char* type : {"CONTINUOUS", "DISCRETE"}) {
      for (const char* className : {"RateGyro", "Accelerometer"}) {
        const std::string name = std::string(className) + "_" + type;
        add(sim, className, name, "imu",
            {{"state_type", std::string(type)},
             {"bias", std::vector<double>{1e-3, -2e-3, 3e-3}},
             {"white_noise_density", 1e-3},
             {"bias_random_walk", 1e-4},
             {"bias_instability", 1e-4},
             {"bias_correlation_time", 10.0},
             {"bias_drift_rate", std::vector<double>{1e-5, 0.0, -1e-5}},
             {"lsb", 1e-4},
             {"count_bits", std::int64_t{16}},
             {"seed", std::int64_t{7}}});
        sim.setModelRate(name, 100.0);
        tieRest(sim, name);
      }
    }
    add(sim, "NodePosVelAccelSensor", "truth", "imu");
    // Noisy attitudes with every error term on, sampled at 100 Hz.
    for (const char* className : {"NoisyAttitude", "NoisyNodePosVelAccelSensor"}) {
      add(sim, className, className, "imu",
          {{"sig_init_error", 1e-3},
           {"sig_att_noise", 1e-3},
           {"sig_gyro_drift", 1e-4},
           {"gyro_random_walk", 1e-4},
           {"seed", std::int64_t{3}}});
      sim.setModelRate(className, 100.0);
      tieRest(sim, className);
    }
    add(sim, "TiltVector", "tilt", "imu");
    add(sim, "BearingAngle", "sun_sensor", "imu",
        {{"body_vec", std::vector<double>{1.0, 0.0, 0.0}},
         {"celest_vec", std::vector<double>{0.3, 0.9, 0.1}}});
    // Pushes in every frame on the probe: on the bus they would work the stuck wheel loose,
    // and its friction's sign switch would make adaptive steps chatter.
    constant(sim, "push_force", ElementType::Double, std::vector<double>{0.1, -0.2, 0.05}, 3);
    constant(sim, "push_torque", ElementType::Double, std::vector<double>{0.01, 0.0, -0.02}, 3);
    for (const char* frame : {"NODE", "BODY", "INERTIAL"}) {
      const std::string name = std::string("push_") + frame;
      add(sim, "ExternalForceTorque", name, "probe_node", {{"frame", std::string(frame)}});
      sim.tie(name, "force", "push_force");
      sim.tie(name, "torque", "push_torque");
    }
    add(sim, "ExternalSingleDofDisturbance", "nudge", "imu", {{"activeDof", std::string("MZ")}});
    for (const char* name : {"truth", "tilt", "sun_sensor"}) tieRest(sim, name);
    constant(sim, "nudge_dof", ElementType::Double, 0.03);
    tieRest(sim, "nudge");
    add(sim, "PointMassGravity", "earth", "imu", {{"mu", 3.986004418e14}});
    add(sim, "SphericalHarmonicGravity", "geoid", "probe_node",
        {{"useGravityGradient", true}, {"rotationRate", 7.292115e-5}});
    // Degree 4, order 3, unnormalized coefficients (15 each, lower triangular), not applied.
    std::vector<double> c(15, 1e-6), sCoefficients(15, 2e-6);
    c[0] = 1.0;
    add(sim, "SphericalHarmonicGravity", "field4", "probe_node",
        {{"gravityParameter", 4.9e12},
         {"equatorialRadius", 1.7e6},
         {"degree", std::int64_t{4}},
         {"order", std::int64_t{3}},
         {"cCoefficients", c},
         {"sCoefficients", sCoefficients},
         {"normalized", false},
         {"apply", false}});
    for (const char* name : {"earth", "geoid", "field4"}) tieRest(sim, name);
    sim.lock();
    // Both in low orbit, the bus tumbling slowly.
    sim.multibody().q(bus).tail<3>() = Vector3(7.0e6, 0.0, 0.0);
    sim.multibody().u(bus) << 0.02, -0.015, 0.03, 0.0, 7546.0, 0.0;
    sim.multibody().q(probe).tail<3>() = Vector3(0.0, 6.0e6, 3.0e6);
    sim.multibody().u(probe) << 0.01, 0.0, 0.0, -7000.0, 0.0, 1000.0;
    for (int i = 0; i < 4; ++i) sim.multibody().u(wheels[i])[0] = rates[i];

    sim.advanceTimeBy(0.2);  // warm-up: two tachometer reads, 20 IMU samples
    CHECK(allocationsDuring([&] { sim.advanceTimeBy(1.0); }) == 0);
  }
}

TEST_CASE(
    "standard models allocate nothing once warm: a rotor against soft joint stops, with "
    "joint springs, a DC motor and encoders") {
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.01, .integrationSteps = 2, .integrator = integrator});
    auto& tree = sim.multibody().editModel();
    const auto lever = [](double mass) {
      return SpatialInertia::fromCmInertia(mass, Vector3(0, 0, -0.5), 0.01 * Matrix3::Identity());
    };
    const BodyIndex rotor =
        tree.addBody("rotor", kWorldBody, lever(1.0), Hinge::pin(Vector3::UnitX()));
    const BodyIndex head = tree.addBody("head", rotor, lever(0.5), Hinge::gimbal(),
                                        RigidTransform::fromTranslation({0, 0, -1}));
    const BodyIndex ball = tree.addBody("ball", rotor, lever(0.5), Hinge::ball(),
                                        RigidTransform::fromTranslation({0, 0.3, -1}));
    const BodyIndex cross =
        tree.addBody("cross", rotor, lever(0.5), Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()),
                     RigidTransform::fromTranslation({0, -0.3, -1}));
    const BodyIndex carriage =
        tree.addBody("carriage", rotor, block(0.5), Hinge::slider(Vector3::UnitY()));
    tree.addNode("rotor_anchor", rotor, RigidTransform::fromTranslation({0, 0.8, 0}));
    tree.addNode("carriage_node", carriage, RigidTransform());
    sim.multibody().setGravity(Vector3(0, 0, -9.81));

    // The motor's sine voltage swings the rotor into its stops at +-0.1 rad.
    add(sim, "SineWave", "supply", "", {{"amplitude", 20.0}, {"frequency", 1.0}});
    sim.addSignal("voltage", ElementType::Double);
    sim.set("signals.voltage", 0.0);
    sim.tie("supply", "y", "voltage");
    add(sim, "DCMotorVin", "motor", "rotor", {{"K_t", 1.0}, {"R", 1.0}, {"gear_ratio", 1.0}});
    sim.tie("motor", "voltage", "voltage");
    add(sim, "SoftJointStop", "stop", "rotor",
        {{"k", 500.0}, {"alpha", 0.5}, {"lower_bound", -0.1}, {"upper_bound", 0.1}});
    add(sim, "SoftJointStop", "hard_stop", "rotor",
        {{"k", 2000.0}, {"n", 1.5}, {"lower_bound", -0.12}, {"upper_bound", 0.12}});
    add(sim, "SpringDamperMotor", "rotor_spring", "rotor", {{"K", 2.0}, {"C", 0.1}});
    add(sim, "PinRate", "tachometer", "rotor", {{"rate_lsb", 1e-3}});
    sim.setModelRate("tachometer", 50.0);
    add(sim, "JointForceTorqueSensor", "load_cell", "rotor");
    add(sim, "JointForceTorqueSensor", "parent_load_cell", "rotor",
        {{"senseMode", std::string("PARENT")}});
    add(sim, "GeneralizedSpringDamperMotor", "head_springs", "head",
        {{"K", std::vector<double>{3.0, 4.0, 5.0}}, {"C", std::vector<double>{0.1, 0.1, 0.1}}});
    add(sim, "GimbalEncoder", "head_encoder", "head", {{"angle_lsb", 1e-3}});
    sim.setModelRate("head_encoder", 25.0);
    add(sim, "BallJointSpringDamper", "ball_springs", "ball",
        {{"K_x", 3.0}, {"K_y", 4.0}, {"K_z", 5.0}, {"C_x", 0.1}, {"C_y", 0.1}, {"C_z", 0.1}});
    add(sim, "BallEncoder", "ball_encoder", "ball", {{"angle_lsb", 1e-3}});
    add(sim, "BallEncoder", "euler_encoder", "ball", {{"EulerSequence", std::string("ZXZ")}});
    add(sim, "UjointSpringDamper", "cross_springs", "cross",
        {{"K", std::vector<double>{3.0, 4.0}}, {"C", std::vector<double>{0.1, 0.1}}});
    add(sim, "SpringDamper", "carriage_spring", "",
        {{"K", 50.0},
         {"C", 0.5},
         {"unsprung_length", 0.7},
         {"from_node", std::string("rotor_anchor")},
         {"to_node", std::string("carriage_node")}});
    for (const char* name : {"motor", "stop", "hard_stop", "tachometer", "load_cell",
                             "parent_load_cell", "head_encoder", "ball_encoder", "euler_encoder"}) {
      tieRest(sim, name);
    }
    sim.lock();
    sim.multibody().q(head) << 0.2, -0.1, 0.3;
    sim.multibody().q(ball).head<4>() = spatial::quaternionFromRotation(
        spatial::rotationFromAxisAngle(Vector3(1, 2, 3).normalized(), 0.4));
    sim.multibody().q(cross) << -0.2, 0.25;
    sim.multibody().q(carriage)[0] = 0.3;

    // Warm-up through contacts with the stops: the integrators' step history grows to the
    // most steps a hop has needed.
    sim.advanceTimeBy(2.0);
    const std::uint64_t before = crossingsFired(sim);
    CHECK(allocationsDuring([&] { sim.advanceTimeBy(2.0); }) == 0);
    // Swings into the stops and out of them.
    CHECK(crossingsFired(sim) - before >= 4);
  }
}

TEST_CASE(
    "standard models allocate nothing once warm: a profiled set point through a PID, a filter "
    "and a second-order plant") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rkf45"});
  // The set point steps every 0.5 s (a held sine); the profile moves the reference to it.
  add(sim, "SineWave", "target", "", {{"amplitude", 2.0}, {"frequency", 0.3}});
  add(sim, "ZeroOrderHold", "sampler");
  sim.setModelRate("sampler", 2.0);
  sim.addSignal("target_value", ElementType::Double);
  sim.set("signals.target_value", 0.0);
  sim.tie("target", "y", "target_value");
  sim.tie("sampler", "u", "target_value");
  add(sim, "SingleTrapezoidalProfile", "profile");
  sim.addSignal("set_point", ElementType::Double);
  sim.tie("sampler", "y", "set_point");
  constant(sim, "accel_bound", ElementType::Double, 4.0);
  constant(sim, "speed_bound", ElementType::Double, 1.5);
  sim.tie("profile", "accel", "accel_bound");
  sim.tie("profile", "maxVel", "speed_bound");
  sim.tie("profile", "coord", "set_point");
  tieRest(sim, "profile");
  add(sim, "SingleTrapezoidalProfile", "relative_profile", "", {{"relativeMode", true}});
  sim.tie("relative_profile", "accel", "accel_bound");
  sim.tie("relative_profile", "maxVel", "speed_bound");
  sim.tie("relative_profile", "coord", "set_point");
  tieRest(sim, "relative_profile");

  add(sim, "Pid", "pid", "",
      {{"kp", 4.0}, {"ki", 1.0}, {"kd", 0.2}, {"output_min", -5.0}, {"output_max", 5.0}});
  sim.setModelRate("pid", 50.0);
  sim.addSignal("plant_output", ElementType::Double, 3);
  sim.tie("pid", "r", "profile_profile_coord");
  sim.tie("pid", "y", "plant_output", 0, 1);
  add(sim, "FirstOrderFilter", "actuator", "", {{"tau", 0.05}});
  sim.addSignal("command", ElementType::Double);
  sim.addSignal("actuation", ElementType::Double);
  sim.tie("pid", "u", "command");
  sim.tie("actuator", "u", "command");
  sim.tie("actuator", "y", "actuation");
  add(sim, "SecondOrderResponse", "plant", "",
      {{"Fc", 2.0},
       {"damping", 0.4},
       {"InputMin", -3.0},
       {"InputMax", 3.0},
       {"StateDerivMin", -2.0},
       {"StateDerivMax", 2.0}});
  sim.tie("plant", "u", "actuation");
  sim.tie("plant", "state", "plant_output", 0, 1);
  sim.tie("plant", "stateDeriv", "plant_output", 1, 1);
  sim.tie("plant", "state2ndDeriv", "plant_output", 2, 1);
  add(sim, "Pid", "fast_pid", "", {{"kp", 1.0}, {"ki", 0.5}});  // no rate: every I/O step
  sim.tie("fast_pid", "r", "relative_profile_profile_coord");
  sim.tie("fast_pid", "y", "plant_output", 0, 1);
  tieRest(sim, "fast_pid");
  add(sim, "SignalMux", "mux", "", {{"muxTable", std::vector<std::int64_t>{2, 0}}});
  sim.tie("mux", "in", "plant_output");
  tieRest(sim, "mux", 2);
  add(sim, "UserClock", "clock", "",
      {{"baseTime", std::vector<std::int64_t>{1'700'000'000, 999'999'000}}});
  tieRest(sim, "clock");
  sim.lock();
  sim.advanceTimeBy(1.0);  // warm-up: two set points
  CHECK(allocationsDuring([&] { sim.advanceTimeBy(4.0); }) == 0);
}

TEST_CASE("standard models allocate nothing once warm: rover navigation flows") {
  Simulation sim({.ioStepSize = 0.1});
  // A long arc: the locomotion reads back the pose it commands (its outputs do not feed
  // through), so it steps along for the whole run.
  add(sim, "Locomotion", "drive", "", {{"step_dist", 0.3}, {"pivot_offset_x", 0.5}});
  constant(sim, "drive_mode", ElementType::Int, std::int64_t{1});
  constant(sim, "drive_radius", ElementType::Double, 2.0);
  constant(sim, "drive_distance", ElementType::Double, 1000.0);
  for (const auto& [in, out] : {std::pair{"xpos", "x"}, {"ypos", "y"}, {"heading_in", "heading"}}) {
    sim.addSignal(std::string("pose_") + out, ElementType::Double);
    sim.tie("drive", in, std::string("pose_") + out);
    sim.tie("drive", out, std::string("pose_") + out);
  }
  tieRest(sim, "drive");
  // Turns in place whose angle changes every step: each is a new command.
  add(sim, "SineWave", "heading_command", "", {{"amplitude", 1.0}, {"frequency", 0.2}});
  add(sim, "Locomotion", "turn", "");
  constant(sim, "turn_mode", ElementType::Int, std::int64_t{0});
  sim.addSignal("turn_angle", ElementType::Double);
  sim.tie("heading_command", "y", "turn_angle");
  sim.tie("turn", "angle", "turn_angle");
  tieRest(sim, "turn");
  // Arc trajectory and four-wheel steering follow a radius that sweeps through straight (0).
  add(sim, "SineWave", "radius_command", "", {{"amplitude", 3.0}, {"frequency", 0.25}});
  sim.addSignal("radius", ElementType::Double);
  sim.tie("radius_command", "y", "radius");
  constant(sim, "rover_mode", ElementType::Int, std::int64_t{1});
  add(sim, "ArcTraj", "arc");
  add(sim, "Steering4WFlow", "steer", "",
      {{"wheel_front_rear_dist", 1.2}, {"wheel_left_right_dist", 0.9}});
  sim.addSignal("steer_angle_d", ElementType::Double, 4);
  const char* steerPorts[] = {"steer_bogey_left", "steer_bogey_right", "steer_rocker_left",
                              "steer_rocker_right"};
  for (std::size_t i = 0; i < 4; ++i) sim.tie("steer", steerPorts[i], "steer_angle_d", i, 1);
  for (const char* name : {"arc", "steer"}) {
    sim.tie(name, "mode", "rover_mode");
    sim.tie(name, "radius", "radius");
    tieRest(sim, name);
  }
  // The steering actuators lag the command; the status says when they have caught up.
  add(sim, "FirstOrderFilter", "steer_servo", "", {{"tau", 0.3}});
  sim.addSignal("steer_angle", ElementType::Double, 4);
  sim.tie("steer_servo", "u", "steer_angle_d");
  sim.tie("steer_servo", "y", "steer_angle");
  add(sim, "SteeringStatus", "steer_status", "", {{"epsilon", 0.01}});
  sim.tie("steer_status", "steer_angle", "steer_angle");
  sim.tie("steer_status", "steer_angle_d", "steer_angle_d");
  tieRest(sim, "steer_status");
  sim.lock();
  sim.advanceTimeBy(1.0);  // warm-up
  CHECK(allocationsDuring([&] { sim.advanceTimeBy(10.0); }) == 0);
  CHECK(std::get<std::int64_t>(sim.get("signals.drive_status")) == 0);  // still driving
}

}  // namespace
TEST_CASE("standard models allocate nothing once warm: wheels roll over terrain and soil") {
  // A driven wheel on sinusoidal terrain with two soil regions: the terrain sensor, the
  // Bekker wheel-soil contact and both tyre models act on the same hub.
  Simulation sim({.ioStepSize = 0.01, .integrationSteps = 4});
  sim.multibody().setGravity(Vector3(0, 0, -9.81));
  auto& tree = sim.multibody().editModel();
  const BodyIndex carriage =
      tree.addBody("carriage", kWorldBody, block(20.0), Hinge::translational());
  const BodyIndex wheel = tree.addBody("wheel", carriage, block(1.0), Hinge::pin(Vector3::UnitY()));
  tree.addNode("hub", wheel, RigidTransform());
  add(sim, "TerrainPenetration", "ground", "hub",
      {{"terrain", std::string("SINUSOID")},
       {"amplitude", std::vector<double>{0.01, 0.005}},
       {"wavelength", std::vector<double>{0.7, 1.3}},
       {"soils", std::vector<double>{0.99e3, 1528.43e3, 1.1, 1.04e3, 0.49, 0.025, 5e3, 8e5, 0.8,
                                     200.0, 0.6, 0.01}},
       {"soil_regions", std::vector<double>{0.06, 1e3, -1e3, 1e3, 1}}});
  tieRest(sim, "ground");
  add(sim, "BekkerWheelSoilContact", "soil_contact", "hub",
      {{"radius", 0.25}, {"width", 0.2}, {"soil_damping", 500.0}});
  add(sim, "FialaTire", "fiala", "hub",
      {{"radius", 0.24},
       {"normal_stiffness", 2e5},
       {"normal_damping", 500.0},
       {"longitudinal_tire_stiffness", 5e4},
       {"lateral_tire_stiffness", 6e4},
       {"rolling_resistance_coeff", 0.01}});
  add(sim, "MagicFormulaTire", "magic", "hub",
      {{"surface", std::string("WET_TARMAC")}, {"radius", 0.24}, {"normal_stiffness", 2e5}});
  for (const char* contact : {"soil_contact", "fiala", "magic"}) {
    sim.tie(contact, "penetration", "ground_penetration");
    sim.tie(contact, "penetration_rate", "ground_penetration_rate");
    sim.tie(contact, "normal", "ground_normal");
    if (std::string(contact) == "soil_contact") sim.tie(contact, "soil", "ground_soil");
    tieRest(sim, contact);
  }
  sim.lock();
  sim.multibody().q(carriage) = Vector3(0.0, 0.0, 0.24);
  sim.multibody().u(carriage) = Vector3(0.5, 0.05, 0.0);
  sim.multibody().u(wheel)[0] = 2.5;
  sim.advanceTimeBy(0.3);
  CHECK(allocationsDuring([&] { sim.advanceTimeBy(1.0); }) == 0);
  // Still on the ground, and it has moved over the soil.
  CHECK(std::get<double>(sim.get("signals.soil_contact_normal_force")) > 0.0);
  CHECK(sim.multibody().q(carriage)[0] != 0.0);
}

}  // namespace hopsim
