#pragma once
// The tyre models' outputs in the wheel rig (hub_rig.h), read after one hop of 0.1 ms on a
// carriage and wheel too heavy for it to change their motion (relative change < 1e-9).

#include <string>
#include <variant>

#include "hopsim/core/simulation.h"
#include "hub_rig.h"

namespace hopsim::test {

struct TyreOutputs {
  double fz, fx, fy, slipRatio, slipAngle;
};

/// Adds the tyre model `model` (already created, with its params) on the hub, ties it, runs one
/// hop and returns its outputs.
inline TyreOutputs runTyre(Simulation& sim, NodeModel& tyre) {
  tyre.attachToNode("hub");
  HubRig::tieInputs(sim, tyre.name(), false);
  for (const char* port :
       {"normal_force", "longitudinal_force", "lateral_force", "slip_ratio", "slip_angle"}) {
    sim.addSignal(port, ElementType::Double, 1);
    sim.tie(tyre.name(), port, port);
  }
  sim.lock();
  sim.advanceOverHop();
  const auto get = [&](const char* s) {
    return std::get<double>(sim.get(std::string("signals.") + s));
  };
  return {get("normal_force"), get("longitudinal_force"), get("lateral_force"), get("slip_ratio"),
          get("slip_angle")};
}

}  // namespace hopsim::test
