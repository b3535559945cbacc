#pragma once
// A wheel for the wheel-soil and tyre tests: a carriage on a TRANSLATIONAL hinge (Q = the hub's
// world position, U = its velocity) carrying a wheel on a PIN about y (U = the spin rate ω), the
// hub node "hub" at the wheel's origin with its y axis along the axle. A TerrainPenetration
// "ground" (the plane z = 0 by default) on the hub feeds the signals penetration, rate, normal
// and soil that the contact model under test reads.

#include "hopsim/core/simulation.h"
#include "hopsim/models/terrain_penetration.h"
#include "small_body.h"

namespace hopsim::test {

struct HubRig {
  multibody::BodyIndex carriage{}, wheel{};

  /// Carriage mass m and wheel inertia J about its axle; the hub at `position` moving at
  /// `velocity` and spinning at `spin`.
  HubRig(Simulation& sim, double m, double J, const spatial::Vector3& position,
         const spatial::Vector3& velocity, double spin) {
    auto& tree = sim.multibody().editModel();
    carriage =
        tree.addBody("carriage", multibody::kWorldBody, pointMass(m, spatial::Vector3::Zero()),
                     multibody::Hinge::translational());
    wheel =
        tree.addBody("wheel", carriage,
                     spatial::SpatialInertia::fromCmInertia(1e-3 * m, spatial::Vector3::Zero(),
                                                            spatial::Vector3(J, J, J).asDiagonal()),
                     multibody::Hinge::pin(spatial::Vector3::UnitY()));
    tree.addNode("hub", wheel, spatial::RigidTransform());
    sim.multibody().q(carriage) = position;
    sim.multibody().u(carriage) = velocity;
    sim.multibody().u(wheel)[0] = spin;
    sim.addSignal("penetration", ElementType::Double, 1, "m");
    sim.addSignal("rate", ElementType::Double, 1, "m/s");
    sim.addSignal("normal", ElementType::Double, 3);
    sim.addSignal("soil", ElementType::Double, 6);
    sim.addSignal("surface_height", ElementType::Double, 1, "m");
    auto& ground = sim.addModel<models::TerrainPenetration>("ground");
    ground.attachToNode("hub");
    sim.tie("ground", "penetration", "penetration");
    sim.tie("ground", "penetration_rate", "rate");
    sim.tie("ground", "normal", "normal");
    sim.tie("ground", "soil", "soil");
    sim.tie("ground", "surface_height", "surface_height");
  }

  /// Ties a contact model's inputs to the rig's signals (`soil` when it reads one).
  static void tieInputs(Simulation& sim, const std::string& model, bool soil) {
    sim.tie(model, "penetration", "penetration");
    sim.tie(model, "penetration_rate", "rate");
    sim.tie(model, "normal", "normal");
    if (soil) sim.tie(model, "soil", "soil");
  }
};

}  // namespace hopsim::test
