// Simulation: zero-crossing conditions — registration, the trigger rule, localization with the
// integrator's dense output (or re-integration), rollback and firing (docs/zero-crossings.md).

#include <algorithm>
#include <cmath>
#include <limits>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "simulation_calls.h"

namespace hopsim {
namespace {

int signOf(double value) { return (value > 0.0) - (value < 0.0); }

double numericValue(const Value& value, std::string_view path) {
  if (const auto* d = std::get_if<double>(&value)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  throw InputError("target crossing on '" + std::string(path) + "': the variable is " +
                   describeValue(value) + "; expected a numeric scalar");
}

}  // namespace

const char* toString(CrossingDirection direction) {
  switch (direction) {
    case CrossingDirection::Rising:
      return "rising";
    case CrossingDirection::Falling:
      return "falling";
    case CrossingDirection::Either:
      return "either";
  }
  return "?";
}

const char* toString(RootFinder method) {
  return method == RootFinder::Illinois ? "illinois" : "bisection";
}

// ---- registration -------------------------------------------------------------------------

void Simulation::requireUniqueEventName(const std::string& name) const {
  const bool taken = events_.find(name).has_value() ||
                     std::any_of(crossings_.begin(), crossings_.end(),
                                 [&](const Crossing& c) { return c.name == name && !c.removed; });
  if (taken) throw InputError("an event named '" + name + "' already exists");
}

void Simulation::registerZeroCrossing(std::string name, ZeroCrossingResidual residual,
                                      CrossingDirection direction, EventCallback callback,
                                      ZeroCrossingOptions options) {
  requireBetweenHops("register zero crossing '" + name + "'");
  if (name.empty()) throw InputError("an event needs a non-empty name");
  requireUniqueEventName(name);
  if (!residual) throw InputError("zero crossing '" + name + "': no residual function");
  if (!callback) throw InputError("event '" + name + "': no callback");
  if (!(options.timeTolerance > 0.0) || !std::isfinite(options.timeTolerance)) {
    throw InputError("zero crossing '" + name + "': timeTolerance = " +
                     describeValue(options.timeTolerance) + " s; expected a positive time");
  }
  if (!(options.valueTolerance >= 0.0) || !std::isfinite(options.valueTolerance)) {
    throw InputError("zero crossing '" + name + "': valueTolerance = " +
                     describeValue(options.valueTolerance) + "; expected a value >= 0");
  }
  Crossing crossing;
  crossing.name = std::move(name);
  crossing.residual = std::move(residual);
  crossing.direction = direction;
  crossing.callback = std::move(callback);
  crossing.options = options;
  crossing.sequence = crossingSequence_++;
  crossings_.push_back(std::move(crossing));
  firing_.reserve(crossings_.size());
}

void Simulation::registerModelCrossings(Model& model) {
  const std::vector<CrossingSpec>& declared = model.spec().crossings();
  for (std::size_t i = 0; i < declared.size(); ++i) {
    const CrossingKey key{i};
    registerZeroCrossing(
        model.name() + "." + declared[i].name,
        [&model, key](Simulation&, double t) { return model.crossingResidual(key, t); },
        declared[i].direction, [&model, key](Simulation&, double t) { model.onCrossing(key, t); });
    crossings_.back().owner = &model;
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

void Simulation::setChatteringLimit(int hops) {
  if (hops < 1) throw InputError("setChatteringLimit: " + std::to_string(hops) + " must be >= 1");
  chatteringLimit_ = hops;
}

std::optional<EventInfo> Simulation::findEvent(std::string_view name) const {
  if (auto found = events_.find(name)) return found;
  for (const Crossing& c : crossings_) {
    if (c.name == name && !c.removed) {
      return EventInfo{c.name, EventKind::ZeroCrossing, c.options.priority, std::nullopt,
                       toString(c.direction)};
    }
  }
  return std::nullopt;
}

std::vector<EventInfo> Simulation::listEvents() const {
  std::vector<EventInfo> out = events_.list();
  for (const Crossing& c : crossings_) {
    if (!c.removed) out.push_back(*findEvent(c.name));
  }
  return out;
}

void Simulation::removeEvent(std::string_view name) {
  const auto crossing = std::find_if(crossings_.begin(), crossings_.end(), [&](const Crossing& c) {
    return c.name == name && !c.removed;
  });
  if (crossing == crossings_.end()) {
    events_.remove(name);  // throws with suggestions if it is no event at all
    return;
  }
  if (crossing->owner != nullptr) {
    throw InputError("removeEvent: '" + crossing->name + "' is a zero crossing " +
                     crossing->owner->describe() +
                     " declares; it goes with the model (removeModel or deactivate it)");
  }
  // Marked now, erased between firings: a callback may remove a condition still to fire.
  crossing->removed = true;
  if (firing_.empty()) std::erase_if(crossings_, [](const Crossing& c) { return c.removed; });
}

void Simulation::clearEvents() {
  events_.clear();
  for (Crossing& c : crossings_) c.removed = c.removed || c.owner == nullptr;
  if (firing_.empty()) std::erase_if(crossings_, [](const Crossing& c) { return c.removed; });
}

// ---- detection and localization -----------------------------------------------------------

void Simulation::evaluateStartSigns(double t) {
  refreshContinuousOutputs(t);
  for (Crossing& c : crossings_) {
    if (!c.ownerActive) {  // an inactive model's condition cannot trigger
      c.startSign = 0;
      c.afterFiring = false;
      continue;
    }
    const double g = c.residual(*this, t);
    // Still exactly where it fired: it counts as on the side it crossed to, so numerical noise
    // in the re-propagated state cannot make it fire twice for one crossing.
    c.startSign = c.afterFiring && g == c.firedValue ? c.crossedSign : signOf(g);
    c.bracket = Bracket{t, g, t, g, 0};
    c.afterFiring = false;
  }
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

Bracket Simulation::localize(Crossing& crossing) {
  const auto residualAt = [&](double t) {
    const std::uint64_t before = statistics_.derivativeEvaluations;
    setTrialState(t);
    statistics_.localizationDerivatives += statistics_.derivativeEvaluations - before;
    refreshContinuousOutputs(t);
    ++statistics_.localizationResiduals;
    return crossing.residual(*this, t);
  };
  Bracket bracket = crossing.bracket;
  const bool startPositive = crossing.startSign > 0;
  // A fixed-step method's interpolant covers one sub-step at a time: first find the sub-step
  // whose end has crossed, from the recorded sub-step states (no integration needed).
  if (integrator_->isFixedStep() && states_.size() > 0) {
    for (int k = 1; k < integrationSteps_; ++k) {
      const double tk = subStepTimes_[static_cast<std::size_t>(k)];
      states_.scatter(subStepStates_.col(k));
      refreshContinuousOutputs(tk);
      ++statistics_.localizationResiduals;
      const double gk = crossing.residual(*this, tk);
      if (gk == 0.0 || (gk > 0.0) != startPositive) {
        bracket.b = tk;
        bracket.gb = gk;
        break;
      }
      bracket.a = tk;
      bracket.ga = gk;
    }
  }
  return narrowBracket(residualAt, bracket, crossing.options.timeTolerance,
                       crossing.options.valueTolerance, crossing.options.rootFinder);
}

bool Simulation::locateCrossings(Ticks t0, Ticks& t1, double& x1Time) {
  refreshContinuousOutputs(x1Time);  // X(t1) is in the models after the last sub-step
  bool any = false;
  for (Crossing& c : crossings_) {
    c.triggered = false;
    c.fires = false;
    if (c.startSign == 0) continue;  // at zero at the hop start: it cannot trigger in this hop
    const double g1 = c.residual(*this, x1Time);
    const bool crossed = g1 == 0.0 || (g1 > 0.0) != (c.startSign > 0);
    const bool wanted = c.direction == CrossingDirection::Either ||
                        (c.direction == CrossingDirection::Rising) == (c.startSign < 0);
    if (!crossed || !wanted) continue;
    c.triggered = true;
    // The secant needs g(a) on the starting side; after an override it may sit at the noise
    // level on the other side, so its magnitude is borrowed from g(t1).
    const double ga =
        signOf(c.bracket.ga) == c.startSign ? c.bracket.ga : c.startSign * std::fabs(g1);
    c.bracket = Bracket{c.bracket.a, ga, x1Time, g1, 0};
    any = true;
  }
  if (!any) {
    chattering_ = 0;
    return false;
  }
  double earliest = std::numeric_limits<double>::infinity();
  for (Crossing& c : crossings_) {
    if (!c.triggered) continue;
    c.bracket = localize(c);
    earliest = std::min(earliest, c.bracket.b);
  }
  // Conditions located within their own tolerance of the earliest crossing fire with it.
  firing_.clear();
  for (std::size_t i = 0; i < crossings_.size(); ++i) {
    Crossing& c = crossings_[i];
    c.fires = c.triggered && c.bracket.b - earliest <= c.options.timeTolerance;
    if (c.fires) firing_.push_back(i);
  }
  std::sort(firing_.begin(), firing_.end(), [&](std::size_t a, std::size_t b) {
    const Crossing& ca = crossings_[a];
    const Crossing& cb = crossings_[b];
    return ca.options.priority != cb.options.priority ? ca.options.priority < cb.options.priority
                                                      : ca.sequence < cb.sequence;
  });

  // The clock stops at the tick nearest the crossing (at least one tick into the hop); the
  // continuous state at the crossing itself, so event times keep sub-tick accuracy.
  const Ticks located = std::clamp(roundToTicks(earliest), t0 + 1, t1);
  chattering_ = located - t0 <= 1 ? chattering_ + 1 : 0;
  if (chattering_ >= chatteringLimit_) {
    std::string names;
    for (std::size_t i : firing_) names += (names.empty() ? "'" : ", '") + crossings_[i].name + "'";
    firing_.clear();
    chattering_ = 0;
    throw NumericalError(
        "zero-crossing chattering: " + names + " triggered " + std::to_string(chatteringLimit_) +
        " hops in a row without time advancing, at t = " + describeValue(earliest) +
        " s; the callback leaves the residual at its crossing (move the state "
        "away from it, give the condition a direction, or make it oneShot)");
  }
  const bool rerun = earliest < x1Time;
  if (!rerun && states_.size() > 0) {
    states_.scatter(x_);  // the trials moved the models' states; X(t1) is the result
    refreshContinuousOutputs(x1Time);
  }
  t1 = located;
  x1Time = earliest;
  return rerun;
}

// ---- rollback -----------------------------------------------------------------------------

void Simulation::saveRollbackPoint() {
  savedDiscrete_.resize(activeOrder_.size());
  savedContinuous_.resize(activeOrder_.size());
  for (std::size_t i = 0; i < activeOrder_.size(); ++i) {
    activeOrder_[i]->saveDiscreteStates(savedDiscrete_[i]);
    activeOrder_[i]->saveContinuousStates(savedContinuous_[i]);
  }
  if (multibodyActive_) {
    savedQ_ = multibody_->q();  // sized once: assignment reuses the storage
    savedU_ = multibody_->u();
  }
  // The re-run starts with the first step the discarded pass started with.
  savedContinuation_ = continuation_;  // same sizes: no allocation
}

void Simulation::restoreRollbackPoint() {
  for (std::size_t i = 0; i < activeOrder_.size(); ++i) {
    activeOrder_[i]->restoreDiscreteStates(savedDiscrete_[i]);
    activeOrder_[i]->restoreContinuousStates(savedContinuous_[i]);
  }
  if (multibodyActive_) {
    multibody_->q() = savedQ_;
    multibody_->u() = savedU_;
  }
  continuation_ = savedContinuation_;
}

// ---- firing -------------------------------------------------------------------------------

void Simulation::fireCrossings(double t) {
  struct Done {  // the firing list empties even if a callback throws
    Simulation* sim;
    ~Done() {
      sim->firing_.clear();
      std::erase_if(sim->crossings_, [](const Crossing& c) { return c.removed; });
    }
  } done{this};
  for (std::size_t k = 0; k < firing_.size(); ++k) {
    if (crossings_[firing_[k]].removed) continue;
    refreshContinuousOutputs(t);
    const double g = crossings_[firing_[k]].residual(*this, t);
    Crossing& c = crossings_[firing_[k]];
    c.afterFiring = true;
    c.firedValue = g;
    c.crossedSign = signOf(c.bracket.gb);
    if (c.options.oneShot) c.removed = true;
    ++statistics_.crossingsFired;
    // Removed conditions are erased only after the loop, and the deque keeps elements in
    // place when callbacks register others, so the callback outlives its own call.
    c.callback(*this, t);
    if (!eventObservers_.empty()) notifyEventFired(c.name, t);
  }
}

}  // namespace hopsim
