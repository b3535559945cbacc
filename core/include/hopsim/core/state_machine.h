#pragma once
/// @file
/// A state machine's definition: states with entry, exit and during actions, and transitions
/// between them with a guard, a priority and actions (docs/state-machines.md). The seed's
/// finite-state machine (state and transition specifications). StateMachines
/// (state_machines.h) runs them in a simulation.

#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/events.h"
#include "hopsim/core/zero_crossing.h"
#include "hopsim/signals/value.h"

namespace hopsim {

/// What a state or a transition does, between hops, at the instant it runs.
struct MachineAction {
  /// What it does, for listings and errors ("deactivate 'engine'").
  std::string description;
  /// Checks, when the machine is added, that the action can run (the model exists, the
  /// variable exists and is writable); throws InputError saying what is wrong. May be empty.
  std::function<void(const Simulation& sim)> check;
  /// Runs the action at time t (s).
  EventCallback run;

  /// Sets the variable at `path` ("models.engine.params.thrust") to `value`.
  static MachineAction setValue(std::string path, Value value);
  static MachineAction activate(std::string model);
  static MachineAction deactivate(std::string model);
  /// setModelRate(model, hertz).
  static MachineAction setRate(std::string model, double hertz);
  /// Stops the advance in progress after the current hop (Simulation::requestStop).
  static MachineAction stopRun();
  /// Removes the event or zero-crossing condition `name`.
  static MachineAction removeEvent(std::string name);
  /// Raises the named event `name` for the machines' event guards (StateMachines::raise).
  static MachineAction raise(std::string name);
  /// Any callable (a Python function through the bindings).
  static MachineAction call(std::string description, EventCallback callback);
};

/// When a transition fires.
struct MachineGuard {
  enum class Kind {
    Crossing,  ///< element `element` of the numeric variable `path` crosses `value` in `direction`
    AtTime,    ///< the time reaches `value` s
    TimeInState,  ///< `value` s have passed since the machine entered the transition's source
    Event,        ///< the event `name` fires (a simulation event or a raised one)
    InState,      ///< the machine `name` is in state `state`
  };
  Kind kind = Kind::AtTime;
  std::string path;
  std::size_t element = 0;
  double value = 0.0;
  CrossingDirection direction = CrossingDirection::Rising;
  std::string name;
  std::string state;

  static MachineGuard crossing(std::string path, double threshold, CrossingDirection direction,
                               std::size_t element = 0);
  static MachineGuard atTime(double seconds);
  static MachineGuard timeInState(double seconds);
  static MachineGuard onEvent(std::string name);
  static MachineGuard inState(std::string machine, std::string state);
  /// "models.ball.continuousStates.h falls through 0", "3 s in state", ...
  std::string describe() const;
  /// Whether the zero-crossing machinery locates it (a crossing or a time).
  bool located() const {
    return kind == Kind::Crossing || kind == Kind::AtTime || kind == Kind::TimeInState;
  }
};

struct MachineState {
  std::string name;
  std::vector<MachineAction> entry;   ///< when the machine enters the state
  std::vector<MachineAction> exit;    ///< when it leaves it
  std::vector<MachineAction> during;  ///< at the end of every hop spent in it
};

struct MachineTransition {
  std::string from;
  std::string to;
  MachineGuard guard;
  /// Among transitions whose guards hold at one instant: lower first, then declaration order.
  int priority = 0;
  std::vector<MachineAction> actions;  ///< between the source's exit and the target's entry
};

struct StateMachineSpec {
  StateMachineSpec() = default;
  StateMachineSpec(std::string machineName, std::vector<MachineState> machineStates,
                   std::vector<MachineTransition> machineTransitions, std::string initialState = {})
      : name(std::move(machineName)),
        states(std::move(machineStates)),
        transitions(std::move(machineTransitions)),
        initial(std::move(initialState)) {}

  std::string name;
  std::vector<MachineState> states;
  std::vector<MachineTransition> transitions;
  /// The state entered when the machine is added; the first state when empty.
  std::string initial;
};

}  // namespace hopsim
