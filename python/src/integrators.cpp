// The numerical integrators as Python sees them: MultistepMethod, NonlinearSolver,
// IntegratorOptions, IntegratorStatistics and integrator_names(). A simulation selects its
// integrator by name (Simulation(integrator=...), Simulation.set_integrator); the objects
// themselves stay in C++.

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "bindings.h"
#include "hopsim/integrators/integrator.h"

namespace hopsim::python {
namespace {

std::string repr(double value) { return py::repr(py::float_(value)).cast<std::string>(); }

const char* multistepName(MultistepMethod method) {
  return method == MultistepMethod::Bdf ? "MultistepMethod.BDF" : "MultistepMethod.ADAMS";
}

const char* nonlinearSolverName(NonlinearSolver solver) {
  return solver == NonlinearSolver::Newton ? "NonlinearSolver.NEWTON"
                                           : "NonlinearSolver.FIXED_POINT";
}

std::string describe(const IntegratorOptions& o) {
  std::string text = "IntegratorOptions(relative_tolerance=" + repr(o.relativeTolerance) +
                     ", absolute_tolerance=" + repr(o.absoluteTolerance);
  if (o.absoluteTolerances.size() > 0) {
    text += ", absolute_tolerances=[";
    for (Eigen::Index i = 0; i < o.absoluteTolerances.size(); ++i) {
      text += (i > 0 ? ", " : "") + repr(o.absoluteTolerances[i]);
    }
    text += "]";
  }
  return text + ", max_step=" + repr(o.maxStep) + ", initial_step=" + repr(o.initialStep) +
         ", max_steps_per_advance=" + std::to_string(o.maxStepsPerAdvance) +
         ", multistep=" + multistepName(o.multistep) +
         ", nonlinear_solver=" + nonlinearSolverName(o.nonlinearSolver) +
         ", continue_across_hops=" + (o.continueAcrossHops ? "True" : "False") + ")";
}

Eigen::VectorXd tolerances(std::optional<Eigen::VectorXd> values) {
  return values ? std::move(*values) : Eigen::VectorXd();
}

}  // namespace

void bindIntegrators(py::module_& m) {
  py::enum_<MultistepMethod>(m, "MultistepMethod", "The linear multistep family of cvode.")
      .value("BDF", MultistepMethod::Bdf, "backward differentiation formulas (stiff problems)")
      .value("ADAMS", MultistepMethod::Adams, "Adams-Moulton (non-stiff problems)");
  py::enum_<NonlinearSolver>(m, "NonlinearSolver",
                             "How cvode solves the implicit equation of each step.")
      .value("NEWTON", NonlinearSolver::Newton,
             "Newton's method with a dense difference-quotient Jacobian (any problem)")
      .value("FIXED_POINT", NonlinearSolver::FixedPoint,
             "fixed-point iteration, no Jacobian (non-stiff problems, with ADAMS)");

  const IntegratorOptions defaults;
  py::class_<IntegratorOptions>(
      m, "IntegratorOptions",
      "Settings of an integrator. Fixed-step methods (euler, rk4) ignore the tolerances and "
      "step limits; the simulation checks every value when it creates the integrator "
      "(Simulation(...), set_integrator), raising InputError naming the option.")
      .def(py::init([](double relative, double absolute, std::optional<Eigen::VectorXd> perState,
                       double maxStep, double initialStep, std::int64_t maxSteps,
                       MultistepMethod multistep, NonlinearSolver nonlinearSolver,
                       bool continueAcrossHops) {
             IntegratorOptions options;
             options.relativeTolerance = relative;
             options.absoluteTolerance = absolute;
             options.absoluteTolerances = tolerances(std::move(perState));
             options.maxStep = maxStep;
             options.initialStep = initialStep;
             options.maxStepsPerAdvance = maxSteps;
             options.multistep = multistep;
             options.nonlinearSolver = nonlinearSolver;
             options.continueAcrossHops = continueAcrossHops;
             return options;
           }),
           py::kw_only(), py::arg("relative_tolerance") = defaults.relativeTolerance,
           py::arg("absolute_tolerance") = defaults.absoluteTolerance,
           py::arg("absolute_tolerances") = py::none(), py::arg("max_step") = defaults.maxStep,
           py::arg("initial_step") = defaults.initialStep,
           py::arg("max_steps_per_advance") = defaults.maxStepsPerAdvance,
           py::arg("multistep") = defaults.multistep,
           py::arg("nonlinear_solver") = defaults.nonlinearSolver,
           py::arg("continue_across_hops") = defaults.continueAcrossHops)
      .def_readwrite("relative_tolerance", &IntegratorOptions::relativeTolerance,
                     "Relative tolerance of the local error test (rkf45, cvode) and of "
                     "euler_implicit's Newton iteration.")
      .def_readwrite("absolute_tolerance", &IntegratorOptions::absoluteTolerance,
                     "Absolute tolerance for every state, unless absolute_tolerances is set.")
      .def_property(
          "absolute_tolerances",
          [](const IntegratorOptions& o) { return Eigen::VectorXd(o.absoluteTolerances); },
          [](IntegratorOptions& o, std::optional<Eigen::VectorXd> values) {
            o.absoluteTolerances = tolerances(std::move(values));
          },
          "Per-state absolute tolerances in state_names() order, as a new numpy array; empty "
          "(set None or []) means absolute_tolerance for every state. Its length must match "
          "state_count().")
      .def_readwrite("max_step", &IntegratorOptions::maxStep,
                     "Largest internal step, s; 0 means unbounded (the hop end still bounds it).")
      .def_readwrite("initial_step", &IntegratorOptions::initialStep,
                     "First internal step of each hop, s; 0 lets the method choose.")
      .def_readwrite("max_steps_per_advance", &IntegratorOptions::maxStepsPerAdvance,
                     "Most internal steps allowed in one hop before the integrator fails.")
      .def_readwrite("multistep", &IntegratorOptions::multistep,
                     "cvode only: MultistepMethod.BDF (stiff) or MultistepMethod.ADAMS.")
      .def_readwrite("nonlinear_solver", &IntegratorOptions::nonlinearSolver,
                     "cvode only: NonlinearSolver.NEWTON (any problem, the default) or "
                     "NonlinearSolver.FIXED_POINT (non-stiff problems, with ADAMS: no "
                     "Jacobian).")
      .def_readwrite("continue_across_hops", &IntegratorOptions::continueAcrossHops,
                     "cvode only: continue CVODE's history (order, step size) from one hop into "
                     "the next where nothing changed at the hop boundary (same state, same "
                     "derivative bit for bit, no value set from outside, no checkpoint saved), "
                     "instead of re-initialising it at every hop. Off by default.")
      .def("__repr__", py::overload_cast<const IntegratorOptions&>(&describe));

  py::class_<IntegratorStatistics>(
      m, "IntegratorStatistics",
      "Work counters of a simulation's integrator, cumulative since it was created (a new "
      "integrator, from set_integrator, starts from zero).")
      .def_readonly("steps", &IntegratorStatistics::steps, "Accepted internal steps.")
      .def_readonly("rhs_evaluations", &IntegratorStatistics::rhsEvaluations,
                    "Calls of the derivative function.")
      .def_readonly("error_test_failures", &IntegratorStatistics::errorTestFailures,
                    "Rejected steps (variable-step methods).")
      .def_readonly("restarts", &IntegratorStatistics::restarts,
                    "Restarts: one per integration sub-step (per hop for variable-step methods), "
                    "re-runs after a rollback included.")
      .def_readonly("continuations", &IntegratorStatistics::continuations,
                    "Hops on which cvode continued its history instead of restarting "
                    "(IntegratorOptions.continue_across_hops).")
      .def("__repr__", [](const IntegratorStatistics& s) {
        return "IntegratorStatistics(steps=" + std::to_string(s.steps) +
               ", rhs_evaluations=" + std::to_string(s.rhsEvaluations) +
               ", error_test_failures=" + std::to_string(s.errorTestFailures) +
               ", restarts=" + std::to_string(s.restarts) +
               ", continuations=" + std::to_string(s.continuations) + ")";
      });

  m.def("integrator_names", &integratorNames,
        "The integrator names a simulation accepts: 'euler', 'rk4', 'rkf45', 'cvode', "
        "'euler_implicit_linearized', 'euler_implicit'.");
}

}  // namespace hopsim::python
