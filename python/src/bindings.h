#pragma once
/// @file
/// The parts of the module hopsim._hopsim, each bound by one function (module.cpp calls them in
/// dependency order: a type is bound before any signature that uses it).

#include <pybind11/pybind11.h>

namespace hopsim {
class Simulation;
}  // namespace hopsim

namespace hopsim::python {

namespace py = pybind11;

/// hopsim.Error and its subclasses, translated from the C++ hierarchy with the message intact.
void bindErrors(py::module_& m);
/// ElementType: the element type of signals and model fields.
void bindElementTypes(py::module_& m);
/// Sweep, Granularity, FieldRole, FieldSpec, ModelSpec, ModelRegistry, standard_registry().
void bindModelDeclarations(py::module_& m);
/// ModelMethod, EventTiming, EventInfo.
void bindEventTypes(py::module_& m);
/// MultistepMethod, IntegratorOptions, IntegratorStatistics, integrator_names().
void bindIntegrators(py::module_& m);
/// CrossingDirection, RootFinder, PropagationStatistics.
void bindContinuousTypes(py::module_& m);
/// LinearSystem and TrimResult (linearization.cpp; before Simulation).
void bindLinearizationTypes(py::module_& m);
/// Simulation (with its event registration methods), ModelOrder, VariableInfo.
void bindSimulation(py::module_& m);
/// Scenario and load(): YAML files of every kind, loaded and locked (scenario.cpp; after
/// Simulation).
void bindScenario(py::module_& m);
/// Simulation's continuous part: integrator, state vector and masking, zero crossings,
/// checkpoints (simulation_continuous.cpp; called by bindSimulation).
void bindContinuousMethods(py::class_<Simulation>& c);
/// Simulation.linearize and Simulation.trim (linearization.cpp; called by bindSimulation).
void bindLinearizationMethods(py::class_<Simulation>& c);
/// Python subclasses of FlowModel and ContinuousModel (python_models.cpp; after Simulation).
void bindPythonModels(py::module_& m);
/// The multibody system: bodies, hinges, nodes, frames, energies, dynamics (multibody.cpp;
/// after Simulation).
void bindMultibody(py::module_& m);
/// Recorder: logged variables as numpy arrays (recorder.cpp; after Simulation).
void bindRecorder(py::module_& m);
/// Assembly and its Python subclasses, the assembly registry (assemblies.cpp; last).
void bindAssemblies(py::module_& m);

/// hopsim.view_recorder and the replay page writers behind hopsim.view (python/src/viewer.cpp).
void bindViewer(py::module_& m);

}  // namespace hopsim::python
