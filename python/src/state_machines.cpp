// State machines from Python (docs/state-machines.md): the definition types MachineGuard,
// MachineAction, MachineState and MachineTransition, and Simulation.add_state_machine with its
// queries. The C++ types themselves, so a machine built here runs exactly as one built in C++
// or from a scenario.

#include "hopsim/core/state_machines.h"

#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/state_machine.h"
#include "python_callback.h"
#include "state_machine_bindings.h"
#include "value_conversion.h"

namespace hopsim::python {

void bindStateMachineTypes(py::module_& m) {
  py::class_<MachineGuard>(m, "MachineGuard",
                           "When a transition fires (docs/state-machines.md, \"Guards\").")
      .def_static("crossing", &MachineGuard::crossing, py::arg("path"), py::arg("threshold"),
                  py::arg("direction"), py::arg("element") = 0,
                  "Element `element` of the numeric variable at `path` crosses `threshold` in "
                  "`direction` (a CrossingDirection), located exactly by the zero-crossing "
                  "machinery.")
      .def_static("at_time", &MachineGuard::atTime, py::arg("seconds"),
                  "The time reaches `seconds` (at once if already past on entry).")
      .def_static("time_in_state", &MachineGuard::timeInState, py::arg("seconds"),
                  "`seconds` have passed since the machine entered the transition's source.")
      .def_static("on_event", &MachineGuard::onEvent, py::arg("name"),
                  "The simulation event `name` fires, or a machine action raises it.")
      .def_static("in_state", &MachineGuard::inState, py::arg("machine"), py::arg("state"),
                  "The machine `machine` is in state `state`.")
      .def("describe", &MachineGuard::describe)
      .def("__repr__", [](const MachineGuard& g) { return "MachineGuard(" + g.describe() + ")"; });

  py::class_<MachineAction>(m, "MachineAction",
                            "What a state or a transition does, between hops "
                            "(docs/state-machines.md, \"Actions\").")
      .def_static(
          "set_value",
          [](std::string path, py::handle value) {
            Value converted = toValue(value, path);
            return MachineAction::setValue(std::move(path), std::move(converted));
          },
          py::arg("path"), py::arg("value"), "Sets the variable at `path` to `value`.")
      .def_static("activate", &MachineAction::activate, py::arg("model"))
      .def_static("deactivate", &MachineAction::deactivate, py::arg("model"))
      .def_static("set_rate", &MachineAction::setRate, py::arg("model"), py::arg("hertz"))
      .def_static("stop_run", &MachineAction::stopRun)
      .def_static("remove_event", &MachineAction::removeEvent, py::arg("name"))
      .def_static("raise_event", &MachineAction::raise, py::arg("name"),
                  "Raises the named event for the machines' on_event guards.")
      .def_static(
          "call",
          [](std::string description, py::function callback) {
            return MachineAction::call(std::move(description),
                                       toEventCallback(std::move(callback)));
          },
          py::arg("description"), py::arg("callback"),
          "Calls callback(sim, t); an exception it raises propagates out of the advancing "
          "call.")
      .def_readonly("description", &MachineAction::description)
      .def("__repr__",
           [](const MachineAction& a) { return "MachineAction(" + a.description + ")"; });

  py::class_<MachineState>(m, "MachineState")
      .def(py::init([](std::string name, std::vector<MachineAction> entry,
                       std::vector<MachineAction> exit, std::vector<MachineAction> during) {
             return MachineState{std::move(name), std::move(entry), std::move(exit),
                                 std::move(during)};
           }),
           py::arg("name"), py::kw_only(), py::arg("entry") = std::vector<MachineAction>{},
           py::arg("exit") = std::vector<MachineAction>{},
           py::arg("during") = std::vector<MachineAction>{},
           "A state: actions on entry, on exit, and at the end of every hop spent in it.")
      .def_readonly("name", &MachineState::name);

  py::class_<MachineTransition>(m, "MachineTransition")
      .def(py::init([](std::string from, std::string to, MachineGuard guard, int priority,
                       std::vector<MachineAction> actions) {
             return MachineTransition{std::move(from), std::move(to), std::move(guard), priority,
                                      std::move(actions)};
           }),
           py::arg("source"), py::arg("target"), py::arg("guard"), py::kw_only(),
           py::arg("priority") = 0, py::arg("actions") = std::vector<MachineAction>{},
           "A transition from `source` to `target` when `guard` holds; of transitions whose "
           "guards hold at one instant, the lowest priority fires.")
      .def_readonly("source", &MachineTransition::from)
      .def_readonly("target", &MachineTransition::to)
      .def_readonly("guard", &MachineTransition::guard)
      .def_readonly("priority", &MachineTransition::priority);
}

void bindStateMachineMethods(py::class_<Simulation>& c) {
  c.def(
       "add_state_machine",
       [](Simulation& sim, std::string name, std::vector<MachineState> states,
          std::vector<MachineTransition> transitions, std::string initial) {
         return messageTexts(addStateMachine(sim, {std::move(name), std::move(states),
                                                   std::move(transitions), std::move(initial)}));
       },
       py::arg("name"), py::arg("states"), py::arg("transitions"), py::kw_only(),
       py::arg("initial") = "",
       "Adds a state machine, as the model `name`, and enters its initial state (the first when "
       "empty) now, between hops; a locked simulation is unlocked for it and locked again. Guards "
       "on crossings and times become zero-crossing conditions named "
       "'<machine>.<source>-><target>'; the state is the variable "
       "'models.<machine>.discreteStates.state'. Returns the warnings (unreachable states). A bad "
       "machine raises InputError and changes nothing.")
      .def(
          "machine_state",
          [](const Simulation& sim, std::string_view machine) {
            return stateMachine(sim, machine).stateName();
          },
          py::arg("machine"), "The name of the machine's current state.")
      .def(
          "machine_entered",
          [](const Simulation& sim, std::string_view machine) {
            return stateMachine(sim, machine).entered();
          },
          py::arg("machine"), "When the machine entered its current state, s.")
      .def("state_machine_names", &stateMachineNames, "The machines in the order they were added.")
      .def(
          "raise_machine_event",
          [](Simulation& sim, std::string_view name) { raiseMachineEvent(sim, name, sim.time()); },
          py::arg("name"),
          "Raises the named event for the machines' on_event guards now, between hops.");
}

}  // namespace hopsim::python
