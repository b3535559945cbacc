#pragma once
/// @file
/// Assembly: a named, hierarchical builder of signals, models, bodies and child assemblies
/// (DESIGN.md section 8; the seed's DAssembly; docs/assemblies.md).
///
/// Construction stages, in the seed's order: the parent's addAssembly() parses the child's
/// config, context and params, then runs addSignals, addModels and addAssemblies (each followed
/// by the signals, models and children a definition adds, as a YAML scenario does). Once the
/// whole tree is built, SimulationAssembly::bind() runs bindParams then bindState over it,
/// parents before children; Simulation::lock() binds first if that has not happened and fails
/// on any signal tie no assembly consumed.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/param_set.h"
#include "hopsim/core/batch_calls.h"
#include "hopsim/core/model.h"
#include "hopsim/core/multibody_system.h"
#include "hopsim/core/simulation.h"

namespace hopsim {

class Assembly;
class SimulationAssembly;
class MechanismFiles;
namespace mechanism {
class MechanismBuilder;
struct Mechanism;
}  // namespace mechanism
class AssemblyRegistry;

/// A whole signal or the slice [offset, offset + length) of one, by its simulation name.
struct SignalRef {
  std::string signal;  ///< the simulation's signal name ("lander.thrust")
  std::size_t offset = 0;
  std::size_t length = 1;
};

/// A signal tie as a parent writes it: the child's signal `child` is the parent's signal
/// `parent` (a name in the parent's scope: one of its own signals or one tied to it), or the
/// slice [offset, offset + length) of it.
struct SignalTie {
  std::string child;
  std::string parent;
  std::size_t offset = 0;
  std::optional<std::size_t> length;
  SourceLocation where;  ///< where the tie was written, when it came from a file
};

/// Where a model of a definition is attached in the multibody system.
struct ModelAttachment {
  std::string node;   ///< a node name, for actuators and sensors
  std::string body;   ///< a body name, for motors and encoders (its hinge)
  int subhinge = -1;  ///< the subhinge of the hinge, -1 for the whole hinge
};

/// A model a definition adds to an assembly (a scenario's `models:` entry).
struct ModelDefinition {
  std::string name;       ///< local name; the simulation's name is "<assembly path>.<name>"
  std::string className;  ///< registered model class
  InputNode params;       ///< a mapping of param values (units allowed, as for assemblies)
  /// port -> signal in the assembly's scope (a SignalTie whose `child` is the port name).
  std::vector<SignalTie> ties;
  std::optional<ModelAttachment> attachment;
  std::optional<double> rate;  ///< Hz; the default I/O period when absent
  SourceLocation where;
};

/// A signal a definition adds to an assembly (a scenario's `signals:` entry).
struct SignalDefinition {
  std::string name;  ///< local name; the simulation's name is "<assembly path>.<name>"
  ElementType type = ElementType::Double;
  std::size_t length = 1;
  std::string unit;
  std::string description;
  /// The value written before the first hop, so that a model reading it through a break (or
  /// before anything writes it) sees this instead of "never written".
  std::optional<Value> value;
  SourceLocation where;
};

/// Everything a parent passes when it creates a child: the untyped inputs (parsed against the
/// child class's schemas), the signal ties, and extra content from a definition.
struct AssemblyInputs {
  InputNode config;
  InputNode context;
  InputNode params;
  std::vector<SignalTie> signalTies;
  std::vector<SignalDefinition> signals;  ///< added after the class's addSignals
  std::vector<ModelDefinition> models;    ///< added after the class's addModels
  /// Children added after the class's addAssemblies: (class name, name, inputs).
  struct Child;
  std::vector<Child> assemblies;
  std::string description;
  SourceLocation where;  ///< where the definition was written, when from a file
};
struct AssemblyInputs::Child {
  std::string className;
  std::string name;
  AssemblyInputs inputs;
};

/// What a registry knows about an assembly class: its name, documentation, input schemas and
/// how to make one.
struct AssemblyClass {
  std::string name;
  std::string doc;
  std::shared_ptr<const ParamSchema> config;
  std::shared_ptr<const ParamSchema> context;
  std::shared_ptr<const ParamSchema> params;
  std::function<std::unique_ptr<Assembly>()> make;
};

/// The AssemblyClass of a C++ assembly type A: A::kClassName, A::kDoc, and its nested
/// Config, Context and Params schemas (inherited from Assembly's empty ones when A declares
/// none).
template <class A>
const AssemblyClass& assemblyClassOf() {
  static const AssemblyClass info{A::kClassName,
                                  A::kDoc,
                                  schemaOf<typename A::Config>(),
                                  schemaOf<typename A::Context>(),
                                  schemaOf<typename A::Params>(),
                                  [] { return std::unique_ptr<Assembly>(new A()); }};
  return info;
}

/// The base of every assembly. Subclasses override the stages they need and use the protected
/// helpers, which name everything they create after the assembly's path.
class Assembly {
 public:
  static constexpr const char* kClassName = "Assembly";
  static constexpr const char* kDoc =
      "A plain container: the signals, models and child assemblies its definition lists.";
  /// The empty input schemas subclasses derive theirs from.
  struct Config : ParamSchema {};
  struct Context : ParamSchema {};
  struct Params : ParamSchema {};

  /// A plain container; it is named, given inputs and built by its parent's addAssembly().
  Assembly() = default;
  virtual ~Assembly();
  Assembly(const Assembly&) = delete;
  Assembly& operator=(const Assembly&) = delete;

  const std::string& name() const { return name_; }
  /// Dotted path from the top ("lander.engine"); "" for the top assembly.
  const std::string& path() const { return path_; }
  /// The branch of the variable tree holding its inputs ("assemblies.lander.engine").
  std::string variableBranch() const;
  const AssemblyClass& assemblyClass() const { return *class_; }
  Assembly* parent() const { return parent_; }
  const std::vector<std::unique_ptr<Assembly>>& children() const { return children_; }
  /// The child called `name`. @throws InputError naming the nearest names.
  Assembly& child(std::string_view name) const;
  /// A descendant by relative dotted path ("engine.valve"). @throws InputError.
  Assembly& find(std::string_view relativePath) const;

  const ParamSet& config() const { return *config_; }
  const ParamSet& context() const { return *context_; }
  const ParamSet& params() const { return *params_; }

  /// The simulation the assembly builds into.
  Simulation& sim() const { return *sim_; }
  /// Bodies created by this assembly (not its children), in creation order.
  const std::vector<std::string>& bodies() const { return bodies_; }
  /// Models created by this assembly, by their simulation names.
  const std::vector<std::string>& models() const { return models_; }
  /// The signals this assembly can use by local name: its own and those tied to it.
  std::vector<std::string> signalNames() const;
  /// The signal (or slice) a local name stands for. The top assembly also resolves any
  /// simulation signal by its full name ("lander.thrust"), so a scenario's top-level models can
  /// reach the signals of every assembly. @throws InputError with suggestions.
  SignalRef signal(std::string_view localName) const;

  /// Creates, names and builds a child of class `className` from `registry`.
  /// @throws InputError for an unknown class or bad inputs; on any failure everything the
  /// child created is removed again.
  Assembly& addAssembly(std::string_view className, std::string name, AssemblyInputs inputs);
  /// Creates a child of the C++ type A.
  template <class A>
  A& addAssembly(std::string name, AssemblyInputs inputs = {}) {
    return static_cast<A&>(addAssembly(assemblyClassOf<A>(), std::move(name), std::move(inputs)));
  }
  Assembly& addAssembly(const AssemblyClass& cls, std::string name, AssemblyInputs inputs);

 protected:
  // ---- stages (override what the assembly needs) -------------------------------------------
  /// Creates the signals its models and children use (addSignal).
  virtual void addSignals() {}
  /// Creates bodies, nodes and models and ties their ports (addBody, addModel, tie).
  virtual void addModels() {}
  /// Creates the children, with their signal ties (addAssembly).
  virtual void addAssemblies() {}
  /// Pushes params into models and bodies; every assembly's addModels has run.
  virtual void bindParams() {}
  /// Sets initial states and signal values.
  virtual void bindState() {}
  /// The params schema; the class's by default. Called after config and context are parsed,
  /// so a class whose params depend on its config (ModelAssembly) can build them.
  virtual std::shared_ptr<const ParamSchema> makeParamsSchema() const { return class_->params; }

  // ---- helpers for the stages ---------------------------------------------------------------
  /// Declares the signal `localName`. When the parent tied it, the tied signal (or slice) is
  /// used instead of creating one, after checking type and length; otherwise the simulation
  /// signal "<path>.<localName>" is created.
  SignalRef addSignal(const std::string& localName, ElementType type, std::size_t length = 1,
                      std::string unit = {}, std::string description = {});
  /// The signal (or slice) the parent tied to `localName`, if any: lets an assembly size a
  /// signal from its tie before declaring it.
  std::optional<SignalRef> offeredTie(std::string_view localName) const;
  /// Adds a model made by the model registry; its simulation name is "<path>.<localName>".
  Model& addModel(std::string_view className, const std::string& localName,
                  const InputNode& params = {});
  /// Adds a model constructed here: `addModel<Gain>("gain")`.
  template <class M, class... Args>
  M& addModel(const std::string& localName, Args&&... args) {
    return static_cast<M&>(
        adoptModel(makeModel<M>(qualified(localName), std::forward<Args>(args)...)));
  }
  /// Ties a port of one of its models to a signal of its scope (a local or tied name).
  void tie(Model& model, std::string_view port, std::string_view localSignal);
  void tie(Model& model, std::string_view port, std::string_view localSignal, std::size_t offset,
           std::size_t length);
  /// Adds a body under `parent` if given, else under the nearest context body (this
  /// assembly's context field `parentBody` or `body`, then its ancestors'), else under the
  /// multibody root; the body is registered with this assembly.
  /// @throws InputError for a taken name or an unknown parent.
  MultibodySystem::BodyIndex addBody(const std::string& name,
                                     const spatial::SpatialInertia& M_BBo_B,
                                     const multibody::Hinge& hinge,
                                     const spatial::RigidTransform& X_PF = {},
                                     const spatial::RigidTransform& X_BM = {},
                                     std::optional<std::string> parent = std::nullopt);
  /// Adds a body described by a BodyParams set (body_params.h): mass properties, hinge,
  /// inboard and outboard frames and nodes; parent as above.
  MultibodySystem::BodyIndex addBody(const std::string& name, const ParamSet& body,
                                     std::optional<std::string> parent = std::nullopt);
  /// Sets body `name`'s initial hinge coordinates and rates from the `q` and `u` of its
  /// BodyParams set, where given (for bindState).
  void setBodyState(const std::string& name, const ParamSet& body);
  /// Adds a model made elsewhere (named by the caller) to the simulation, registered with this
  /// assembly.
  Model& adoptModel(std::unique_ptr<Model> model);
  /// The same for a model passed as a pointer to its own class, as `std::make_unique<Gain>(name)`
  /// makes it: the executive then knows the class (recognizeClass), as with addModel<M>.
  template <class M>
  requires(std::is_base_of_v<Model, M> &&
           !std::is_same_v<M, Model>) M& adoptModel(std::unique_ptr<M> model) {
    if (model != nullptr) recognizeClass(*model);
    return static_cast<M&>(adoptModel(std::unique_ptr<Model>(std::move(model))));
  }
  /// Adds a model of a definition: made by the registry, attached, tied, put on its rate.
  void addDefinedModel(const ModelDefinition& definition);
  /// The body new bodies attach to when addBody gets no parent: the context rule above, or
  /// nullopt for the root.
  std::optional<std::string> contextBody() const;
  /// "<path>.<localName>" (just localName at the top).
  std::string qualified(std::string_view localName) const;
  /// The params as a mutable set, for bindParams of assemblies that derive values.
  ParamSet& mutableParams() { return *params_; }
  /// Reports a warning ("file:line:col: message" where there is a location) to the top
  /// assembly, which keeps them for whoever runs the simulation (a Scenario prints them).
  void warn(std::string message);
  /// The Chrono model file or MBSE file at `path`, read once for the whole tree
  /// (SimulationAssembly::mechanismFiles). @throws InputError as readMechanismFile.
  std::shared_ptr<const mechanism::Mechanism> readMechanism(const std::string& path);

 public:
  /// Attaches an actuator or sensor to `at.node`, a motor or encoder to the hinge of `at.body`
  /// (subhinge `at.subhinge`), for assemblies and Python's Simulation.add_model. @throws
  /// InputError when the attachment does not fit the model's kind.
  static void attachModel(Model& model, const ModelAttachment& at);
  /// A token that expires when the assembly is destroyed: a holder of a plain reference that
  /// the tree does not own (a Python handle) checks it before every use, so that using an
  /// assembly whose construction failed or whose tree was deleted is an error, not a crash.
  std::weak_ptr<Assembly* const> lifetime() const { return lifetime_; }

 private:
  friend class SimulationAssembly;
  // Lowers a mechanism file into the stages of the assembly that reads it.
  friend class mechanism::MechanismBuilder;
  struct TieRecord;

  void construct(const AssemblyClass& cls, Assembly* parent, std::string name,
                 AssemblyInputs inputs);
  void registerVariables();
  /// The ties a child at `childPath` is offered: `ties` (written in this assembly's scope)
  /// and the ties offered to this assembly that it did not consume itself.
  std::vector<std::shared_ptr<TieRecord>> offerTies(const std::string& childPath,
                                                    const std::vector<SignalTie>& ties);
  void bindParamsTree();
  void bindStateTree();
  void addDefinitionSignals();
  void addDefinitionChildren();
  void addDefinitionModels();
  std::vector<std::string> signalNamesBelow() const;
  /// Where the model or signal `subject` was defined: where the definition that added it to
  /// this assembly or a descendant was written, else where the assembly that made it is
  /// defined; unknown when none did.
  SourceLocation whereDefined(const ErrorSubject& subject) const;
  /// Removes what this assembly and its children created (a failed construction).
  void teardown() noexcept;
  SimulationAssembly& top();
  const AssemblyRegistry& registry() const;

  const AssemblyClass* class_ = nullptr;
  Simulation* sim_ = nullptr;
  Assembly* parent_ = nullptr;
  std::string name_;
  std::string path_;
  std::unique_ptr<ParamSet> config_, context_, params_;
  AssemblyInputs definition_;  // the extra content, kept for the stages that add it
  std::vector<std::unique_ptr<Assembly>> children_;
  // Signals by local name: created here or tied by the parent.
  std::vector<std::pair<std::string, SignalRef>> signals_;
  // signals_ by name: an assembly may hold thousands (a chain of included files, each adding
  // one), and every declaration and tie looks one up.
  std::map<std::string, std::size_t, std::less<>> signalIndex_;
  // Where each model and signal a definition added (addDefinedModel, a definition's signals)
  // was written, by its simulation name.
  std::map<std::pair<ErrorSubject::Kind, std::string>, SourceLocation> definitionSites_;
  std::vector<std::string> createdSignals_;
  std::vector<std::string> models_;
  std::vector<std::string> bodies_;
  std::vector<std::string> variables_;
  // Ties offered to this assembly: from its parent and passed down unconsumed from above.
  std::vector<std::shared_ptr<TieRecord>> offeredTies_;
  bool paramsBound_ = false;
  bool stateBound_ = false;
  std::shared_ptr<Assembly* const> lifetime_ = std::make_shared<Assembly* const>(this);
};

/// The top of an assembly tree, built into one Simulation (the seed's SimulationAssembly,
/// whose variable branch is `assemblies`). Declare it after the Simulation it builds into, so
/// that it goes first: its destructor removes its variables and its lock hook from the
/// simulation.
class SimulationAssembly : public Assembly {
 public:
  static constexpr const char* kClassName = "SimulationAssembly";
  static constexpr const char* kDoc = "The top of the assembly tree of one simulation.";

  /// @param registry the classes addAssembly(className, ...) can make (the standard ones by
  /// default).
  explicit SimulationAssembly(Simulation& sim, const AssemblyRegistry* registry = nullptr);
  ~SimulationAssembly() override;

  /// Adds what a scenario lists at its top level: signals first, then child assemblies, then
  /// models (which may tie to any assembly's signal by its full name).
  void build(AssemblyInputs inputs);

  /// Runs bindParams then bindState over every assembly not yet bound, parents first, then
  /// checks that every signal tie was consumed. Simulation::lock() calls it.
  void bind();
  /// @throws ModelError naming each tie no assembly consumed, who gave it and where.
  void checkTies() const;
  /// Where the model or signal an error is about was defined (errorSubject,
  /// hopsim/signals/error_subject.h): the file:line:col of its definition, or of the definition
  /// of the assembly that made it; unknown for one that no definition from a file made.
  SourceLocation definedAt(const ErrorSubject& subject) const { return whereDefined(subject); }
  /// The warnings the assemblies reported (Assembly::warn), in order.
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// The mechanism files its assemblies read, each once; whoever read one before the tree was
  /// built (`hopsim run`) puts it here.
  MechanismFiles& mechanismFiles() { return *mechanismFiles_; }

 private:
  friend class Assembly;
  std::vector<std::string> warnings_;
  std::unique_ptr<MechanismFiles> mechanismFiles_;
  const AssemblyRegistry* registry_;
  std::vector<std::shared_ptr<TieRecord>> allTies_;
};

}  // namespace hopsim
