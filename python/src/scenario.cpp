// hopsim.load and Scenario: a native scenario, a Chrono MBS model or simulation file, or an MBSE
// file, loaded as `hopsim run` loads it (assemblies/scenario.h), with its recorded samples as
// numpy arrays.

#include "hopsim/assemblies/scenario.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <optional>

#include "bindings.h"
#include "hopsim/assemblies/run_progress.h"
#include "hopsim/assemblies/run_summary.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "value_conversion.h"

namespace hopsim::python {

namespace {

/// The stop callback that reports a run's progress; never one of the scenario's own.
constexpr const char* kProgressCallback = "hopsim.Scenario.run: progress";

/// Runs `scenario` to its end time with the GIL released and returns what the run did. With an
/// `observer`, it is called as observer(done, line) (ProgressClock::done and ::line, the GIL
/// held) whenever `fraction` of the run or `wallInterval` s have passed, and once at the end;
/// an exception it raises (KeyboardInterrupt, say) stops the run and propagates.
RunSummary runScenario(Scenario& scenario, const py::object& observer, double fraction,
                       double wallInterval) {
  Simulation& sim = scenario.sim();
  const double start = sim.time();
  std::optional<ProgressClock> clock;
  if (!observer.is_none()) {
    clock.emplace(start, scenario.endTime(), fraction, sim.ioStepSize(), wallInterval);
    sim.addStopCallback(kProgressCallback, [&clock, &observer](Simulation&, double t) {
      if (!clock->due(t)) return false;
      const py::gil_scoped_acquire gil;
      observer(clock->done(t), clock->line(t));
      return false;
    });
  }
  const RunCounts before = RunCounts::of(scenario);
  const auto wallStart = std::chrono::steady_clock::now();
  try {
    const py::gil_scoped_release released;
    scenario.run();
  } catch (...) {
    if (clock) sim.removeStopCallback(kProgressCallback);
    throw;
  }
  const auto wallEnd = std::chrono::steady_clock::now();
  if (clock) {
    sim.removeStopCallback(kProgressCallback);
    observer(clock->done(sim.time()), clock->line(sim.time()));
  }
  return {sim.time() - start, std::chrono::duration<double>(wallEnd - wallStart).count(),
          std::nullopt, RunCounts::of(scenario).since(before), scenario.warnings().size()};
}

}  // namespace

void bindScenario(py::module_& m) {
  py::class_<RunSummary>(
      m, "RunSummary",
      "What Scenario.run() did; str() gives the line `hopsim run` prints (without the loading "
      "time, which the run does not know).")
      .def_readonly("simulated_time", &RunSummary::simulatedTime, "Sim time advanced, s.")
      .def_readonly("wall_time", &RunSummary::wallTime, "Wall time the run took, s.")
      .def_property_readonly(
          "hops", [](const RunSummary& r) { return r.counts.hops; }, "Hops taken.")
      .def_property_readonly(
          "integration_steps", [](const RunSummary& r) { return r.counts.integrationSteps; },
          "The integrator's accepted internal steps (0 when it does not count them).")
      .def_property_readonly(
          "derivative_evaluations",
          [](const RunSummary& r) { return r.counts.derivativeEvaluations; },
          "Derivative evaluations.")
      .def_property_readonly(
          "events_fired", [](const RunSummary& r) { return r.counts.eventsFired; },
          "Firings of the file's events.")
      .def_property_readonly(
          "zero_crossings", [](const RunSummary& r) { return r.counts.zeroCrossings; },
          "Zero crossings fired (the events' and the contacts').")
      .def_readonly("warnings", &RunSummary::warnings, "The load's warnings.")
      .def("__str__", &RunSummary::text)
      .def("__repr__", [](const RunSummary& r) { return "<hopsim.RunSummary: " + r.text() + ">"; });

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
      .def("_run", &runScenario, py::arg("observer"), py::arg("fraction"), py::arg("wall_interval"),
           "Advances the simulation to end_time (or an earlier `stop` action), calling "
           "observer(done, line) as it goes unless it is None, and returns a RunSummary; "
           "Scenario.run() (hopsim/_progress.py) chooses the observer.")
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
