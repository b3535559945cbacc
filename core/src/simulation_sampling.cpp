// Simulation: samplers — fixed-rate observation of a run that leaves its hops, and so its
// results, unchanged (docs/recording.md).

#include <algorithm>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "simulation_calls.h"

namespace hopsim {

namespace {

void requireCallback(bool given, const char* what) {
  if (!given) throw InputError(std::string(what) + ": no callback");
}

}  // namespace

SamplerId Simulation::addSampler(double period, EventCallback callback) {
  requireBetweenHops("addSampler");
  if (sampling_) throw ModelError("addSampler: not from inside a sample");
  requireCallback(static_cast<bool>(callback), "addSampler");
  samplers_.push_back({nextSamplerId_, timeline_.now(),
                       Period::fromSeconds(period, "sampler period"), 0, std::move(callback)});
  return nextSamplerId_++;
}

SamplerId Simulation::addHopSampler(EventCallback callback) {
  requireBetweenHops("addHopSampler");
  if (sampling_) throw ModelError("addHopSampler: not from inside a sample");
  requireCallback(static_cast<bool>(callback), "addHopSampler");
  samplers_.push_back({nextSamplerId_, timeline_.now(), std::nullopt, 0, std::move(callback)});
  return nextSamplerId_++;
}

SamplerId Simulation::addEventObserver(EventObserver observer) {
  requireBetweenHops("addEventObserver");
  if (sampling_) throw ModelError("addEventObserver: not from inside a sample");
  requireCallback(static_cast<bool>(observer), "addEventObserver");
  eventObservers_.emplace_back(nextSamplerId_, std::move(observer));
  return nextSamplerId_++;
}

void Simulation::removeSampler(SamplerId id) {
  if (sampling_) throw ModelError("removeSampler: not from inside a sample");
  const auto sampler = std::find_if(samplers_.begin(), samplers_.end(),
                                    [&](const Sampler& s) { return s.id == id; });
  if (sampler != samplers_.end()) {
    samplers_.erase(sampler);
    return;
  }
  const auto observer = std::find_if(eventObservers_.begin(), eventObservers_.end(),
                                     [&](const auto& o) { return o.first == id; });
  if (observer == eventObservers_.end()) {
    throw InputError("removeSampler: no sampler or event observer has id " + std::to_string(id));
  }
  eventObservers_.erase(observer);
}

void Simulation::takeSamplesAt(Ticks t, bool hopEnd) {
  const ScopedValue sampling(sampling_, true);
  const double seconds = ticksToSeconds(t);
  for (Sampler& s : samplers_) {
    if (s.everyHop() ? !(hopEnd || s.next == 0) : s.nextTick() > t) continue;
    s.next = s.everyHop() ? 1 : s.period->indexAfter(s.start, t);
    s.callback(*this, seconds);
  }
}

void Simulation::notifyEventFired(const std::string& name, double t) {
  const ScopedValue sampling(sampling_, true);
  for (const auto& [id, observer] : eventObservers_) observer(*this, name, t);
}

void Simulation::takeSamplesWithin(Ticks t1, double x0Time, double x1Time) {
  const bool evaluating = !activeContinuous_.empty() || multibodyActive_;
  const std::uint64_t evaluationsBefore = statistics_.derivativeEvaluations;
  const IntegratorStatistics integratorBefore = integrator_->statistics();
  if (evaluating) saveEvaluationState();
  // Whatever happens, the models get back what the samples' evaluations overwrote, and the
  // work counters stay those of the integration.
  struct PutBack {
    Simulation* sim;
    bool evaluating;
    std::uint64_t evaluationsBefore;
    const IntegratorStatistics& integratorBefore;
    ~PutBack() {
      if (evaluating) sim->restoreEvaluationState();
      sim->statistics_.samplingDerivatives +=
          sim->statistics_.derivativeEvaluations - evaluationsBefore;
      sim->statistics_.derivativeEvaluations = evaluationsBefore;
      sim->integrator_->restoreStatistics(integratorBefore);
    }
  } putBack{this, evaluating, evaluationsBefore, integratorBefore};
  const ScopedValue sampling(sampling_, true);
  for (;;) {
    // The earliest sample due inside the hop; on a tie, the first registered.
    Sampler* due = nullptr;
    for (Sampler& s : samplers_) {
      if (s.nextTick() < t1 && (due == nullptr || s.nextTick() < due->nextTick())) due = &s;
    }
    if (due == nullptr) break;
    const double t = ticksToSeconds(due->nextTick());
    ++due->next;
    if (evaluating) {
      // A sample tick lies within half a tick of the hop's state span; clamping keeps the
      // interpolation inside it when the hop ended at a crossing between ticks.
      setTrialState(std::clamp(t, x0Time, x1Time));
      evaluateDerivatives(t, xTrial_, xdotSample_);
    }
    due->callback(*this, t);
  }
}

void Simulation::saveEvaluationState() {
  sampleSavedModels_.resize(activeContinuous_.size());
  for (std::size_t i = 0; i < activeContinuous_.size(); ++i) {
    activeContinuous_[i]->saveEvaluationState(sampleSavedModels_[i]);
  }
  if (multibodyActive_) multibody_->saveEvaluationState(sampleSavedMultibody_);
}

void Simulation::restoreEvaluationState() {
  if (multibodyActive_) multibody_->restoreEvaluationState(sampleSavedMultibody_);
  for (std::size_t i = 0; i < activeContinuous_.size(); ++i) {
    activeContinuous_[i]->restoreEvaluationState(sampleSavedModels_[i]);
  }
}

}  // namespace hopsim
