#include "hopsim/assemblies/assembly.h"

#include <algorithm>

#include "assembly_tie.h"
#include "hopsim/assemblies/assembly_registry.h"
#include "hopsim/assemblies/mechanism_files.h"
#include "hopsim/assemblies/model_params.h"
#include "hopsim/core/darts_model.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "param_variable.h"

namespace hopsim {

Assembly::~Assembly() = default;

std::string Assembly::variableBranch() const {
  return path_.empty() ? std::string("assemblies") : "assemblies." + path_;
}

std::string Assembly::qualified(std::string_view localName) const {
  return path_.empty() ? std::string(localName) : path_ + "." + std::string(localName);
}

Assembly& Assembly::child(std::string_view name) const {
  for (const auto& c : children_) {
    if (c->name_ == name) return *c;
  }
  std::vector<std::string> names;
  for (const auto& c : children_) names.push_back(c->name_);
  throw InputError(describeAssembly(path_) + " has no child assembly '" + std::string(name) + "'" +
                   didYouMean(name, names));
}

Assembly& Assembly::find(std::string_view relativePath) const {
  const std::size_t dot = relativePath.find('.');
  Assembly& next = child(relativePath.substr(0, dot));
  return dot == std::string_view::npos ? next : next.find(relativePath.substr(dot + 1));
}

SimulationAssembly& Assembly::top() {
  Assembly* a = this;
  while (a->parent_ != nullptr) a = a->parent_;
  return static_cast<SimulationAssembly&>(*a);
}

const AssemblyRegistry& Assembly::registry() const {
  const Assembly* a = this;
  while (a->parent_ != nullptr) a = a->parent_;
  const auto* registry = static_cast<const SimulationAssembly*>(a)->registry_;
  return registry != nullptr ? *registry : assemblyRegistry();
}

// ---- signals --------------------------------------------------------------------------------

std::vector<std::string> Assembly::signalNames() const {
  std::vector<std::string> names;
  for (const auto& [name, ref] : signals_) names.push_back(name);
  return names;
}

SignalRef Assembly::signal(std::string_view localName) const {
  if (const auto found = signalIndex_.find(localName); found != signalIndex_.end()) {
    return signals_[found->second].second;
  }
  if (parent_ == nullptr) {
    // The top's scope is the whole simulation: full names reach every assembly's signals.
    try {
      const Signal& s = sim_->signal(localName);
      return {std::string(localName), 0, s.length()};
    } catch (const NotFoundError&) {
      throw InputError(describeAssembly(path_) + " has no signal '" + std::string(localName) + "'" +
                       didYouMean(localName, sim_->signalNames()));
    }
  }
  throw InputError(describeAssembly(path_) + " has no signal '" + std::string(localName) +
                   "' (its signals are its own and those tied to it)" +
                   didYouMean(localName, signalNames()));
}

SignalRef Assembly::addSignal(const std::string& localName, ElementType type, std::size_t length,
                              std::string unit, std::string description) {
  // A dotted name ("bodies.crank.position") groups related signals; each segment is checked.
  VariableTree::checkPath(localName, "signal name");
  if (signalIndex_.contains(localName)) {
    throw InputError(describeAssembly(path_) + " declares signal '" + localName + "' twice");
  }
  const auto declare = [&](SignalRef ref) {
    signalIndex_.emplace(localName, signals_.size());
    signals_.emplace_back(localName, std::move(ref));
    return signals_.back().second;
  };
  for (const auto& record : offeredTies_) {
    if (record->tie.child != localName) continue;
    record->consume(*sim_, path_, type, length);
    return declare(record->target);
  }
  const std::string name = qualified(localName);
  const Signal& s = sim_->addSignal(name, type, length, std::move(unit), std::move(description));
  createdSignals_.push_back(name);
  return declare(SignalRef{name, 0, s.length()});
}

std::optional<SignalRef> Assembly::offeredTie(std::string_view localName) const {
  for (const auto& record : offeredTies_) {
    if (record->tie.child == localName) return record->target;
  }
  return std::nullopt;
}

// ---- models ---------------------------------------------------------------------------------

Model& Assembly::adoptModel(std::unique_ptr<Model> model) {
  Model& added = sim_->addModel(std::move(model));
  models_.push_back(added.name());
  return added;
}

Model& Assembly::addModel(std::string_view className, const std::string& localName,
                          const InputNode& params) {
  const ModelRegistry& models = models::modelRegistry();
  const std::string name = qualified(localName);
  const ParamSet values = ParamSet::parse(modelParamsSchema(models.spec(className)), params,
                                          "models." + name + ".params");
  return adoptModel(models.create(className, name, modelParamValues(values)));
}

void Assembly::tie(Model& model, std::string_view port, std::string_view localSignal) {
  const SignalRef ref = signal(localSignal);
  tie(model, port, localSignal, 0, ref.length);
}

void Assembly::tie(Model& model, std::string_view port, std::string_view localSignal,
                   std::size_t offset, std::size_t length) {
  const SignalRef ref = signal(localSignal);
  if (offset + length > ref.length) {
    throw InputError(describeAssembly(path_) + ": tie of " + model.name() + "." +
                     std::string(port) + " to elements [" + std::to_string(offset) + ", " +
                     std::to_string(offset + length) + ") of signal '" + std::string(localSignal) +
                     "', which has " + std::to_string(ref.length) + " elements");
  }
  const Signal& s = sim_->signal(ref.signal);
  if (ref.offset + offset == 0 && length == s.length()) {
    sim_->tie(model.name(), port, ref.signal);
  } else {
    sim_->tie(model.name(), port, ref.signal, ref.offset + offset, length);
  }
}

void Assembly::attachModel(Model& model, const ModelAttachment& at) {
  const std::string what = "model '" + model.name() + "' (" + model.spec().className() + ")";
  if (auto* nodeModel = dynamic_cast<NodeModel*>(&model); nodeModel != nullptr) {
    if (at.node.empty()) throw InputError(what + " attaches to a node: give `node`");
    nodeModel->attachToNode(at.node);
  } else if (auto* hingeModel = dynamic_cast<HingeModel*>(&model); hingeModel != nullptr) {
    if (at.body.empty()) {
      throw InputError(what + " attaches to a hinge: give `body` (and `subhinge`)");
    }
    hingeModel->attachToHinge(at.body, at.subhinge);
  } else {
    throw InputError(what + " is a " + toString(model.kind()) +
                     ", which does not attach to the multibody system; remove its attachment");
  }
}

void Assembly::addDefinedModel(const ModelDefinition& definition) {
  locatedAt(definition.where, "", [&] {
    Model& model = addModel(definition.className, definition.name, definition.params);
    definitionSites_[{ErrorSubject::Kind::Model, model.name()}] = definition.where;
    if (definition.attachment) attachModel(model, *definition.attachment);
    for (const SignalTie& t : definition.ties) {
      locatedAt(t.where, "", [&] {
        const SignalRef ref = signal(t.parent);
        const std::size_t length = t.length.value_or(ref.length - std::min(t.offset, ref.length));
        tie(model, t.child, t.parent, t.offset, length);
      });
    }
    if (definition.rate) sim_->setModelRate(model.name(), *definition.rate);
  });
}

// ---- bodies ---------------------------------------------------------------------------------

std::optional<std::string> Assembly::contextBody() const {
  for (const Assembly* a = this; a != nullptr; a = a->parent_) {
    if (!a->context_) continue;
    for (const char* key : {"parentBody", "body"}) {
      const auto field = a->context_->schema().find(key);
      if (!field || !a->context_->has(*field)) continue;
      if (const auto* name = std::get_if<std::string>(&a->context_->value(*field))) return *name;
    }
  }
  return std::nullopt;
}

MultibodySystem::BodyIndex Assembly::addBody(const std::string& name,
                                             const spatial::SpatialInertia& M_BBo_B,
                                             const multibody::Hinge& hinge,
                                             const spatial::RigidTransform& X_PF,
                                             const spatial::RigidTransform& X_BM,
                                             std::optional<std::string> parent) {
  if (!parent) parent = contextBody();
  multibody::MultibodyModel& tree = sim_->multibody().editModel();
  const MultibodySystem::BodyIndex p = parent ? tree.bodyIndex(*parent) : 0;
  const MultibodySystem::BodyIndex b = tree.addBody(name, p, M_BBo_B, hinge, X_PF, X_BM);
  bodies_.push_back(name);
  return b;
}

void Assembly::warn(std::string message) { top().warnings_.push_back(std::move(message)); }

std::shared_ptr<const mechanism::Mechanism> Assembly::readMechanism(const std::string& path) {
  return top().mechanismFiles().read(path);
}

// ---- children -------------------------------------------------------------------------------

Assembly& Assembly::addAssembly(std::string_view className, std::string name,
                                AssemblyInputs inputs) {
  const AssemblyClass* cls = nullptr;
  try {
    cls = &registry().get(className);
  } catch (const InputError& e) {
    throw InputError(locateMessage(inputs.where, "assembly '" + qualified(name) + "'", e.what()));
  }
  return addAssembly(*cls, std::move(name), std::move(inputs));
}

Assembly& Assembly::addAssembly(const AssemblyClass& cls, std::string name, AssemblyInputs inputs) {
  const std::string childPath = qualified(name);
  if (sim_->locked()) {
    throw ModelError("addAssembly('" + childPath + "'): the simulation is locked; unlock first");
  }
  try {
    VariableTree::checkPath(name, "assembly name");
    if (name.find('.') != std::string::npos) {
      throw InputError("assembly name '" + name + "' must be one segment (no '.')");
    }
    for (const auto& c : children_) {
      if (c->name_ == name) throw InputError("assembly '" + childPath + "' already exists");
    }
  } catch (const InputError& e) {
    throw InputError(locateMessage(inputs.where, "", e.what()));
  }
  std::unique_ptr<Assembly> made = cls.make();
  made->sim_ = sim_;
  made->parent_ = this;
  made->path_ = childPath;
  made->offeredTies_ = offerTies(childPath, inputs.signalTies);
  children_.push_back(std::move(made));
  Assembly& child = *children_.back();
  // What goes wrong while the class builds (a body under a parent that does not exist) is
  // located at the definition.
  const SourceLocation where = inputs.where;
  locatedAt(where, "", [&] {
    try {
      child.construct(cls, this, std::move(name), std::move(inputs));
    } catch (...) {
      child.teardown();
      children_.pop_back();
      throw;
    }
  });
  return child;
}

void Assembly::construct(const AssemblyClass& cls, Assembly* parent, std::string name,
                         AssemblyInputs inputs) {
  class_ = &cls;
  parent_ = parent;
  name_ = std::move(name);
  definition_ = std::move(inputs);
  const std::string branch = variableBranch();
  try {
    config_ = std::make_unique<ParamSet>(
        ParamSet::parse(cls.config, definition_.config, branch + ".config"));
    context_ = std::make_unique<ParamSet>(
        ParamSet::parse(cls.context, definition_.context, branch + ".context"));
    params_ = std::make_unique<ParamSet>(
        ParamSet::parse(makeParamsSchema(), definition_.params, branch + ".params"));
  } catch (const InputError& e) {
    // Name the class: the message already names the path and the field.
    throw InputError(std::string(e.what()) + " [" + cls.name + " '" + path_ + "']");
  }
  registerVariables();
  addSignals();
  addDefinitionSignals();
  addModels();
  addDefinitionModels();
  addAssemblies();
  addDefinitionChildren();
}

void Assembly::addDefinitionSignals() {
  for (const SignalDefinition& s : definition_.signals) {
    try {
      const SignalRef ref = addSignal(s.name, s.type, s.length, s.unit, s.description);
      // A signal the parent tied was declared where the parent's was.
      if (ref.signal == qualified(s.name)) {
        definitionSites_[{ErrorSubject::Kind::Signal, ref.signal}] = s.where;
      }
      if (s.value) {
        Signal& signal = sim_->signal(ref.signal);
        signal.buffer().set(ref.offset, ref.length, *s.value, "signals." + ref.signal);
        signal.markWritten();
      }
    } catch (const InputError& e) {
      throw InputError(locateMessage(s.where, "", e.what()));
    }
  }
}

void Assembly::addDefinitionModels() {
  for (const ModelDefinition& m : definition_.models) addDefinedModel(m);
}

void Assembly::addDefinitionChildren() {
  for (AssemblyInputs::Child& c : definition_.assemblies) {
    addAssembly(c.className, c.name, std::move(c.inputs));
  }
  definition_.assemblies.clear();
}

void Assembly::registerVariables() {
  const std::string branch = variableBranch();
  const std::pair<const char*, const ParamSet*> groups[] = {
      {"config", config_.get()}, {"context", context_.get()}, {"params", params_.get()}};
  for (const auto& [group, set] : groups) {
    for (const std::string& leaf : set->leafPaths()) {
      std::string path = branch + "." + group + "." + leaf;
      sim_->variables().add(
          path, std::make_unique<ParamVariable>(const_cast<ParamSet&>(*set), leaf, paramsBound_));
      variables_.push_back(std::move(path));
    }
  }
}

// ---- binding --------------------------------------------------------------------------------

void Assembly::bindParamsTree() {
  if (!paramsBound_) {
    locatedAt(definition_.where, "", [&] { bindParams(); });
    paramsBound_ = true;
  }
  for (const auto& c : children_) c->bindParamsTree();
}

void Assembly::bindStateTree() {
  if (!stateBound_) {
    locatedAt(definition_.where, "", [&] { bindState(); });
    stateBound_ = true;
  }
  for (const auto& c : children_) c->bindStateTree();
}

SourceLocation Assembly::whereDefined(const ErrorSubject& subject) const {
  if (const auto found = definitionSites_.find({subject.kind, subject.name});
      found != definitionSites_.end() && found->second.known()) {
    return found->second;
  }
  for (const auto& c : children_) {
    if (SourceLocation where = c->whereDefined(subject); where.known()) return where;
  }
  // Made by the assembly's class, or by a definition that has no location: where the assembly
  // is defined.
  const std::vector<std::string>& made =
      subject.kind == ErrorSubject::Kind::Model ? models_ : createdSignals_;
  if (std::find(made.begin(), made.end(), subject.name) != made.end()) return definition_.where;
  return {};
}

std::vector<std::string> Assembly::signalNamesBelow() const {
  std::vector<std::string> names = signalNames();
  for (const auto& c : children_) {
    for (std::string& n : c->signalNamesBelow()) names.push_back(std::move(n));
  }
  return names;
}

void Assembly::teardown() noexcept {
  for (auto it = children_.rbegin(); it != children_.rend(); ++it) (*it)->teardown();
  children_.clear();
  for (auto& record : offeredTies_) record->forget(path_);
  // Removal cannot fail for things this assembly created itself; a failure would only leave
  // an orphan behind, never corrupt the simulation, so it is not allowed to escape.
  for (auto it = models_.rbegin(); it != models_.rend(); ++it) {
    try {
      sim_->removeModel(*it);
    } catch (const Error&) {
    }
  }
  for (auto it = createdSignals_.rbegin(); it != createdSignals_.rend(); ++it) {
    try {
      sim_->removeSignal(*it);
    } catch (const Error&) {
    }
  }
  multibody::MultibodyModel& tree = sim_->multibody().editModel();
  for (auto it = bodies_.rbegin(); it != bodies_.rend(); ++it) {
    try {
      tree.removeBody(tree.bodyIndex(*it));
    } catch (const Error&) {
    }
  }
  for (const std::string& v : variables_) sim_->variables().remove(v);
  models_.clear();
  createdSignals_.clear();
  bodies_.clear();
  variables_.clear();
}

}  // namespace hopsim
