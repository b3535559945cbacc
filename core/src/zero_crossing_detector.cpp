// ZeroCrossingDetector: registration, the trigger rule, localization, the conditions that fire
// together, chattering and firing (docs/zero-crossings.md).

#include "hopsim/core/zero_crossing_detector.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hopsim/core/model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

int signOf(double value) { return (value > 0.0) - (value < 0.0); }

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

void ZeroCrossingDetector::add(std::string name, ZeroCrossingResidual residual,
                               CrossingDirection direction, EventCallback callback,
                               ZeroCrossingOptions options, const Model* owner) {
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
  crossing.owner = owner;
  crossing.residual = std::move(residual);
  crossing.direction = direction;
  crossing.callback = std::move(callback);
  crossing.options = options;
  crossing.sequence = sequence_++;
  crossings_.push_back(std::move(crossing));
  firing_.reserve(crossings_.size());
}

bool ZeroCrossingDetector::has(std::string_view name) const {
  return std::any_of(crossings_.begin(), crossings_.end(),
                     [&](const Crossing& c) { return c.name == name && !c.removed; });
}

std::optional<EventInfo> ZeroCrossingDetector::find(std::string_view name) const {
  for (const Crossing& c : crossings_) {
    if (c.name == name && !c.removed) {
      return EventInfo{c.name, EventKind::ZeroCrossing, c.options.priority, std::nullopt,
                       toString(c.direction)};
    }
  }
  return std::nullopt;
}

void ZeroCrossingDetector::list(std::vector<EventInfo>& into) const {
  for (const Crossing& c : crossings_) {
    if (!c.removed) into.push_back(*find(c.name));
  }
}

bool ZeroCrossingDetector::remove(std::string_view name) {
  const auto crossing = std::find_if(crossings_.begin(), crossings_.end(), [&](const Crossing& c) {
    return c.name == name && !c.removed;
  });
  if (crossing == crossings_.end()) return false;
  if (crossing->owner != nullptr) {
    throw InputError("removeEvent: '" + crossing->name + "' is a zero crossing " +
                     crossing->owner->describe() +
                     " declares; it goes with the model (removeModel or deactivate it)");
  }
  // Marked now, erased between firings: a callback may remove a condition still to fire.
  crossing->removed = true;
  eraseRemoved();
  return true;
}

void ZeroCrossingDetector::clear() {
  for (Crossing& c : crossings_) c.removed = c.removed || c.owner == nullptr;
  eraseRemoved();
}

void ZeroCrossingDetector::eraseRemoved() {
  if (firing_.empty()) std::erase_if(crossings_, [](const Crossing& c) { return c.removed; });
}

void ZeroCrossingDetector::removeOwnedBy(const Model& model) {
  std::erase_if(crossings_, [&](const Crossing& c) { return c.owner == &model; });
}

void ZeroCrossingDetector::setActiveModels(const std::vector<Model*>& active) {
  for (Crossing& c : crossings_) {
    c.ownerActive =
        c.owner == nullptr || std::find(active.begin(), active.end(), c.owner) != active.end();
  }
}

void ZeroCrossingDetector::setChatteringLimit(int hops) {
  if (hops < 1) throw InputError("setChatteringLimit: " + std::to_string(hops) + " must be >= 1");
  chatteringLimit_ = hops;
}

// ---- snapshots ----------------------------------------------------------------------------

void ZeroCrossingDetector::save(std::vector<Snapshot::CrossingMemory>& memory,
                                int& chattering) const {
  memory.clear();
  for (const Crossing& c : crossings_)
    memory.push_back({c.afterFiring, c.firedValue, c.crossedSign});
  chattering = chattering_;
}

void ZeroCrossingDetector::restore(const std::vector<Snapshot::CrossingMemory>& memory,
                                   int chattering) {
  for (std::size_t c = 0; c < crossings_.size(); ++c) {
    crossings_[c].afterFiring = memory[c].afterFiring;
    crossings_[c].firedValue = memory[c].firedValue;
    crossings_[c].crossedSign = memory[c].crossedSign;
  }
  chattering_ = chattering;
}

// ---- detection and localization -----------------------------------------------------------

void ZeroCrossingDetector::evaluateStartSigns(Host& host, double t) {
  host.refreshOutputs(t);
  Simulation& sim = host.simulation();
  for (Crossing& c : crossings_) {
    if (!c.ownerActive) {  // an inactive model's condition cannot trigger
      c.startSign = 0;
      c.afterFiring = false;
      continue;
    }
    const double g = c.residual(sim, t);
    // Still exactly where it fired: it counts as on the side it crossed to, so numerical noise
    // in the re-propagated state cannot make it fire twice for one crossing.
    c.startSign = c.afterFiring && g == c.firedValue ? c.crossedSign : signOf(g);
    c.bracket = Bracket{t, g, t, g, 0};
    c.afterFiring = false;
  }
}

Bracket ZeroCrossingDetector::localize(Host& host, Crossing& crossing) {
  Simulation& sim = host.simulation();
  const auto residualAt = [&](double t) {
    host.setStateAt(t);
    host.refreshOutputs(t);
    ++statistics_.localizationResiduals;
    return crossing.residual(sim, t);
  };
  Bracket bracket = crossing.bracket;
  const bool startPositive = crossing.startSign > 0;
  // A fixed-step method's interpolant covers one sub-step at a time: first find the sub-step
  // whose end has crossed, from the recorded sub-step states (no integration needed).
  const int subSteps = host.recordedSubSteps();
  for (int k = 1; k < subSteps; ++k) {
    const double tk = host.setSubStepState(k);
    host.refreshOutputs(tk);
    ++statistics_.localizationResiduals;
    const double gk = crossing.residual(sim, tk);
    if (gk == 0.0 || (gk > 0.0) != startPositive) {
      bracket.b = tk;
      bracket.gb = gk;
      break;
    }
    bracket.a = tk;
    bracket.ga = gk;
  }
  return narrowBracket(residualAt, bracket, crossing.options.timeTolerance,
                       crossing.options.valueTolerance, crossing.options.rootFinder);
}

bool ZeroCrossingDetector::locate(Host& host, Ticks t0, Ticks& t1, double& x1Time) {
  host.refreshOutputs(x1Time);  // X(t1) is in the models after the last sub-step
  Simulation& sim = host.simulation();
  bool any = false;
  for (Crossing& c : crossings_) {
    c.triggered = false;
    c.fires = false;
    if (c.startSign == 0) continue;  // at zero at the hop start: it cannot trigger in this hop
    const double g1 = c.residual(sim, x1Time);
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
    c.bracket = localize(host, c);
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
  if (!rerun) host.backToHopEnd(x1Time);  // the trials moved the models' states
  t1 = located;
  x1Time = earliest;
  return rerun;
}

// ---- firing -------------------------------------------------------------------------------

void ZeroCrossingDetector::fire(Host& host, double t) {
  struct Done {  // the firing list empties even if a callback throws
    ZeroCrossingDetector* detector;
    ~Done() {
      detector->firing_.clear();
      detector->eraseRemoved();
    }
  } done{this};
  Simulation& sim = host.simulation();
  for (std::size_t k = 0; k < firing_.size(); ++k) {
    if (crossings_[firing_[k]].removed) continue;
    host.refreshOutputs(t);
    const double g = crossings_[firing_[k]].residual(sim, t);
    Crossing& c = crossings_[firing_[k]];
    c.afterFiring = true;
    c.firedValue = g;
    c.crossedSign = signOf(c.bracket.gb);
    if (c.options.oneShot) c.removed = true;
    ++statistics_.crossingsFired;
    // Removed conditions are erased only after the loop, and the deque keeps elements in
    // place when callbacks register others, so the callback outlives its own call.
    c.callback(sim, t);
    host.crossingFired(c.name, t);
  }
}

}  // namespace hopsim
