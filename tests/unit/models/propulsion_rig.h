#pragma once
// Shared by the propulsion tests: a free (FULL6DOF) body "craft" with a node "nozzle", and the
// signals a thruster needs, written before lock() so that every input has a value.

#include <span>
#include <string>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/models/fixed_thruster.h"

namespace hopsim::test {

/// Adds a FULL6DOF body "craft" (mass m, CM c_B, inertia diag(3, 4, 5) kg m^2 about the CM)
/// and a node "nozzle" at X_BN. Returns the body index.
inline multibody::BodyIndex addCraft(Simulation& sim, double m, const spatial::Vector3& c_B,
                                     const spatial::RigidTransform& X_BN) {
  auto& tree = sim.multibody().editModel();
  const multibody::BodyIndex body =
      tree.addBody("craft", multibody::kWorldBody,
                   spatial::SpatialInertia::fromCmInertia(
                       m, c_B, spatial::Matrix3(spatial::Vector3(3, 4, 5).asDiagonal())),
                   multibody::Hinge::full6Dof());
  tree.addNode("nozzle", body, X_BN);
  return body;
}

/// Adds the signal `name` of `type` and writes `value` to it.
template <class T>
void addSetSignal(Simulation& sim, const std::string& name, ElementType type, T value) {
  sim.addSignal(name, type);
  sim.set("signals." + name, value);
}

/// Ties a thruster's thrust and fuel_used outputs to new signals "<prefix>thrust" and
/// "<prefix>used" (for thrusters whose fuel_flow feeds a tank).
inline void tieThrustAndUsed(Simulation& sim, const std::string& thruster,
                             const std::string& prefix = "") {
  sim.addSignal(prefix + "thrust", ElementType::Double);
  sim.addSignal(prefix + "used", ElementType::Double);
  sim.tie(thruster, "thrust", prefix + "thrust");
  sim.tie(thruster, "fuel_used", prefix + "used");
}

/// Ties all three outputs of a thruster without a tank: also fuel_flow to "<prefix>flow".
inline void tieThrusterOutputs(Simulation& sim, const std::string& thruster,
                               const std::string& prefix = "") {
  tieThrustAndUsed(sim, thruster, prefix);
  sim.addSignal(prefix + "flow", ElementType::Double);
  sim.tie(thruster, "fuel_flow", prefix + "flow");
}

/// A FixedThruster's name, thrust level (N) and specific impulse (s).
struct JetSpec {
  const char* name;
  double level, isp;
};

/// Adds one FixedThruster per entry of `jets` on node "nozzle", all switched by the signal "on"
/// and stopped by the flag `emptyFlag`; jet i draws through slice i of `flows` and its thrust
/// and fuel used go to "<name>_thrust" and "<name>_used".
inline void addJetsDrawingFrom(Simulation& sim, std::span<const JetSpec> jets,
                               const std::string& flows, const std::string& emptyFlag) {
  for (std::size_t i = 0; i < jets.size(); ++i) {
    auto& jet = sim.addModel<models::FixedThruster>(jets[i].name);
    jet.attachToNode("nozzle");
    jet.setParam("level", jets[i].level);
    jet.setParam("isp", jets[i].isp);
    sim.tie(jets[i].name, "on_off", "on");
    sim.tie(jets[i].name, "fuel_empty", emptyFlag);
    sim.tie(jets[i].name, "fuel_flow", flows, i, 1);
    tieThrustAndUsed(sim, jets[i].name, std::string(jets[i].name) + "_");
  }
}

inline double number(const Simulation& sim, const std::string& path) {
  return std::get<double>(sim.get(path));
}

}  // namespace hopsim::test
