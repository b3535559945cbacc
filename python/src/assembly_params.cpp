// Parameters of assemblies from Python (docs/assemblies.md, "Assemblies in Python", and
// docs/parameters.md): Python values as the InputNode a ParamSet is parsed from; ParamValues,
// the view of a validated set (an assembly's config, context or params, a nested record, or a
// set lent to a validation hook); and the schemas a run script declares as hopsim.Schema
// subclasses (assembly.py collects the field declarations, _build_schema makes them a
// ParamSchema whose field checks and validate() call back into Python). The assembly handles
// that hand out these views are in assemblies.cpp.

#include "assembly_params.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/body_params.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim::python {

PyRef::~PyRef() {
  if (Py_IsInitialized() == 0) {
    object_.release();
    return;
  }
  py::gil_scoped_acquire gil;
  object_ = py::object();
}

// ---- ParamValues: a read view of a ParamSet -------------------------------------------------

void AssemblyRef::reset(Assembly& a) {
  token = a.lifetime();
  bound = true;
  lastPath = a.path();
}

Assembly& AssemblyRef::get() const {
  const auto cell = token.lock();
  if (!cell) {
    if (!bound) {
      throw ModelError(
          "this assembly is not part of an assembly tree: assemblies are made by "
          "parent.add_assembly(cls, name, ...) or a scenario, not by calling the "
          "class");
    }
    throw ModelError("assembly '" + lastPath +
                     "' no longer exists (its construction failed, or its SimulationAssembly "
                     "or Scenario was deleted)");
  }
  lastPath = (*cell)->path();
  return **cell;
}

const ParamSet& ValuesView::resolve() const {
  const ParamSet* set = nullptr;
  if (group >= 0) {
    Assembly& a = owner.get();
    set = group == 0 ? &a.config() : group == 1 ? &a.context() : &a.params();
  } else if (root) {
    set = root.get();
  } else {
    if (!lentAlive || !*lentAlive) {
      throw ModelError(
          "these parameter values were lent to a validate() or check call that "
          "has returned; copy what you need with to_dict()");
    }
    set = lent;
  }
  for (std::size_t i = 0; i < nested.size();) {
    const std::size_t field = *set->schema().find(nested[i]);
    const auto& records = std::get<RecordList>(set->value(field));
    if (set->schema().fields()[field].type == ParamType::Record) {
      set = &records.sets.front();
      i += 1;
    } else {
      set = records.find(nested[i + 1]);
      if (set == nullptr) throw ModelError("'" + nested[i + 1] + "' no longer exists");
      i += 2;
    }
  }
  return *set;
}

ValuesView ValuesView::below(std::vector<std::string> more) const {
  ValuesView v = *this;
  v.nested.insert(v.nested.end(), more.begin(), more.end());
  return v;
}

// ---- Python values to InputNode -----------------------------------------------------------

/// A Python value as input for a ParamSet: None, bool, int, float, str (units allowed: "2 kg"),
/// numpy scalars, sequences (lists, tuples, 1-D arrays) and mappings with string keys.
InputNode toInput(py::handle o, const std::string& what) {
  PyObject* p = o.ptr();
  if (o.is_none()) return {};
  if (PyBool_Check(p)) return InputNode(p == Py_True);  // before int: True is an int
  if (PyLong_Check(p)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow != 0)
      throw InputError(what + ": " + py::repr(o).cast<std::string>() +
                       " does not fit in a 64-bit integer");
    return InputNode(static_cast<std::int64_t>(v));
  }
  if (PyFloat_Check(p)) return InputNode(PyFloat_AS_DOUBLE(p));
  if (PyUnicode_Check(p)) return InputNode(o.cast<std::string>());
  const py::module_ numpy = py::module_::import("numpy");
  if (py::isinstance(o, numpy.attr("generic"))) return toInput(o.attr("item")(), what);
  if (py::isinstance(o, numpy.attr("ndarray"))) return toInput(o.attr("tolist")(), what);
  if (py::isinstance<ValuesView>(o)) return o.cast<const ValuesView&>().resolve().toInput();
  if (py::isinstance(o, py::module_::import("collections.abc").attr("Mapping"))) {
    std::vector<InputNode::Entry> entries;
    for (const auto item : o.attr("items")()) {
      const auto pair = item.cast<py::tuple>();
      if (!py::isinstance<py::str>(pair[0])) {
        throw InputError(what + ": keys must be strings, got " +
                         py::repr(pair[0]).cast<std::string>());
      }
      const auto key = pair[0].cast<std::string>();
      entries.emplace_back(key, toInput(pair[1], what + "." + key));
    }
    return InputNode::mapping(std::move(entries));
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    std::vector<InputNode> items;
    std::size_t i = 0;
    for (const auto item : o)
      items.push_back(toInput(item, what + "[" + std::to_string(i++) + "]"));
    return InputNode::sequence(std::move(items));
  }
  throw InputError(what + ": cannot use a " + std::string(Py_TYPE(p)->tp_name) + " " +
                   py::repr(o).cast<std::string>() +
                   " as input; expected None, a bool, int, float, str, a sequence or a mapping");
}

namespace {

template <class T>
py::array_t<T> array(const std::vector<T>& values) {
  py::array_t<T> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

py::dict recordsToDict(const RecordList& records);

/// A stored value as Python: scalars, numpy arrays for numeric vectors, lists, dicts; records
/// as dicts (see viewValue for records as views).
py::object plain(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<double>> ||
                      std::is_same_v<T, std::vector<std::int64_t>>) {
          return array(v);
        } else if constexpr (std::is_same_v<T, StringMap>) {
          py::dict d;
          for (const auto& [key, text] : v) d[py::str(key)] = text;
          return d;
        } else if constexpr (std::is_same_v<T, RecordList>) {
          return recordsToDict(v);
        } else {
          return py::cast(v);
        }
      },
      value);
}

py::dict setToDict(const ParamSet& set) {
  py::dict d;
  const auto& fields = set.schema().fields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!set.has(i)) continue;
    if (fields[i].type == ParamType::Record) {
      d[py::str(fields[i].name)] = setToDict(std::get<RecordList>(set.value(i)).sets.front());
    } else {
      d[py::str(fields[i].name)] = plain(set.value(i));
    }
  }
  return d;
}

py::dict recordsToDict(const RecordList& records) {
  py::dict d;
  for (std::size_t i = 0; i < records.size(); ++i)
    d[py::str(records.names[i])] = setToDict(records.sets[i]);
  return d;
}

/// Field `name` of the view's set, as Python: records as nested views. None when absent.
py::object viewValue(const ValuesView& view, const std::string& name) {
  const ParamSet& set = view.resolve();
  const auto index = set.schema().find(name);
  if (!index) {
    std::vector<std::string> names;
    for (const auto& f : set.schema().fields()) names.push_back(f.name);
    throw NotFoundError(set.path() + ": no field '" + name + "'" + didYouMean(name, names));
  }
  if (!set.has(*index)) return py::none();
  const ParamField& field = set.schema().fields()[*index];
  if (field.type == ParamType::Record) return py::cast(view.below({name}));
  if (field.type == ParamType::RecordMap) {
    py::dict d;
    for (const std::string& entry : std::get<RecordList>(set.value(*index)).names) {
      d[py::str(entry)] = py::cast(view.below({name, entry}));
    }
    return d;
  }
  return plain(set.value(*index));
}

const ParamField& fieldOf(const ParamSet& set, const std::string& name) {
  const auto index = set.schema().find(name);
  if (!index) {
    std::vector<std::string> names;
    for (const auto& f : set.schema().fields()) names.push_back(f.name);
    throw NotFoundError(set.path() + ": no field '" + name + "'" + didYouMean(name, names));
  }
  return set.schema().fields()[*index];
}

// ---- schemas declared in Python ---------------------------------------------------------------

/// Runs Python code that C++ called during validation. A hopsim InputError it raises (by
/// values.fail) goes on as the C++ exception, so that C++ callers handle it as their own (an
/// assembly's construction adds its class and path); any other exception goes on unchanged.
template <class F>
auto callPython(F&& f) {
  try {
    return f();
  } catch (py::error_already_set& e) {
    const py::module_ errors = py::module_::import("hopsim._hopsim");
    if (!e.matches(errors.attr("InputError"))) throw;
    const std::string message = py::str(e.value()).cast<std::string>();
    if (e.matches(errors.attr("NotFoundError"))) throw NotFoundError(message);
    if (e.matches(errors.attr("TypeMismatchError"))) throw TypeMismatchError(message);
    throw InputError(message);
  }
}

/// A schema built at run time from a Python class: its fields, and optionally a C++ schema it
/// extends (whose pre-check and cross-field rules run first) and a Python validate(values).
class PythonSchema : public ParamSchema {
 public:
  std::shared_ptr<const ParamSchema> base;
  std::shared_ptr<PyRef> validator;

  void preCheck(InputNode& input) const override {
    if (base) base->preCheck(input);
  }
  void validate(const ParamSet& set) const override {
    if (base) base->validate(set);
    if (!validator) return;
    py::gil_scoped_acquire gil;
    ValuesView view;
    view.lent = &set;
    view.lentAlive = std::make_shared<bool>(true);
    struct Expire {
      std::shared_ptr<bool> alive;
      ~Expire() { *alive = false; }
    } expire{view.lentAlive};
    callPython([&] { return validator->get()(py::cast(view)); });
  }
};

ParamType paramTypeNamed(const std::string& name) {
  static const std::vector<std::pair<std::string, ParamType>> types{
      {"bool", ParamType::Bool},
      {"int", ParamType::Int},
      {"double", ParamType::Double},
      {"string", ParamType::String},
      {"double[]", ParamType::DoubleVector},
      {"int[]", ParamType::IntegerVector},
      {"string[]", ParamType::StringVector},
      {"map<string>", ParamType::StringMap},
      {"record", ParamType::Record},
      {"map<record>", ParamType::RecordMap}};
  for (const auto& [n, t] : types) {
    if (n == name) return t;
  }
  throw ModelError("unknown parameter type '" + name + "'");
}

/// Builds a schema from the declarations a hopsim.Schema subclass collected (assembly.py).
SchemaHandle buildSchema(const std::string& name, const std::string& doc,
                         std::optional<SchemaHandle> base, const py::list& fields,
                         py::object validator) {
  auto schema = std::make_shared<PythonSchema>();
  schema->setName(name);
  schema->setDoc(doc);
  if (base) {
    schema->base = base->schema;
    for (const ParamField& f : base->schema->fields()) schema->addField(f);
  }
  if (!validator.is_none()) schema->validator = std::make_shared<PyRef>(std::move(validator));
  for (const auto item : fields) {
    const auto d = item.cast<py::dict>();
    ParamField f;
    f.name = d["name"].cast<std::string>();
    f.type = paramTypeNamed(d["type"].cast<std::string>());
    f.unit = d["unit"].cast<std::string>();
    f.description = d["doc"].cast<std::string>();
    f.required = d["required"].cast<bool>();
    if (d.contains("default")) f.defaultValue = toInput(d["default"], f.name + " default");
    f.lower = d["lower"].cast<std::optional<double>>();
    f.upper = d["upper"].cast<std::optional<double>>();
    f.lowerExclusive = d["lower_exclusive"].cast<bool>();
    f.upperExclusive = d["upper_exclusive"].cast<bool>();
    f.minLength = d["min_length"].cast<std::optional<std::size_t>>();
    f.maxLength = d["max_length"].cast<std::optional<std::size_t>>();
    f.choices = d["choices"].cast<std::vector<std::string>>();
    f.allowNonFinite = d["allow_non_finite"].cast<bool>();
    if (!d["record"].is_none()) f.recordSchema = d["record"].cast<SchemaHandle>().schema;
    for (const auto check : d["checks"]) {
      const auto pair = check.cast<py::tuple>();
      auto fn = std::make_shared<PyRef>(py::reinterpret_borrow<py::object>(pair[1]));
      f.checks.push_back({pair[0].cast<std::string>(), [fn](const ParamValue& v) -> std::string {
                            py::gil_scoped_acquire gil;
                            const py::object result =
                                callPython([&] { return fn->get()(plain(v)); });
                            if (result.is_none()) return {};
                            if (!py::isinstance<py::str>(result)) {
                              throw py::type_error(
                                  "a field check returns None (or '') when the value passes, "
                                  "else a str saying what is wrong; got " +
                                  py::repr(result).cast<std::string>());
                            }
                            return result.cast<std::string>();
                          }});
    }
    schema->checkDeclaration(schema->addField(std::move(f)));
  }
  return {schema};
}

}  // namespace

/// Whether `schema` is `base` or a Python schema extending it (so that base's keys index it).
bool extends(const ParamSchema& schema, const std::shared_ptr<const ParamSchema>& base) {
  if (&schema == base.get()) return true;
  const auto* python = dynamic_cast<const PythonSchema*>(&schema);
  return python != nullptr && python->base && extends(*python->base, base);
}

void bindAssemblyParams(py::module_& m) {
  py::class_<ParamField>(m, "ParamField", "One declared field of a ParamSchema (read-only).")
      .def_readonly("name", &ParamField::name)
      .def_property_readonly("type_name", &ParamField::typeName,
                             "'double', 'double[3]', 'map<BodyParams>', ... as messages say.")
      .def_readonly("unit", &ParamField::unit, "The SI unit values are stored in.")
      .def_readonly("description", &ParamField::description)
      .def_readonly("required", &ParamField::required)
      .def_property_readonly("bounds", &ParamField::boundsText,
                             "'[0, 1]', '(0, inf)', or '' when unbounded.")
      .def_readonly("choices", &ParamField::choices)
      .def("__repr__", [](const ParamField& f) {
        return "<hopsim.ParamField " + f.name + ": " + f.typeName() +
               (f.unit.empty() ? "" : " [" + f.unit + "]") + ">";
      });

  py::class_<SchemaHandle>(
      m, "ParamSchema",
      "A parameter schema (C++ or declared in Python with hopsim.Schema): typed fields with "
      "units, defaults, bounds and checks, validated exactly as assembly inputs and scenario "
      "YAML are (docs/parameters.md).")
      .def_property_readonly("name", [](const SchemaHandle& s) { return s.schema->name(); })
      .def_property_readonly("doc", [](const SchemaHandle& s) { return s.schema->doc(); })
      .def_property_readonly(
          "fields", [](const SchemaHandle& s) { return s.schema->fields(); },
          "The declared fields, in declaration order (inherited ones first).")
      .def(
          "parse",
          [](const SchemaHandle& s, const py::object& input, const std::string& path) {
            ValuesView view;
            view.root = std::make_shared<const ParamSet>(
                ParamSet::parse(s.schema, toInput(input, path), path));
            return view;
          },
          py::arg("input") = py::none(), py::arg("path") = "",
          "Validates a mapping (None: empty) against the schema and returns its ParamValues; "
          "raises InputError naming `path`, the field, the value and the failed check.")
      .def("__repr__",
           [](const SchemaHandle& s) { return "<hopsim.ParamSchema " + s.schema->name() + ">"; });

  py::class_<ValuesView>(
      m, "ParamValues",
      "The validated values of one parameter set (an assembly's config, context or params, or "
      "a nested record), in SI units, read by attribute (`params.mass`) or key "
      "(`params['mass']`). Numeric vectors read as numpy arrays, records as ParamValues, maps "
      "of records as dicts of ParamValues; an optional field that was not given reads None. "
      "The view follows the set: a value written through the variable tree before binding is "
      "seen.")
      .def("__getattr__",
           [](const ValuesView& v, const std::string& name) {
             try {
               return viewValue(v, name);
             } catch (const NotFoundError& e) {
               throw py::attribute_error(e.what());
             }
           })
      .def("__getitem__", &viewValue)
      .def("__contains__",
           [](const ValuesView& v, const std::string& name) {
             const ParamSet& set = v.resolve();
             const auto index = set.schema().find(name);
             return index && set.has(*index);
           })
      .def("__dir__",
           [](const ValuesView& v) {
             std::vector<std::string> names;
             for (const auto& f : v.resolve().schema().fields()) names.push_back(f.name);
             return names;
           })
      .def(
          "keys",
          [](const ValuesView& v) {
            const ParamSet& set = v.resolve();
            std::vector<std::string> names;
            for (std::size_t i = 0; i < set.schema().fields().size(); ++i) {
              if (set.has(i)) names.push_back(set.schema().fields()[i].name);
            }
            return names;
          },
          "The names of the fields that have a value, in declaration order.")
      .def_property_readonly(
          "path", [](const ValuesView& v) { return v.resolve().path(); },
          "The set's full path ('assemblies.lander.params').")
      .def_property_readonly(
          "schema", [](const ValuesView& v) { return SchemaHandle{v.resolve().schemaPointer()}; })
      .def(
          "unit",
          [](const ValuesView& v, const std::string& n) { return fieldOf(v.resolve(), n).unit; },
          py::arg("field"), "The SI unit the field's value is stored in ('' dimensionless).")
      .def(
          "description",
          [](const ValuesView& v, const std::string& n) {
            return fieldOf(v.resolve(), n).description;
          },
          py::arg("field"))
      .def(
          "source",
          [](const ValuesView& v, const std::string& n) {
            const ParamSet& set = v.resolve();
            fieldOf(set, n);
            return set.source(*set.schema().find(n)).toString();
          },
          py::arg("field"),
          "Where the value came from: 'file.yaml:12:7', 'default', 'set', or '' for a value "
          "given from Python.")
      .def(
          "to_dict", [](const ValuesView& v) { return setToDict(v.resolve()); },
          "The values as a plain dict (records as dicts), absent optional fields left out.")
      .def(
          "fail",
          [](const ValuesView& v, const std::string& field, const std::string& what) {
            v.resolve().fail(field, what);
          },
          py::arg("field"), py::arg("what"),
          "Raises the InputError of a cross-field rule: '<path>.<field>: <what>', located "
          "where the field's value was written. For Schema.validate.")
      .def("__repr__", [](const ValuesView& v) {
        return "<hopsim.ParamValues " + v.resolve().path() + " " +
               py::repr(setToDict(v.resolve())).cast<std::string>() + ">";
      });

  m.def("_build_schema", &buildSchema, py::arg("name"), py::arg("doc"), py::arg("base"),
        py::arg("fields"), py::arg("validator"));
  m.def(
      "_native_schema",
      [](const std::string& name) {
        if (name == "BodyParams") return SchemaHandle{schemaOf<BodyParams>()};
        if (name == "HingeParams") return SchemaHandle{schemaOf<HingeParams>()};
        if (name == "NodeParams") return SchemaHandle{schemaOf<NodeParams>()};
        throw NotFoundError("no C++ schema '" + name + "'" +
                            didYouMean(name, {"BodyParams", "HingeParams", "NodeParams"}));
      },
      py::arg("name"));
}

}  // namespace hopsim::python
