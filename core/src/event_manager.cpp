#include "hopsim/core/event_manager.h"

#include <algorithm>

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {
namespace {

/// Heap order: the earliest tick on top, then priority, then registration.
template <class A>
bool later(const A& a, const A& b) {
  if constexpr (requires { a.tick; }) {
    if (a.tick != b.tick) return a.tick > b.tick;
  }
  if (a.priority != b.priority) return a.priority > b.priority;
  return a.sequence > b.sequence;
}

}  // namespace

const char* toString(EventKind kind) {
  switch (kind) {
    case EventKind::Timed:
      return "timed";
    case EventKind::TimeList:
      return "time list";
    case EventKind::Periodic:
      return "periodic";
    case EventKind::SelfRescheduling:
      return "self-rescheduling";
    case EventKind::BeginIoStep:
      return "begin I/O step";
    case EventKind::EndIoStep:
      return "end I/O step";
    case EventKind::EndHop:
      return "end hop";
    case EventKind::ModelMethod:
      return "model method";
    case EventKind::ZeroCrossing:
      return "zero crossing";
  }
  return "?";
}

std::uint32_t EventManager::allocate(std::string name, EventKind kind, EventOptions options) {
  if (name.empty()) throw InputError("an event needs a non-empty name");
  if (byName_.count(name) != 0) {
    throw InputError("an event named '" + name + "' already exists (event names are unique)");
  }
  std::uint32_t slot;
  if (!freeSlots_.empty()) {
    slot = freeSlots_.back();
    freeSlots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Event& e = slots_[slot];
  const std::uint32_t generation = e.generation;
  e = Event{};
  e.generation = generation;
  e.name = std::move(name);
  e.kind = kind;
  e.options = std::move(options);
  e.sequence = nextSequence_++;
  e.alive = true;
  byName_.emplace(e.name, slot);
  return slot;
}

void EventManager::release(std::uint32_t slot) {
  Event& e = slots_[slot];
  e.alive = false;
  ++e.generation;  // heap entries and due lists holding the old generation become stale
  byName_.erase(e.name);
  std::erase(phaseEvents_, slot);
  if (e.kind == EventKind::ModelMethod) {
    std::erase(modelEvents_, slot);
    updateHookMask(*e.model);
  }
  if (firingDepth_ > 0) {
    releasedWhileFiring_.push_back(slot);  // its callback may be the one running
  } else {
    forgetCallbacks(e);
    freeSlots_.push_back(slot);
  }
}

void EventManager::forgetCallbacks(Event& e) {
  // What the callbacks captured (Python objects, user state) goes now, not when the slot is
  // reused.
  e.callback = nullptr;
  e.reschedule = nullptr;
  e.options.condition = nullptr;
}

EventManager::FiringScope::FiringScope(EventManager& events) : events_(&events) {
  ++events.firingDepth_;
}

EventManager::FiringScope::~FiringScope() {
  if (--events_->firingDepth_ > 0) return;
  auto& released = events_->releasedWhileFiring_;
  for (std::uint32_t slot : released) events_->forgetCallbacks(events_->slots_[slot]);
  events_->freeSlots_.insert(events_->freeSlots_.end(), released.begin(), released.end());
  released.clear();
}

void EventManager::schedule(std::uint32_t slot) {
  const Event& e = slots_[slot];
  heap_.push_back({e.next, e.options.priority, e.sequence, slot, e.generation});
  std::push_heap(heap_.begin(), heap_.end(), later<Pending>);
}

void EventManager::addTimed(std::string name, std::vector<Ticks> times, EventCallback callback,
                            EventOptions options) {
  if (times.empty()) throw InputError("event '" + name + "': the list of times is empty");
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  const EventKind kind = times.size() == 1 ? EventKind::Timed : EventKind::TimeList;
  const std::uint32_t slot = allocate(std::move(name), kind, std::move(options));
  Event& e = slots_[slot];
  e.callback = std::move(callback);
  e.times = std::move(times);
  e.next = e.times.front();
  schedule(slot);
}

void EventManager::addPeriodic(std::string name, Ticks first, Period period, EventCallback callback,
                               EventOptions options) {
  const std::uint32_t slot = allocate(std::move(name), EventKind::Periodic, std::move(options));
  Event& e = slots_[slot];
  e.callback = std::move(callback);
  e.origin = first;
  e.period = period;
  e.next = first;
  schedule(slot);
}

void EventManager::addSelfRescheduling(std::string name, Ticks first, RescheduleCallback callback,
                                       EventOptions options) {
  if (options.condition) {
    throw InputError("event '" + name +
                     "': a self-rescheduling event decides in its callback; it takes no "
                     "condition");
  }
  const std::uint32_t slot =
      allocate(std::move(name), EventKind::SelfRescheduling, std::move(options));
  Event& e = slots_[slot];
  e.reschedule = std::move(callback);
  e.next = first;
  schedule(slot);
}

void EventManager::addPhase(std::string name, EventKind phase, EventCallback callback,
                            EventOptions options) {
  const std::uint32_t slot = allocate(std::move(name), phase, std::move(options));
  slots_[slot].callback = std::move(callback);
  phaseEvents_.push_back(slot);
}

void EventManager::addModelMethod(std::string name, Model& model, ModelMethod method,
                                  EventTiming timing, EventCallback callback,
                                  EventOptions options) {
  const std::uint32_t slot = allocate(std::move(name), EventKind::ModelMethod, std::move(options));
  Event& e = slots_[slot];
  e.callback = std::move(callback);
  e.model = &model;
  e.method = method;
  e.timing = timing;
  // Kept in firing order, so firing needs no sort.
  const auto fireBefore = [this](std::uint32_t a, std::uint32_t b) {
    const Event& x = slots_[a];
    const Event& y = slots_[b];
    return std::pair(x.options.priority, x.sequence) < std::pair(y.options.priority, y.sequence);
  };
  const auto position =
      std::upper_bound(modelEvents_.begin(), modelEvents_.end(), slot, fireBefore);
  modelEvents_.insert(position, slot);
  updateHookMask(model);
}

void EventManager::updateHookMask(Model& model) {
  std::uint32_t mask = 0;
  for (std::uint32_t slot : modelEvents_) {
    const Event& e = slots_[slot];
    if (e.model == &model) {
      mask |= ModelBinding::hookBit(e.method, e.timing == EventTiming::After);
    }
  }
  ModelBinding::setEventHookMask(model, mask);
}

void EventManager::remove(std::string_view name) {
  auto it = byName_.find(name);
  if (it == byName_.end()) {
    std::vector<std::string> names;
    for (const auto& [n, slot] : byName_) names.push_back(n);
    throw NotFoundError("no event named '" + std::string(name) + "'" + didYouMean(name, names));
  }
  release(it->second);
}

void EventManager::removeModelEvents(const Model& model) {
  for (std::size_t i = modelEvents_.size(); i-- > 0;) {
    if (slots_[modelEvents_[i]].model == &model) release(modelEvents_[i]);
  }
}

void EventManager::clear() {
  std::vector<std::uint32_t> live;
  for (const auto& [name, slot] : byName_) live.push_back(slot);
  for (std::uint32_t slot : live) release(slot);
  heap_.clear();
}

EventInfo EventManager::info(const Event& e) const {
  EventInfo out{e.name, e.kind, e.options.priority, std::nullopt, {}};
  if (e.next != kNever && e.kind <= EventKind::SelfRescheduling)
    out.nextTime = ticksToSeconds(e.next);
  if (e.kind == EventKind::ModelMethod) {
    out.target = e.model->name() + "." + toString(e.method) +
                 (e.timing == EventTiming::Before ? " (before)" : " (after)");
  }
  return out;
}

std::optional<EventInfo> EventManager::find(std::string_view name) const {
  auto it = byName_.find(name);
  if (it == byName_.end()) return std::nullopt;
  return info(slots_[it->second]);
}

std::vector<EventInfo> EventManager::list() const {
  std::vector<const Event*> events;
  for (const auto& [name, slot] : byName_) events.push_back(&slots_[slot]);
  std::sort(events.begin(), events.end(),
            [](const Event* a, const Event* b) { return a->sequence < b->sequence; });
  std::vector<EventInfo> out;
  for (const Event* e : events) out.push_back(info(*e));
  return out;
}

std::vector<EventManager::ScheduleState> EventManager::scheduleStates() const {
  std::vector<ScheduleState> out;
  for (const auto& [name, slot] : byName_) {
    const Event& e = slots_[slot];
    const bool timed = e.kind <= EventKind::SelfRescheduling;
    out.push_back({e.name, e.kind, timed ? e.next : kNever, e.nextIndex, e.periodIndex});
  }
  std::sort(out.begin(), out.end(), [this](const ScheduleState& a, const ScheduleState& b) {
    return slots_[byName_.find(a.name)->second].sequence <
           slots_[byName_.find(b.name)->second].sequence;
  });
  return out;
}

void EventManager::checkScheduleState(const ScheduleState& state, Ticks now) const {
  const auto it = byName_.find(state.name);
  if (it == byName_.end()) throw InputError("event '" + state.name + "' is not registered here");
  const Event& e = slots_[it->second];
  const std::string event = "event '" + state.name + "'";
  if (e.kind != state.kind) {
    throw InputError(event + " is " + toString(state.kind) + " in the checkpoint but " +
                     toString(e.kind) + " here");
  }
  const auto refuse = [&](const std::string& what) {
    throw InputError(event + " (" + toString(e.kind) + "): " + what);
  };
  const bool listed = e.kind == EventKind::Timed || e.kind == EventKind::TimeList;
  if (listed && (state.nextIndex >= e.times.size() || state.next != e.times[state.nextIndex])) {
    refuse("next firing at tick " + std::to_string(state.next) + " is not time " +
           std::to_string(state.nextIndex) + " of its list of " + std::to_string(e.times.size()) +
           " here");
  }
  if (e.kind <= EventKind::SelfRescheduling && state.next < now) {
    refuse("next firing at tick " + std::to_string(state.next) + " is before the clock, tick " +
           std::to_string(now));
  }
  // The index is found from the firing, not the firing computed from an index of any size.
  if (e.kind == EventKind::Periodic &&
      (!isRepresentableTime(ticksToSeconds(state.next)) ||
       state.periodIndex != e.period->indexAfter(e.origin, state.next - 1) ||
       state.next != e.period->barrier(e.origin, state.periodIndex))) {
    refuse("next firing at tick " + std::to_string(state.next) + " is not firing " +
           std::to_string(state.periodIndex) + " of its period here");
  }
  const bool timed = e.kind <= EventKind::SelfRescheduling;
  if ((!timed && state.next != kNever) || (!listed && state.nextIndex != 0) ||
      (e.kind != EventKind::Periodic && state.periodIndex != 0)) {
    refuse("next firing " + std::to_string(state.next) + ", list position " +
           std::to_string(state.nextIndex) + " and period index " +
           std::to_string(state.periodIndex) + "; a " + toString(e.kind) +
           " event has no firing time (" + std::to_string(kNever) +
           ") and zero for the positions it does not use");
  }
}

void EventManager::restoreScheduleStates(const std::vector<ScheduleState>& states) {
  std::vector<std::uint32_t> unlisted;
  for (const auto& [name, slot] : byName_) {
    const bool listed = std::any_of(states.begin(), states.end(),
                                    [&](const ScheduleState& s) { return s.name == name; });
    if (!listed) unlisted.push_back(slot);
  }
  for (std::uint32_t slot : unlisted) release(slot);
  heap_.clear();
  for (const ScheduleState& state : states) {
    const std::uint32_t slot = byName_.find(state.name)->second;
    Event& e = slots_[slot];
    e.nextIndex = static_cast<std::size_t>(state.nextIndex);
    e.periodIndex = state.periodIndex;
    if (e.kind <= EventKind::SelfRescheduling) {
      e.next = state.next;
      if (e.next != kNever) schedule(slot);
    }
  }
}

Ticks EventManager::nextTimedTick() {
  while (!heap_.empty()) {
    const Pending& top = heap_.front();
    if (slots_[top.slot].alive && slots_[top.slot].generation == top.generation) return top.tick;
    std::pop_heap(heap_.begin(), heap_.end(), later<Pending>);
    heap_.pop_back();
  }
  return kNever;
}

bool EventManager::fireDueEvents(Simulation& sim, Ticks now, Phases phases) {
  due_.clear();
  while (!heap_.empty() && heap_.front().tick <= now) {
    const Pending p = heap_.front();
    std::pop_heap(heap_.begin(), heap_.end(), later<Pending>);
    heap_.pop_back();
    due_.push_back({p.priority, p.sequence, p.slot, p.generation});
  }
  for (std::uint32_t slot : phaseEvents_) {
    const Event& e = slots_[slot];
    if ((e.kind == EventKind::BeginIoStep && phases.beginIoStep) ||
        (e.kind == EventKind::EndIoStep && phases.endIoStep) ||
        (e.kind == EventKind::EndHop && phases.endHop)) {
      due_.push_back({e.options.priority, e.sequence, slot, e.generation});
    }
  }
  if (due_.empty()) return false;
  std::sort(due_.begin(), due_.end(), [](const Due& a, const Due& b) { return later(b, a); });

  const double t = ticksToSeconds(now);
  const FiringScope scope(*this);
  std::size_t i = 0;
  try {
    for (; i < due_.size(); ++i) fireOne(sim, due_[i], now, t);
  } catch (...) {
    requeueAfterThrow(i);
    throw;
  }
  return true;
}

void EventManager::requeueAfterThrow(std::size_t failed) {
  // The event that threw counts as fired, so a periodic or list event keeps its schedule (a
  // self-rescheduling one, whose next time is unknown, is removed); timed events still due
  // go back on the queue and fire at the next call. Phase events miss this instant.
  const Due& d = due_[failed];
  if (usable(d)) {
    if (slots_[d.slot].kind == EventKind::SelfRescheduling) {
      release(d.slot);
    } else if (slots_[d.slot].kind <= EventKind::Periodic) {
      advanceAfterFiring(d.slot);
    }
  }
  for (std::size_t j = failed + 1; j < due_.size(); ++j) {
    if (usable(due_[j]) && slots_[due_[j].slot].kind <= EventKind::SelfRescheduling) {
      schedule(due_[j].slot);
    }
  }
}

void EventManager::fireOne(Simulation& sim, const Due& d, Ticks now, double t) {
  if (!usable(d)) return;  // removed by an earlier callback
  Event& e = slots_[d.slot];
  if (e.kind == EventKind::SelfRescheduling) {
    const std::optional<double> next = e.reschedule(sim, t);
    if (!usable(d)) return;
    if (firedHook_) firedHook_(sim, slots_[d.slot].name, t);
    if (!next) {
      release(d.slot);
      return;
    }
    // Messages are built only on failure: this runs at every firing.
    const Ticks nextTick = isRepresentableTime(*next) ? roundToTicks(*next) : now;
    if (nextTick <= now) {
      const std::string name = e.name;
      release(d.slot);
      throw InputError("event '" + name + "' rescheduled itself to t = " + describeValue(*next) +
                       " s; expected a finite time after t = " + describeValue(t) + " s");
    }
    e.next = nextTick;
    schedule(d.slot);
    return;
  }
  if (!e.options.condition || e.options.condition(sim, t)) {
    if (usable(d)) {
      e.callback(sim, t);
      if (firedHook_ && usable(d)) firedHook_(sim, slots_[d.slot].name, t);
    }
  }
  if (usable(d) && e.kind <= EventKind::Periodic) advanceAfterFiring(d.slot);
}

void EventManager::advanceAfterFiring(std::uint32_t slot) {
  Event& e = slots_[slot];
  if (e.kind == EventKind::Periodic) {
    e.next = e.period->barrier(e.origin, ++e.periodIndex);
    schedule(slot);
  } else if (++e.nextIndex < e.times.size()) {
    e.next = e.times[e.nextIndex];
    schedule(slot);
  } else {
    release(slot);  // a one-shot or list event that has fired its last time is gone
  }
}

void EventManager::fireModelEvents(Simulation& sim, Model& model, ModelMethod method,
                                   EventTiming timing, double t) {
  modelDue_.clear();
  for (std::uint32_t slot : modelEvents_) {
    const Event& e = slots_[slot];
    if (e.model == &model && e.method == method && e.timing == timing) {
      modelDue_.push_back({e.options.priority, e.sequence, slot, e.generation});
    }
  }
  const FiringScope scope(*this);
  for (const Due& d : modelDue_) {
    if (!usable(d)) continue;
    Event& e = slots_[d.slot];
    if (!e.options.condition || e.options.condition(sim, t)) {
      if (usable(d)) e.callback(sim, t);
    }
  }
}

}  // namespace hopsim
