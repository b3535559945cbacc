// hopsim.load and Scenario: a native scenario, a Chrono MBS model or simulation file, or an MBSE
// file, loaded as `hopsim run` loads it (assemblies/scenario.h), with its recorded samples as
// numpy arrays.

#include "hopsim/assemblies/scenario.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "value_conversion.h"

namespace hopsim::python {

void bindScenario(py::module_& m) {
  py::class_<Scenario> c(
      m, "Scenario",
      "A loaded YAML file (native scenario, Chrono MBS model or simulation file, MBSE file): "
      "its locked simulation, end time, warnings and recorded samples (docs/scenario-yaml.md, "
      "docs/chrono-yaml.md).");
  c.def_property_readonly(
       "sim", [](Scenario& s) -> Simulation& { return s.sim(); },
       py::return_value_policy::reference_internal, "The locked simulation.")
      .def_property_readonly("end_time", &Scenario::endTime,
                             "simulation.end_time (after overrides), s.")
      .def_property_readonly("file", &Scenario::file, "The file it was loaded from.")
      .def_property_readonly(
          "warnings", [](const Scenario& s) { return messageTexts(s.warnings()); },
          "The load's warnings, each 'file:line:col: message'.")
      .def("run", &Scenario::run, py::call_guard<py::gil_scoped_release>(),
           "Advances the simulation to end_time (or an earlier `stop` action).")
      .def_property_readonly(
          "columns",
          [](const Scenario& s) {
            const std::vector<std::string>& all = s.recorder().columns();
            return all.empty() ? all : std::vector<std::string>(all.begin() + 1, all.end());
          },
          "The recorded columns' names, after time (for a Chrono or MBSE file: "
          "bodies.<name>.position.x, ..., joints.<name>.q[0], ...).")
      .def(
          "times", [](const Scenario& s) { return toArray(s.recorder().times()); },
          "The sample times, s, as a numpy array.")
      .def(
          "values",
          [](const Scenario& s, std::string_view column) {
            const Recorder& r = s.recorder();
            return toArray(r.values(r.column(column)));
          },
          py::arg("column"),
          "The samples of one recorded column as a numpy array. Raises InputError (with "
          "suggestions) for an unknown column.");
  m.def(
      "load",
      [](const std::string& path, const std::vector<std::string>& overrides) {
        return Scenario::load(path, overrides);
      },
      py::arg("path"), py::arg("overrides") = std::vector<std::string>{},
      "Loads and locks a native scenario, a Chrono MBS model or simulation file, or an MBSE "
      "file, with 'PATH=VALUE' overrides validated like the file ('simulation.end_time=2'). "
      "Raises InputError naming file:line:col and the key path for bad input.");
}

}  // namespace hopsim::python
