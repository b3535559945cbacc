// The continuous half of Simulation (DESIGN.md section 3): the integrator, the continuous state
// vector and its masking, zero crossings with Python residuals, checkpoints. PEP 8 names over
// the C++ methods of the same meaning; C++ messages reach Python unchanged.

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "bindings.h"
#include "hopsim/core/root_finder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/zero_crossing.h"
#include "python_callback.h"

namespace hopsim::python {
namespace {

ZeroCrossingOptions crossingOptions(int priority, double timeTolerance, double valueTolerance,
                                    RootFinder rootFinder, bool oneShot) {
  ZeroCrossingOptions options;
  options.priority = priority;
  options.timeTolerance = timeTolerance;
  options.valueTolerance = valueTolerance;
  options.rootFinder = rootFinder;
  options.oneShot = oneShot;
  return options;
}

/// The keyword-only options shared by register_zero_crossing and register_target_crossing.
template <class... Extra>
void defCrossing(py::class_<Simulation>& c, const char* name, auto&& function, const char* doc,
                 Extra&&... positional) {
  const ZeroCrossingOptions defaults;
  c.def(name, std::forward<decltype(function)>(function), std::forward<Extra>(positional)...,
        py::arg("direction"), py::arg("callback"), py::kw_only(),
        py::arg("priority") = defaults.priority, py::arg("time_tolerance") = defaults.timeTolerance,
        py::arg("value_tolerance") = defaults.valueTolerance,
        py::arg("root_finder") = defaults.rootFinder, py::arg("one_shot") = defaults.oneShot, doc);
}

std::string describe(const PropagationStatistics& s) {
  return "PropagationStatistics(derivative_evaluations=" + std::to_string(s.derivativeEvaluations) +
         ", crossings_fired=" + std::to_string(s.crossingsFired) +
         ", rollbacks=" + std::to_string(s.rollbacks) +
         ", localization_residuals=" + std::to_string(s.localizationResiduals) +
         ", localization_derivatives=" + std::to_string(s.localizationDerivatives) +
         ", discarded_derivatives=" + std::to_string(s.discardedDerivatives) +
         ", sampling_derivatives=" + std::to_string(s.samplingDerivatives) + ")";
}

void bindIntegration(py::class_<Simulation>& c) {
  c.def(
       "set_integrator",
       [](Simulation& sim, std::string_view name, std::optional<IntegratorOptions> options) {
         sim.setIntegrator(name, options.value_or(IntegratorOptions{}));
       },
       py::arg("name"), py::arg("options") = py::none(),
       "Selects the integrator by name (see integrator_names()) with its options (None: the "
       "defaults of IntegratorOptions()), while unlocked. An unknown name raises InputError "
       "naming the nearest ones; a bad option raises InputError naming it.")
      .def(
          "integrator_name",
          [](const Simulation& sim) { return std::string(sim.integrator().name()); },
          "The name of the integrator in use: 'euler', 'rk4', 'rkf45' or 'cvode'.")
      .def(
          "integrator_options", [](const Simulation& sim) { return sim.integrator().options(); },
          "A copy of the options of the integrator in use.")
      .def(
          "integrator_statistics",
          [](const Simulation& sim) { return sim.integrator().statistics(); },
          "The integrator's work counters (a snapshot): steps, rhs_evaluations, "
          "error_test_failures, restarts.")
      .def("set_bonus_derivative_evaluation", &Simulation::setBonusDerivativeEvaluation,
           py::arg("enabled"),
           "Runs one extra derivative evaluation after every integration sub-step, so outputs "
           "computed in the derivative sweeps (accelerations, forces) match the accepted state. "
           "Off by default.")
      .def("set_state_bound", &Simulation::setStateBound, py::arg("bound"),
           "The largest magnitude an integrated state may reach: after every integration "
           "sub-step, a state beyond it, or not finite, stops the run with NumericalError naming "
           "the state, the time and the integrator. Positive; math.inf checks finiteness only. "
           "Between hops; a bad bound raises InputError.")
      .def("state_bound", &Simulation::stateBound,
           "The state bound (default 1e15; the constructor's state_bound).")
      .def("set_state_masked",
           py::overload_cast<std::string_view, std::string_view, bool>(&Simulation::setStateMasked),
           py::arg("model"), py::arg("state"), py::arg("masked"),
           "Masks (True) or unmasks every element of a continuous state of a ContinuousModel, "
           "while unlocked. Masked elements are not integrated: they keep their value unless "
           "the model prescribes it (maskedCoordinates).")
      .def("set_state_masked",
           py::overload_cast<std::string_view, std::string_view, std::size_t, bool>(
               &Simulation::setStateMasked),
           py::arg("model"), py::arg("state"), py::arg("element"), py::arg("masked"),
           "Masks or unmasks one element of a vector continuous state; lock() checks that the "
           "element exists.")
      .def(
          "state_count", [](const Simulation& sim) { return sim.stateCount(); },
          "The number of integrated state elements (after lock()).")
      .def("state_names", &Simulation::stateNames,
           "The integrated elements in state-vector order: "
           "'models.ball.continuousStates.h', 'models.int.continuousStates.y[1]'.")
      .def("state_time", &Simulation::stateTime,
           "The exact time of the continuous state, s: time() except after a hop ended by a "
           "zero crossing, when it is the located crossing time (within half a tick of time()).")
      .def("propagation_statistics", &Simulation::propagationStatistics,
           "The continuous part's work counters, cumulative since creation (a snapshot).");
}

void bindZeroCrossings(py::class_<Simulation>& c) {
  defCrossing(
      c, "register_zero_crossing",
      [](Simulation& sim, const std::string& name, py::function residual,
         CrossingDirection direction, py::function callback, int priority, double timeTolerance,
         double valueTolerance, RootFinder rootFinder, bool oneShot) {
        sim.registerZeroCrossing(
            name, toZeroCrossingResidual(std::move(residual), name), direction,
            toEventCallback(std::move(callback)),
            crossingOptions(priority, timeTolerance, valueTolerance, rootFinder, oneShot));
      },
      "Registers a zero-crossing condition: residual(sim, t) returns a number g computed from "
      "the continuous states and ContinuousModel outputs (read them with sim.get; they are set "
      "for t, also at interpolated instants while the crossing is located) and must change "
      "nothing. It triggers in a hop (t0, t1] when g(t0) != 0 and g(t1) is zero or of the "
      "other sign, in `direction` (a CrossingDirection); the hop is then rolled back, re-run to "
      "end at the located time, and callback(sim, t) fires there with the located time. The "
      "crossing is located to time_tolerance (s; it is reported at most that much after the "
      "true one) or until |g| <= value_tolerance, by root_finder. The condition is re-armed, or "
      "removed after firing if one_shot. Conditions firing at the same instant run in "
      "(priority, registration) order. It shares the event namespace (find_event, list_events, "
      "remove_event). An exception the residual or the callback raises propagates out of the "
      "advancing call.",
      py::arg("name"), py::arg("residual"));
  defCrossing(
      c, "register_target_crossing",
      [](Simulation& sim, std::string name, std::string_view path, double target,
         CrossingDirection direction, py::function callback, int priority, double timeTolerance,
         double valueTolerance, RootFinder rootFinder, bool oneShot) {
        sim.registerTargetCrossing(
            std::move(name), path, target, direction, toEventCallback(std::move(callback)),
            crossingOptions(priority, timeTolerance, valueTolerance, rootFinder, oneShot));
      },
      "The seed's target condition, computed in C++: fires when the numeric scalar variable at "
      "`path` reaches `target` from below (RISING), above (FALLING) or either; "
      "value_tolerance is the seed's 'eps'. Otherwise as register_zero_crossing. A bad path "
      "raises InputError naming the nearest paths.",
      py::arg("name"), py::arg("path"), py::arg("target"));
  c.def("set_chattering_limit", &Simulation::setChatteringLimit, py::arg("hops"),
        "How many hops in a row may end by a zero crossing with no time advance (at most one "
        "tick) before advancing stops with NumericalError. Default 1000.");
}

void bindCheckpoint(py::class_<Simulation>& c) {
  c.def(
       "save_checkpoint",
       [](const Simulation& sim, const std::filesystem::path& path) {
         sim.saveCheckpoint(path.string());
       },
       py::arg("path"),
       "Writes the complete state (time, continuous and discrete states, params, signal "
       "values, event schedules, zero-crossing memory, integrator choice) to a file (str or "
       "os.PathLike), between hops.")
      .def(
          "restore_checkpoint",
          [](Simulation& sim, const std::filesystem::path& path) {
            return sim.restoreCheckpoint(path.string());
          },
          py::arg("path"),
          "Restores a checkpoint file (str or os.PathLike) into this simulation, which must "
          "be built the same way (signals, models, fields, events, Python callbacks included) "
          "and locked. Running on from it repeats the original run bit for bit. The whole file "
          "is read and checked first: if it fails, the simulation is exactly as it was, and "
          "InputError names the file, the line, the field and the bad value or the first "
          "mismatch. Returns the CheckpointOrigin: which hopsim wrote the file.");
}

std::string describe(const CheckpointOrigin& o) {
  return "CheckpointOrigin(format_version=" + std::to_string(o.formatVersion) +
         ", hopsim_version='" + o.hopsimVersion + "', git_commit='" + o.gitCommit +
         "', same_build=" + (o.sameBuild ? "True" : "False") + ")";
}

}  // namespace

void bindContinuousTypes(py::module_& m) {
  py::enum_<CrossingDirection>(m, "CrossingDirection",
                               "Which sign changes of a zero-crossing residual trigger.")
      .value("RISING", CrossingDirection::Rising, "from negative to zero or positive")
      .value("FALLING", CrossingDirection::Falling, "from positive to zero or negative")
      .value("EITHER", CrossingDirection::Either, "both");

  py::enum_<RootFinder>(m, "RootFinder", "How a bracketed zero crossing is narrowed.")
      .value("ILLINOIS", RootFinder::Illinois,
             "modified regula falsi (Anderson-Bjorck): superlinear on smooth residuals; the "
             "default")
      .value("BISECTION", RootFinder::Bisection,
             "halves the bracket every evaluation (the seed's CallbackFindTargetBisection), for "
             "residuals that are not smooth");

  py::class_<CheckpointOrigin>(
      m, "CheckpointOrigin",
      "Which hopsim wrote a checkpoint, as Simulation.restore_checkpoint read it. A file of "
      "another build restores too (the format version decides what is readable), but only "
      "the build that wrote it continues the run bit for bit.")
      .def_readonly("format_version", &CheckpointOrigin::formatVersion,
                    "The file's format version.")
      .def_readonly("hopsim_version", &CheckpointOrigin::hopsimVersion,
                    "The version of the hopsim that wrote it ('' before format 8).")
      .def_readonly("git_commit", &CheckpointOrigin::gitCommit,
                    "The git commit it was built from ('' before format 8, or when not built "
                    "from a git checkout; '-dirty' marks uncommitted changes).")
      .def_readonly("same_build", &CheckpointOrigin::sameBuild,
                    "True when this very build wrote it (same version and commit, no "
                    "uncommitted changes).")
      .def_readonly("note", &CheckpointOrigin::note,
                    "'' when same_build; else who wrote it and what that means.")
      .def("__repr__", py::overload_cast<const CheckpointOrigin&>(&describe));

  py::class_<PropagationStatistics>(
      m, "PropagationStatistics",
      "Work counters of the continuous part of a simulation, cumulative since creation.")
      .def_readonly("derivative_evaluations", &PropagationStatistics::derivativeEvaluations,
                    "Derivative evaluations (the full per-evaluation sweep sequence).")
      .def_readonly("crossings_fired", &PropagationStatistics::crossingsFired,
                    "Zero-crossing firings.")
      .def_readonly("rollbacks", &PropagationStatistics::rollbacks,
                    "Hops rolled back to their start because a condition triggered inside them.")
      .def_readonly("localization_residuals", &PropagationStatistics::localizationResiduals,
                    "Residual evaluations spent locating crossings.")
      .def_readonly("localization_derivatives", &PropagationStatistics::localizationDerivatives,
                    "Derivative evaluations spent locating crossings: re-runs of a fixed-step "
                    "method's sub-step before the hop's last (the dense output needs none).")
      .def_readonly("discarded_derivatives", &PropagationStatistics::discardedDerivatives,
                    "Derivative evaluations of hops integrated to their planned end and then "
                    "rolled back.")
      .def_readonly("sampling_derivatives", &PropagationStatistics::samplingDerivatives,
                    "Derivative evaluations spent on samples inside hops (recorders, "
                    "add_sampler); not counted in derivative_evaluations.")
      .def("__repr__", py::overload_cast<const PropagationStatistics&>(&describe));
}

void bindContinuousMethods(py::class_<Simulation>& c) {
  bindIntegration(c);
  bindZeroCrossings(c);
  bindCheckpoint(c);
}

}  // namespace hopsim::python
