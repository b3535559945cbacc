#pragma once
/// @file
/// State machines running in a simulation (docs/state-machines.md). Each machine is a model of
/// the simulation, a StateMachineModel named after it, whose declared discrete states hold the
/// machine's state: the index of its current state and the time it entered it. So the machine
/// state is recorded like any variable ("models.<machine>.discreteStates.state"), is in every
/// Snapshot, checkpoint and rollback point with the other models' states, and goes with an
/// assembly that owns the model. A guard on a crossing or a time is a zero-crossing condition
/// named "<machine>.<from>-><to>", active only while the machine is in the transition's source,
/// so the executive locates it exactly and the transition fires as that condition's event. Event
/// and state guards are checked at the end of every hop, after the barrier's events.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/flow_model.h"
#include "hopsim/core/model_spec.h"
#include "hopsim/core/state_machine.h"

namespace hopsim {

class StateMachineSet;

/// One state machine as a model of its simulation: its definition and its state.
class StateMachineModel final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    DiscreteStateKey<std::int64_t> state =
        discreteState<std::int64_t>("state").defaultValue(0).min(0).describe(
            "the index of the current state, in declaration order");
    DiscreteStateKey<double> entered =
        discreteState<double>("entered").unit("s").defaultValue(0.0).describe(
            "when the machine entered its current state");
  };
  static const Declaration& declaration();

  StateMachineModel(StateMachineSpec spec, std::shared_ptr<StateMachineSet> set);

  const StateMachineSpec& spec() const { return spec_; }
  /// The index of the current state. @throws ModelError if it was set out of range.
  std::size_t stateIndex() const;
  /// The name of the current state.
  const std::string& stateName() const { return spec_.states[stateIndex()].name; }
  /// When the machine entered its current state, s.
  double entered() const { return state(d_.entered); }
  /// Per state: its outgoing transitions, by (priority, declaration).
  const std::vector<std::size_t>& outgoing(std::size_t state) const { return outgoing_[state]; }
  const std::shared_ptr<StateMachineSet>& set() const { return set_; }

  /// Makes `state` current from time t (no action runs).
  void enter(std::size_t state, double t);

 private:
  const Declaration& d_ = declaration();
  StateMachineSpec spec_;
  std::vector<std::vector<std::size_t>> outgoing_;
  std::shared_ptr<StateMachineSet> set_;
};

/// Adds the state machine `spec` to `sim` as the model `spec.name` and enters its initial state
/// at sim.time() (running that state's entry actions). Between hops; a locked simulation is
/// unlocked for the addition and locked again. Add it after the models and variables its guards
/// and actions name.
/// @returns warnings (unreachable states). @throws InputError for a bad machine (an unknown
/// state, a guard on a non-numeric variable, an action on an unknown model, a taken name...),
/// leaving `sim` as it was; ModelError for a loop of instantaneous transitions.
std::vector<std::string> addStateMachine(Simulation& sim, StateMachineSpec spec);
/// The machine `name`. @throws InputError with suggestions when there is none.
const StateMachineModel& stateMachine(const Simulation& sim, std::string_view name);
/// The machines of `sim`, in the order they were added.
std::vector<std::string> stateMachineNames(const Simulation& sim);
/// Raises the named event `name` at time t for the machines' event guards, between hops.
void raiseMachineEvent(Simulation& sim, std::string_view name, double t);

}  // namespace hopsim
