// Linearization and trim from Python (docs/linearization.md): LinearSystem with numpy matrices
// and a conversion to scipy.signal.StateSpace, TrimResult, and Simulation.linearize/trim with
// keyword options.

#include "hopsim/core/linearization.h"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

#include "bindings.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim::python {

namespace {

LinearizationOptions options(const std::string& scheme, double relativeError, double step,
                             double relativeStep, const std::string& discrete) {
  LinearizationOptions o;
  o.scheme = differenceSchemeFromString(scheme);
  o.relativeError = relativeError;
  o.step = step;
  o.relativeStep = relativeStep;
  if (discrete == "sampled") {
    o.discrete = DiscreteRule::SampledData;
  } else if (discrete != "hold") {
    throw InputError("linearize: discrete='" + discrete + "'; expected 'hold' or 'sampled'");
  }
  return o;
}

}  // namespace

void bindLinearizationTypes(py::module_& m) {
  py::class_<LinearSystem>(m, "LinearSystem",
                           "A linear model about an operating point (Simulation.linearize): "
                           "x' = A x + B u, y = C x + D u, or x+ = A x + B u when discrete.")
      .def_readonly("A", &LinearSystem::A)
      .def_readonly("B", &LinearSystem::B)
      .def_readonly("C", &LinearSystem::C)
      .def_readonly("D", &LinearSystem::D)
      .def_readonly("state_names", &LinearSystem::stateNames)
      .def_readonly("input_names", &LinearSystem::inputNames)
      .def_readonly("output_names", &LinearSystem::outputNames)
      .def_readonly("state_units", &LinearSystem::stateUnits)
      .def_readonly("input_units", &LinearSystem::inputUnits)
      .def_readonly("output_units", &LinearSystem::outputUnits)
      .def_readonly("time", &LinearSystem::time, "The operating point's time, s.")
      .def_readonly("x0", &LinearSystem::x0, "The states at the operating point.")
      .def_readonly("u0", &LinearSystem::u0, "The inputs at the operating point.")
      .def_readonly("y0", &LinearSystem::y0, "The outputs at the operating point.")
      .def_readonly("xdot0", &LinearSystem::xdot0, "The state rates there (0 at equilibrium).")
      .def_readonly("operating_state", &LinearSystem::operatingState,
                    "The whole continuous state X, quaternions whole.")
      .def_readonly("operating_state_names", &LinearSystem::operatingStateNames)
      .def_property_readonly("scheme",
                             [](const LinearSystem& s) { return std::string(toString(s.scheme)); })
      .def_readonly("step", &LinearSystem::step, "The base step h.")
      .def_readonly("state_steps", &LinearSystem::stateSteps)
      .def_readonly("input_steps", &LinearSystem::inputSteps)
      .def_readonly("state_column_error", &LinearSystem::stateColumnError,
                    "Per state column, the estimated error of its largest entry.")
      .def_readonly("input_column_error", &LinearSystem::inputColumnError)
      .def_readonly("sample_period", &LinearSystem::samplePeriod, "0 when continuous.")
      .def_property_readonly("discrete", &LinearSystem::discrete)
      .def(
          "to_scipy",
          [](const LinearSystem& s) {
            const py::object StateSpace = py::module_::import("scipy.signal").attr("StateSpace");
            if (s.discrete()) return StateSpace(s.A, s.B, s.C, s.D, py::arg("dt") = s.samplePeriod);
            return StateSpace(s.A, s.B, s.C, s.D);
          },
          "The model as a scipy.signal.StateSpace (discrete, with dt, when sampled).");

  py::class_<TrimResult>(m, "TrimResult", "The solution of Simulation.trim.")
      .def_readonly("state_names", &TrimResult::stateNames)
      .def_readonly("states", &TrimResult::states,
                    "The freed states' trimmed values (a rotation: its offset, rad).")
      .def_readonly("input_names", &TrimResult::inputNames)
      .def_readonly("inputs", &TrimResult::inputs)
      .def_readonly("residual_names", &TrimResult::residualNames)
      .def_readonly("residual", &TrimResult::residual)
      .def_readonly("iterations", &TrimResult::iterations);
}

void bindLinearizationMethods(py::class_<Simulation>& c) {
  c.def(
       "linearize",
       [](Simulation& sim, std::vector<std::string> states, std::vector<std::string> inputs,
          std::vector<std::string> outputs, const std::string& scheme, double relativeError,
          double step, double relativeStep, const std::string& discrete) {
         return sim.linearize({std::move(states), std::move(inputs), std::move(outputs),
                               options(scheme, relativeError, step, relativeStep, discrete)});
       },
       py::kw_only(), py::arg("states") = std::vector<std::string>{},
       py::arg("inputs") = std::vector<std::string>{},
       py::arg("outputs") = std::vector<std::string>{}, py::arg("scheme") = "richardson",
       py::arg("relative_error") = 1e-8, py::arg("step") = 0.0, py::arg("relative_step") = 0.0,
       py::arg("discrete") = "hold",
       "The linear model about the current time and state; the simulation is left exactly as "
       "it was. states: tangent state names or globs (default every one); inputs: signals or "
       "double params; outputs: numeric variables or globs. scheme: 'forward', 'central2', "
       "'central4' or 'richardson'; discrete: 'hold' or 'sampled' (docs/linearization.md).")
      .def(
          "trim",
          [](Simulation& sim, std::vector<std::string> freeStates,
             std::vector<std::string> freeInputs, std::vector<std::string> zeroRates,
             const std::map<std::string, double>& targets, double tolerance, int maxIterations,
             const std::string& scheme, double relativeError) {
            TrimRequest request;
            request.freeStates = std::move(freeStates);
            request.freeInputs = std::move(freeInputs);
            request.zeroRates = std::move(zeroRates);
            for (const auto& [output, value] : targets) request.targets.push_back({output, value});
            request.tolerance = tolerance;
            request.maxIterations = maxIterations;
            request.options = options(scheme, relativeError, 0.0, 0.0, "hold");
            return sim.trim(request);
          },
          py::kw_only(), py::arg("free_states") = std::vector<std::string>{},
          py::arg("free_inputs") = std::vector<std::string>{},
          py::arg("zero_rates") = std::vector<std::string>{},
          py::arg("targets") = std::map<std::string, double>{}, py::arg("tolerance") = 1e-10,
          py::arg("max_iterations") = 50, py::arg("scheme") = "richardson",
          py::arg("relative_error") = 1e-8,
          "Finds the freed states and inputs that zero the chosen state rates (default every "
          "one) and bring each output of `targets` to its value, then sets them; raises "
          "NumericalError when it does not converge, leaving the simulation as it was.");
}

}  // namespace hopsim::python
