// Assemblies from Python (docs/assemblies.md, "Assemblies in Python"): handles on assemblies of
// any class, the SimulationAssembly at the top of a tree built by a run script, the registration
// of Python assembly classes, and the trampoline through which the C++ assembly machinery runs
// the stages of a Python subclass of hopsim.Assembly. Their parameters (Python values as input,
// ParamValues, schemas declared in Python) are in assembly_params.cpp.
//
// Ownership: the C++ tree owns every assembly; a PythonAssembly owns its Python instance; the
// instance (an AssemblyBase) refers back through a weak token only (Assembly::lifetime), so
// there is no reference cycle and a handle on a destroyed assembly raises ModelError.

#include <pybind11/stl.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "assembly_params.h"
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

// ---- assemblies --------------------------------------------------------------------------------

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
    using Fn = Model& (Assembly::*)(std::unique_ptr<Model>);
    return (a.*static_cast<Fn>(&Access::adoptModel))(std::move(m));
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
              Assembly::attachModel(*model, {node.value_or(""), body.value_or(""), subhinge});
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
            return messageTexts(t.top->warnings());
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

}  // namespace

void bindAssemblies(py::module_& m) {
  bindAssemblyParams(m);
  bindAssemblyBase(m);
}

}  // namespace hopsim::python
