#pragma once
// A scenario's `state_machines:` section (private; docs/state-machines.md, "In a scenario"):
// each entry read into a StateMachineSpec and added to the simulation.
#include <functional>
#include <string>
#include <vector>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/core/simulation.h"

namespace hopsim::scenario {

/// How the scenario reads values, so that machines read them as events do (units, types).
struct ValueReaders {
  /// `input` as a value for the variable at `path` (its type, length and unit).
  std::function<Value(const std::string& path, const InputNode& input)> variable;
  /// `input` as a crossing threshold for `variable` (in its unit, or any unit converted to SI
  /// when it declares none), as an event's `when.value`; messages name `key`.value.
  std::function<double(const InputNode& input, const Variable& variable, const std::string& key)>
      threshold;
  /// `input` as a number in `unit` ("" for none); messages name `key`.
  std::function<double(const InputNode& input, const std::string& unit, const std::string& key)>
      quantity;
};

/// Reads `section` (a mapping of machine names to definitions) and adds the machines to `sim`
/// in file order. Appends the located warnings (unreachable states) to `warnings`.
/// @throws InputError at the file, line and column of the bad key or value.
void addStateMachines(Simulation& sim, const InputNode& section, const ValueReaders& read,
                      std::vector<std::string>& warnings);

}  // namespace hopsim::scenario
