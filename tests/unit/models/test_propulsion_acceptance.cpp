// Propulsion acceptance tests.
// (a) Thrusters -> FuelTank -> thrusters is a topological loop; fuel used is a continuous
//     state, so it sorts without a break, and the vehicle's mass plus the propellant expelled
//     stays the initial mass, through burnout, to 1e-9.
// (b) With discrete fuel and feed-through in both models (test-local models: the standard ones
//     do not have that mode) the same loop is an algebraic loop until a break is declared.
// (c) A lunar lander (FULL6DOF body, PointMassGravity, ThrottledThruster, FuelTank, a touchdown
//     crossing on altitude) lands at the time and speed of an independent 1-D integration of
//     the same equations, to 1e-6.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "hopsim/core/flow_model.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/fuel_tank.h"
#include "hopsim/models/point_mass_gravity.h"
#include "hopsim/models/throttled_thruster.h"
#include "hopsim/signals/error.h"
#include "propulsion_rig.h"

namespace hopsim::test {
namespace {

using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::Vector3;

constexpr double kG0 = 9.80665;

std::vector<double> list(const Vector3& v) { return {v.x(), v.y(), v.z()}; }

/// A FuelTank on node `node` with CMs on the body z axis at `cmZ`.
models::FuelTank& addTank(Simulation& sim, const std::string& node, double emptyMass, double fuel,
                          double cmZ) {
  auto& tank = sim.addModel<models::FuelTank>("tank");
  tank.attachToNode(node);
  tank.setParam("starting_fuel", fuel);
  tank.setParam("empty_mass", emptyMass);
  tank.setParam("empty_cm", list({0.0, 0.0, cmZ}));
  tank.setParam("full_cm", list({0.0, 0.0, cmZ}));
  tank.setParam("empty_inertia", list({800.0, 800.0, 600.0}));
  tank.setParam("full_inertia", list({820.0, 820.0, 610.0}));
  sim.addSignal("tank_fuel", ElementType::Double);
  sim.addSignal("tank_mass", ElementType::Double);
  sim.tie("tank", "fuel_remaining", "tank_fuel");
  sim.tie("tank", "mass", "tank_mass");
  return tank;
}

// ---- (a) ------------------------------------------------------------------------------------

TEST_CASE(
    "propulsion acceptance: thruster -> tank -> thruster sorts without a break and "
    "conserves mass") {
  constexpr double kEmptyMass = 500.0, kFuel = 12.0;
  Simulation sim({.ioStepSize = 0.2, .integrator = "rkf45"});
  const multibody::BodyIndex body = addCraft(sim, 1.0, Vector3::Zero(), RigidTransform());
  addTank(sim, "nozzle", kEmptyMass, kFuel, 0.0);
  // Two thrusters draw from the tank through one two-element flow signal; both read its flag.
  sim.addSignal("flows", ElementType::Double, 2);
  sim.addSignal("empty", ElementType::Int);
  addSetSignal(sim, "on", ElementType::Bool, true);
  sim.tie("tank", "fuel_flow", "flows");
  sim.tie("tank", "empty", "empty");
  const JetSpec jets[] = {{"jet_a", 600.0, 250.0}, {"jet_b", 300.0, 280.0}};
  addJetsDrawingFrom(sim, jets, "flows", "empty");
  sim.lock();  // would throw ModelError("algebraic loop ...") if the loop had no state in it
  const ModelOrder order = sim.modelOrder();
  CHECK(order.breaks.empty());
  // The tank's flag feeds the thrusters' thrust through, so it runs first.
  CHECK(order.continuousModels == std::vector<std::string>{"tank", "jet_a", "jet_b"});

  const double initialMass = kEmptyMass + kFuel;
  const auto totalMass = [&] {
    return sim.multibody().model().massProperties(body).mass() +
           number(sim, "models.jet_a.continuousStates.fuel_used") +
           number(sim, "models.jet_b.continuousStates.fuel_used");
  };
  const double mdot = 600.0 / (250.0 * kG0) + 300.0 / (280.0 * kG0);
  const double burnout = kFuel / mdot;  // 3.5 s
  for (double t : {0.7, 2.0, burnout - 0.05, burnout + 0.05, burnout + 3.0}) {
    CAPTURE(t);
    sim.advanceTimeTo(std::round(t * 100.0) / 100.0);
    // The tank integrates the sum of the flows the thrusters integrate: the two agree to
    // rounding, and the burnout snaps the tank by at most mdot * 1e-10 s (the time
    // tolerance), far below 1e-9 of the mass.
    CHECK(totalMass() == doctest::Approx(initialMass).epsilon(1e-9));
  }
  CHECK(sim.multibody().model().massProperties(body).mass() == kEmptyMass);
  CHECK(number(sim, "signals.jet_a_thrust") == 0.0);
}

// ---- (b) ------------------------------------------------------------------------------------

/// A thruster whose fuel used is a discrete state and whose flow feeds through from the tank:
/// fuel_flow = rate while the tank reports fuel left, else 0.
class DiscreteThruster final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("DiscreteThruster", ModelKind::Flow, "flow = rate while fuel > 0") {}
    ParamKey<double> rate = param<double>("rate").unit("kg/s").defaultValue(0.5);
    DiscreteStateKey<double> used = discreteState<double>("used").unit("kg").defaultValue(0.0);
    InKey<double> fuelRemaining = flowIn<double>("fuel_remaining").unit("kg");
    OutKey<double> fuelFlow = flowOut<double>("fuel_flow").unit("kg/s").feedsFrom(fuelRemaining);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit DiscreteThruster(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double t0, double t1) override { state(d_.used) += flow() * (t1 - t0); }
  void updateFlowOuts(double /*t*/) override { out(d_.fuelFlow) = flow(); }

 private:
  double flow() { return in(d_.fuelRemaining) > 0.0 ? param(d_.rate) : 0.0; }
  const Declaration& d_ = declaration();
};

/// A tank with discrete fuel that publishes what will remain after drawing the current flow
/// for one step: its output feeds through from the flow.
class LookaheadTank final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("LookaheadTank", ModelKind::Flow, "remaining = fuel - flow * step") {}
    ParamKey<double> step = param<double>("step").unit("s").defaultValue(0.1);
    DiscreteStateKey<double> fuel = discreteState<double>("fuel").unit("kg").defaultValue(1.0);
    InKey<double> fuelFlow = flowIn<double>("fuel_flow").unit("kg/s");
    OutKey<double> fuelRemaining = flowOut<double>("fuel_remaining").unit("kg").feedsFrom(fuelFlow);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit LookaheadTank(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double t0, double t1) override { state(d_.fuel) -= in(d_.fuelFlow) * (t1 - t0); }
  void updateFlowOuts(double /*t*/) override {
    out(d_.fuelRemaining) = state(d_.fuel) - in(d_.fuelFlow) * param(d_.step);
  }

 private:
  const Declaration& d_ = declaration();
};

TEST_CASE(
    "propulsion acceptance: discrete fuel with feed-through both ways is an algebraic "
    "loop until a break is declared") {
  Simulation sim({.ioStepSize = 0.1});
  sim.addModel<DiscreteThruster>("thruster");
  sim.addModel<LookaheadTank>("tank");
  sim.addSignal("flow", ElementType::Double);
  sim.addSignal("remaining", ElementType::Double);
  sim.tie("thruster", "fuel_flow", "flow");
  sim.tie("tank", "fuel_flow", "flow");
  sim.tie("tank", "fuel_remaining", "remaining");
  sim.tie("thruster", "fuel_remaining", "remaining");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("algebraic loop"), ModelError);
  try {
    sim.lock();
  } catch (const ModelError& e) {
    const std::string message = e.what();
    CHECK(message.find("thruster.fuel_flow -> 'flow' -> tank.fuel_flow") != std::string::npos);
    CHECK(message.find("tank.fuel_remaining -> 'remaining' -> thruster.fuel_remaining") !=
          std::string::npos);
    CHECK(message.find("declare a break") != std::string::npos);
  }

  sim.addBreak("tank", "fuel_flow");
  sim.set("signals.flow", 0.0);  // read before written, through the break
  sim.lock();
  CHECK(sim.modelOrder().flowModels == std::vector<std::string>{"tank", "thruster"});
  REQUIRE(sim.modelOrder().breaks.size() == 1);
  CHECK(sim.modelOrder().breaks[0].find("tank.fuel_flow") != std::string::npos);
  sim.advanceTimeTo(3.0);
  const double fuel = number(sim, "models.tank.discreteStates.fuel");
  const double used = number(sim, "models.thruster.discreteStates.used");
  // Both update from the same flow value each hop: the fuel is accounted for to rounding, the
  // thruster stopped once the lookahead reached zero, and the tank never went negative.
  CHECK(fuel + used == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(number(sim, "signals.flow") == 0.0);
  CHECK(fuel >= -1e-12);
  CHECK(used > 0.9);
}

// ---- (c) ------------------------------------------------------------------------------------

// The Moon, and a lander: 1000 kg dry with 20 kg of fuel, its CM 0.5 m above the feet (the
// body origin) on the body z axis, the engine at the feet thrusting along +z at a fixed
// throttle. It starts 600 m up, upright, falling at 25 m/s; the fuel runs out at ~21 s and it
// falls freely to touch down at ~40.5 s.
constexpr double kMu = 4.9048695e12, kRadius = 1737.4e3;
constexpr double kDryMass = 1000.0, kLanderFuel = 20.0, kCmHeight = 0.5;
constexpr double kMinLevel = 1000.0, kMaxLevel = 5000.0, kThrottle = 0.45, kLanderIsp = 300.0;
constexpr double kH0 = 600.0, kV0 = -25.0;

struct Touchdown {
  double time = NAN;
  double speed = NAN;
};

/// The same equations in 1-D, radial, for the CM at radius r: r'' = -mu/r^2 + T/m with
/// m = m0 - mdot t while fuel lasts (T = 0 after), by RK4 with a fixed step h (global error
/// ~1e-12 at h = 1e-3); the burnout is a step boundary, touchdown (r - cm height = R) is
/// solved within the last step by secant iteration on the step length.
Touchdown referenceTouchdown(double h) {
  const double thrust = kMinLevel + kThrottle * (kMaxLevel - kMinLevel);
  const double mdot = thrust / (kLanderIsp * kG0);
  const double burnout = kLanderFuel / mdot;
  struct State {
    double r, v;
  };
  const auto accel = [&](double t, const State& s, bool burning) {
    const double thrustAccel = burning ? thrust / (kDryMass + kLanderFuel - mdot * t) : 0.0;
    return State{s.v, -kMu / (s.r * s.r) + thrustAccel};
  };
  const auto rk4 = [&](double t, const State& s, double dt, bool burning) {
    const auto add = [](const State& a, const State& k, double f) {
      return State{a.r + f * k.r, a.v + f * k.v};
    };
    const State k1 = accel(t, s, burning);
    const State k2 = accel(t + dt / 2, add(s, k1, dt / 2), burning);
    const State k3 = accel(t + dt / 2, add(s, k2, dt / 2), burning);
    const State k4 = accel(t + dt, add(s, k3, dt), burning);
    return State{s.r + dt / 6 * (k1.r + 2 * k2.r + 2 * k3.r + k4.r),
                 s.v + dt / 6 * (k1.v + 2 * k2.v + 2 * k3.v + k4.v)};
  };
  const auto altitude = [](const State& s) { return s.r - kCmHeight - kRadius; };
  State s{kRadius + kH0 + kCmHeight, kV0};
  double t = 0.0;
  const int burnSteps = static_cast<int>(std::ceil(burnout / h));
  for (int i = 0; i < burnSteps; ++i) {
    const double dt = burnout / burnSteps;
    s = rk4(t, s, dt, true);
    t += dt;
  }
  REQUIRE(altitude(s) > 0.0);  // these numbers burn out before touchdown (altitude is falling)
  t = burnout;
  while (altitude(rk4(t, s, h, false)) > 0.0) {
    s = rk4(t, s, h, false);
    t += h;
  }
  double a = 0.0, b = h, ga = altitude(s), gb = altitude(rk4(t, s, h, false));
  for (int i = 0; i < 60 && b - a > 1e-15; ++i) {
    const double c = b - gb * (b - a) / (gb - ga);
    const double gc = altitude(rk4(t, s, c, false));
    a = b, ga = gb, b = c, gb = gc;
  }
  const State end = rk4(t, s, b, false);
  return {t + b, -end.v};
}

TEST_CASE(
    "propulsion acceptance: a lander touches down when and as fast as the 1-D equations "
    "predict") {
  IntegratorOptions tight;
  tight.relativeTolerance = 1e-12;
  tight.absoluteTolerance = 1e-9;
  Simulation sim({.ioStepSize = 0.5, .integrator = "rkf45", .integratorOptions = tight});
  auto& tree = sim.multibody().editModel();
  const multibody::BodyIndex body = tree.addBody(
      "lander", multibody::kWorldBody,
      spatial::SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Matrix3::Identity()),
      multibody::Hinge::full6Dof());
  tree.addNode("feet", body, RigidTransform());
  addTank(sim, "feet", kDryMass, kLanderFuel, kCmHeight);
  auto& gravity = sim.addModel<models::PointMassGravity>("gravity");
  gravity.attachToNode("feet");
  gravity.setParam("mu", kMu);
  auto& engine = sim.addModel<models::ThrottledThruster>("engine");
  engine.attachToNode("feet");
  engine.setParam("min_level", kMinLevel);
  engine.setParam("max_level", kMaxLevel);
  engine.setParam("isp", kLanderIsp);
  for (const char* s : {"flow", "accel", "potential"}) {
    sim.addSignal(s, ElementType::Double, std::string(s) == "accel" ? 3 : 1);
  }
  sim.addSignal("empty", ElementType::Int);
  addSetSignal(sim, "on", ElementType::Bool, true);
  addSetSignal(sim, "throttle", ElementType::Double, kThrottle);
  sim.tie("gravity", "linearAccel", "accel");
  sim.tie("gravity", "potential", "potential");
  sim.tie("engine", "on_off", "on");
  sim.tie("engine", "command", "throttle");
  sim.tie("engine", "fuel_empty", "empty");
  sim.tie("engine", "fuel_flow", "flow");
  tieThrustAndUsed(sim, "engine", "engine_");
  sim.tie("tank", "fuel_flow", "flow");
  sim.tie("tank", "empty", "empty");

  Touchdown landed;
  sim.registerZeroCrossing(
      "touchdown",
      [body](Simulation& s, double) {
        return Vector3(s.multibody().q(body).tail<3>()).norm() - kRadius;  // the feet's altitude
      },
      CrossingDirection::Falling,
      [&landed, body](Simulation& s, double t) {
        if (!std::isnan(landed.time)) return;
        landed.time = t;
        landed.speed = -s.multibody().u(body)[5];  // upright: body z is the local vertical
      });
  sim.lock();
  sim.multibody().q(body).head<4>() = spatial::quaternionFromRotation(Matrix3::Identity());
  sim.multibody().q(body).tail<3>() = Vector3(0.0, 0.0, kRadius + kH0);
  sim.multibody().u(body).setZero();
  sim.multibody().u(body)[5] = kV0;
  sim.advanceTimeTo(45.0);

  const Touchdown expected = referenceTouchdown(1e-3);
  MESSAGE("touchdown at t = " << landed.time << " s, " << landed.speed
                              << " m/s; relative differences from 1-D: "
                              << landed.time / expected.time - 1.0 << " (time), "
                              << landed.speed / expected.speed - 1.0 << " (speed)");
  REQUIRE_FALSE(std::isnan(landed.time));
  // The tank burned out on the way down, and nothing made the lander turn.
  CHECK(std::get<bool>(sim.get("models.tank.discreteStates.empty")));
  CHECK(sim.multibody().u(body).head<3>().norm() < 1e-12);
  // rkf45 at rtol 1e-12 on positions of 1.7e6 m: ~1e-6 m per step, a few 1e-5 m in all, i.e.
  // ~1e-6 s at 30 m/s over 40 s (3e-8 relative); the crossings add 1e-10 s each.
  CHECK(landed.time == doctest::Approx(expected.time).epsilon(1e-6));
  CHECK(landed.speed == doctest::Approx(expected.speed).epsilon(1e-6));
}

}  // namespace
}  // namespace hopsim::test
