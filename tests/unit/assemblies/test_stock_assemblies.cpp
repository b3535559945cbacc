// The stock assemblies (BodyAssembly, VehicleAssembly, GravityAssembly, ModelAssembly) against
// physics references, and the errors of bad vehicle and model definitions.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/assembly_registry.h"
#include "hopsim/assemblies/body_assembly.h"
#include "hopsim/assemblies/gravity_assembly.h"
#include "hopsim/assemblies/model_assembly.h"
#include "hopsim/assemblies/vehicle_assembly.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

constexpr double kG = 9.81;

using Entries = std::vector<InputNode::Entry>;

InputNode map(Entries entries) { return InputNode::mapping(std::move(entries)); }

/// A body of mass m (kg) with its CM at `cm` and no rotational inertia about it (a point mass),
/// joined by `hinge`.
InputNode pointBody(double m, std::initializer_list<double> cm, InputNode hinge) {
  return map({{"mass", m}, {"cm", cm}, {"inertia", {0.0, 0.0, 0.0}}, {"hinge", std::move(hinge)}});
}

/// What a parent passes to a child (aggregate initialization would leave most members to
/// their defaults, which -Wextra flags).
AssemblyInputs inputs(InputNode config, InputNode context, InputNode params,
                      std::vector<SignalTie> ties = {}) {
  AssemblyInputs in;
  in.config = std::move(config);
  in.context = std::move(context);
  in.params = std::move(params);
  in.signalTies = std::move(ties);
  return in;
}
AssemblyInputs vehicle(InputNode config, InputNode params) {
  return inputs(std::move(config), {}, std::move(params));
}
/// The parent's signal `parent` as the child's signal `child`.
SignalTie tie(std::string child, std::string parent) {
  SignalTie t;
  t.child = std::move(child);
  t.parent = std::move(parent);
  return t;
}

/// Runs `build` and returns the message of the InputError it throws ("" if none).
template <class F>
std::string inputErrorOf(F&& build) {
  try {
    build();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

double bodyQ(Simulation& sim, const std::string& body, Eigen::Index k) {
  MultibodySystem& mb = sim.multibody();
  return mb.q(mb.model().bodyIndex(body))[k];
}
double bodyU(Simulation& sim, const std::string& body, Eigen::Index k) {
  MultibodySystem& mb = sim.multibody();
  return mb.u(mb.model().bodyIndex(body))[k];
}

// ---- BodyAssembly + GravityAssembly ----------------------------------------------------------

/// A pendulum: a point mass m at distance L below a PIN about x, released from rest at θ0.
struct Pendulum {
  static constexpr double kMass = 2.0, kLength = 0.5;
  Simulation sim{options()};
  SimulationAssembly top{sim};

  static SimulationOptions options() {
    SimulationOptions o;
    o.ioStepSize = 1e-3;
    o.integrator = "rk4";
    return o;
  }

  explicit Pendulum(double theta0) {
    top.addAssembly<GravityAssembly>("gravity");
    top.addAssembly<BodyAssembly>(
        "pendulum",
        inputs({}, {},
               pointBody(kMass, {0.0, 0.0, -kLength},
                         map({{"type", "pin"}, {"axes", {1.0, 0.0, 0.0}}, {"q", {theta0}}}))));
    sim.lock();
  }
  double theta() { return bodyQ(sim, "pendulum", 0); }
  double rate() { return bodyU(sim, "pendulum", 0); }
  /// ½ m L² θ̇² + m g L (1 - cos θ) (J), the energy of a point-mass pendulum.
  double energy() {
    return 0.5 * kMass * kLength * kLength * rate() * rate() +
           kMass * kG * kLength * (1.0 - std::cos(theta()));
  }
};

TEST_CASE("BodyAssembly pendulum under GravityAssembly: small-angle period sqrt(L/g)") {
  const double theta0 = 1e-3;
  Pendulum p(theta0);
  CHECK(p.theta() == doctest::Approx(theta0).epsilon(1e-15));
  // θ(t) = θ0 cos(ω t), ω = sqrt(g/L); the amplitude correction of the period (θ0²/16) is
  // 6e-8 relative here, far below the tolerances.
  const double omega = std::sqrt(kG / Pendulum::kLength);
  const double quarter = 0.5 * std::numbers::pi / omega;
  p.sim.advanceTimeTo(std::round(quarter * 1e9) / 1e9);
  CHECK(std::abs(p.theta()) < 1e-8);
  CHECK(p.rate() == doctest::Approx(-theta0 * omega).epsilon(1e-6));
  p.sim.advanceTimeTo(std::round(2.0 * quarter * 1e9) / 1e9);
  CHECK(p.theta() == doctest::Approx(-theta0).epsilon(1e-6));
}

TEST_CASE("BodyAssembly pendulum at a large angle conserves energy (rk4, 1 ms)") {
  Pendulum p(1.0);
  const double e0 = p.energy();
  CHECK(e0 == doctest::Approx(Pendulum::kMass * kG * Pendulum::kLength * (1.0 - std::cos(1.0))));
  p.sim.advanceTimeTo(2.0);
  CHECK(std::abs(p.energy() - e0) < 1e-9 * e0);
  CHECK(std::abs(p.theta()) > 0.1);  // it did move
}

TEST_CASE("BodyAssembly names its body config.body and attaches it to context.parentBody") {
  Simulation sim;
  SimulationAssembly top(sim);
  top.addAssembly<BodyAssembly>("a", inputs({}, {}, pointBody(1.0, {0.0, 0.0, 0.0}, map({}))));
  top.addAssembly<BodyAssembly>(
      "b", inputs(map({{"body", "Arm"}}), map({{"parentBody", "a"}}),
                  map({{"mass", 1.0},
                       {"inertia", {1.0, 1.0, 1.0}},
                       {"hinge", map({{"type", "LOCKED"}})},
                       {"nodes", map({{"tip", map({{"position", {0.0, 0.0, 1.0}}})}})}})));
  const auto& tree = sim.multibody().model();
  const auto arm = tree.bodyIndex("Arm");
  CHECK(tree.bodyName(tree.parent(arm)) == "a");
  CHECK(multibody::toString(tree.hinge(arm).type()) == "LOCKED");
  CHECK(tree.nodeIndex("tip") >= 0);
}

// ---- VehicleAssembly ---------------------------------------------------------------------

InputNode freeBase() {
  return map(
      {{"mass", 10.0}, {"inertia", {1.0, 2.0, 2.5}}, {"hinge", map({{"type", "FULL6DOF"}})}});
}

InputNode lockedChild() {
  return map({{"mass", 3.0},
              {"cm", {0.1, 0.0, 0.0}},
              {"inertia", {0.2, 0.2, 0.3}},
              {"products", {0.01, 0.0, 0.0}},
              {"hinge", map({{"type", "locked"}, {"inboard_position", {1.0, 0.5, 0.0}}})}});
}

TEST_CASE("VehicleAssembly two-body free fall: z(t) = z0 - g t²/2, attitude kept") {
  Simulation sim;
  SimulationAssembly top(sim);
  top.addAssembly<GravityAssembly>("gravity");
  const double half = std::sqrt(0.5);
  top.addAssembly<VehicleAssembly>(
      "SC1", vehicle(map({{"basename", "Base"}, {"bodygraph", map({{"Tank", "Base"}})}}),
                     map({{"bodies", map({{"Tank", lockedChild()}, {"Base", freeBase()}})},
                          {"position", {1.0, -2.0, 100.0}},
                          {"attitude", {half, 0.0, half, 0.0}}})));
  const auto& tree = sim.multibody().model();
  CHECK(tree.bodyName(tree.parent(tree.bodyIndex("Tank"))) == "Base");
  sim.lock();
  sim.advanceTimeTo(1.0);
  CHECK(bodyQ(sim, "Base", 4) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(bodyQ(sim, "Base", 5) == doctest::Approx(-2.0).epsilon(1e-12));
  CHECK(std::abs(bodyQ(sim, "Base", 6) - (100.0 - 0.5 * kG)) < 1e-9);
  CHECK(bodyQ(sim, "Base", 0) == doctest::Approx(half).epsilon(1e-12));
  CHECK(bodyQ(sim, "Base", 2) == doctest::Approx(half).epsilon(1e-12));
  const Value q = sim.get("multibody.bodies.Base.Q");
  CHECK(std::abs(std::get<std::vector<double>>(q)[6] - (100.0 - 0.5 * kG)) < 1e-9);
}

TEST_CASE("VehicleAssembly accepts the seed's bodygraph {edges: {child: parent}}") {
  Simulation sim;
  SimulationAssembly top(sim);
  top.addAssembly<VehicleAssembly>(
      "SC1",
      vehicle(map({{"basename", "Base"}, {"bodygraph", map({{"edges", map({{"Tank", "Base"}})}})}}),
              map({{"bodies", map({{"Base", freeBase()}, {"Tank", lockedChild()}})}})));
  const auto& tree = sim.multibody().model();
  CHECK(tree.bodyName(tree.parent(tree.bodyIndex("Tank"))) == "Base");
}

TEST_CASE("VehicleAssembly rejects bad vehicles, naming the path (seed 7.18)") {
  Simulation sim;
  SimulationAssembly top(sim);
  const auto bodies = [] { return map({{"Base", freeBase()}, {"Tank", lockedChild()}}); };
  const auto graph = [] { return map({{"Tank", "Base"}}); };
  const auto fails = [&](InputNode config, InputNode params) {
    return inputErrorOf([&] {
      top.addAssembly<VehicleAssembly>("SC1", vehicle(std::move(config), std::move(params)));
    });
  };

  SUBCASE("position without attitude") {
    const std::string m = fails(map({{"basename", "Base"}, {"bodygraph", graph()}}),
                                map({{"bodies", bodies()}, {"position", {0.0, 0.0, 1.0}}}));
    CHECK(m.find("assemblies.SC1.params.attitude") != std::string::npos);
    CHECK(m.find("missing") != std::string::npos);
  }
  SUBCASE("attitude without position") {
    const std::string m = fails(map({{"basename", "Base"}, {"bodygraph", graph()}}),
                                map({{"bodies", bodies()}, {"attitude", {1.0, 0.0, 0.0, 0.0}}}));
    CHECK(m.find("assemblies.SC1.params.position") != std::string::npos);
  }
  SUBCASE("missing basename") {
    const std::string m = fails(map({{"bodygraph", graph()}}), map({{"bodies", bodies()}}));
    CHECK(m.find("assemblies.SC1.config.basename") != std::string::npos);
  }
  SUBCASE("basename not in bodies") {
    const std::string m =
        fails(map({{"basename", "Bsae"}, {"bodygraph", graph()}}), map({{"bodies", bodies()}}));
    CHECK(m.find("assemblies.SC1.config.basename") != std::string::npos);
    CHECK(m.find("'Bsae'") != std::string::npos);
  }
  SUBCASE("a bodygraph body not in bodies") {
    const std::string m = fails(
        map({{"basename", "Base"}, {"bodygraph", map({{"Tank", "Base"}, {"Probe", "Tank"}})}}),
        map({{"bodies", bodies()}}));
    CHECK(m.find("assemblies.SC1.config.bodygraph") != std::string::npos);
    CHECK(m.find("'Probe'") != std::string::npos);
    CHECK(m.find("assemblies.SC1.params.bodies") != std::string::npos);
  }
  SUBCASE("a body not connected") {
    const std::string m = fails(map({{"basename", "Base"}}), map({{"bodies", bodies()}}));
    CHECK(m.find("assemblies.SC1.params.bodies") != std::string::npos);
    CHECK(m.find("body 'Tank' in bodies is not connected: add it to bodygraph") !=
          std::string::npos);
  }
  SUBCASE("a cycle") {
    const std::string m = fails(
        map({{"basename", "Base"}, {"bodygraph", map({{"Tank", "Pod"}, {"Pod", "Tank"}})}}),
        map({{"bodies",
              map({{"Base", freeBase()}, {"Tank", lockedChild()}, {"Pod", lockedChild()}})}}));
    CHECK(m.find("assemblies.SC1.config.bodygraph") != std::string::npos);
    CHECK(m.find("cycle") != std::string::npos);
  }
  SUBCASE("position on a base that is not free") {
    const std::string m = fails(
        map({{"basename", "Base"}}),
        map({{"bodies", map({{"Base", pointBody(1.0, {0.0, 0.0, 0.0}, map({{"type", "PIN"}}))}})},
             {"position", {0.0, 0.0, 1.0}},
             {"attitude", {1.0, 0.0, 0.0, 0.0}}}));
    CHECK(m.find("assemblies.SC1.params.position") != std::string::npos);
    CHECK(m.find("FULL6DOF") != std::string::npos);
  }
  SUBCASE("a bad hinge and a bad inertia") {
    std::string m =
        fails(map({{"basename", "Base"}}),
              map({{"bodies",
                    map({{"Base", pointBody(1.0, {0.0, 0.0, 0.0}, map({{"type", "hinge"}}))}})}}));
    CHECK(m.find("assemblies.SC1.params.bodies.Base.hinge.type") != std::string::npos);
    CHECK(m.find("PIN") != std::string::npos);
    m = fails(
        map({{"basename", "Base"}}),
        map({{"bodies",
              map({{"Base", pointBody(1.0, {0.0, 0.0, 0.0},
                                      map({{"type", "UJOINT"}, {"axes", {1.0, 0.0, 0.0}}}))}})}}));
    CHECK(m.find("assemblies.SC1.params.bodies.Base.hinge.axes") != std::string::npos);
    m = fails(
        map({{"basename", "Base"}}),
        map({{"bodies", map({{"Base", map({{"mass", 1.0}, {"inertia", {1.0, 1.0, 3.0}}})}})}}));
    CHECK(m.find("assemblies.SC1.params.bodies.Base.inertia") != std::string::npos);
    CHECK(m.find("triangle") != std::string::npos);
    m = fails(
        map({{"basename", "Base"}}),
        map({{"bodies",
              map({{"Base",
                    map({{"mass", 1.0},
                         {"inertia", {1.0, 1.0, 1.0}},
                         {"hinge", map({{"q", {1.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}}})}})}})}}));
    CHECK(m.find("assemblies.SC1.params.bodies.Base.hinge.q") != std::string::npos);
  }
  // Nothing half-built stays behind.
  CHECK_FALSE(sim.multibody().hasBodies());
  CHECK(top.children().empty());
}

// ---- ModelAssembly ---------------------------------------------------------------------

TEST_CASE("ModelAssembly wraps registered models, a parent ties their ports") {
  Simulation sim;
  SimulationAssembly top(sim);
  sim.addSignal("x", ElementType::Double, 1);
  sim.addSignal("y", ElementType::Double, 1);
  top.addAssembly<ModelAssembly>(
      "source",
      inputs(map({{"model", "SineWave"}}), {},
             map({{"amplitude", 2.0}, {"frequency", "1 Hz"}, {"phase", 0.3}}), {tie("y", "x")}));
  auto& gain = top.addAssembly<ModelAssembly>(
      "gain", inputs(map({{"model", "Gain"}, {"lengths", map({{"n", "1"}})}}), {},
                     map({{"k", 2.5}}), {tie("u", "x"), tie("y", "y")}));
  CHECK(gain.model().name() == "gain");
  sim.lock();
  sim.advanceTimeTo(0.25);
  // y = k A sin(2π f t + φ) at t = 0.25 s.
  const double expected = 2.5 * 2.0 * std::sin(2.0 * std::numbers::pi * 0.25 + 0.3);
  CHECK(std::get<double>(sim.get("signals.y")) == doctest::Approx(expected).epsilon(1e-12));
}

TEST_CASE("ModelAssembly errors name the config path") {
  Simulation sim;
  SimulationAssembly top(sim);
  const auto fails = [&](InputNode config) {
    return inputErrorOf(
        [&] { top.addAssembly<ModelAssembly>("m", inputs(std::move(config), {}, {})); });
  };
  std::string m = fails(map({{"model", "Gian"}}));
  CHECK(m.find("assemblies.m.config.model") != std::string::npos);
  CHECK(m.find("Gain") != std::string::npos);
  m = fails(map({{"model", "Gain"}}));
  CHECK(m.find("assemblies.m.config.lengths") != std::string::npos);
  m = fails(map({{"model", "Gain"}, {"lengths", map({{"n", "0"}})}}));
  CHECK(m.find("positive integer") != std::string::npos);
  m = fails(map({{"model", "Gain"}, {"node", "tip"}, {"lengths", map({{"n", "2"}})}}));
  CHECK(m.find("assemblies.m.config.node") != std::string::npos);
  CHECK(top.children().empty());
  CHECK(sim.modelNames().empty());
}

TEST_CASE("the registry knows the stock assemblies") {
  const AssemblyRegistry& registry = assemblyRegistry();
  CHECK(registry.classNames() == std::vector<std::string>{"Assembly", "BodyAssembly",
                                                          "GravityAssembly", "ModelAssembly",
                                                          "ModelFile", "VehicleAssembly"});
  CHECK(registry.get("VehicleAssembly").doc == VehicleAssembly::kDoc);
  const std::string m = inputErrorOf([&] { (void)registry.get("VehicleAsembly"); });
  CHECK(m.find("VehicleAssembly") != std::string::npos);
  AssemblyRegistry mine;
  registerStandardAssemblies(mine);
  CHECK_THROWS_AS(mine.add<GravityAssembly>(), ModelError);
}

}  // namespace
}  // namespace hopsim
