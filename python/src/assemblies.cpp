// Assemblies from Python (docs/assemblies.md, "Assemblies in Python"): handles on assemblies of
// any class, the SimulationAssembly at the top of a tree built by a run script, parameter schemas
// declared in Python, and the trampoline through which the C++ assembly machinery runs the
// stages of a Python subclass of hopsim.Assembly.
//
// Ownership: the C++ tree owns every assembly; a PythonAssembly owns its Python instance; the
// instance (an AssemblyBase) refers back through a weak token only (Assembly::lifetime), so
// there is no reference cycle and a handle on a destroyed assembly raises ModelError.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "hopsim/assemblies/assembly_registry.h"
#include "hopsim/assemblies/body_params.h"
#include "hopsim/assemblies/model_params.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "python_models.h"
#include "value_conversion.h"

namespace hopsim::python {
namespace {

/// "assembly 'A.B'", or "the top assembly" (as the C++ messages say).
std::string describeAssembly(const std::string& path) {
  return path.empty() ? std::string("the top assembly") : "assembly '" + path + "'";
}

/// A Python object that C++ may keep until after the interpreter is gone (a schema or class in
/// the process-wide registry): released under the GIL while Python runs, leaked afterwards.
class PyRef {
 public:
  explicit PyRef(py::object object) : object_(std::move(object)) {}
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  ~PyRef() {
    if (Py_IsInitialized() == 0) {
      object_.release();
      return;
    }
    py::gil_scoped_acquire gil;
    object_ = py::object();
  }
  const py::object& get() const { return object_; }

 private:
  py::object object_;
};

// ---- ParamValues: a read view of a ParamSet -------------------------------------------------

/// A reference to an assembly the tree owns; get() fails cleanly once it is destroyed.
struct AssemblyRef {
  std::weak_ptr<Assembly* const> token;
  bool bound = false;            // false for an instance Python made by calling the class
  mutable std::string lastPath;  // for the message after the assembly is gone

  void reset(Assembly& a) {
    token = a.lifetime();
    bound = true;
    lastPath = a.path();
  }
  Assembly& get() const {
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
};

/// Which set of an assembly, or an owned set, or one lent for the length of a call.
struct ValuesView {
  AssemblyRef owner;
  int group = -1;  // 0 config, 1 context, 2 params of `owner`
  std::shared_ptr<const ParamSet> root;
  const ParamSet* lent = nullptr;
  std::shared_ptr<bool> lentAlive;
  /// Nested records below the root: a Record field's name, or a RecordMap field's name and the
  /// entry's name. Resolved on every access, since a set may be replaced by a write.
  std::vector<std::string> nested;

  const ParamSet& resolve() const {
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
  ValuesView below(std::vector<std::string> more) const {
    ValuesView v = *this;
    v.nested.insert(v.nested.end(), more.begin(), more.end());
    return v;
  }
};

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

/// The Python face of a schema (C++ or Python-built), shared with the sets that use it.
struct SchemaHandle {
  std::shared_ptr<const ParamSchema> schema;
};

/// Whether `schema` is `base` or a Python schema extending it (so that base's keys index it).
bool extends(const ParamSchema& schema, const std::shared_ptr<const ParamSchema>& base) {
  if (&schema == base.get()) return true;
  const auto* python = dynamic_cast<const PythonSchema*>(&schema);
  return python != nullptr && python->base && extends(*python->base, base);
}

ParamType paramTypeNamed(const std::string& name) {
  static const std::vector<std::pair<std::string, ParamType>> types{
      {"bool", ParamType::Bool},
      {"int", ParamType::Int},
      {"double", ParamType::Double},
      {"string", ParamType::String},
      {"double[]", ParamType::DoubleVector},
      {"int[]", ParamType::IntVector},
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

// ---- assemblies --------------------------------------------------------------------------------

/// The Python base of every assembly handle (hopsim.AssemblyBase).
struct AssemblyBase {
  AssemblyRef ref;
  virtual ~AssemblyBase() = default;
};

/// hopsim.SimulationAssembly: owns the top of a tree built by a run script.
struct TopAssembly : AssemblyBase {
  std::unique_ptr<SimulationAssembly> top;
};

/// Runs the stages of a Python subclass of hopsim.Assembly.
class PythonAssembly final : public Assembly {
 public:
  py::object self;  // the Python instance, owned here

  ~PythonAssembly() override {
    if (Py_IsInitialized() == 0) {
      self.release();
      return;
    }
    py::gil_scoped_acquire gil;
    self = py::object();
  }

 protected:
  void addSignals() override { stage("add_signals"); }
  void addModels() override { stage("add_models"); }
  void addAssemblies() override { stage("add_assemblies"); }
  void bindParams() override { stage("bind_params"); }
  void bindState() override { stage("bind_state"); }

 private:
  // The GIL is held here when Python drives the build, but a lock may come from C++.
  void stage(const char* method) {
    py::gil_scoped_acquire gil;
    self.attr(method)();
  }
};

/// Every Python assembly class, registered or not: trees point at these, so they live as long
/// as the process (the Python classes they hold are released safely, see PyRef).
std::deque<AssemblyClass>& pythonClasses() {
  static std::deque<AssemblyClass> classes;
  return classes;
}

/// The protected helpers of Assembly, reached from the bindings (which act for the assembly).
struct Access : Assembly {
  using Assembly::addSignal;
  using Assembly::adoptModel;
  using Assembly::attachModel;
  using Assembly::contextBody;
  using Assembly::offeredTie;
  using Assembly::qualified;
  using Assembly::setBodyState;
  using Assembly::warn;
  static SignalRef addSignal_(Assembly& a, const std::string& n, ElementType t, std::size_t len,
                              std::string unit, std::string doc) {
    return (a.*&Access::addSignal)(n, t, len, std::move(unit), std::move(doc));
  }
  static Model& addModel_(Assembly& a, std::string_view cls, const std::string& n,
                          const InputNode& params) {
    using Fn = Model& (Assembly::*)(std::string_view, const std::string&, const InputNode&);
    return (a.*static_cast<Fn>(&Access::addModel))(cls, n, params);
  }
  static void tie_(Assembly& a, Model& m, std::string_view port, std::string_view signal,
                   std::optional<std::size_t> offset, std::optional<std::size_t> length) {
    using Whole = void (Assembly::*)(Model&, std::string_view, std::string_view);
    using Slice =
        void (Assembly::*)(Model&, std::string_view, std::string_view, std::size_t, std::size_t);
    if (offset || length) {
      const std::size_t o = offset.value_or(0);
      const std::size_t total = a.signal(signal).length;
      (a.*static_cast<Slice>(&Access::tie))(m, port, signal, o,
                                            length.value_or(total - std::min(o, total)));
    } else {
      (a.*static_cast<Whole>(&Access::tie))(m, port, signal);
    }
  }
  static MultibodySystem::BodyIndex addBody_(Assembly& a, const std::string& n, const ParamSet& b,
                                             std::optional<std::string> parent) {
    using Fn = MultibodySystem::BodyIndex (Assembly::*)(const std::string&, const ParamSet&,
                                                        std::optional<std::string>);
    return (a.*static_cast<Fn>(&Access::addBody))(n, b, std::move(parent));
  }
  static void setBodyState_(Assembly& a, const std::string& n, const ParamSet& b) {
    (a.*&Access::setBodyState)(n, b);
  }
  static std::optional<SignalRef> offeredTie_(const Assembly& a, std::string_view n) {
    return (a.*&Access::offeredTie)(n);
  }
  static std::optional<std::string> contextBody_(const Assembly& a) {
    return (a.*&Access::contextBody)();
  }
  static Model& adoptModel_(Assembly& a, std::unique_ptr<Model> m) {
    return (a.*&Access::adoptModel)(std::move(m));
  }
  static std::string qualified_(const Assembly& a, std::string_view n) {
    return (a.*&Access::qualified)(n);
  }
  static void warn_(Assembly& a, std::string message) { (a.*&Access::warn)(std::move(message)); }
};

/// The Python object for an assembly: a Python subclass's own instance, else a new handle.
py::object handleFor(Assembly& a) {
  if (auto* python = dynamic_cast<PythonAssembly*>(&a)) return python->self;
  AssemblyBase handle;
  handle.ref.reset(a);
  return py::cast(std::move(handle));
}

/// Signal ties from Python: {child: "parent"} or {child: {"signal": s, "offset": o, "length": n}}
/// or {child: (s, offset, length)}.
std::vector<SignalTie> signalTies(const py::object& ties, const std::string& childPath) {
  std::vector<SignalTie> out;
  if (ties.is_none()) return out;
  for (const auto item : ties.cast<py::dict>()) {
    SignalTie t;
    t.child = item.first.cast<std::string>();
    const py::handle v = item.second;
    if (py::isinstance<py::str>(v)) {
      t.parent = v.cast<std::string>();
    } else if (py::isinstance<py::dict>(v)) {
      const auto d = v.cast<py::dict>();
      for (const auto key : d) {
        const auto k = key.first.cast<std::string>();
        if (k != "signal" && k != "offset" && k != "length") {
          throw InputError("signal tie '" + t.child + "' of assembly '" + childPath +
                           "': unknown key '" + k + "'" +
                           didYouMean(k, {"signal", "offset", "length"}));
        }
      }
      if (!d.contains("signal")) {
        throw InputError("signal tie '" + t.child + "' of assembly '" + childPath +
                         "': missing key 'signal'");
      }
      t.parent = d["signal"].cast<std::string>();
      if (d.contains("offset")) t.offset = d["offset"].cast<std::size_t>();
      if (d.contains("length")) t.length = d["length"].cast<std::size_t>();
    } else if (py::isinstance<py::tuple>(v) && py::len(v) == 3) {
      const auto tuple = v.cast<py::tuple>();
      t.parent = tuple[0].cast<std::string>();
      t.offset = tuple[1].cast<std::size_t>();
      t.length = tuple[2].cast<std::size_t>();
    } else {
      throw InputError("signal tie '" + t.child + "' of assembly '" + childPath +
                       "': expected a signal name, {'signal': name, 'offset': i, 'length': n} "
                       "or (name, offset, length), got " +
                       py::repr(v).cast<std::string>());
    }
    out.push_back(std::move(t));
  }
  return out;
}

/// The set a body is described by: a view of a BodyParams set (or of a schema extending it),
/// or a mapping parsed against BodyParams.
std::shared_ptr<const ParamSet> bodySet(Assembly& a, const std::string& body, py::handle given) {
  const auto schema = schemaOf<BodyParams>();
  if (py::isinstance<ValuesView>(given)) {
    const ValuesView& view = given.cast<const ValuesView&>();
    const ParamSet& set = view.resolve();
    if (!extends(set.schema(), schema)) {
      throw InputError(describeAssembly(a.path()) + ": body '" + body + "': " + set.path() +
                       " is a " + set.schema().name() +
                       " set, expected BodyParams (or a schema derived from hopsim.BodyParams)");
    }
    if (&set.schema() == schema.get()) return std::make_shared<ParamSet>(set);
    // A Python schema extending BodyParams: the BodyParams fields alone, as a BodyParams set
    // (the C++ body code reads it by BodyParams's keys). SI values read back exactly.
    InputNode input = set.toInput();
    std::erase_if(input.entries(),
                  [&](const InputNode::Entry& e) { return !schema->find(e.first); });
    return std::make_shared<ParamSet>(ParamSet::parse(schema, input, set.path()));
  }
  const std::string path = a.variableBranch() + ".bodies." + body;
  return std::make_shared<ParamSet>(ParamSet::parse(schema, toInput(given, path), path));
}

Model& ownModel(Assembly& a, const std::string& model) {
  const std::string full = Access::qualified_(a, model);
  for (const std::string& m : a.models()) {
    if (m == full || m == model) return a.sim().model(m);
  }
  std::vector<std::string> locals;
  for (const std::string& m : a.models()) locals.push_back(m);
  throw NotFoundError(describeAssembly(a.path()) + " has no model '" + model +
                      "' (tie ports of its own models)" + didYouMean(full, locals));
}

py::object addAssembly(Assembly& parent, py::handle cls, std::string name, const py::object& config,
                       const py::object& context, const py::object& params, const py::object& ties,
                       const std::string& description) {
  const std::string childPath = Access::qualified_(parent, name);
  AssemblyInputs inputs;
  inputs.config = toInput(config, "assemblies." + childPath + ".config");
  inputs.context = toInput(context, "assemblies." + childPath + ".context");
  inputs.params = toInput(params, "assemblies." + childPath + ".params");
  inputs.signalTies = signalTies(ties, childPath);
  inputs.description = description;
  if (py::isinstance<py::str>(cls)) {
    return handleFor(
        parent.addAssembly(cls.cast<std::string>(), std::move(name), std::move(inputs)));
  }
  if (!py::hasattr(cls, "_assembly_class_index")) {
    throw py::type_error(
        "add_assembly: expected a registered class name or a subclass of "
        "hopsim.Assembly, got " +
        py::repr(cls).cast<std::string>());
  }
  const auto index = cls.attr("_assembly_class_index").cast<std::size_t>();
  return handleFor(
      parent.addAssembly(pythonClasses().at(index), std::move(name), std::move(inputs)));
}

}  // namespace

void bindParamTypes(py::module_& m) {
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

void bindAssemblyBase(py::module_& m) {
  py::class_<SignalRef>(m, "SignalRef",
                        "A whole signal or the slice [offset, offset + length) of one, by its "
                        "simulation name.")
      .def_readonly("signal", &SignalRef::signal)
      .def_readonly("offset", &SignalRef::offset)
      .def_readonly("length", &SignalRef::length)
      .def("__repr__", [](const SignalRef& r) {
        return "<hopsim.SignalRef " + r.signal + "[" + std::to_string(r.offset) + ":" +
               std::to_string(r.offset + r.length) + "]>";
      });

  py::class_<AssemblyClass>(m, "AssemblyClass", "What the registry knows about an assembly class.")
      .def_readonly("name", &AssemblyClass::name)
      .def_readonly("doc", &AssemblyClass::doc)
      .def_property_readonly("config",
                             [](const AssemblyClass& c) { return SchemaHandle{c.config}; })
      .def_property_readonly("context",
                             [](const AssemblyClass& c) { return SchemaHandle{c.context}; })
      .def_property_readonly("params",
                             [](const AssemblyClass& c) { return SchemaHandle{c.params}; });
  m.def(
      "assembly_classes", [] { return assemblyRegistry().classNames(); },
      "The assembly class names scenarios and add_assembly accept (stock and registered), "
      "sorted.");
  m.def(
      "assembly_class", [](std::string_view name) { return assemblyRegistry().get(name); },
      py::arg("name"),
      "The registered assembly class `name` (doc and schemas); NotFoundError with suggestions.");

  using R = py::return_value_policy;
  py::class_<AssemblyBase> base(
      m, "AssemblyBase",
      "An assembly of the tree, of any class: read accessors, the builder helpers and "
      "add_assembly. hopsim.Assembly (Python subclasses) and SimulationAssembly derive from it; "
      "a C++ assembly is reached through one. Raises ModelError once the assembly no longer "
      "exists.");
  const auto get = [](const AssemblyBase& h) -> Assembly& { return h.ref.get(); };
  base.def(py::init<>())
      .def_property_readonly(
          "name", [get](const AssemblyBase& h) { return get(h).name(); },
          "The assembly's name, one segment.")
      .def_property_readonly(
          "path", [get](const AssemblyBase& h) { return get(h).path(); },
          "The dotted path from the top ('lander.engine'); '' for the top.")
      .def_property_readonly("class_name",
                             [get](const AssemblyBase& h) { return get(h).assemblyClass().name; })
      .def_property_readonly(
          "variable_branch", [get](const AssemblyBase& h) { return get(h).variableBranch(); },
          "The variable-tree branch of its inputs ('assemblies.lander').")
      .def_property_readonly(
          "parent",
          [get](const AssemblyBase& h) -> py::object {
            Assembly* p = get(h).parent();
            return p == nullptr ? py::object(py::none()) : handleFor(*p);
          },
          "The parent assembly, None for the top.")
      .def_property_readonly(
          "children",
          [get](const AssemblyBase& h) {
            py::list out;
            for (const auto& c : get(h).children()) out.append(handleFor(*c));
            return out;
          },
          "The child assemblies in creation order.")
      .def(
          "child",
          [get](const AssemblyBase& h, std::string_view n) { return handleFor(get(h).child(n)); },
          py::arg("name"), "The child called `name`; NotFoundError with suggestions.")
      .def(
          "find",
          [get](const AssemblyBase& h, std::string_view p) { return handleFor(get(h).find(p)); },
          py::arg("relative_path"), "A descendant by relative dotted path ('engine.valve').")
      .def_property_readonly(
          "config",
          [get](const AssemblyBase& h) {
            get(h);
            return ValuesView{h.ref, 0};
          },
          "The validated config (ParamValues): what to build.")
      .def_property_readonly(
          "context",
          [get](const AssemblyBase& h) {
            get(h);
            return ValuesView{h.ref, 1};
          },
          "The validated context (ParamValues): what to attach to.")
      .def_property_readonly(
          "params",
          [get](const AssemblyBase& h) {
            get(h);
            return ValuesView{h.ref, 2};
          },
          "The validated params (ParamValues): physical values, SI units.")
      .def_property_readonly(
          "sim", [get](const AssemblyBase& h) -> Simulation& { return get(h).sim(); }, R::reference,
          "The Simulation the assembly builds into.")
      .def_property_readonly(
          "bodies", [get](const AssemblyBase& h) { return get(h).bodies(); },
          "The bodies this assembly created (not its children), in creation order.")
      .def_property_readonly(
          "models", [get](const AssemblyBase& h) { return get(h).models(); },
          "The simulation names of the models this assembly created.")
      .def(
          "signal_names", [get](const AssemblyBase& h) { return get(h).signalNames(); },
          "The local signal names in its scope: its own and those tied to it.")
      .def(
          "signal", [get](const AssemblyBase& h, std::string_view n) { return get(h).signal(n); },
          py::arg("local_name"),
          "The SignalRef a local name stands for (the top also resolves full names).")
      .def(
          "qualified",
          [get](const AssemblyBase& h, std::string_view n) {
            return Access::qualified_(get(h), n);
          },
          py::arg("local_name"), "'<path>.<local_name>' (just local_name at the top).")
      .def(
          "add_signal",
          [get](const AssemblyBase& h, const std::string& name, py::handle type, std::size_t length,
                std::string unit, std::string description) {
            return Access::addSignal_(get(h), name, toElementType(type, name), length,
                                      std::move(unit), std::move(description));
          },
          py::arg("local_name"), py::arg("type") = "double", py::arg("length") = 1,
          py::arg("unit") = "", py::arg("description") = "",
          "Declares a signal (for add_signals): the one the parent tied to this name, after "
          "checking type and length, else a new simulation signal '<path>.<local_name>'. "
          "Returns its SignalRef.")
      .def(
          "offered_tie",
          [get](const AssemblyBase& h, std::string_view n) {
            return Access::offeredTie_(get(h), n);
          },
          py::arg("local_name"),
          "The SignalRef the parent tied to a local name, or None: sizes a signal from its tie.")
      .def(
          "add_model",
          [get](const AssemblyBase& h, const py::object& cls, const std::string& name,
                const py::object& params, std::optional<std::string> node,
                std::optional<std::string> body, int subhinge, std::optional<double> rate) {
            Assembly& a = get(h);
            const std::string path = "models." + Access::qualified_(a, name) + ".params";
            Model* model = nullptr;
            if (isPythonModelClass(cls)) {
              // A Python model class need not be registered: the instance is made here, with
              // the qualified name, and its params parsed as a registered class's would be.
              std::unique_ptr<Model> made = releasePythonModel(cls(Access::qualified_(a, name)));
              const ParamSet values =
                  ParamSet::parse(modelParamsSchema(made->spec()), toInput(params, path), path);
              for (const auto& [param, value] : modelParamValues(values)) {
                made->setParam(param, value);
              }
              model = &Access::adoptModel_(a, std::move(made));
            } else {
              model = &Access::addModel_(a, cls.cast<std::string>(), name, toInput(params, path));
            }
            if (node || body) {
              Access::attachModel(*model, {node.value_or(""), body.value_or(""), subhinge});
            }
            if (rate) a.sim().setModelRate(model->name(), *rate);
            return model->name();
          },
          py::arg("class_name"), py::arg("local_name"), py::arg("params") = py::none(),
          py::kw_only(), py::arg("node") = py::none(), py::arg("body") = py::none(),
          py::arg("subhinge") = -1, py::arg("rate") = py::none(),
          "Adds a model named '<path>.<local_name>' (for add_models): `class_name` is a "
          "registered class's name or a Python model class (a subclass of hopsim.FlowModel or "
          "hopsim.ContinuousModel, registered or not). Its params (units allowed: "
          "{'k': '2 N/mm'}) are parsed against the model's declaration at "
          "'models.<name>.params'; attaches an actuator or sensor to `node`, a motor or encoder "
          "to the hinge of `body` (`subhinge`); `rate` in Hz. Returns the model's name.")
      .def(
          "tie",
          [get](const AssemblyBase& h, const std::string& model, std::string_view port,
                std::string_view signal, std::optional<std::size_t> offset,
                std::optional<std::size_t> length) {
            Assembly& a = get(h);
            Access::tie_(a, ownModel(a, model), port, signal, offset, length);
          },
          py::arg("model"), py::arg("port"), py::arg("signal"), py::arg("offset") = py::none(),
          py::arg("length") = py::none(),
          "Ties a port of one of its models (local or full name) to a signal of its scope, or "
          "to elements [offset, offset + length) of it.")
      .def(
          "add_body",
          [get](const AssemblyBase& h, const std::string& name, py::handle body,
                std::optional<std::string> parent) {
            Assembly& a = get(h);
            return Access::addBody_(a, name, *bodySet(a, name, body), std::move(parent));
          },
          py::arg("name"), py::arg("body"), py::arg("parent") = py::none(),
          "Adds a body described by BodyParams (a ParamValues of hopsim.BodyParams or a schema "
          "derived from it, or a mapping validated against it) with its hinge and nodes, under "
          "`parent`, else the nearest context body (context.parentBody or .body of this "
          "assembly, then its ancestors'), else the world. Returns the body index.")
      .def(
          "set_body_state",
          [get](const AssemblyBase& h, const std::string& name, py::handle body) {
            Assembly& a = get(h);
            Access::setBodyState_(a, name, *bodySet(a, name, body));
          },
          py::arg("name"), py::arg("body"),
          "Sets body `name`'s initial Q and U from the hinge.q and hinge.u of its BodyParams, "
          "where given (for bind_state).")
      .def(
          "context_body", [get](const AssemblyBase& h) { return Access::contextBody_(get(h)); },
          "The body add_body attaches to without a parent: the context rule, or None (world).")
      .def(
          "warn",
          [get](const AssemblyBase& h, std::string message) {
            Access::warn_(get(h), std::move(message));
          },
          py::arg("message"), "Reports a warning to the top assembly (a Scenario's warnings).")
      .def(
          "add_assembly",
          [get](const AssemblyBase& h, py::handle cls, std::string name, const py::object& config,
                const py::object& context, const py::object& params, const py::object& ties,
                const std::string& description) {
            return addAssembly(get(h), cls, std::move(name), config, context, params, ties,
                               description);
          },
          py::arg("cls"), py::arg("name"), py::kw_only(), py::arg("config") = py::none(),
          py::arg("context") = py::none(), py::arg("params") = py::none(),
          py::arg("signal_ties") = py::none(), py::arg("description") = "",
          "Creates and builds a child: `cls` is a registered class name ('BodyAssembly') or a "
          "subclass of hopsim.Assembly. config, context and params are mappings validated "
          "against the class's schemas (units allowed); signal_ties maps the child's signal "
          "names to signals of this scope ('a', {'signal': 'a', 'offset': 2, 'length': 3} or "
          "('a', 2, 3)). On any failure everything the child created is removed and the error "
          "propagates. Returns the child (the Python instance for a Python class).")
      .def("__repr__", [](const AssemblyBase& h) -> std::string {
        if (!h.ref.bound) return "<hopsim assembly (not in a tree)>";
        if (h.ref.token.expired()) return "<hopsim assembly '" + h.ref.lastPath + "' (destroyed)>";
        Assembly& a = h.ref.get();
        return "<" + a.assemblyClass().name + " '" + a.path() + "'>";
      });

  py::class_<TopAssembly, AssemblyBase>(
      m, "SimulationAssembly",
      "The top of an assembly tree built by a run script into one Simulation (which it keeps "
      "alive). Keep it as long as the simulation is used: Simulation.lock() binds the tree "
      "through it (bind params, then state, parents first) and checks every signal tie was "
      "consumed. Its path is '' and its scope is every simulation signal by full name.")
      .def(py::init([](Simulation& sim) {
             auto top = std::make_unique<TopAssembly>();
             top->top = std::make_unique<SimulationAssembly>(sim);
             top->ref.reset(*top->top);
             return top;
           }),
           py::arg("sim"), py::keep_alive<1, 2>())
      .def(
          "bind",
          [](TopAssembly& t) {
            t.ref.get();
            t.top->bind();
          },
          "Checks the ties, then runs bind_params and bind_state of every assembly not yet "
          "bound (lock() does this; call it earlier to set model params after binding).")
      .def(
          "check_ties",
          [](TopAssembly& t) {
            t.ref.get();
            t.top->checkTies();
          },
          "Raises ModelError listing every signal tie no assembly consumed.")
      .def_property_readonly(
          "warnings",
          [](TopAssembly& t) {
            t.ref.get();
            return t.top->warnings();
          },
          "The warnings assemblies reported, in order.");

  m.def(
      "_register_assembly",
      [](py::object cls, std::string name, std::string doc, const SchemaHandle& config,
         const SchemaHandle& context, const SchemaHandle& params, bool registered) {
        if (registered && assemblyRegistry().contains(name)) {
          throw ModelError("assembly class '" + name + "' is already registered");
        }
        auto pyClass = std::make_shared<PyRef>(std::move(cls));
        AssemblyClass info{std::move(name),
                           std::move(doc),
                           config.schema,
                           context.schema,
                           params.schema,
                           [pyClass]() -> std::unique_ptr<Assembly> {
                             py::gil_scoped_acquire gil;
                             auto made = std::make_unique<PythonAssembly>();
                             py::object instance = pyClass->get()();
                             instance.cast<AssemblyBase&>().ref.reset(*made);
                             made->self = std::move(instance);
                             return made;
                           }};
        if (registered) assemblyRegistry().add(info);
        pythonClasses().push_back(std::move(info));
        return pythonClasses().size() - 1;
      },
      py::arg("cls"), py::arg("name"), py::arg("doc"), py::arg("config"), py::arg("context"),
      py::arg("params"), py::arg("registered"));
}

void bindAssemblies(py::module_& m) {
  bindParamTypes(m);
  bindAssemblyBase(m);
}

}  // namespace hopsim::python
