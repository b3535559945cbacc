// Simulation: lock() — validation, dataflow sorting, granularity, sweep lists — and unlock().
//
// An error lock() finds about one model (an untied port, a length, an attachment, the second
// writer of a signal, the first model of an algebraic loop) is an ErrorAbout naming the model
// (hopsim/signals/error_subject.h), so that a front end can say where the model was written.

#include <algorithm>

#include "hopsim/core/batch_calls.h"
#include "hopsim/core/continuous_model.h"
#include "hopsim/core/dataflow_sort.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/error_subject.h"

namespace hopsim {
namespace {

std::string portName(const Model& model, FieldRole role, std::size_t index) {
  return model.name() + "." + model.spec().fields(role)[index].name;
}

/// "u -> y, z": the outputs a flowIn feeds through to.
std::string feedThroughText(const ModelSpec& spec, std::size_t in) {
  std::string outs;
  for (std::size_t o = 0; o < spec.fields(FieldRole::FlowOut).size(); ++o) {
    if (spec.feedsThrough(in, o)) {
      outs += (outs.empty() ? "" : ", ") + spec.fields(FieldRole::FlowOut)[o].name;
    }
  }
  return spec.className() + " declares " + spec.fields(FieldRole::FlowIn)[in].name + " -> " + outs;
}

}  // namespace

std::vector<DataflowConnection> Simulation::findConnections() const {
  // Every writer of each signal, then every reader matched against them.
  struct Writer {
    std::size_t model;
    std::size_t port;
    SignalSlice slice;
  };
  std::map<const Signal*, std::vector<Writer>> writers;
  for (std::size_t m = 0; m < slots_.size(); ++m) {
    const Model& model = *slots_[m].model;
    for (std::size_t o = 0; o < model.spec().fields(FieldRole::FlowOut).size(); ++o) {
      const SignalSlice& slice = model.binding(FieldRole::FlowOut, o);
      auto& list = writers[&slice.signal()];
      for (const Writer& w : list) {
        if (w.slice.overlaps(slice)) {
          // About the second writer: the first was fine until it came.
          throw ErrorAbout<ModelError>(
              "signal '" + slice.signal().name() + "' has two writers on the same elements: " +
                  portName(*slots_[w.model].model, FieldRole::FlowOut, w.port) + " (" +
                  w.slice.describe() + ") and " + portName(model, FieldRole::FlowOut, o) + " (" +
                  slice.describe() + "); give each output its own signal or slice",
              {ErrorSubject::Kind::Model, model.name()});
        }
      }
      list.push_back({m, o, slice});
    }
  }
  std::vector<DataflowConnection> connections;
  for (std::size_t r = 0; r < slots_.size(); ++r) {
    const Model& reader = *slots_[r].model;
    const ModelSpec& spec = reader.spec();
    for (std::size_t i = 0; i < spec.fields(FieldRole::FlowIn).size(); ++i) {
      const SignalSlice& slice = reader.binding(FieldRole::FlowIn, i);
      const auto found = writers.find(&slice.signal());
      if (found == writers.end()) continue;
      const bool broken =
          std::find(breaks_.begin(), breaks_.end(),
                    std::pair(reader.name(), spec.fields(FieldRole::FlowIn)[i].name)) !=
          breaks_.end();
      for (const Writer& w : found->second) {
        if (!w.slice.overlaps(slice)) continue;
        connections.push_back({w.model, r,
                               portName(*slots_[w.model].model, FieldRole::FlowOut, w.port),
                               "'" + slice.describe() + "'", portName(reader, FieldRole::FlowIn, i),
                               feedThroughText(spec, i), broken, spec.feedsAnyOutput(i)});
      }
    }
  }
  return connections;
}

void Simulation::computeGranularities(const std::vector<DataflowConnection>& connections) {
  for (ModelSlot& s : slots_) s.effective = s.model->spec().outputGranularity() | s.raised;
  // Outputs of ContinuousModels vary within a hop, so their readers set where they must be
  // current: a ContinuousModel reads its inputs in every derivative evaluation, a FlowModel at
  // the hop boundaries (startIoStep, startHop, endHop).
  const Granularity continuousReads = Sweep::PreDeriv | Sweep::PostDeriv;
  const Granularity flowReads = Sweep::StartIo | Sweep::StartHop | Sweep::EndHop;
  std::vector<std::vector<std::size_t>> writersOf(slots_.size());
  for (const DataflowConnection& c : connections) {
    if (slots_[c.writer].continuous) {
      slots_[c.writer].effective |= slots_[c.reader].continuous ? continuousReads : flowReads;
    }
    if (c.orders() && isSameKind(c.writer, c.reader)) writersOf[c.reader].push_back(c.writer);
  }
  // A model that recomputes its outputs at a sweep from an input fed through needs that input
  // current at the same sweep: push readers' granularity upstream, readers first.
  for (const auto* order : {&continuousOrder_, &order_}) {
    for (auto r = order->rbegin(); r != order->rend(); ++r) {
      for (std::size_t w : writersOf[*r]) slots_[w].effective |= slots_[*r].effective;
    }
  }
}

void Simulation::rebuildSweepLists() {
  activeOrder_.clear();
  activeSlots_.clear();
  activeContinuous_.clear();
  // ContinuousModels first at every shared sweep, so FlowModels (controllers) read sensor
  // outputs computed from the current state.
  for (const auto* order : {&continuousOrder_, &order_}) {
    for (std::size_t index : *order) {
      ModelSlot& s = slots_[index];
      if (!s.active) continue;
      activeOrder_.push_back(s.model.get());
      activeSlots_.push_back(&s);
      if (s.continuous) activeContinuous_.push_back(s.continuous);
    }
  }
  rebuildOwnStepSlots();
  rebuildCallLists();
  // A model that became active brings the flags it raised while inactive, which the hop start
  // has counted as seen: look at every model's flags at the next hop start.
  ++modelFlagsRaised_;
  crossings_.setActiveModels(activeOrder_);
  rebuildStateVector();
}

void Simulation::rebuildCallLists() {
  columns_.release();
  continuousOutputs_.clear();
  everyOutput_.clear();
  for (auto& list : updateLists_) list.clear();
  calls_ = {};
  const auto needs = [](const Model& model, ModelMethod method) {
    return ModelBinding::needsCall(model, method);
  };
  // Appends `model` to `list` with its class's batch function for `method`, or a virtual call
  // each when its class is unknown or its overrider cannot be named. A model with a model-method
  // event around the call is a batch of its own, whose events the list's caller fires (callModel);
  // an event registered later rebuilds these lists (registerModelEvent).
  const auto add = [](auto& list, Model& model, ModelMethod method, auto BatchCalls::*member) {
    const BatchCalls* calls = ModelBinding::batchCalls(model);
    auto function = calls != nullptr ? calls->*member : nullptr;
    const bool readsBatchFields = function != nullptr && calls->readsBatchFields;
    if (function == nullptr) function = kVirtualBatchCalls.*member;
    list.add(&model, function, ModelBinding::hasEventHooks(model, method), readsBatchFields);
  };
  for (ModelSlot* s : activeSlots_) {
    Model& model = *s->model;
    if (needs(model, ModelMethod::UpdateFlowOuts)) {
      const auto addUpdate = [&](TimeBatchList& list) {
        add(list, model, ModelMethod::UpdateFlowOuts, &BatchCalls::updateFlowOuts);
      };
      addUpdate(everyOutput_);
      if (s->continuous) addUpdate(continuousOutputs_);
      for (int k = 0; k < kSweepCount; ++k) {
        const auto sweep = static_cast<Sweep>(k);
        if (!s->continuous && isIntegrationSweep(sweep)) continue;  // constant within a hop
        if (s->effective.contains(sweep)) addUpdate(updateLists_[static_cast<std::size_t>(k)]);
      }
    }
    if (needs(model, ModelMethod::StartIoStep)) calls_.startIoStep.push_back(s);
    if (needs(model, ModelMethod::StartHop)) {
      add(calls_.startHop, model, ModelMethod::StartHop, &BatchCalls::startHop);
    }
    if (needs(model, ModelMethod::EndHop)) {
      add(calls_.endHop, model, ModelMethod::EndHop, &BatchCalls::endHop);
    }
    if (needs(model, ModelMethod::EndIoStep)) calls_.endIoStep.push_back(s);
    if (ContinuousModel* c = s->continuous) {
      if (needs(*c, ModelMethod::StartIntegrationStep)) calls_.startIntegrationStep.push_back(c);
      if (needs(*c, ModelMethod::PreDeriv)) {
        add(calls_.preDeriv, *c, ModelMethod::PreDeriv, &BatchCalls::preDeriv);
      }
      if (needs(*c, ModelMethod::PostDeriv)) {
        add(calls_.postDeriv, *c, ModelMethod::PostDeriv, &BatchCalls::postDeriv);
      }
      if (needs(*c, ModelMethod::EndIntegrationStep)) calls_.endIntegrationStep.push_back(c);
    }
  }
  // The batch methods' fields in columns first, then the batches' tables of where they are.
  std::vector<Model*> batchedModels;
  for (Model* model : activeOrder_) {
    const BatchCalls* calls = ModelBinding::batchCalls(*model);
    if (calls != nullptr && calls->readsBatchFields) batchedModels.push_back(model);
  }
  columns_.place(batchedModels);
  for (TimeBatchList* list :
       {&continuousOutputs_, &everyOutput_, &calls_.preDeriv, &calls_.postDeriv}) {
    list->bindBatchFields();
  }
  for (TimeBatchList& list : updateLists_) list.bindBatchFields();
  for (HopBatchList* list : {&calls_.startHop, &calls_.endHop}) list->bindBatchFields();
}

void Simulation::addLockHook(std::string name, std::function<void()> hook) {
  for (const auto& entry : lockHooks_) {
    if (entry.first == name) throw InputError("a lock hook named '" + name + "' already exists");
  }
  lockHooks_.emplace_back(std::move(name), std::move(hook));
}

void Simulation::removeLockHook(std::string_view name) {
  std::erase_if(lockHooks_, [&](const auto& entry) { return entry.first == name; });
}

void Simulation::lock() {
  requireBetweenHops("lock");
  if (locked()) return;
  for (const auto& [name, hook] : lockHooks_) hook();
  for (ModelSlot& s : slots_) {
    about({ErrorSubject::Kind::Model, s.model->name()}, [&] { ModelBinding::prepare(*s.model); });
  }
  checkStateMasks();
  prepareMultibody();
  const std::vector<DataflowConnection> connections = findConnections();
  // FlowModels and ContinuousModels are sorted separately (DESIGN.md section 3): connections
  // between the two kinds do not order models, since they meet only at hop boundaries.
  std::vector<DataflowConnection> sameKind;
  for (const DataflowConnection& c : connections) {
    if (isSameKind(c.writer, c.reader)) sameKind.push_back(c);
  }
  const std::vector<std::size_t> order = sortDataflow(slots_.size(), sameKind);

  // Commit. Only sizing the integrator can still fail (per-state tolerances that do not match
  // the state count), which leaves the simulation unlocked; the next lock() rebuilds it all.
  order_.clear();
  continuousOrder_.clear();
  for (std::size_t index : order) {
    (slots_[index].continuous ? continuousOrder_ : order_).push_back(index);
  }
  computeGranularities(connections);
  breakReport_.clear();
  for (const DataflowConnection& c : sameKind) {
    if (c.broken && c.fedThrough) {
      breakReport_.push_back(c.writerPort + " -> " + c.signal + " -> " + c.readerPort);
    }
  }
  for (const auto& [model, port] : breaks_) {
    const std::string target = model + "." + port;
    const bool used = std::any_of(breakReport_.begin(), breakReport_.end(), [&](const auto& line) {
      return line.size() >= target.size() &&
             line.compare(line.size() - target.size(), target.size(), target) == 0;
    });
    if (!used) breakReport_.push_back(target + " (declared; cuts no feed-through connection)");
  }
  try {
    rebuildSweepLists();
  } catch (...) {
    columns_.release();  // unlocked, the structure may change: nothing stays placed
    throw;
  }
  initialUpdatePending_ = true;
  phase_ = Phase::BetweenHops;
  multibody_->setLocked(true);
}

void Simulation::unlock() {
  requireBetweenHops("unlock");
  columns_.release();  // the structure may change now: every field owns its elements again
  phase_ = Phase::Unlocked;
  multibody_->setLocked(false);
}

ModelOrder Simulation::modelOrder() const {
  if (!locked()) throw ModelError("modelOrder(): the order is computed by lock(); lock first");
  ModelOrder out;
  for (std::size_t index : order_) out.flowModels.push_back(slots_[index].model->name());
  for (std::size_t index : continuousOrder_) {
    out.continuousModels.push_back(slots_[index].model->name());
  }
  out.breaks = breakReport_;
  return out;
}

std::string ModelOrder::toString() const {
  std::string out;
  const auto list = [&](const char* title, const std::vector<std::string>& names) {
    out += title;
    for (std::size_t i = 0; i < names.size(); ++i) {
      out += "  " + std::to_string(i + 1) + ". " + names[i] + "\n";
    }
  };
  if (!continuousModels.empty()) list("continuous models in calling order:\n", continuousModels);
  list("flow models in calling order:\n", flowModels);
  out += breaks.empty() ? "breaks: none\n" : "breaks (read one evaluation late):\n";
  for (const std::string& b : breaks) out += "  " + b + "\n";
  return out;
}

}  // namespace hopsim
