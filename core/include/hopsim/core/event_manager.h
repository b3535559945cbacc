#pragma once
/// @file
/// EventManager: storage, ordering and firing of events for the executive.

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/events.h"
#include "hopsim/core/model.h"
#include "hopsim/core/period.h"
#include "hopsim/core/time.h"

namespace hopsim {

/// Holds every event of a simulation; fires those due at an instant in (priority, registration)
/// order. Slots are reused through a free list and timed firings kept in a heap, so steady-state
/// firing allocates nothing.
class EventManager {
 public:
  /// Which phase events are due along with the timed ones.
  struct Phases {
    bool beginIoStep = false;
    bool endIoStep = false;
    bool endHop = false;
  };

  void addTimed(std::string name, std::vector<Ticks> times, EventCallback callback,
                EventOptions options);
  void addPeriodic(std::string name, Ticks first, Period period, EventCallback callback,
                   EventOptions options);
  void addSelfRescheduling(std::string name, Ticks first, RescheduleCallback callback,
                           EventOptions options);
  void addPhase(std::string name, EventKind phase, EventCallback callback, EventOptions options);
  void addModelMethod(std::string name, Model& model, ModelMethod method, EventTiming timing,
                      EventCallback callback, EventOptions options);

  /// @throws InputError naming the event and the nearest names if it does not exist.
  void remove(std::string_view name);
  /// Removes every model-method event of `model` (the model is going away).
  void removeModelEvents(const Model& model);
  void clear();

  std::optional<EventInfo> find(std::string_view name) const;
  /// Every event, in registration order.
  std::vector<EventInfo> list() const;

  /// Where one live event stands in its schedule: what a checkpoint saves.
  struct ScheduleState {
    std::string name;
    EventKind kind;
    Ticks next;                ///< next firing tick (timed kinds), kNever otherwise
    std::uint64_t nextIndex;   ///< position in a time list
    std::int64_t periodIndex;  ///< k of the next periodic firing
  };
  /// Every live event, in registration order.
  std::vector<ScheduleState> scheduleStates() const;
  /// Checks a saved schedule against the live event of its name, at clock `now`: the same
  /// kind; for a timed or list event, a next firing that is the time at its list position; for
  /// a periodic one, the firing of its period index; no next firing before `now`; and zero for
  /// the positions its kind does not use. @throws InputError naming the event and the mismatch.
  void checkScheduleState(const ScheduleState& state, Ticks now) const;
  /// Restores saved schedules: listed events get their positions back, live events not listed
  /// (one-shots that had fired when the checkpoint was taken) are removed. Precondition: each
  /// state passed checkScheduleState, and no event is listed twice.
  void restoreScheduleStates(const std::vector<ScheduleState>& states);

  /// The earliest pending timed firing, or kNever.
  Ticks nextTimedTick();

  /// Fires the timed events due at or before `now` and the phase events of `phases`, in
  /// (priority, registration) order. Callbacks may add and remove events; an event added for
  /// `now` fires at the next call. If a callback throws, the exception propagates after the
  /// schedule is repaired: the throwing event counts as fired (a self-rescheduling one is
  /// removed) and timed events not yet fired stay due for the next call.
  /// @returns whether any event was due.
  bool fireDue(Simulation& sim, Ticks now, Phases phases) {
    // Most barriers have nothing due: that is decided here, without a call.
    if ((heap_.empty() || heap_.front().tick > now) && phaseEvents_.empty()) return false;
    return fireDueEvents(sim, now, phases);
  }

  /// Called right after each event fired by fireDue, with its name and time (not when its
  /// condition was false, nor for an event its own callback removed).
  using FiredHook = std::function<void(Simulation&, const std::string& name, double t)>;
  void setFiredHook(FiredHook hook) { firedHook_ = std::move(hook); }

  /// Fires the model-method events of `model` for `method` and `timing`.
  void fireModelEvents(Simulation& sim, Model& model, ModelMethod method, EventTiming timing,
                       double t);

 private:
  FiredHook firedHook_;
  struct Event {
    std::string name;
    EventKind kind = EventKind::Timed;
    EventOptions options;
    std::uint64_t sequence = 0;  // registration order
    std::uint32_t generation = 0;
    bool alive = false;
    EventCallback callback;
    RescheduleCallback reschedule;
    // Timed kinds
    std::vector<Ticks> times;  // TimeList (sorted) and Timed
    std::size_t nextIndex = 0;
    Ticks origin = 0;
    std::int64_t periodIndex = 0;
    std::optional<Period> period;
    Ticks next = kNever;
    // ModelMethod
    Model* model = nullptr;
    ModelMethod method = ModelMethod::StartHop;
    EventTiming timing = EventTiming::Before;
  };
  struct Pending {  // a timed firing in the heap
    Ticks tick;
    int priority;
    std::uint64_t sequence;
    std::uint32_t slot;
    std::uint32_t generation;
  };
  struct Due {
    int priority;
    std::uint64_t sequence;
    std::uint32_t slot;
    std::uint32_t generation;
  };

  std::uint32_t allocate(std::string name, EventKind kind, EventOptions options);
  void release(std::uint32_t slot);
  void schedule(std::uint32_t slot);
  void advanceAfterFiring(std::uint32_t slot);
  bool fireDueEvents(Simulation& sim, Ticks now, Phases phases);  // fireDue past its check
  void fireOne(Simulation& sim, const Due& due, Ticks now, double t);
  void requeueAfterThrow(std::size_t failed);
  static void forgetCallbacks(Event& event);
  void updateHookMask(Model& model);

  /// Marks callbacks running: slots released meanwhile are recycled only when it ends.
  class FiringScope {
   public:
    explicit FiringScope(EventManager& events);
    ~FiringScope();
    FiringScope(const FiringScope&) = delete;
    FiringScope& operator=(const FiringScope&) = delete;

   private:
    EventManager* events_;
  };
  bool usable(const Due& due) const {
    return slots_[due.slot].alive && slots_[due.slot].generation == due.generation;
  }
  EventInfo info(const Event& event) const;

  // A deque keeps events in place while callbacks add others; a slot released while events are
  // firing is reused only after the firing ends, so a running callback is never overwritten.
  std::deque<Event> slots_;
  std::vector<std::uint32_t> freeSlots_;
  std::vector<std::uint32_t> releasedWhileFiring_;
  int firingDepth_ = 0;
  std::map<std::string, std::uint32_t, std::less<>> byName_;
  std::vector<Pending> heap_;               // min-heap on (tick, priority, sequence)
  std::vector<std::uint32_t> phaseEvents_;  // BeginIoStep/EndIoStep/EndHop slots
  std::vector<std::uint32_t> modelEvents_;  // ModelMethod slots
  std::vector<Due> due_;
  std::vector<Due> modelDue_;
  std::uint64_t nextSequence_ = 0;
};

}  // namespace hopsim
