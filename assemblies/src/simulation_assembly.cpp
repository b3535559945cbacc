#include "assembly_tie.h"
#include "hopsim/assemblies/assembly_registry.h"
#include "hopsim/assemblies/mechanism_files.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {

namespace {

const char* kLockHook = "assemblies";

const AssemblyClass& topClass() {
  static const AssemblyClass info{SimulationAssembly::kClassName, SimulationAssembly::kDoc,
                                  schemaOf<Assembly::Config>(),   schemaOf<Assembly::Context>(),
                                  schemaOf<Assembly::Params>(),   nullptr};
  return info;
}

}  // namespace

SimulationAssembly::SimulationAssembly(Simulation& sim, const AssemblyRegistry* registry)
    : mechanismFiles_(std::make_unique<MechanismFiles>()), registry_(registry) {
  sim_ = &sim;
  class_ = &topClass();
  config_ = std::make_unique<ParamSet>(ParamSet::parse(class_->config, {}, "assemblies.config"));
  context_ = std::make_unique<ParamSet>(ParamSet::parse(class_->context, {}, "assemblies.context"));
  params_ = std::make_unique<ParamSet>(ParamSet::parse(class_->params, {}, "assemblies.params"));
  sim.addLockHook(kLockHook, [this] { bind(); });
}

SimulationAssembly::~SimulationAssembly() {
  sim_->removeLockHook(kLockHook);
  sim_->variables().remove("assemblies");
}

void SimulationAssembly::build(AssemblyInputs inputs) {
  definition_.signals = std::move(inputs.signals);
  definition_.assemblies = std::move(inputs.assemblies);
  definition_.models = std::move(inputs.models);
  addDefinitionSignals();
  addDefinitionChildren();
  addDefinitionModels();
}

void SimulationAssembly::bind() {
  checkTies();
  bindParamsTree();
  bindStateTree();
}

void SimulationAssembly::checkTies() const {
  std::string unconsumed;
  SourceLocation first;  // where the first tie listed was written
  for (const auto& record : allTies_) {
    if (!record->consumers.empty()) continue;
    const Assembly* receiver = this;
    try {
      if (!record->givenTo.empty()) receiver = &find(record->givenTo);
    } catch (const InputError&) {
      continue;  // the receiver's construction failed and was undone
    }
    if (!first.known()) first = record->tie.where;
    unconsumed += "\n  " + record->describe() + " was never consumed: no assembly from " +
                  receiver->path() + " down declares a signal '" + record->tie.child + "'" +
                  didYouMean(record->tie.child, receiver->signalNamesBelow());
  }
  if (!unconsumed.empty()) {
    throw ModelError(locateMessage(first, "", "unconsumed signal ties:" + unconsumed));
  }
}

}  // namespace hopsim
