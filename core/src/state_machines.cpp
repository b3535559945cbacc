// State machines in a simulation: checking a machine, adding it as a StateMachineModel,
// registering its guards, and firing its transitions (state_machines.h,
// docs/state-machines.md).

#include "hopsim/core/state_machines.h"

#include <algorithm>
#include <climits>
#include <limits>
#include <optional>
#include <utility>

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "simulation_calls.h"

namespace hopsim {

namespace {

// The end-hop event that runs during actions and checks event and state guards: last at its
// barrier, so that it sees every event fired there.
constexpr const char* kCheckEvent = "stateMachines";
// Transitions at one instant, over all machines, beyond which a loop is assumed.
constexpr std::size_t kInstantTransitionLimit = 1000;

std::vector<std::string> machineStateNames(const StateMachineSpec& spec) {
  std::vector<std::string> names;
  for (const MachineState& s : spec.states) names.push_back(s.name);
  return names;
}

// The index of state `name` in `spec`, or an InputError saying where it was named.
std::size_t indexOfState(const StateMachineSpec& spec, const std::string& name,
                         const std::string& where) {
  for (std::size_t s = 0; s < spec.states.size(); ++s) {
    if (spec.states[s].name == name) return s;
  }
  throw InputError("state machine '" + spec.name + "': " + where + ": unknown state '" + name +
                   "'" + didYouMean(name, machineStateNames(spec)));
}

std::string transitionName(const MachineTransition& t) { return t.from + " -> " + t.to; }

}  // namespace

/// The machines of one simulation, which fire together: raised events, guards on each other's
/// states, and the count of transitions at one instant are theirs in common. Every machine
/// model of the simulation shares it.
class StateMachineSet {
 public:
  std::vector<StateMachineModel*> machines;  // in the order they were added

  const StateMachineModel* find(std::string_view name) const {
    for (const StateMachineModel* m : machines) {
      if (m->name() == name) return m;
    }
    return nullptr;
  }

  /// Registers the end-hop check and the event observer, once per simulation.
  void attach(Simulation& sim, const std::shared_ptr<StateMachineSet>& self) {
    if (attached_) return;
    std::weak_ptr<StateMachineSet> weak = self;
    sim.registerEndHopEvent(kCheckEvent,
                            [weak](Simulation& s, double t) {
                              if (const auto set = weak.lock()) set->checkAtHopEnd(s, t);
                            },
                            {.priority = INT_MAX});
    sim.addEventObserver([weak](Simulation&, std::string_view name, double) {
      if (const auto set = weak.lock(); set && set->watched(name)) {
        set->pendingEvents_.emplace_back(name);
      }
    });
    attached_ = true;
  }

  /// Whether an event guard waits for `event`.
  bool watched(std::string_view event) const {
    for (const StateMachineModel* m : machines) {
      for (const MachineTransition& t : m->spec().transitions) {
        if (t.guard.kind == MachineGuard::Kind::Event && t.guard.name == event) return true;
      }
    }
    return false;
  }

  void raise(Simulation& sim, std::string_view name, double t) {
    if (!watched(name)) return;
    pendingEvents_.emplace_back(name);
    settle(sim, t);
  }

  /// Enters `m`'s initial state at t, with its entry actions, then settles.
  void start(Simulation& sim, StateMachineModel& m, std::size_t initial, double t) {
    trail_.clear();
    m.enter(initial, t);
    {
      const ScopedValue holding(settling_, true);
      runActions(sim, m.spec().states[initial].entry, t);
    }
    settle(sim, t);
  }

  /// Fires transition `transition` of `m` at t (exit, transition and entry actions), then
  /// settles unless a settle is in progress.
  void fire(Simulation& sim, StateMachineModel& m, std::size_t transition, double t) {
    const MachineTransition& tr = m.spec().transitions[transition];
    if (t != trailTime_) {
      trail_.clear();
      trailTime_ = t;
    }
    trail_.emplace_back(&m, m.stateIndex());
    if (trail_.size() > kInstantTransitionLimit) throwLoop(t);
    const bool nested = settling_;
    {
      // An event an action raises waits until the machine is in its new state.
      const ScopedValue holding(settling_, true);
      runActions(sim, m.spec().states[m.stateIndex()].exit, t);
      runActions(sim, tr.actions, t);
      const std::size_t target = indexOfState(m.spec(), tr.to, "");
      m.enter(target, t);
      runActions(sim, m.spec().states[target].entry, t);
    }
    if (!nested) settle(sim, t);
  }

  /// Forgets a machine whose addition failed.
  void drop(const StateMachineModel& m) { std::erase(machines, &m); }

 private:
  static void runActions(Simulation& sim, const std::vector<MachineAction>& actions, double t) {
    for (const MachineAction& a : actions) a.run(sim, t);
  }

  void checkAtHopEnd(Simulation& sim, double t) {
    for (StateMachineModel* m : machines) {
      runActions(sim, m->spec().states[m->stateIndex()].during, t);
    }
    settle(sim, t);
  }

  bool holdsNow(const StateMachineModel& m, const MachineGuard& g, double t) const {
    switch (g.kind) {
      case MachineGuard::Kind::AtTime:
        return t >= g.value;
      case MachineGuard::Kind::TimeInState:
        return t - m.entered() >= g.value;
      case MachineGuard::Kind::InState:
        return find(g.name)->stateName() == g.state;
      default:  // crossings fire by their condition, events in settle
        return false;
    }
  }

  // Fires the raised events' transitions, then every transition whose instantaneous guard
  // holds at t, until none does.
  void settle(Simulation& sim, double t) {
    if (settling_) return;  // the outer call goes on until nothing holds
    const ScopedValue holding(settling_, true);
    try {
      // Each raised event is taken at most once per machine, in the order raised.
      for (std::size_t e = 0; e < pendingEvents_.size(); ++e) {
        for (StateMachineModel* m : machines) {
          for (std::size_t ti : m->outgoing(m->stateIndex())) {
            const MachineGuard& g = m->spec().transitions[ti].guard;
            if (g.kind == MachineGuard::Kind::Event && g.name == pendingEvents_[e]) {
              fire(sim, *m, ti, t);
              break;
            }
          }
        }
      }
      pendingEvents_.clear();
      for (bool fired = true; fired;) {
        fired = false;
        for (std::size_t mi = 0; mi < machines.size() && !fired; ++mi) {
          StateMachineModel& m = *machines[mi];
          for (std::size_t ti : m.outgoing(m.stateIndex())) {
            if (holdsNow(m, m.spec().transitions[ti].guard, t)) {
              fire(sim, m, ti, t);
              fired = true;
              break;
            }
          }
        }
      }
    } catch (...) {
      pendingEvents_.clear();
      throw;
    }
  }

  [[noreturn]] void throwLoop(double t) const {
    // The cycle: from the last state left back to where it was left before.
    const auto last = trail_.back();
    const auto previous = std::find(trail_.rbegin() + 1, trail_.rend(), last);
    std::string cycle;
    for (auto it = previous == trail_.rend() ? trail_.begin() : previous.base() - 1;
         it != trail_.end(); ++it) {
      cycle += (cycle.empty() ? "" : " -> ") + it->first->name() + "." +
               it->first->spec().states[it->second].name;
    }
    throw ModelError(
        "state machines: a loop of instantaneous transitions at t = " + formatNumber(t) +
        " s: " + cycle + " (" + std::to_string(kInstantTransitionLimit) +
        " transitions without time advancing); give one of them a guard that waits "
        "for a crossing, a time or an event");
  }

  bool attached_ = false;
  std::vector<std::string> pendingEvents_;  // fired or raised since the last settle
  bool settling_ = false;
  /// The (machine, state left) of the transitions at trailTime_, to name a loop.
  std::vector<std::pair<const StateMachineModel*, std::size_t>> trail_;
  double trailTime_ = 0.0;
};

// ---- the model ------------------------------------------------------------------------------

StateMachineModel::Declaration::Declaration()
    : ModelSpec("StateMachine", ModelKind::Flow,
                "a state machine: its current state and when it entered it "
                "(docs/state-machines.md)") {}

const StateMachineModel::Declaration& StateMachineModel::declaration() {
  static const Declaration d;
  return d;
}

StateMachineModel::StateMachineModel(StateMachineSpec spec, std::shared_ptr<StateMachineSet> set)
    : FlowModel(spec.name, declaration()),
      spec_(std::move(spec)),
      outgoing_(spec_.states.size()),
      set_(std::move(set)) {
  for (std::size_t i = 0; i < spec_.transitions.size(); ++i) {
    outgoing_[indexOfState(spec_, spec_.transitions[i].from, "")].push_back(i);
  }
  for (std::vector<std::size_t>& out : outgoing_) {
    std::stable_sort(out.begin(), out.end(), [this](std::size_t a, std::size_t b) {
      return spec_.transitions[a].priority < spec_.transitions[b].priority;
    });
  }
}

std::size_t StateMachineModel::stateIndex() const {
  const std::int64_t s = state(d_.state);
  if (s < 0 || s >= static_cast<std::int64_t>(spec_.states.size())) {
    throw ModelError("state machine '" + name() + "': state index " + std::to_string(s) +
                     " was set out of range; it has " + std::to_string(spec_.states.size()) +
                     " states");
  }
  return static_cast<std::size_t>(s);
}

void StateMachineModel::enter(std::size_t s, double t) {
  state(d_.state) = static_cast<std::int64_t>(s);
  state(d_.entered) = t;
}

// ---- adding a machine -----------------------------------------------------------------------

namespace {

std::shared_ptr<StateMachineSet> setOf(const Simulation& sim) {
  for (const std::string& name : sim.modelNames()) {
    if (const auto* m = dynamic_cast<const StateMachineModel*>(&sim.model(name))) return m->set();
  }
  return nullptr;
}

// Checks a guard against the simulation and the machines already added (and `spec` itself).
void checkGuard(const Simulation& sim, const StateMachineSet* set, const StateMachineSpec& spec,
                const MachineTransition& t) {
  const MachineGuard& g = t.guard;
  const std::string where =
      "state machine '" + spec.name + "': transition " + transitionName(t) + ": guard ";
  if (g.kind == MachineGuard::Kind::Crossing) {
    const Variable* variable = nullptr;
    try {
      variable = &sim.variables().at(g.path);
    } catch (const InputError& e) {
      throw InputError(where + e.what());
    }
    if (variable->type() == ElementType::String) {
      throw InputError(where + "on '" + g.path + "', a string; expected a numeric variable");
    }
    if (g.element >= variable->length()) {
      throw InputError(where + "on '" + g.path + "' element " + std::to_string(g.element) +
                       ": it has " + std::to_string(variable->length()) +
                       (variable->length() == 1 ? " element" : " elements"));
    }
  } else if (g.kind == MachineGuard::Kind::InState) {
    const StateMachineSpec* other = g.name == spec.name ? &spec : nullptr;
    if (other == nullptr && set != nullptr) {
      if (const StateMachineModel* m = set->find(g.name)) other = &m->spec();
    }
    if (other == nullptr) {
      std::vector<std::string> names;
      if (set != nullptr) {
        for (const StateMachineModel* m : set->machines) names.push_back(m->name());
      }
      throw InputError(where + "no state machine named '" + g.name + "'" +
                       didYouMean(g.name, names) + " (add the machine it reads first)");
    }
    indexOfState(*other, g.state, "transition " + transitionName(t) + ": guard");
  }
}

void checkActions(const Simulation& sim, const StateMachineSpec& spec,
                  const std::vector<MachineAction>& actions, const std::string& where) {
  for (const MachineAction& a : actions) {
    if (!a.run) {
      throw InputError("state machine '" + spec.name + "': " + where + ": action '" +
                       a.description + "' has nothing to run");
    }
    if (!a.check) continue;
    try {
      a.check(sim);
    } catch (const InputError& e) {
      throw InputError("state machine '" + spec.name + "': " + where + ": " + e.what());
    }
  }
}

// Checks everything but the name; returns the initial state.
std::size_t checkSpec(const Simulation& sim, const StateMachineSet* set,
                      const StateMachineSpec& spec) {
  const std::string what = "state machine '" + spec.name + "'";
  if (spec.states.empty()) throw InputError(what + ": no states");
  for (std::size_t s = 0; s < spec.states.size(); ++s) {
    const std::string& name = spec.states[s].name;
    if (name.empty()) throw InputError(what + ": state " + std::to_string(s) + " has no name");
    for (std::size_t r = 0; r < s; ++r) {
      if (spec.states[r].name == name) {
        throw InputError(what + ": state '" + name + "' is declared twice");
      }
    }
  }
  const std::size_t initial =
      spec.initial.empty() ? 0 : indexOfState(spec, spec.initial, "the initial state");
  for (std::size_t i = 0; i < spec.transitions.size(); ++i) {
    const MachineTransition& t = spec.transitions[i];
    const std::string where = "transition " + std::to_string(i) + " (" + transitionName(t) + ")";
    indexOfState(spec, t.from, where);
    indexOfState(spec, t.to, where);
    checkGuard(sim, set, spec, t);
    checkActions(sim, spec, t.actions, where);
  }
  for (const MachineState& s : spec.states) {
    const std::string where = "state '" + s.name + "'";
    checkActions(sim, spec, s.entry, where + " entry");
    checkActions(sim, spec, s.exit, where + " exit");
    checkActions(sim, spec, s.during, where + " during");
  }
  return initial;
}

std::vector<std::string> unreachableWarnings(const StateMachineSpec& spec, std::size_t initial) {
  std::vector<bool> reached(spec.states.size(), false);
  std::vector<std::size_t> todo{initial};
  reached[initial] = true;
  while (!todo.empty()) {
    const std::string from = spec.states[todo.back()].name;
    todo.pop_back();
    for (const MachineTransition& t : spec.transitions) {
      if (t.from != from) continue;
      const std::size_t to = indexOfState(spec, t.to, "");
      if (!reached[to]) {
        reached[to] = true;
        todo.push_back(to);
      }
    }
  }
  std::vector<std::string> warnings;
  for (std::size_t s = 0; s < reached.size(); ++s) {
    if (!reached[s]) {
      warnings.push_back("state machine '" + spec.name + "': state '" + spec.states[s].name +
                         "' cannot be reached from the initial state '" +
                         spec.states[initial].name + "'");
    }
  }
  return warnings;
}

// Registers the located guards of `m` as zero-crossing conditions, adding their names to
// `registered`.
void registerGuards(Simulation& sim, StateMachineModel& m, std::vector<std::string>& registered) {
  const StateMachineSpec& spec = m.spec();
  for (std::size_t i = 0; i < spec.transitions.size(); ++i) {
    const MachineTransition& t = spec.transitions[i];
    if (!t.guard.located()) continue;
    // Two transitions between the same states get their index to tell them apart.
    std::string name = spec.name + "." + t.from + "->" + t.to;
    const auto same = [&t](const MachineTransition& u) { return u.from == t.from && u.to == t.to; };
    if (std::count_if(spec.transitions.begin(), spec.transitions.end(), same) > 1) {
      name += "." + std::to_string(i);
    }
    const std::size_t from = indexOfState(spec, t.from, "");
    // Active only in the source state: elsewhere the residual is NaN, whose sign is 0, so the
    // condition cannot trigger (docs/zero-crossings.md, "The trigger rule").
    ZeroCrossingResidual residual = [&m, from, i](Simulation& s, double time) {
      if (m.stateIndex() != from) return std::numeric_limits<double>::quiet_NaN();
      const MachineGuard& g = m.spec().transitions[i].guard;
      switch (g.kind) {
        case MachineGuard::Kind::Crossing:
          return s.variables().at(g.path).element(g.element) - g.value;
        case MachineGuard::Kind::AtTime:
          return time - g.value;
        default:  // TimeInState
          return time - (m.entered() + g.value);
      }
    };
    const CrossingDirection direction = t.guard.kind == MachineGuard::Kind::Crossing
                                            ? t.guard.direction
                                            : CrossingDirection::Rising;
    sim.registerZeroCrossing(name, std::move(residual), direction,
                             [&m, from, i](Simulation& s, double time) {
                               if (m.stateIndex() == from) m.set()->fire(s, m, i, time);
                             },
                             {.priority = t.priority});
    registered.push_back(std::move(name));
  }
}

}  // namespace

std::vector<std::string> addStateMachine(Simulation& sim, StateMachineSpec spec) {
  if (spec.name.empty()) throw InputError("state machine: the name is empty");
  std::shared_ptr<StateMachineSet> set = setOf(sim);
  const std::size_t initial = checkSpec(sim, set.get(), spec);
  std::vector<std::string> warnings = unreachableWarnings(spec, initial);
  if (!set) set = std::make_shared<StateMachineSet>();

  // Commit; undone if anything fails (a taken name, a loop of instantaneous transitions).
  const bool relock = sim.locked();
  const std::string name = spec.name;
  std::vector<std::string> registered;
  StateMachineModel* added = nullptr;
  try {
    if (relock) sim.unlock();
    added = &sim.addModel(std::make_unique<StateMachineModel>(std::move(spec), set));
    if (relock) sim.lock();
    set->machines.push_back(added);
    registerGuards(sim, *added, registered);
    set->start(sim, *added, initial, sim.time());
    set->attach(sim, set);  // last: nothing to undo after it
  } catch (...) {
    for (const std::string& event : registered) sim.removeEvent(event);
    if (added != nullptr) {
      set->drop(*added);
      if (sim.locked()) sim.unlock();
      sim.removeModel(name);
    }
    if (relock && !sim.locked()) sim.lock();
    throw;
  }
  return warnings;
}

const StateMachineModel& stateMachine(const Simulation& sim, std::string_view name) {
  const std::shared_ptr<StateMachineSet> set = setOf(sim);
  if (set != nullptr) {
    if (const StateMachineModel* m = set->find(name)) return *m;
  }
  throw InputError("no state machine named '" + std::string(name) + "'" +
                   didYouMean(name, stateMachineNames(sim)));
}

std::vector<std::string> stateMachineNames(const Simulation& sim) {
  std::vector<std::string> names;
  if (const std::shared_ptr<StateMachineSet> set = setOf(sim)) {
    for (const StateMachineModel* m : set->machines) names.push_back(m->name());
  }
  return names;
}

void raiseMachineEvent(Simulation& sim, std::string_view name, double t) {
  if (const std::shared_ptr<StateMachineSet> set = setOf(sim)) set->raise(sim, name, t);
}

}  // namespace hopsim
