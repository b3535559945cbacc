// Simulation: advancing time — the hop and its calling sequence (docs/executive.md).

#include <algorithm>
#include <utility>

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "simulation_calls.h"

namespace hopsim {

void Simulation::runUpdates(const TimeBatchList& models, double t) {
  models.call([&](Model& model,
                  auto&& invoke) { callModel(model, ModelMethod::UpdateFlowOuts, t, invoke); },
              t);
}

Ticks Simulation::nextIoEnd(ModelSlot& slot, Ticks now) {
  switch (slot.schedule.kind) {
    case IoSchedule::Kind::Default:
      return timeline_
          .defaultIoEnd();  // computed once per hop: shared by every default-period model
    case IoSchedule::Kind::Fixed:
      return slot.schedule.period->nextAfter(timeline_.origin(), now);
    case IoSchedule::Kind::Variable: {
      const std::optional<double> next = slot.schedule.next(ticksToSeconds(now));
      if (!next) return kNever;
      // Messages are built only on failure: this runs every I/O step.
      const Ticks end = isRepresentableTime(*next) ? roundToTicks(*next) : now;
      if (end <= now) {
        throw ModelError("the multi-rate callback of " + slot.model->describe() +
                         " returned t = " + describeValue(*next) +
                         " s; expected a finite time after the current time " +
                         describeValue(ticksToSeconds(now)) + " s");
      }
      return end;
    }
  }
  return kNever;
}

Ticks Simulation::beginIoSteps(Ticks t0) {
  // A step begins where the previous one ended (or none began).
  defaultStep_.startsThisHop = defaultStep_.end <= t0;
  if (defaultStep_.startsThisHop) defaultStep_ = {t0, timeline_.defaultIoEnd(), true};
  if (ownStepSlots_.empty()) return kNever;  // the usual case: every model on the default period
  Ticks earliestEnd = kNever;  // the shared step ends at the default I/O end, which bounds the hop
  for (ModelSlot* s : ownStepSlots_) {
    if (s->inDefaultStep) continue;  // joined in a pass a multi-rate callback's throw cut short
    IoStep& io = s->io;
    io.startsThisHop = io.end <= t0;
    if (io.startsThisHop) {
      const Ticks end = nextIoEnd(*s, t0);
      io = {t0, end, end != kNever};  // "no future trigger": no step begins
      // A default-period step that begins with the shared one is the shared one from now on.
      if (s->schedule.kind == IoSchedule::Kind::Default && defaultStep_.startsThisHop) {
        s->inDefaultStep = true;
        continue;
      }
    }
    earliestEnd = std::min(earliestEnd, io.end);
  }
  std::erase_if(ownStepSlots_, [](const ModelSlot* s) { return s->inDefaultStep; });
  return earliestEnd;
}

void Simulation::leaveDefaultStep(ModelSlot& s) {
  if (!s.inDefaultStep) return;
  s.io = defaultStep_;
  s.inDefaultStep = false;
}

void Simulation::rebuildOwnStepSlots() {
  ownStepSlots_.clear();
  for (ModelSlot* s : activeSlots_) {
    if (!s->inDefaultStep) ownStepSlots_.push_back(s);
  }
}

void Simulation::advanceOverHop() {
  if (!locked()) throw ModelError("advancing time needs a locked simulation; call lock() first");
  requireBetweenHops("advanceOverHop");
  HopSpan hop{.t0 = timeline_.now(), .t0s = timeline_.nowSeconds()};

  // Start barrier, between hops: its events may change the structure.
  const bool stepZero = initialUpdatePending_;
  if (stepZero) updateForStepZero(hop.t0s);
  const bool eventsFired = fireStartBarrierEvents(hop.t0, hop.t0s);
  {
    // The hop: structural calls are refused until it ends.
    const ScopedValue inHop(phase_, Phase::InHop);
    updateOutputsAtHopStart(hop.t0s, stepZero, eventsFired);
    if (!samplers_.empty()) takeSamplesAt(hop.t0, false);
    planHop(hop);
    integrateHop(hop);
    finishHop(hop);
  }
  // End barrier, between hops: zero crossings located here, then timed events at t1,
  // end-of-I/O-step and end-of-hop events, then samples.
  if (crossings_.firing()) fireCrossings(stateTime_);
  events_.fireDue(*this, hop.t1, {false, timeline_.onDefaultGrid(hop.t1), true});
  if (!samplers_.empty()) takeSamplesAt(hop.t1, true);
}

bool Simulation::processParamsAndTakeSets(double t) {
  // The models' flags are looked at only when one was raised since: most hops touch no model.
  bool valuesSet = std::exchange(signalSetsSeen_, signalSets_) != signalSets_;
  if (std::exchange(modelFlagsSeen_, modelFlagsRaised_) == modelFlagsRaised_) return valuesSet;
  for (Model* model : activeOrder_) {
    if (ModelBinding::takeParamsChanged(*model)) {
      callModel(*model, ModelMethod::ProcessParams, t, [&] { model->processParams(t); });
    }
    valuesSet = ModelBinding::takeValuesSet(*model) || valuesSet;
  }
  return valuesSet;
}

void Simulation::updateForStepZero(double t0) {
  const ScopedValue inHop(phase_, Phase::InHop);
  processParamsAndTakeSets(t0);
  updateAllOutputs(t0);
}

bool Simulation::fireStartBarrierEvents(Ticks t0, double t0s) {
  const bool beginIo = timeline_.beginDefaultIoStep(t0);
  const bool fired = events_.fireDue(*this, t0, {beginIo, false, false});
  if (!locked()) {
    throw ModelError("an event at t = " + describeValue(t0s) +
                     " s unlocked the simulation; lock() it before advancing");
  }
  return fired;
}

void Simulation::updateOutputsAtHopStart(double t0, bool stepZero, bool eventsFired) {
  const bool valuesSet = processParamsAndTakeSets(t0);
  // Every output again when an event at the start barrier followed a step zero (it may have
  // changed params or inputs) or re-locked the simulation, which asks for a step zero; and
  // after any value set from outside since the previous hop (by the user or an event), so that
  // no output the hop reads still reflects the value before the set, whatever its granularity.
  if ((initialUpdatePending_ && (eventsFired || !stepZero)) || valuesSet) updateAllOutputs(t0);
  // A value set from outside may change the derivatives anywhere, not only where X is now.
  restartNextHop_ = restartNextHop_ || valuesSet;
  initialUpdatePending_ = false;
}

void Simulation::planHop(HopSpan& hop) {
  // The hop ends at the next barrier of any source: the default grid, timed events, the
  // targets of the advances in progress, and the I/O steps that begin or continue here.
  const Ticks t0 = hop.t0;
  Ticks t1 = std::min(timeline_.advanceDefaultIoEnd(t0), events_.nextTimedTick());
  t1 = std::min(t1, timeline_.nextAdvanceTargetAfter(t0));
  hop.t1 = std::min(t1, beginIoSteps(t0));
  hop.t1s = ticksToSeconds(hop.t1);
  hop.x0Time = stateTime_;
  hop.x1Time = hop.t1s;
}

void Simulation::integrateHop(HopSpan& hop) {
  // Zero-crossing detection needs a point to roll back to: the state before the hop body.
  const bool detecting = !crossings_.empty();
  if (detecting) takeSnapshot(rollbackPoint_, Snapshot::Scope::Hop);
  // Samples inside the hop are taken after it, from the state the integrator recorded.
  const auto samplesWithin = [&] { return nextSampleTick() < hop.t1; };
  // The evaluations of the pass that a rollback discards, localization not included.
  const std::uint64_t passStart =
      statistics_.derivativeEvaluations - statistics_.localizationDerivatives;
  try {
    runHopBody(hop, detecting, detecting || samplesWithin());
    if (detecting && locateCrossings(hop.t0, hop.t1, hop.x1Time)) {
      // A crossing inside the hop: every state back to the hop start, and the hop run again to
      // end at the located time, as if a barrier had been there. The discarded pass is the
      // price of the exact event time; the re-run is what a barrier there would have cost.
      hop.t1s = ticksToSeconds(hop.t1);
      applySnapshot(rollbackPoint_, Snapshot::Scope::Hop);
      ++statistics_.rollbacks;
      statistics_.discardedDerivatives +=
          statistics_.derivativeEvaluations - statistics_.localizationDerivatives - passStart;
      runHopBody(hop, false, samplesWithin());
    }
    if (samplesWithin()) takeSamplesWithin(hop.t1, hop.x0Time, hop.x1Time);
  } catch (...) {
    // Time stays at the hop start; with a rollback point the states go back there too, so the
    // simulation can continue from a consistent hop start once the cause is fixed.
    if (detecting) applySnapshot(rollbackPoint_, Snapshot::Scope::Hop);
    crossings_.cancelFiring();
    throw;
  }
}

void Simulation::finishHop(const HopSpan& hop) {
  runSweep(Sweep::EndHop, hop.t1s);
  calls_.endHop.call(
      [&](Model& model, auto&& invoke) { callModel(model, ModelMethod::EndHop, hop.t1s, invoke); },
      hop.t0s, hop.t1s);
  timeline_.endHopAt(hop.t1, hop.t1s);
  stateTime_ = hop.x1Time;
  for (ModelSlot* s : calls_.endIoStep) {
    const IoStep& io = ioStepOf(*s);
    if (io.end != hop.t1) continue;
    Model& model = *s->model;
    const double start = ticksToSeconds(io.start);
    callModel(model, ModelMethod::EndIoStep, hop.t1s, [&] { model.endIoStep(start, hop.t1s); });
  }
}

void Simulation::runHopBody(const HopSpan& hop, bool detecting, bool recording) {
  const double t0 = hop.t0s;
  runSweep(Sweep::StartIo, t0);
  for (ModelSlot* s : calls_.startIoStep) {
    const IoStep& io = ioStepOf(*s);
    if (!io.startsThisHop) continue;
    Model& model = *s->model;
    const double end = ticksToSeconds(io.end);
    callModel(model, ModelMethod::StartIoStep, t0, [&] { model.startIoStep(t0, end); });
  }
  runSweep(Sweep::StartHop, t0);
  calls_.startHop.call(
      [&](Model& model, auto&& invoke) { callModel(model, ModelMethod::StartHop, t0, invoke); }, t0,
      hop.t1s);
  if (detecting) evaluateStartSigns(hop.x0Time);
  if (recording) integrator_->setDenseHistory(integrator_->hasDenseOutput());
  propagate(hop.x0Time, hop.x1Time, recording);
}

bool Simulation::stopRequested() {
  const ScopedValue asking(advance_, Advance::AskingStops);
  bool stop = std::exchange(stopRequest_, false);
  // Every callback is asked, so each sees every hop.
  for (std::size_t i = 0; i < stopCallbacks_.size(); ++i) {
    stop = stopCallbacks_[i].callback(*this, time()) || stop;
  }
  return stop;
}

void Simulation::advanceToTick(Ticks target) {
  if (advance_ != Advance::Idle) {
    throw ModelError("advancing time from inside an event or stop callback is not allowed");
  }
  if (target < timeline_.now()) {
    throw InputError("cannot advance to t = " + describeValue(ticksToSeconds(target)) +
                     " s: the simulation is already at t = " + describeValue(time()) + " s");
  }
  const ScopedValue advancing(advance_, Advance::Hopping);
  timeline_.addAdvanceTarget(target);
  struct Forget {
    Timeline* timeline;
    Ticks target;
    ~Forget() { timeline->removeAdvanceTarget(target); }
  } forget{&timeline_, target};
  while (timeline_.now() < target) {
    advanceOverHop();
    if (stopRequested()) break;
  }
}

void Simulation::advanceTimeTo(double t) { advanceToTick(secondsToTicks(t, "advanceTimeTo")); }

void Simulation::advanceTimeBy(double dt) {
  if (!(dt >= 0.0)) {
    throw InputError("advanceTimeBy: dt = " + describeValue(dt) + " s must be non-negative");
  }
  advanceToTick(timeline_.now() + secondsToTicks(dt, "advanceTimeBy"));
}

void Simulation::step(int n) {
  if (n < 1) throw InputError("step: n = " + std::to_string(n) + " must be at least 1");
  advanceToTick(timeline_.defaultBarrierAfterNow(n));
}

void Simulation::run() {
  if (stopCallbacks_.empty()) {
    throw ModelError("run() needs a stop callback (addStopCallback), or use advanceTimeTo");
  }
  if (advance_ != Advance::Idle) {
    throw ModelError("advancing time from inside an event or stop callback is not allowed");
  }
  const ScopedValue advancing(advance_, Advance::Hopping);
  do {
    advanceOverHop();
  } while (!stopRequested());
}

}  // namespace hopsim
