// The module hopsim._hopsim. The pure-Python package hopsim re-exports it; see DESIGN.md
// section 10.

#include "bindings.h"
#include "hopsim/core/version.h"
#include "state_machine_bindings.h"

PYBIND11_MODULE(_hopsim, m) {
  namespace hp = hopsim::python;
  m.doc() =
      "hopsim._hopsim: the C++ core of hopsim (signals, model declarations, the simulation "
      "executive, integrators, zero crossings). Import the package `hopsim` rather than this "
      "module.";
  m.attr("__version__") = std::string(hopsim::version());
  m.attr("__git_commit__") = std::string(hopsim::gitCommit());
  hp::bindErrors(m);
  hp::bindElementTypes(m);
  hp::bindModelDeclarations(m);
  hp::bindEventTypes(m);
  hp::bindIntegrators(m);
  hp::bindContinuousTypes(m);
  hp::bindStateMachineTypes(m);
  hp::bindLinearizationTypes(m);
  hp::bindSimulation(m);
  hp::bindScenario(m);
  hp::bindPythonModels(m);
  hp::bindMultibody(m);
  hp::bindRecorder(m);
  hp::bindAssemblies(m);
  hp::bindViewer(m);
}
