// Simulation: construction and structure (signals, models, ties, breaks, schedules, activation).

#include "hopsim/core/simulation.h"

#include <algorithm>
#include <utility>

#include "hopsim/core/continuous_model.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "model_variable.h"

namespace hopsim {

Simulation::Simulation(SimulationOptions options)
    : timeline_(secondsToTicks(options.startTime, "SimulationOptions.startTime"),
                Period::fromSeconds(options.ioStepSize, "SimulationOptions.ioStepSize")),
      integrationSteps_(1),
      stateTime_(timeline_.nowSeconds()),
      multibody_(std::make_unique<MultibodySystem>()) {
  setIntegrationSteps(options.integrationSteps);
  setIntegrator(options.integrator, std::move(options.integratorOptions));
  setStateBound(options.stateBound);
  events_.setFiredHook([this](Simulation&, const std::string& name, double t) {
    if (!eventObservers_.empty()) notifyEventFired(name, t);
  });
}

Simulation::~Simulation() = default;

void Simulation::requireUnlocked(std::string_view what) const {
  if (locked()) {
    throw ModelError(std::string(what) + ": the simulation is locked; call unlock() first");
  }
  requireBetweenHops(what);
}

void Simulation::requireBetweenHops(std::string_view what) const {
  if (phase_ == Phase::InHop) {
    throw ModelError(std::string(what) +
                     ": not allowed inside a hop (from a model method or a model-method "
                     "event); do it between hops, e.g. from a timed event");
  }
}

// ---- signals ------------------------------------------------------------------------------

Signal& Simulation::addSignal(const std::string& name, ElementType type, std::size_t length,
                              std::string unit, std::string description) {
  requireUnlocked("addSignal('" + name + "')");
  VariableTree::checkPath(name, "signal name");
  if (signals_.count(name) != 0) throw InputError("signal '" + name + "' already exists");
  auto signal =
      std::make_unique<Signal>(name, type, length, std::move(unit), std::move(description));
  signal->countSetsIn(&signalSets_);
  variables_.add("signals." + name, std::make_unique<SignalVariable>(*signal));
  return *signals_.emplace(name, std::move(signal)).first->second;
}

Signal& Simulation::signal(std::string_view name) {
  auto it = signals_.find(name);
  if (it == signals_.end()) {
    throw NotFoundError("no signal '" + std::string(name) + "'" + didYouMean(name, signalNames()));
  }
  return *it->second;
}

void Simulation::removeSignal(std::string_view name) {
  requireUnlocked("removeSignal('" + std::string(name) + "')");
  const Signal& doomed = signal(name);
  std::vector<std::string> tied;
  for (const ModelSlot& s : slots_) {
    for (std::string& port : ModelBinding::portsTiedTo(*s.model, doomed)) tied.push_back(port);
  }
  if (!tied.empty()) {
    std::string ports;
    for (const std::string& p : tied) ports += (ports.empty() ? "" : ", ") + p;
    throw ModelError("signal '" + std::string(name) + "' is still tied to " + ports +
                     "; retie or remove those models first");
  }
  variables_.remove("signals." + std::string(name));
  signals_.erase(signals_.find(name));
}

std::vector<std::string> Simulation::signalNames() const {
  std::vector<std::string> names;
  for (const auto& [name, signal] : signals_) names.push_back(name);
  return names;
}

// ---- models -------------------------------------------------------------------------------

Model& Simulation::addModel(std::unique_ptr<Model> model) {
  if (!model) throw InputError("addModel: null model");
  requireUnlocked("addModel('" + model->name() + "')");
  if (std::any_of(slots_.begin(), slots_.end(),
                  [&](const ModelSlot& s) { return s.model->name() == model->name(); })) {
    throw InputError("a model named '" + model->name() + "' already exists");
  }
  // A model whose class no code recognized when it was made (std::make_unique handed on as a
  // std::unique_ptr<Model>) is looked up by its dynamic type among the classes the program
  // names: a library model made anywhere is batched as if made by its registry.
  if (ModelBinding::batchCalls(*model) == nullptr) recognizeClassOf(*model);
  ModelSlot entry;
  entry.raised = Granularity::none();
  // Register every field as a variable; undo all of them if one clashes.
  try {
    for (int r = 0; r < kFieldRoleCount; ++r) {
      const auto role = static_cast<FieldRole>(r);
      for (std::size_t i = 0; i < model->spec().fields(role).size(); ++i) {
        std::string path = "models." + model->name() + "." + branchName(role) + "." +
                           model->spec().fields(role)[i].name;
        variables_.add(path, std::make_unique<ModelFieldVariable>(*model, role, i));
        entry.variablePaths.push_back(std::move(path));
      }
    }
    for (const CrossingSpec& c : model->spec().crossings()) {
      requireUniqueEventName(model->name() + "." + c.name);
    }
  } catch (...) {
    for (const std::string& path : entry.variablePaths) variables_.remove(path);
    throw;
  }
  registerModelCrossings(*model);
  ModelBinding::countFlagsIn(*model, &modelFlagsRaised_);
  entry.continuous = dynamic_cast<ContinuousModel*>(model.get());
  entry.model = std::move(model);
  entry.io.end = kNotStarted;
  slots_.push_back(std::move(entry));
  return *slots_.back().model;
}

Simulation::ModelSlot& Simulation::slot(std::string_view name) {
  return const_cast<ModelSlot&>(std::as_const(*this).slot(name));
}

const Simulation::ModelSlot& Simulation::slot(std::string_view name) const {
  for (const ModelSlot& s : slots_) {
    if (s.model->name() == name) return s;
  }
  throw NotFoundError("no model '" + std::string(name) + "'" + didYouMean(name, modelNames()));
}

Model& Simulation::model(std::string_view name) { return *slot(name).model; }
const Model& Simulation::model(std::string_view name) const { return *slot(name).model; }

void Simulation::removeModel(std::string_view name) {
  requireUnlocked("removeModel('" + std::string(name) + "')");
  ModelSlot& doomed = slot(name);
  for (const std::string& path : doomed.variablePaths) variables_.remove(path);
  events_.removeModelEvents(*doomed.model);
  crossings_.removeOwnedBy(*doomed.model);
  std::erase_if(breaks_, [&](const auto& b) { return b.first == name; });
  std::erase_if(masks_, [&](const StateMask& m) { return m.model == name; });
  slots_.erase(slots_.begin() + (&doomed - slots_.data()));
}

std::vector<std::string> Simulation::modelNames() const {
  std::vector<std::string> names;
  for (const ModelSlot& s : slots_) names.push_back(s.model->name());
  return names;
}

void Simulation::tie(std::string_view model, std::string_view port, std::string_view signal) {
  requireUnlocked("tie");
  ModelBinding::tie(*slot(model).model, port, this->signal(signal).whole());
}

void Simulation::tie(std::string_view model, std::string_view port, std::string_view signal,
                     std::size_t offset, std::size_t length) {
  requireUnlocked("tie");
  ModelBinding::tie(*slot(model).model, port, this->signal(signal).slice(offset, length));
}

void Simulation::addBreak(std::string_view model, std::string_view flowIn) {
  requireUnlocked("addBreak");
  slot(model).model->spec().indexOf(FieldRole::FlowIn, flowIn);  // validates the port name
  const std::pair<std::string, std::string> entry(model, flowIn);
  if (std::find(breaks_.begin(), breaks_.end(), entry) == breaks_.end()) breaks_.push_back(entry);
}

void Simulation::removeBreak(std::string_view model, std::string_view flowIn) {
  requireUnlocked("removeBreak");
  const auto it =
      std::find(breaks_.begin(), breaks_.end(), std::pair<std::string, std::string>(model, flowIn));
  if (it == breaks_.end()) {
    throw InputError("no break declared on " + std::string(model) + "." + std::string(flowIn));
  }
  breaks_.erase(it);
}

// ---- schedules, granularity, activation ---------------------------------------------------

void Simulation::setModelRate(std::string_view model, double hertz) {
  requireBetweenHops("setModelRate");
  setSchedule(slot(model), {IoSchedule::Kind::Fixed,
                            Period::fromRate(hertz, "rate of model '" + std::string(model) + "'"),
                            {}});
}

void Simulation::setModelPeriod(std::string_view model, double seconds) {
  requireBetweenHops("setModelPeriod");
  setSchedule(slot(model),
              {IoSchedule::Kind::Fixed,
               Period::fromSeconds(seconds, "period of model '" + std::string(model) + "'"),
               {}});
}

void Simulation::registerMultiRateModel(std::string_view model, NextIoTime next) {
  requireBetweenHops("registerMultiRateModel");
  if (!next) throw InputError("registerMultiRateModel('" + std::string(model) + "'): no callback");
  setSchedule(slot(model), {IoSchedule::Kind::Variable, std::nullopt, std::move(next)});
}

void Simulation::useDefaultPeriod(std::string_view model) {
  requireBetweenHops("useDefaultPeriod");
  setSchedule(slot(model), {});
}

void Simulation::setSchedule(ModelSlot& s, IoSchedule schedule) {
  s.schedule = std::move(schedule);
  // An I/O step in progress ends as planned; a model that had no future trigger starts a step
  // under its new schedule at the next hop.
  if (s.inDefaultStep) {
    leaveDefaultStep(s);
    if (locked()) rebuildOwnStepSlots();  // else lock() builds it
  }
  if (s.io.end == kNever) s.io.end = kNotStarted;
}

void Simulation::raiseOutputGranularity(std::string_view model, Granularity granularity) {
  requireBetweenHops("raiseOutputGranularity");
  slot(model).raised |= granularity;
  if (locked()) {
    computeGranularities(findConnections());
    rebuildSweepLists();
  }
}

Granularity Simulation::outputGranularity(std::string_view model) const {
  const ModelSlot& s = slot(model);
  return locked() ? s.effective : s.model->spec().outputGranularity() | s.raised;
}

void Simulation::activate(std::string_view model) {
  requireBetweenHops("activate");
  ModelSlot& s = slot(model);
  if (s.active) return;
  s.io.end = kNotStarted;  // a fresh I/O step starts at the next hop
  setActive(s, true);
  initialUpdatePending_ = true;
}

void Simulation::deactivate(std::string_view model) {
  requireBetweenHops("deactivate");
  ModelSlot& s = slot(model);
  if (!s.active) return;
  setActive(s, false);
}

void Simulation::setActive(ModelSlot& s, bool active) {
  leaveDefaultStep(s);  // an inactive model's step stops where it is
  s.active = active;
  if (!locked()) return;
  try {
    rebuildSweepLists();  // fails if per-state tolerances no longer match the state count
  } catch (...) {
    s.active = !active;
    rebuildSweepLists();
    throw;
  }
}

bool Simulation::isActive(std::string_view model) const { return slot(model).active; }

void Simulation::setIoStepSize(double seconds) {
  requireUnlocked("setIoStepSize");
  timeline_.setIoPeriod(Period::fromSeconds(seconds, "ioStepSize"));
}

void Simulation::setIntegrationSteps(int steps) {
  requireUnlocked("setIntegrationSteps");
  if (steps < 1) {
    throw InputError("integrationSteps: " + std::to_string(steps) + " must be at least 1");
  }
  integrationSteps_ = steps;
}

// ---- stop callbacks -----------------------------------------------------------------------

void Simulation::requireNotAskingStops(std::string_view what) const {
  if (advance_ == Advance::AskingStops) {
    throw ModelError(std::string(what) +
                     ": not allowed from inside a stop callback; change stop callbacks from an "
                     "event or between advances");
  }
}

void Simulation::addStopCallback(std::string name, StopCallback callback) {
  requireNotAskingStops("addStopCallback");
  if (!callback) throw InputError("stop callback '" + name + "': no callback");
  if (std::any_of(stopCallbacks_.begin(), stopCallbacks_.end(),
                  [&](const StopEntry& e) { return e.name == name; })) {
    throw InputError("a stop callback named '" + name + "' already exists");
  }
  stopCallbacks_.push_back({std::move(name), std::move(callback)});
}

void Simulation::removeStopCallback(std::string_view name) {
  requireNotAskingStops("removeStopCallback");
  const auto removed =
      std::erase_if(stopCallbacks_, [&](const StopEntry& e) { return e.name == name; });
  if (removed == 0) throw InputError("no stop callback named '" + std::string(name) + "'");
}

}  // namespace hopsim
