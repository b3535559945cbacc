// Simulation: zero-crossing conditions — registration, target crossings, and the trial states
// the detector localizes crossings on: the integrator's dense output, or a re-integration of a
// fixed-step sub-step (docs/zero-crossings.md; the detector: zero_crossing_detector.cpp).

#include <cmath>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {
namespace {

double numericValue(const Value& value, std::string_view path) {
  if (const auto* d = std::get_if<double>(&value)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  throw InputError("target crossing on '" + std::string(path) + "': the variable is " +
                   describeValue(value) + "; expected a numeric scalar");
}

}  // namespace

// ---- registration -------------------------------------------------------------------------

void Simulation::requireUniqueEventName(const std::string& name) const {
  if (events_.find(name).has_value() || crossings_.has(name)) {
    throw InputError("an event named '" + name + "' already exists");
  }
}

void Simulation::registerZeroCrossing(std::string name, ZeroCrossingResidual residual,
                                      CrossingDirection direction, EventCallback callback,
                                      ZeroCrossingOptions options) {
  requireBetweenHops("register zero crossing '" + name + "'");
  if (name.empty()) throw InputError("an event needs a non-empty name");
  requireUniqueEventName(name);
  crossings_.add(std::move(name), std::move(residual), direction, std::move(callback), options);
}

void Simulation::registerModelCrossings(Model& model) {
  // addModel checked the names are free.
  const std::vector<CrossingSpec>& declared = model.spec().crossings();
  for (std::size_t i = 0; i < declared.size(); ++i) {
    const CrossingKey key{i};
    crossings_.add(
        model.name() + "." + declared[i].name,
        [&model, key](Simulation&, double t) { return model.crossingResidual(key, t); },
        declared[i].direction, [&model, key](Simulation&, double t) { model.onCrossing(key, t); },
        {}, &model);
  }
}

void Simulation::registerTargetCrossing(std::string name, std::string_view path, double target,
                                        CrossingDirection direction, EventCallback callback,
                                        ZeroCrossingOptions options) {
  numericValue(variables_.get(path), path);  // the path exists and is a numeric scalar
  if (!std::isfinite(target)) {
    throw InputError("target crossing '" + name + "': target " + describeValue(target) +
                     " is not finite");
  }
  registerZeroCrossing(
      std::move(name),
      [variable = std::string(path), target](Simulation& sim, double) {
        return numericValue(sim.get(variable), variable) - target;
      },
      direction, std::move(callback), options);
}

void Simulation::setChatteringLimit(int hops) { crossings_.setChatteringLimit(hops); }

std::optional<EventInfo> Simulation::findEvent(std::string_view name) const {
  if (auto found = events_.find(name)) return found;
  return crossings_.find(name);
}

std::vector<EventInfo> Simulation::listEvents() const {
  std::vector<EventInfo> out = events_.list();
  crossings_.list(out);
  return out;
}

void Simulation::removeEvent(std::string_view name) {
  // Not a zero crossing: an event, or the error naming the nearest names.
  if (!crossings_.remove(name)) events_.remove(name);
}

void Simulation::clearEvents() {
  events_.clear();
  crossings_.clear();
}

// ---- the detector's host ------------------------------------------------------------------

struct Simulation::CrossingHost final : ZeroCrossingDetector::Host {
  explicit CrossingHost(Simulation& simulation) : sim(simulation) {}
  Simulation& simulation() override { return sim; }
  void refreshOutputs(double t) override { sim.refreshContinuousOutputs(t); }
  void setStateAt(double t) override {
    const std::uint64_t before = sim.statistics_.derivativeEvaluations;
    sim.setTrialState(t);
    sim.statistics_.localizationDerivatives += sim.statistics_.derivativeEvaluations - before;
  }
  int recordedSubSteps() override {
    return sim.integrator_->isFixedStep() && sim.states_.size() > 0 ? sim.integrationSteps_ : 1;
  }
  double setSubStepState(int k) override {
    sim.states_.scatter(sim.subStepStates_.col(k));
    return sim.subStepTimes_[static_cast<std::size_t>(k)];
  }
  void backToHopEnd(double t) override {
    if (sim.states_.size() == 0) return;
    sim.states_.scatter(sim.x_);
    sim.refreshContinuousOutputs(t);
  }
  void crossingFired(const std::string& name, double t) override {
    if (!sim.eventObservers_.empty()) sim.notifyEventFired(name, t);
  }
  Simulation& sim;
};

void Simulation::evaluateStartSigns(double t) {
  CrossingHost host(*this);
  crossings_.evaluateStartSigns(host, t);
}

bool Simulation::locateCrossings(Ticks t0, Ticks& t1, double& x1Time) {
  CrossingHost host(*this);
  return crossings_.locate(host, t0, t1, x1Time);
}

void Simulation::fireCrossings(double t) {
  CrossingHost host(*this);
  crossings_.fire(host, t);
}

void Simulation::setTrialState(double t) {
  if (states_.size() == 0) return;
  if (integrator_->isFixedStep()) {
    // A fixed-step method restarts at every sub-step (models may reset states between them), so
    // its dense output covers one sub-step: the last, after a pass. Another sub-step is taken
    // again from its recorded start state: the same step, its stages evaluated again.
    std::size_t k = 0;
    while (k + 2 < subStepTimes_.size() && subStepTimes_[k + 1] < t) ++k;
    const double ta = subStepTimes_[k];
    const double tb = subStepTimes_[k + 1];
    if (integrator_->intervalStart() != ta || integrator_->time() != tb) {
      integrator_->restart(ta, subStepStates_.col(static_cast<Eigen::Index>(k)));
      integrator_->advance(derivativeFunction_, tb, xTrial_);
    }
  }
  integrator_->interpolate(t, xTrial_);
  states_.scatter(xTrial_);
}

}  // namespace hopsim
