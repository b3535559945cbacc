// FuelManifold: two thrusters draw through a manifold from two tanks weighted 1 : 3. Reference:
// the draws are constant, so tank A (2 kg) gets D/4 and runs out at 8/D, tank B (9 kg) has 3 kg
// left then and, taking all of D, runs out at 11/D; the thrusters then stop, having used the
// 11 kg exactly (to the crossings' 1e-10 s). The loop thrusters -> manifold -> thrusters is a
// cycle for the model-level sort, closed by a break on each thruster's fuel_empty.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "hopsim/models/fuel_manifold.h"
#include "hopsim/models/fuel_tank.h"
#include "hopsim/signals/error.h"
#include "propulsion_rig.h"

namespace hopsim::test {
namespace {

using spatial::RigidTransform;
using spatial::Vector3;

constexpr double kG0 = 9.80665;
const double kDraw = 400.0 / (200.0 * kG0) + 200.0 / (250.0 * kG0);

/// A tank named `name` on node `node`, fed by slice `slot` of "tank_flows", its flag into
/// slice `slot` of "tank_empty".
void addTank(Simulation& sim, const std::string& name, const std::string& node, double fuel,
             std::size_t slot) {
  auto& tank = sim.addModel<models::FuelTank>(name);
  tank.attachToNode(node);
  tank.setParam("starting_fuel", fuel);
  tank.setParam("empty_mass", 50.0);
  tank.setParam("empty_inertia", std::vector<double>{2.0, 2.0, 2.0});
  tank.setParam("full_inertia", std::vector<double>{3.0, 3.0, 3.0});
  sim.tie(name, "fuel_flow", "tank_flows", slot, 1);
  sim.tie(name, "empty", "tank_empty", slot, 1);
  sim.addSignal(name + "_fuel", ElementType::Double);
  sim.addSignal(name + "_mass", ElementType::Double);
  sim.tie(name, "fuel_remaining", name + "_fuel");
  sim.tie(name, "mass", name + "_mass");
}

struct ManifoldRig {
  Simulation sim{{.ioStepSize = 0.5, .integrator = "rkf45"}};
  models::FuelManifold& manifold;
  ManifoldRig() : manifold(sim.addModel<models::FuelManifold>("manifold")) {
    addCraft(sim, 1.0, Vector3::Zero(), RigidTransform());
    auto& tree = sim.multibody().editModel();
    const auto pod = tree.addBody(
        "pod", multibody::kWorldBody,
        spatial::SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), spatial::Matrix3::Identity()),
        multibody::Hinge::full6Dof());
    tree.addNode("pod_node", pod, RigidTransform());
    sim.addSignal("thruster_flows", ElementType::Double, 2);
    sim.addSignal("tank_flows", ElementType::Double, 2);
    sim.addSignal("tank_empty", ElementType::Int, 2);
    sim.addSignal("fuel_empty", ElementType::Int);
    addSetSignal(sim, "on", ElementType::Bool, true);
    manifold.setParam("draw_weights", std::vector<double>{1.0, 3.0});
    sim.tie("manifold", "thruster_flow", "thruster_flows");
    sim.tie("manifold", "tank_empty", "tank_empty");
    sim.tie("manifold", "tank_flow", "tank_flows");
    sim.tie("manifold", "fuel_empty", "fuel_empty");
    addTank(sim, "tank_a", "nozzle", 2.0, 0);
    addTank(sim, "tank_b", "pod_node", 9.0, 1);
    const JetSpec jets[] = {{"jet_a", 400.0, 200.0}, {"jet_b", 200.0, 250.0}};
    addJetsDrawingFrom(sim, jets, "thruster_flows", "fuel_empty");
  }
  double used() {
    return number(sim, "models.jet_a.continuousStates.fuel_used") +
           number(sim, "models.jet_b.continuousStates.fuel_used");
  }
  double consumed(const char* tank) {
    return number(sim, std::string("models.") + tank + ".continuousStates.fuel_consumed");
  }
};

TEST_CASE("FuelManifold: the draw is shared 1 : 3, moves to the tank left, and stops at the end") {
  ManifoldRig rig;
  // The sort orders models, not ports: the manifold reads the flows and feeds the flag back.
  CHECK_THROWS_WITH_AS(rig.sim.lock(), doctest::Contains("algebraic loop"), ModelError);
  rig.sim.addBreak("jet_a", "fuel_empty");
  rig.sim.addBreak("jet_b", "fuel_empty");
  rig.sim.set("signals.fuel_empty", std::int64_t{0});  // read through the breaks before written
  rig.sim.lock();

  rig.sim.advanceTimeTo(10.0);
  // Constant flows integrate exactly: rounding only.
  CHECK(rig.consumed("tank_a") == doctest::Approx(kDraw * 10.0 / 4.0).epsilon(1e-12));
  CHECK(rig.consumed("tank_b") == doctest::Approx(kDraw * 10.0 * 3.0 / 4.0).epsilon(1e-12));
  const auto flows = std::get<std::vector<double>>(rig.sim.get("signals.tank_flows"));
  CHECK(flows[0] == doctest::Approx(kDraw / 4.0).epsilon(1e-15));
  CHECK(flows[1] == doctest::Approx(3.0 * kDraw / 4.0).epsilon(1e-15));

  const double aEmpty = 8.0 / kDraw, allEmpty = 11.0 / kDraw;
  rig.sim.advanceTimeTo(std::floor(aEmpty) + 1.0);
  CHECK(std::get<bool>(rig.sim.get("models.tank_a.discreteStates.empty")));
  CHECK_FALSE(std::get<bool>(rig.sim.get("models.tank_b.discreteStates.empty")));
  const auto after = std::get<std::vector<double>>(rig.sim.get("signals.tank_flows"));
  CHECK(after[0] == 0.0);
  CHECK(after[1] == doctest::Approx(kDraw).epsilon(1e-15));
  // B took 3/4 of the draw until A ran out (6 kg), then all of it.
  CHECK(rig.consumed("tank_b") ==
        doctest::Approx(6.0 + kDraw * (std::floor(aEmpty) + 1.0 - aEmpty)).epsilon(1e-9));

  rig.sim.advanceTimeTo(std::floor(allEmpty) + 2.0);
  CHECK(std::get<std::int64_t>(rig.sim.get("signals.fuel_empty")) == 1);
  CHECK(number(rig.sim, "signals.jet_a_thrust") == 0.0);
  CHECK(rig.used() == doctest::Approx(11.0).epsilon(1e-9));
  CHECK(rig.sim.propagationStatistics().crossingsFired == 2);
}

TEST_CASE("FuelManifold: weights that sum to zero are refused at lock") {
  ManifoldRig rig;
  rig.sim.addBreak("jet_a", "fuel_empty");
  rig.sim.addBreak("jet_b", "fuel_empty");
  rig.manifold.setParam("draw_weights", std::vector<double>{0.0, 0.0});
  CHECK_THROWS_WITH_AS(rig.sim.lock(),
                       doctest::Contains("model 'manifold' (FuelManifold): param draw_weights sums "
                                         "to 0"),
                       InputError);
  CHECK_THROWS_WITH_AS(rig.manifold.setParam("draw_weights", std::vector<double>{1.0, -1.0}),
                       doctest::Contains("models.manifold.params.draw_weights"), InputError);
}

}  // namespace
}  // namespace hopsim::test
