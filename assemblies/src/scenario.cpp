#include "hopsim/assemblies/scenario.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "contact_input.h"
#include "hopsim/assemblies/front_end.h"
#include "hopsim/assemblies/param_set.h"
#include "hopsim/assemblies/units.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/core/multibody_assembly.h"
#include "hopsim/models/smooth_contact.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "param_variable.h"
#include "scenario_document.h"
#include "scenario_schemas.h"
#include "scenario_state_machines.h"

namespace hopsim {

namespace scenario {

void EventSection::validate(const ParamSet& set) const {
  const int triggers = int{set.has(at)} + int{set.has(every)} + int{set.has(when)};
  if (triggers != 1) {
    // Name a trigger that is there: the second one given, or `at` when there is none.
    set.fail(triggers == 0   ? "at"
             : set.has(when) ? "when"
                             : "every",
             "an event needs exactly one trigger: `at`, `every` or `when`");
  }
  if (set.has(start) && !set.has(every)) set.fail("start", "`start` belongs to `every`");
}

}  // namespace scenario

namespace {

using namespace scenario;

}  // namespace

/// Builds one scenario: reads the sections in order and keeps the warnings.
class Scenario::Builder {
 public:
  Builder(Scenario& scenario, const AssemblyRegistry& registry, MechanismFiles files)
      : scenario_(scenario), registry_(registry), files_(std::move(files)) {}

  void build(InputNode document, const std::string& file,
             const std::vector<std::string>& overrideTexts) {
    std::vector<Override> overrides;
    for (const std::string& o : overrideTexts) overrides.push_back(parseOverride(o));
    resolveIncludes(document, file, files_);
    const std::vector<Override> remaining = applyToDocument(document, std::move(overrides));
    // `library` is free-form: a place to define anchors that definitions merge in.
    warnUnknown(document, "",
                {"hopsim", "simulation", "library", "assemblies", "signals", "models", "contact",
                 "breaks", "events", "state_machines", "logging"});
    const InputNode* simulation = document.find("simulation");
    // A missing section is reported where the document starts.
    const SourceLocation where = simulation != nullptr && simulation->location().known()
                                     ? simulation->location()
                                 : document.location().known() ? document.location()
                                                               : SourceLocation{file, 0, 0};
    locatedAt(where, "",
              [&] { createSimulation(section<SimulationSection>(document, "simulation")); });
    AssemblyInputs top;
    top.signals = signalDefinitions(document.find("signals"), "signals");
    top.assemblies = children(document.find("assemblies"), "assemblies");
    top.models = modelDefinitions(document.find("models"), "models");
    const InputNode* contact = document.find("contact");
    if (contact != nullptr) declareContact(*contact, top);
    scenario_.top_->build(std::move(top));
    if (contact != nullptr) addContactShapes(*contact, file);
    addBreaks(document.find("breaks"));
    // Inputs of assemblies the file does not define (made by their parents' stages) are set
    // before binding reads them; every other variable after, so that it wins over the binding.
    for (const Override& o : remaining) {
      if (o.path.starts_with("assemblies.")) applyToVariable(o);
    }
    locatedAtDefinition([&] { scenario_.top_->bind(); });
    for (const Override& o : remaining) {
      if (!o.path.starts_with("assemblies.")) applyToVariable(o);
    }
    // The multibody variables exist from lock() on; events and logging may name them.
    locatedAtDefinition([&] { scenario_.sim_->lock(); });
    assembleMultibody(file);
    if (contactEvents_) {
      models::registerContactEvents(
          *scenario_.sim_, dynamic_cast<models::SmoothContact&>(scenario_.sim_->model("contact")));
    }
    if (const InputNode* events = document.find("events")) addEvents(*events);
    if (const InputNode* machines = document.find("state_machines")) {
      addStateMachines(
          *scenario_.sim_, *machines,
          {[this](const std::string& path, const InputNode& input) {
             return valueFor(path, input);
           },
           &Builder::targetValue,
           [](const InputNode& input, const std::string& unit, const std::string& key) {
             return std::get<double>(typedValue(key, ElementType::Double, 1, unit, input));
           }},
          scenario_.warnings_);
    }
    addLogging(document.find("logging"), file);
  }

 private:
  // ---- helpers ------------------------------------------------------------------------------

  /// The assembly analysis before t = 0, as Chrono's: the initial state projected onto the
  /// constraints (positions, then velocities); a correction above the projection's tolerance
  /// is a warning with its size.
  void assembleMultibody(const std::string& file) {
    const AssemblyCorrection c = assembleOntoConstraints(scenario_.sim_->multibody());
    if (!c.aboveTolerance) return;
    std::ostringstream w;
    w << file << ": the initial state was assembled onto the constraints before t = 0: "
      << "largest position violation " << c.position << " (m, or rad), velocity violation "
      << c.velocity << " (m/s, or rad/s)";
    scenario_.warnings_.push_back(w.str());
  }

  /// Runs `step` (binding, locking): an error about a model or signal the file defined (an
  /// untied port, an algebraic loop) is located at its definition.
  template <class F>
  void locatedAtDefinition(F&& step) {
    try {
      step();
    } catch (const Error& e) {
      const ErrorSubject* subject = errorSubject(e);
      if (subject == nullptr) throw;
      const std::string message = locateMessage(scenario_.top_->definedAt(*subject), "", e.what());
      if (message == e.what()) throw;
      rethrowAs(e, message);
    }
  }

  void warn(const InputNode& node, const std::string& message) {
    scenario_.warnings_.push_back(at(node) + message);
  }

  /// Warns about the keys of a mapping that are not in `known`.
  void warnUnknown(const InputNode& node, const std::string& path,
                   const std::vector<std::string>& known) {
    if (!node.isMapping()) return;
    for (const auto& [key, value] : node.entries()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      warn(value, "unknown key '" + (path.empty() ? key : path + "." + key) + "' ignored" +
                      didYouMean(key, known));
    }
  }

  /// Parses a section with a schema; keys the schema does not know (and that are not in
  /// `alsoKnown`) are warnings, not errors.
  template <class Schema>
  ParamSet section(const InputNode& parent, const std::string& key,
                   const std::vector<std::string>& alsoKnown = {}, std::string path = {}) {
    if (path.empty()) path = key;
    const InputNode* node = parent.isMapping() ? parent.find(key) : nullptr;
    return parseKnown<Schema>(node != nullptr ? *node : InputNode(), path, alsoKnown);
  }

  template <class Schema>
  ParamSet parseKnown(const InputNode& node, const std::string& path,
                      const std::vector<std::string>& alsoKnown = {}) {
    const auto schema = schemaOf<Schema>();
    if (!node.isMapping()) return ParamSet::parse(schema, node, path);
    std::vector<std::string> known = alsoKnown;
    for (const ParamField& f : schema->fields()) known.push_back(f.name);
    warnUnknown(node, path, known);
    std::vector<InputNode::Entry> kept;
    for (const auto& entry : node.entries()) {
      if (schema->find(entry.first)) kept.push_back(entry);
    }
    return ParamSet::parse(schema, InputNode::mapping(std::move(kept), node.location()), path);
  }

  static void requireMapping(const InputNode& node, const std::string& path) {
    if (!node.isMapping() && !node.isNull()) {
      throw InputError(at(node) + path + ": expected a mapping, got a " + node.kindName());
    }
  }

  // ---- contact ------------------------------------------------------------------------------

  /// The `contact` section's model (SmoothContact "contact", its `params`) and the signals of
  /// its outputs, `contact.<output>`.
  void declareContact(const InputNode& node, AssemblyInputs& top) {
    requireMapping(node, "contact");
    warnUnknown(node, "contact",
                {"params", "angle_degrees", "event_accurate", "materials", "shapes", "exclude"});
    ModelDefinition model;
    model.name = "contact";
    model.className = "SmoothContact";
    model.where = node.location();
    if (const InputNode* params = node.find("params")) {
      requireMapping(*params, "contact.params");
      model.params = *params;
    }
    for (const FieldSpec& output :
         models::SmoothContact::declaration().fields(FieldRole::FlowOut)) {
      SignalDefinition signal;
      signal.name = "contact." + output.name;
      signal.type = output.type;
      signal.length = output.length;
      signal.unit = output.unit;
      signal.where = node.location();
      top.signals.push_back(signal);
      model.ties.push_back(SignalTie{output.name, signal.name, 0, std::nullopt, node.location()});
    }
    top.models.push_back(std::move(model));
  }

  /// The section's materials, shapes (each on its `body`; `world` for the ground) and excluded
  /// body pairs, read with the keys of Chrono's `contact` entries (docs/scenario-yaml.md).
  void addContactShapes(const InputNode& node, const std::string& file) {
    namespace cd = chrono::detail;
    auto& contact = dynamic_cast<models::SmoothContact&>(scenario_.sim_->model("contact"));
    cd::Reader r(node.location().known() ? node.location().file : file, scenario_.warnings_);
    bool degrees = false;
    if (const InputNode* d = node.find("angle_degrees"))
      degrees = r.boolean(*d, "contact.angle_degrees");
    if (const InputNode* e = node.find("event_accurate"))
      contactEvents_ = r.boolean(*e, "contact.event_accurate");
    std::vector<mechanism::ContactMaterial> materials;
    if (const InputNode* list = cd::Reader::optional(node, "materials")) {
      const auto& items = r.sequence(*list, "contact.materials");
      for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string path = cd::item("contact.materials", i);
        materials.push_back(cd::readContactMaterial(r, items[i], path));
        locatedAt(items[i].location(), "", [&] {
          return contact.addMaterial(materials.back().name, materials.back().properties);
        });
      }
    }
    if (const InputNode* list = cd::Reader::optional(node, "shapes")) {
      const auto& items = r.sequence(*list, "contact.shapes");
      for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string path = cd::item("contact.shapes", i);
        const mechanism::ContactShape shape =
            cd::readContactShape(r, degrees, items[i], path, materials, cd::ShapeSet::Native);
        auto [s, warning] = cd::lowerShape(shape, materials, 0, r.file(), "");
        if (!warning.empty()) scenario_.warnings_.push_back(warning);
        const InputNode& body = r.required(items[i], path, "body");
        s.body = r.text(body, cd::at(path, "body"));
        const multibody::MultibodyModel& tree = scenario_.sim_->multibody().model();
        std::vector<std::string> bodies;
        for (int b = 0; b < tree.bodyCount(); ++b) bodies.push_back(tree.bodyName(b));
        if (std::find(bodies.begin(), bodies.end(), s.body) == bodies.end()) {
          r.fail(body, cd::at(path, "body"),
                 "no body '" + s.body + "' in the simulation" + didYouMean(s.body, bodies));
        }
        s.X_BS = shape.X_RS;
        locatedAt(items[i].location(), "", [&] { return contact.addShape(std::move(s)); });
      }
    }
    if (const InputNode* list = cd::Reader::optional(node, "exclude")) {
      const auto& items = r.sequence(*list, "contact.exclude");
      for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string path = cd::item("contact.exclude", i);
        const auto& pair = r.sequence(items[i], path);
        if (pair.size() != 2) r.fail(items[i], path, "expected two body names [a, b]");
        contact.excludePair(r.text(pair[0], cd::item(path, 0)), r.text(pair[1], cd::item(path, 1)));
      }
    }
  }

  // ---- simulation ---------------------------------------------------------------------------

  void createSimulation(const ParamSet& s) {
    const SimulationSection& S = *schemaOf<SimulationSection>();
    if (!s.has(S.endTime)) s.fail("end_time", "missing required field");
    SimulationOptions options;
    options.startTime = s[S.startTime];
    options.ioStepSize = s[S.ioStep];
    options.integrationSteps = static_cast<int>(s[S.integrationSteps]);
    if (s.has(S.timeStep)) {
      // The relative slack keeps an io_step that is a multiple of time_step from rounding up.
      const double steps = std::ceil(options.ioStepSize / s[S.timeStep] * (1.0 - 1e-12));
      if (!(steps < 1e9)) {
        s.fail("time_step", "time_step " + describeValue(s[S.timeStep]) +
                                " s makes more than 1e9 sub-steps per io_step");
      }
      options.integrationSteps = std::max(1, static_cast<int>(steps));
    }
    options.integrator = s[S.integrator];
    options.integratorOptions.relativeTolerance = s[S.rtol];
    options.integratorOptions.absoluteTolerance = s[S.atol];
    options.integratorOptions.maxStep = s[S.maxStep];
    options.integratorOptions.multistep =
        s[S.method] == "adams" ? MultistepMethod::Adams : MultistepMethod::Bdf;
    options.integratorOptions.nonlinearSolver = s[S.nonlinearSolver] == "fixed_point"
                                                    ? NonlinearSolver::FixedPoint
                                                    : NonlinearSolver::Newton;
    options.integratorOptions.continueAcrossHops = s[S.continueAcrossHops];
    options.stateBound = s[S.stateBound];
    if (s[S.endTime] < s[S.startTime]) {
      s.fail("end_time", "end_time " + describeValue(s[S.endTime]) + " s is before start_time " +
                             describeValue(s[S.startTime]) + " s");
    }
    scenario_.endTime_ = s[S.endTime];
    scenario_.sim_ = std::make_unique<Simulation>(options);
    const auto& g = s[S.gravity];
    scenario_.sim_->multibody().setGravity(spatial::Vector3(g[0], g[1], g[2]));
    scenario_.top_ = std::make_unique<SimulationAssembly>(*scenario_.sim_, &registry_);
    scenario_.top_->mechanismFiles() = std::move(files_);
  }

  // ---- definitions --------------------------------------------------------------------------

  std::vector<SignalDefinition> signalDefinitions(const InputNode* node, const std::string& path) {
    std::vector<SignalDefinition> out;
    if (node == nullptr || node->isNull()) return out;
    requireMapping(*node, path);
    const SignalSection& S = *schemaOf<SignalSection>();
    for (const auto& [name, value] : node->entries()) {
      const ParamSet s = parseKnown<SignalSection>(value, path + "." + name, {"value"});
      SignalDefinition d;
      d.name = name;
      const std::string& type = s[S.type];
      d.type = type == "int"      ? ElementType::Int
               : type == "bool"   ? ElementType::Bool
               : type == "string" ? ElementType::String
                                  : ElementType::Double;
      d.length = static_cast<std::size_t>(s[S.length]);
      d.unit = s[S.unit];
      d.description = s[S.description];
      if (const InputNode* initial = value.find("value")) {
        d.value = typedValue(path + "." + name + ".value", d.type, d.length, d.unit, *initial);
      }
      d.where = value.location();
      out.push_back(std::move(d));
    }
    return out;
  }

  /// `{child: parent}` or `{child: {signal: parent, offset: i, length: n}}`.
  std::vector<SignalTie> ties(const InputNode* node, const std::string& path) {
    std::vector<SignalTie> out;
    if (node == nullptr || node->isNull()) return out;
    requireMapping(*node, path);
    const TieSection& T = *schemaOf<TieSection>();
    for (const auto& [name, value] : node->entries()) {
      SignalTie t;
      t.child = name;
      t.where = value.location();
      if (value.isScalar() && std::holds_alternative<std::string>(value.scalar())) {
        t.parent = std::get<std::string>(value.scalar());
      } else {
        const ParamSet s = parseKnown<TieSection>(value, path + "." + name);
        t.parent = s[T.signal];
        t.offset = static_cast<std::size_t>(s[T.offset]);
        if (s.has(T.length)) t.length = static_cast<std::size_t>(s[T.length]);
      }
      out.push_back(std::move(t));
    }
    return out;
  }

  std::vector<ModelDefinition> modelDefinitions(const InputNode* node, const std::string& path) {
    std::vector<ModelDefinition> out;
    if (node == nullptr || node->isNull()) return out;
    requireMapping(*node, path);
    const ModelSection& M = *schemaOf<ModelSection>();
    for (const auto& [name, value] : node->entries()) {
      const std::string entryPath = path + "." + name;
      const ParamSet s = parseKnown<ModelSection>(value, entryPath, {"params", "ties"});
      ModelDefinition d;
      d.name = name;
      d.className = s[M.className];
      d.where = value.location();
      if (const InputNode* params = value.find("params")) d.params = *params;
      d.ties = ties(value.find("ties"), entryPath + ".ties");
      if (s.has(M.node) || s.has(M.body)) {
        d.attachment = ModelAttachment{s.has(M.node) ? s[M.node] : std::string(),
                                       s.has(M.body) ? s[M.body] : std::string(),
                                       static_cast<int>(s[M.subhinge])};
      }
      if (s.has(M.rate)) d.rate = s[M.rate];
      out.push_back(std::move(d));
    }
    return out;
  }

  std::vector<AssemblyInputs::Child> children(const InputNode* node, const std::string& path) {
    std::vector<AssemblyInputs::Child> out;
    if (node == nullptr || node->isNull()) return out;
    requireMapping(*node, path);
    for (const auto& [name, value] : node->entries()) {
      out.push_back(assemblyDefinition(name, value, path + "." + name));
    }
    return out;
  }

  /// An assembly definition: its structural keys; every other key is a config field.
  AssemblyInputs::Child assemblyDefinition(const std::string& name, const InputNode& value,
                                           const std::string& path) {
    requireMapping(value, path);
    AssemblyInputs::Child child;
    child.name = name;
    child.className = "Assembly";
    AssemblyInputs& in = child.inputs;
    in.where = value.location();
    std::vector<InputNode::Entry> config;
    for (const auto& [key, item] : value.entries()) {
      if (key == "class") {
        const auto* cls = std::get_if<std::string>(&item.scalar());
        if (!item.isScalar() || cls == nullptr) {
          throw InputError(at(item) + path + ".class: expected a class name, got " +
                           item.describe());
        }
        child.className = *cls;
      } else if (key == "description") {
        in.description = item.describe();
      } else if (key == "context") {
        in.context = item;
      } else if (key == "params") {
        in.params = item;
      } else if (key == "signals") {
        in.signals = signalDefinitions(&item, path + ".signals");
      } else if (key == "signal_ties") {
        in.signalTies = ties(&item, path + ".signal_ties");
      } else if (key == "models") {
        in.models = modelDefinitions(&item, path + ".models");
      } else if (key == "assemblies") {
        in.assemblies = children(&item, path + ".assemblies");
      } else {
        config.emplace_back(key, item);
      }
    }
    in.config = InputNode::mapping(std::move(config), value.location());
    return child;
  }

  // ---- breaks, overrides, events, logging -----------------------------------------------------

  void addBreaks(const InputNode* node) {
    if (node == nullptr || node->isNull()) return;
    if (!node->isSequence()) {
      throw InputError(at(*node) + "breaks: expected a sequence of \"model.flowIn\"");
    }
    for (const InputNode& item : node->items()) {
      const auto* name = std::get_if<std::string>(&item.scalar());
      const std::size_t dot = name != nullptr ? name->rfind('.') : std::string::npos;
      if (!item.isScalar() || dot == std::string::npos) {
        throw InputError(at(item) + "breaks: expected \"model.flowIn\", got " + item.describe());
      }
      try {
        scenario_.sim_->addBreak(name->substr(0, dot), name->substr(dot + 1));
      } catch (const Error& e) {
        throw InputError(locateMessage(item.location(), "breaks", e.what()));
      }
    }
  }

  /// A value for a variable, parsed against its type, length and unit.
  Value valueFor(const std::string& path, const InputNode& input) {
    const Variable& v = scenario_.sim_->variables().at(path);
    return typedValue(path, v.type(), v.length(), v.unit(), input);
  }

  /// `input` as a value of `type` and `length` in `unit` (other units of the same dimension
  /// convert), checked as a parameter is; messages name `path`.
  static Value typedValue(const std::string& path, ElementType type, std::size_t length,
                          const std::string& unit, const InputNode& input) {
    // A one-field schema whose field is the path's last segment, so messages name the path.
    const std::size_t dot = path.rfind('.');
    auto schema = std::make_shared<ParamSchema>();
    ParamField f;
    f.name = path.substr(dot + 1);
    f.unit = unit == "1" ? std::string() : unit;
    switch (type) {
      case ElementType::Bool:
        f.type = ParamType::Bool;
        break;
      case ElementType::String:
        f.type = ParamType::String;
        break;
      case ElementType::Int:
        f.type = length == 1 ? ParamType::Int : ParamType::IntegerVector;
        break;
      case ElementType::Double:
        f.type = length == 1 ? ParamType::Double : ParamType::DoubleVector;
        break;
    }
    if (length > 1) f.minLength = f.maxLength = length;
    f.allowNonFinite = true;  // the variable itself decides what it accepts
    schema->addField(std::move(f));
    const ParamSet parsed = ParamSet::parse(
        schema, InputNode::mapping({{path.substr(dot + 1), input}}), path.substr(0, dot));
    std::optional<Value> value;
    std::visit(
        [&](const auto& x) {
          if constexpr (std::is_constructible_v<Value, std::decay_t<decltype(x)>>) value = x;
        },
        parsed.value(0));
    return *value;
  }

  void applyToVariable(const Override& o) {
    try {
      scenario_.sim_->set(o.path, valueFor(o.path, o.value));
    } catch (const Error& e) {
      throw InputError(locateMessage(o.value.location(), "", e.what()));
    }
  }

  void addEvents(const InputNode& events) {
    requireMapping(events, "events");
    if (events.isNull()) return;
    const EventSection& E = *schemaOf<EventSection>();
    for (const auto& [name, value] : events.entries()) {
      const std::string path = "events." + name;
      InputNode definition = value;
      // `at: 2.0` is the one-time form of `at: [2.0]`.
      if (const InputNode* times = definition.find("at"); times && times->isScalar()) {
        definition.set("at", InputNode::sequence({*times}, times->location()));
      }
      // `when.value` is read against the variable's unit, apart from the section's schema.
      const InputNode* target = nullptr;
      if (const InputNode* when = value.find("when"); when && when->isMapping()) {
        target = when->find("value");
        std::vector<InputNode::Entry> rest;
        for (const auto& entry : when->entries()) {
          if (entry.first != "value") rest.push_back(entry);
        }
        definition.set("when", InputNode::mapping(std::move(rest), when->location()));
      }
      const ParamSet e = locatedAt(value.location(), "", [&] {
        return parseKnown<EventSection>(definition, path, {"set"});
      });
      const EventCallback action = makeAction(name, e, value.find("set"), path);
      EventOptions options;
      options.priority = static_cast<int>(e[E.priority]);
      Simulation& sim = *scenario_.sim_;
      try {
        if (e.has(E.at)) {
          sim.registerTimedEvent(name, e[E.at], action, options);
        } else if (e.has(E.every)) {
          sim.registerPeriodicEvent(name, e.has(E.start) ? e[E.start] : sim.time(), e[E.every],
                                    action, options);
        } else {
          addCrossing(name, e[E.when], target, action, options.priority);
        }
      } catch (const Error& err) {
        throw InputError(locateMessage(value.location(), path, err.what()));
      }
    }
  }

  EventCallback makeAction(const std::string& name, const ParamSet& e, const InputNode* set,
                           const std::string& path) {
    const EventSection& E = *schemaOf<EventSection>();
    std::vector<std::pair<std::string, Value>> assignments;
    if (set != nullptr && !set->isNull()) {
      requireMapping(*set, path + ".set");
      for (const auto& [variable, value] : set->entries()) {
        try {
          assignments.emplace_back(variable, valueFor(variable, value));
        } catch (const Error& err) {
          throw InputError(locateMessage(value.location(), path + ".set." + variable, err.what()));
        }
      }
    }
    std::optional<std::string> log;
    if (e.has(E.log)) log = e[E.log];
    // The action outlives this builder: it keeps the scenario, not the builder.
    return
        [&eventLog = scenario_.eventLog_, &fired = scenario_.eventsFired_, name,
         assignments = std::move(assignments), log, stop = e[E.stop]](Simulation& sim, double t) {
          ++fired;
          for (const auto& [variable, value] : assignments) sim.set(variable, value);
          if (log) eventLog.push_back({t, name, *log});
          if (stop) sim.requestStop();
        };
  }

  /// A crossing target in the variable's unit. A variable without a declared unit (the
  /// coordinates Q, whose elements mix radians and meters) takes any unit, converted to SI.
  static double targetValue(const InputNode& target, const Variable& variable,
                            const std::string& path) {
    const std::string unit = variable.unit() == "1" ? std::string() : variable.unit();
    if (unit.empty() && target.isScalar()) {
      if (const auto* text = std::get_if<std::string>(&target.scalar())) {
        if (const auto q = splitQuantity(*text); q && !q->unit.empty()) {
          try {
            return q->value * parseUnit(q->unit).scale;
          } catch (const InputError& e) {
            throw InputError(locateMessage(target.location(), path + ".value", e.what()));
          }
        }
      }
    }
    const double value =
        std::get<double>(typedValue(path + ".value", ElementType::Double, 1, unit, target));
    if (!std::isfinite(value)) {
      throw InputError(locateMessage(target.location(), path + ".value",
                                     "the target " + target.describe() + " is not finite"));
    }
    return value;
  }

  /// `target` is the raw `when.value`: parsed against the variable's unit (0 when absent).
  void addCrossing(const std::string& name, const ParamSet& when, const InputNode* target,
                   EventCallback action, int priority) {
    const CrossingSection& C = *schemaOf<CrossingSection>();
    Simulation& sim = *scenario_.sim_;
    const std::string& path = when[C.variable];
    Variable& variable = sim.variables().at(path);  // throws with suggestions
    const auto element = static_cast<std::size_t>(when[C.element]);
    if (variable.type() == ElementType::String || element >= variable.length()) {
      when.fail("element", "'" + path + "' has " + std::to_string(variable.length()) +
                               " numeric elements; element " + std::to_string(element) +
                               " does not exist");
    }
    const double value = target != nullptr ? targetValue(*target, variable, when.path()) : 0.0;
    ZeroCrossingOptions options;
    options.priority = priority;
    options.timeTolerance = when[C.tolerance];
    const std::string& d = when[C.direction];
    const CrossingDirection direction = d == "rising"    ? CrossingDirection::Rising
                                        : d == "falling" ? CrossingDirection::Falling
                                                         : CrossingDirection::Either;
    sim.registerZeroCrossing(
        name,
        [&variable, element, value](Simulation&, double) {
          return variable.element(element) - value;
        },
        direction, std::move(action), options);
  }

  /// `name: path` or `name: path[i]` entries of logging.columns.
  static std::vector<Recorder::NamedColumn> namedColumns(const StringMap& columns) {
    std::vector<Recorder::NamedColumn> out;
    for (const auto& [name, source] : columns) {
      Recorder::NamedColumn c{name, source, 0};
      if (const std::size_t open = source.rfind('[');
          open != std::string::npos && source.back() == ']') {
        const std::string index = source.substr(open + 1, source.size() - open - 2);
        if (index.empty() || index.size() > 9 ||
            index.find_first_not_of("0123456789") != std::string::npos) {
          throw InputError("logging.columns." + name + ": '" + source +
                           "' (expected a variable path, or path[i] with a non-negative index)");
        }
        c.path = source.substr(0, open);
        c.element = std::stoul(index);
      }
      out.push_back(std::move(c));
    }
    return out;
  }

  void addLogging(const InputNode* node, const std::string& file) {
    if (node == nullptr || node->isNull()) {
      scenario_.recorder_ = std::make_unique<Recorder>(*scenario_.sim_);
      return;
    }
    const ParamSet l = parseKnown<LoggingSection>(*node, "logging");
    const LoggingSection& L = *schemaOf<LoggingSection>();
    Recorder::Triggers triggers;
    if (l.has(L.rate)) triggers.rate = l[L.rate];
    triggers.events = l[L.events];
    triggers.everyHop = l[L.everyHop];
    try {
      scenario_.recorder_ = std::make_unique<Recorder>(*scenario_.sim_, l[L.variables],
                                                       namedColumns(l[L.columns]), triggers);
    } catch (const InputError& e) {
      throw InputError(locateMessage(node->location(), "", e.what()));
    }
    reserveRecording(triggers);
    if (l.has(L.file)) {
      scenario_.logFile_ =
          (std::filesystem::path(file).parent_path() / l[L.file]).lexically_normal().string();
    }
  }

  /// Room for every periodic sample of the planned run, so that recording allocates nothing
  /// while it runs; up to 2^24 values (128 MiB), beyond which the columns grow as they fill.
  /// (Samples on events and hops come on top: their number is not known in advance.)
  void reserveRecording(const Recorder::Triggers& triggers) {
    Recorder& recorder = *scenario_.recorder_;
    const Simulation& sim = *scenario_.sim_;
    const double perSecond = 1.0 / triggers.samplePeriod(sim);
    const double rows = std::floor((scenario_.endTime_ - sim.time()) * perSecond) + 2.0;
    const double affordable =
        static_cast<double>(std::size_t{1} << 24) / static_cast<double>(recorder.columns().size());
    recorder.reserve(static_cast<std::size_t>(std::min(rows, affordable)));
  }

  Scenario& scenario_;
  bool contactEvents_ = false;  // the contact section's event_accurate
  const AssemblyRegistry& registry_;
  MechanismFiles files_;  // read before the build, handed to the assembly tree
};

Scenario::Scenario() = default;
Scenario::~Scenario() = default;

std::unique_ptr<Scenario> Scenario::load(const std::string& path,
                                         const std::vector<std::string>& overrides,
                                         const AssemblyRegistry& registry) {
  RunDocument run = runDocumentFor(loadYamlFile(path), path, overrides);
  std::unique_ptr<Scenario> scenario =
      build(std::move(run.document), path, overrides, registry, std::move(run.files));
  scenario->warnings_.insert(scenario->warnings_.begin(), run.warnings.begin(), run.warnings.end());
  return scenario;
}

std::unique_ptr<Scenario> Scenario::build(InputNode document, const std::string& file,
                                          const std::vector<std::string>& overrides,
                                          const AssemblyRegistry& registry) {
  return build(std::move(document), file, overrides, registry, {});
}

std::unique_ptr<Scenario> Scenario::build(InputNode document, const std::string& file,
                                          const std::vector<std::string>& overrides,
                                          const AssemblyRegistry& registry, MechanismFiles files) {
  std::unique_ptr<Scenario> scenario(new Scenario());
  scenario->file_ = file;
  // The assemblies' warnings (a Chrono model's unknown keys) follow the loader's own.
  const auto collectAssemblyWarnings = [&scenario] {
    if (!scenario->top_) return;
    const std::vector<std::string>& w = scenario->top_->warnings();
    scenario->warnings_.insert(scenario->warnings_.end(), w.begin(), w.end());
  };
  try {
    Builder(*scenario, registry, std::move(files)).build(std::move(document), file, overrides);
    collectAssemblyWarnings();
  } catch (const Error& e) {
    collectAssemblyWarnings();
    // Warnings found before the error often explain it (a misspelled `simulaton:`).
    if (scenario->warnings_.empty()) throw;
    std::string message = e.what();
    message += "\nwarnings before this error:";
    for (const std::string& w : scenario->warnings_) message += "\n  " + w;
    rethrowAs(e, message);
  }
  return scenario;
}

void Scenario::run() { sim_->advanceTimeTo(endTime_); }

}  // namespace hopsim
