// Simulation: taking and applying snapshots — the one place that lists the executive's state
// (snapshot.h). saveCheckpoint writes a whole snapshot, restoreCheckpoint applies the one a
// file gives back, and integrateHop's rollback point is a snapshot of what a hop changes.

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim {

std::vector<Buffer>& Snapshot::ModelValues::fields(FieldRole role) {
  return const_cast<std::vector<Buffer>&>(std::as_const(*this).fields(role));
}

const std::vector<Buffer>& Snapshot::ModelValues::fields(FieldRole role) const {
  switch (role) {
    case FieldRole::Param:
      return params;
    case FieldRole::DiscreteState:
      return discreteStates;
    case FieldRole::ContinuousState:
      return continuousStates;
    default:
      throw std::logic_error("Snapshot::ModelValues::fields: a snapshot holds no " +
                             std::string(branchName(role)));
  }
}

void Simulation::takeSnapshot(Snapshot& into, Snapshot::Scope scope) const {
  into.models.resize(slots_.size());
  if (scope == Snapshot::Scope::Hop) {
    // Into the storage of the previous rollback point: the same sizes, so no allocation.
    for (const ModelSlot* s : activeSlots_) {
      Snapshot::ModelValues& values = into.models[static_cast<std::size_t>(s - slots_.data())];
      s->model->saveDiscreteStates(values.discreteStates);
      s->model->saveContinuousStates(values.continuousStates);
    }
    if (multibodyActive_) {
      into.q = multibody_->q();
      into.u = multibody_->u();
    }
    into.continuation = continuation_;
    return;
  }

  // Whether a value was set from outside since the last hop: the next hop recomputes every
  // output first, and so must the simulation the snapshot is applied to.
  bool valuesSet = signalSets_ != signalSetsSeen_;
  for (const ModelSlot& s : slots_) valuesSet = valuesSet || ModelBinding::valuesSet(*s.model);
  const Timeline::Saved clock = timeline_.save();
  into.clock = {clock.now, stateTime_, clock.hopCount, clock.lastBeginIoStep, initialUpdatePending_,
                0,         valuesSet};
  into.integratorName = integratorName_;
  into.integratorOptions = integrator_->options();
  // The step the next hop starts with, when the states still continue the last sub-step: a
  // run from the snapshot then takes exactly the steps the original run takes.
  Eigen::VectorXd x(states_.size());
  states_.gather(x);
  into.continuation = {};
  into.continuation.time = stateTime_;
  into.continuation.step = continuation_.continuesAt(stateTime_, x) ? continuation_.step : 0.0;

  into.signals.clear();
  for (const auto& [name, signal] : signals_) {
    into.signals.push_back({signal->version(), signal->buffer()});
  }
  for (std::size_t m = 0; m < slots_.size(); ++m) {
    const ModelSlot& s = slots_[m];
    Model& model = *s.model;
    Snapshot::ModelValues& values = into.models[m];
    values.active = s.active;
    values.ioStart = ioStepOf(s).start;
    values.ioEnd = ioStepOf(s).end;
    for (FieldRole role : Snapshot::kFieldRoles) {
      std::vector<Buffer>& fields = values.fields(role);
      fields.clear();
      for (std::size_t i = 0; i < model.spec().fields(role).size(); ++i) {
        fields.push_back(ModelBinding::valueBuffer(model, role, i));
      }
    }
    values.reads.clear();
    for (std::size_t i = 0; i < model.spec().fields(FieldRole::FlowIn).size(); ++i) {
      values.reads.push_back(ModelBinding::lastReadVersion(model, i));
    }
  }

  // q() and u() of a system whose tree was edited since they were sized resize them.
  MultibodySystem& system = *multibody_;
  const multibody::MultibodyModel& tree = system.model();
  into.gravity = tree.gravity();
  into.massProperties.clear();
  for (multibody::BodyIndex b = 1; b < tree.bodyCount(); ++b) {
    into.massProperties.push_back(tree.massProperties(b));
  }
  into.q = system.q();
  into.u = system.u();
  into.events = events_.scheduleStates();
  crossings_.save(into.crossings, into.clock.chattering);
}

void Simulation::applySnapshot(const Snapshot& from, Snapshot::Scope scope) {
  if (scope == Snapshot::Scope::Hop) {
    for (ModelSlot* s : activeSlots_) {
      const Snapshot::ModelValues& values =
          from.models[static_cast<std::size_t>(s - slots_.data())];
      s->model->restoreDiscreteStates(values.discreteStates);
      s->model->restoreContinuousStates(values.continuousStates);
    }
    if (multibodyActive_) {
      multibody_->q() = from.q;
      multibody_->u() = from.u;
    }
    continuation_ = from.continuation;  // same sizes: no allocation
    return;
  }

  // Nothing here throws on a value: a snapshot is applied to the simulation that took it, or
  // after the checkpoint parser refused whatever a setter below would.
  events_.restoreScheduleStates(from.events);
  const Snapshot::Clock& clock = from.clock;
  timeline_.restore({clock.now, clock.hopCount, clock.lastBeginIoStep});
  const Ticks now = timeline_.now();
  // Samplers go on from the restored time: the next sample is the first at or after it.
  for (Sampler& s : samplers_) {
    if (s.start <= now) s.next = s.everyHop() ? 0 : s.period->indexAfter(s.start, now - 1);
  }
  stateTime_ = clock.stateTime;
  initialUpdatePending_ = clock.initialUpdatePending;
  signalSetsSeen_ = signalSets_;  // the snapshot's own writes are not sets
  integrator_ = makeIntegrator(from.integratorName, from.integratorOptions);
  integratorName_ = from.integratorName;
  auto saved = from.signals.begin();
  for (const auto& [name, signal] : signals_) {
    signal->buffer() = saved->value;
    signal->restoreVersion(saved->version);
    ++saved;
  }
  applyModelValues(from);
  multibody_->setGravity(from.gravity);
  for (std::size_t b = 0; b < from.massProperties.size(); ++b) {
    multibody_->setMassProperties(static_cast<multibody::BodyIndex>(b + 1), from.massProperties[b]);
  }
  multibody_->q() = from.q;
  multibody_->u() = from.u;
  crossings_.restore(from.crossings, clock.chattering);
  rebuildSweepLists();  // activity may differ; sizes the new integrator
  if (from.continuation.step > 0.0) {
    continuation_.time = stateTime_;
    continuation_.step = from.continuation.step;
    states_.gather(continuation_.state);
  }
}

void Simulation::applyModelValues(const Snapshot& from) {
  defaultStep_ = {0, kNotStarted, false};  // begins anew at the next hop
  for (std::size_t m = 0; m < slots_.size(); ++m) {
    ModelSlot& s = slots_[m];
    Model& model = *s.model;
    const Snapshot::ModelValues& values = from.models[m];
    s.active = values.active;
    // Every model gets its own step back; those on the default period rejoin the shared step
    // when their step and the shared one next begin together.
    s.io = {values.ioStart, values.ioEnd, false};
    s.inDefaultStep = false;
    // What processParams derives from params is not saved: it runs again before the next hop
    // (processParams must be a function of the params alone).
    ModelBinding::raiseParamsChanged(model);
    ModelBinding::restoreValuesSet(model, from.clock.valuesSet);
    for (FieldRole role : Snapshot::kFieldRoles) {
      const std::vector<Buffer>& fields = values.fields(role);
      for (std::size_t i = 0; i < fields.size(); ++i) {
        Buffer& target = ModelBinding::valueBuffer(model, role, i);
        // Element-wise for doubles: the state vector refers to this storage.
        if (target.type() == ElementType::Double) {
          std::copy_n(fields[i].doubles(), fields[i].length(), target.doubles());
        } else {
          target = fields[i];
        }
      }
    }
    for (std::size_t i = 0; i < values.reads.size(); ++i) {
      ModelBinding::lastReadVersion(model, i) = values.reads[i];
    }
  }
}

Snapshot SnapshotAccess::take(const Simulation& sim) {
  sim.requireBetweenHops("take a snapshot");
  Snapshot snapshot;
  sim.takeSnapshot(snapshot, Snapshot::Scope::Whole);
  return snapshot;
}

void SnapshotAccess::apply(Simulation& sim, const Snapshot& snapshot) {
  sim.requireBetweenHops("apply a snapshot");
  if (!sim.locked()) throw ModelError("apply a snapshot: lock() the simulation first");
  sim.applySnapshot(snapshot, Snapshot::Scope::Whole);
}

}  // namespace hopsim
