// Model declarations as Python sees them: Sweep and Granularity, FieldRole, FieldSpec,
// ModelSpec, the ModelRegistry and the standard model library's registry.

#include <pybind11/stl.h>

#include <sstream>
#include <vector>

#include "bindings.h"
#include "hopsim/core/granularity.h"
#include "hopsim/core/model_reference.h"
#include "hopsim/core/model_registry.h"
#include "hopsim/core/model_spec.h"
#include "hopsim/models/standard_models.h"
#include "value_conversion.h"

namespace hopsim::python {
namespace {

void bindGranularity(py::module_& m) {
  py::enum_<Sweep> sweep(m, "Sweep",
                         "The sweeps of a hop at which a model's updateFlowOuts may run "
                         "(DESIGN.md section 3).");
  sweep.value("START_IO", Sweep::StartIo)
      .value("START_HOP", Sweep::StartHop)
      .value("START_INTEGRATION", Sweep::StartIntegration)
      .value("PRE_DERIV", Sweep::PreDeriv)
      .value("POST_DERIV", Sweep::PostDeriv)
      .value("END_INTEGRATION", Sweep::EndIntegration)
      .value("END_HOP", Sweep::EndHop)
      .def_property_readonly(
          "seed_name", [](Sweep s) { return sweepName(s); },
          "The sweep as the seed spells it: 'STARTIO', 'STARTHOP', ...");

  py::class_<Granularity>(m, "Granularity",
                          "A set of sweeps: a model's output granularity. Build one from a "
                          "Sweep, a list of sweeps, or with |: Sweep.START_HOP | Sweep.END_HOP.")
      .def(py::init<>(), "The empty set.")
      .def(py::init<Sweep>(), py::arg("sweep"))
      .def(py::init([](const std::vector<Sweep>& sweeps) {
             Granularity g;
             for (Sweep s : sweeps) g |= s;
             return g;
           }),
           py::arg("sweeps"))
      .def_static("all", &Granularity::all, "Every sweep.")
      .def_static("none", &Granularity::none, "No sweep.")
      .def("__contains__", &Granularity::contains, py::arg("sweep"))
      .def("__or__", &Granularity::operator|, py::arg("other"))
      .def("__ror__", &Granularity::operator|, py::arg("other"))
      .def("__eq__", [](const Granularity& a, const Granularity& b) { return a == b; })
      .def("__hash__", [](const Granularity& g) { return g.bits(); })
      .def("empty", &Granularity::empty)
      .def_property_readonly("bits", &Granularity::bits, "Bit k set for Sweep value k.")
      .def("__str__", &Granularity::toString)
      .def("__repr__", [](const Granularity& g) { return "Granularity(" + g.toString() + ")"; });
  py::implicitly_convertible<Sweep, Granularity>();
  sweep.def(
      "__or__", [](Sweep a, const Granularity& b) { return Granularity(a) | b; }, py::arg("other"));
}

py::object optionalValue(const std::optional<Value>& value) {
  return value ? toPython(*value) : py::none();
}

void bindFieldSpec(py::module_& m) {
  py::enum_<FieldRole>(m, "FieldRole", "The groups of declared fields of a model class.")
      .value("PARAM", FieldRole::Param)
      .value("DISCRETE_STATE", FieldRole::DiscreteState)
      .value("CONTINUOUS_STATE", FieldRole::ContinuousState)
      .value("SCRATCH", FieldRole::Scratch)
      .value("FLOW_IN", FieldRole::FlowIn)
      .value("FLOW_OUT", FieldRole::FlowOut)
      .def_property_readonly(
          "branch", [](FieldRole role) { return branchName(role); },
          "The variable-tree branch of the role: 'params', 'discreteStates', ..., 'flowOuts'.");

  py::class_<FieldSpec>(m, "FieldSpec", "Everything declared about one field of a model class.")
      .def_readonly("role", &FieldSpec::role)
      .def_readonly("name", &FieldSpec::name)
      .def_readonly("type", &FieldSpec::type, "The element type.")
      .def_readonly("vector", &FieldSpec::vector,
                    "Declared as a vector type (its length may still be 1).")
      .def_readonly("length", &FieldSpec::length, "The fixed length, when length_symbol is ''.")
      .def_readonly("length_symbol", &FieldSpec::lengthSymbol,
                    "A variable length's name ('n'), resolved at lock(); '' when fixed.")
      .def_readonly("unit", &FieldSpec::unit, "SI unit; '' for dimensionless or non-numeric.")
      .def_property_readonly(
          "default", [](const FieldSpec& f) { return optionalValue(f.defaultValue); },
          "The default value, or None.")
      .def_readonly("lower", &FieldSpec::lower, "Inclusive lower bound on every element, or None.")
      .def_readonly("upper", &FieldSpec::upper, "Inclusive upper bound on every element, or None.")
      .def_readonly("description", &FieldSpec::description)
      .def_readonly("feeds_from", &FieldSpec::feedsFrom,
                    "FLOW_OUT only: indices of the flowIns feeding this output directly; None "
                    "means every flowIn (the conservative default).")
      .def("variable_length", &FieldSpec::variableLength)
      .def("type_name", &FieldSpec::typeName, "'double', 'double[3]', 'double[n]'.")
      .def("__repr__", [](const FieldSpec& f) {
        return "FieldSpec(" + std::string(branchName(f.role)) + "." + f.name + ": " + f.typeName() +
               (f.unit.empty() ? "" : " [" + f.unit + "]") + ")";
      });
}

std::string referenceOf(const ModelSpec& spec) {
  std::ostringstream out;
  writeModelReference(out, spec);
  return out.str();
}

void bindModelSpec(py::module_& m) {
  // Declarations live as long as their model class is registered (static for C++ classes);
  // Python never owns one.
  py::class_<ModelSpec, std::unique_ptr<ModelSpec, py::nodelete>>(
      m, "ModelSpec",
      "The one declaration of a model class: its kind, documentation and typed fields.")
      .def_property_readonly("class_name", &ModelSpec::className)
      .def_property_readonly(
          "kind", [](const ModelSpec& s) { return toString(s.kind()); },
          "The model family: 'FlowModel', 'ContinuousModel', ...")
      .def_property_readonly("doc", &ModelSpec::doc, "What the model computes.")
      .def("fields", &ModelSpec::fields, py::arg("role"), "The declared fields of a role.")
      .def("find", &ModelSpec::find, py::arg("role"), py::arg("name"),
           "The index of a field by name, or None.")
      .def("index_of", &ModelSpec::indexOf, py::arg("role"), py::arg("name"),
           "The index of a field by name; raises InputError with the nearest names.")
      .def("output_granularity", &ModelSpec::outputGranularity,
           "The minimum output granularity the class declares.")
      .def("feeds_through", &ModelSpec::feedsThrough, py::arg("flow_in"), py::arg("flow_out"),
           "True when flowIn index `flow_in` feeds flowOut index `flow_out` directly.")
      .def("feeds_any_output", &ModelSpec::feedsAnyOutput, py::arg("flow_in"))
      .def(
          "crossings",
          [](const ModelSpec& s) {
            py::list out;
            for (const CrossingSpec& c : s.crossings()) {
              out.append(py::make_tuple(c.name, c.direction, c.description));
            }
            return out;
          },
          "The zero-crossing conditions every instance declares, as (name, CrossingDirection, "
          "description); each is the event '<model>.<name>' of an instance.")
      .def("reference", &referenceOf,
           "The class's reference documentation as Markdown (as `hopsim models --doc`).")
      .def("__repr__", [](const ModelSpec& s) {
        return "<ModelSpec " + s.className() + " (" + toString(s.kind()) + ")>";
      });
}

void bindRegistry(py::module_& m) {
  py::class_<ModelRegistry, std::unique_ptr<ModelRegistry, py::nodelete>>(
      m, "ModelRegistry", "The model factory: model classes by class name.")
      .def("class_names", &ModelRegistry::classNames, "Registered class names, sorted.")
      .def("spec", &ModelRegistry::spec, py::arg("class_name"), py::return_value_policy::reference,
           "The declaration of a class; raises InputError with the nearest names.")
      .def("contains", &ModelRegistry::contains, py::arg("class_name"))
      .def("__contains__", &ModelRegistry::contains, py::arg("class_name"))
      .def(
          "reference",
          [](const ModelRegistry& registry) {
            std::ostringstream out;
            writeModelReference(out, registry);
            return out.str();
          },
          "The reference of every registered class as Markdown (`hopsim models --doc`).");

  m.def(
      "standard_registry", [] { return &const_cast<ModelRegistry&>(models::standardRegistry()); },
      py::return_value_policy::reference,
      "The registry of the standard model library, which Simulation.add_model creates from.");
}

}  // namespace

void bindModelDeclarations(py::module_& m) {
  bindGranularity(m);
  bindFieldSpec(m);
  bindModelSpec(m);
  bindRegistry(m);
}

}  // namespace hopsim::python
