#pragma once
/// @file
/// The state-machine bindings (state_machines.cpp), apart from bindings.h so that adding them
/// touches only the two files that call them.

#include "bindings.h"

namespace hopsim::python {

/// MachineGuard, MachineAction, MachineState, MachineTransition (before Simulation).
void bindStateMachineTypes(py::module_& m);
/// Simulation.add_state_machine and its queries.
void bindStateMachineMethods(py::class_<Simulation>& c);

}  // namespace hopsim::python
