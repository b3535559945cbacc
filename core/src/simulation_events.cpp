// Simulation: event registration (checks times against the present, converts to ticks).
// Events are registered between hops only: a barrier added inside a hop could precede its end.

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

Ticks futureTick(double t, Ticks now, const std::string& event) {
  const Ticks tick = secondsToTicks(t, "event '" + event + "' time");
  if (tick < now) {
    throw InputError("event '" + event + "': time " + describeValue(t) +
                     " s is before the current time " + describeValue(ticksToSeconds(now)) + " s");
  }
  return tick;
}

void requireCallback(bool present, const std::string& event) {
  if (!present) throw InputError("event '" + event + "': no callback");
}

}  // namespace

void Simulation::registerTimedEvent(std::string name, double t, EventCallback callback,
                                    EventOptions options) {
  registerTimedEvent(std::move(name), std::vector<double>{t}, std::move(callback),
                     std::move(options));
}

void Simulation::registerTimedEvent(std::string name, const std::vector<double>& times,
                                    EventCallback callback, EventOptions options) {
  requireBetweenHops("register event '" + name + "'");
  requireUniqueEventName(name);
  requireCallback(static_cast<bool>(callback), name);
  std::vector<Ticks> ticks;
  for (double t : times) ticks.push_back(futureTick(t, timeline_.now(), name));
  events_.addTimed(std::move(name), std::move(ticks), std::move(callback), std::move(options));
}

void Simulation::registerPeriodicEvent(std::string name, double first, double period,
                                       EventCallback callback, EventOptions options) {
  requireBetweenHops("register event '" + name + "'");
  requireUniqueEventName(name);
  requireCallback(static_cast<bool>(callback), name);
  const Ticks start = futureTick(first, timeline_.now(), name);
  events_.addPeriodic(name, start, Period::fromSeconds(period, "event '" + name + "' period"),
                      std::move(callback), std::move(options));
}

void Simulation::registerSelfReschedulingEvent(std::string name, double first,
                                               RescheduleCallback callback, EventOptions options) {
  requireBetweenHops("register event '" + name + "'");
  requireUniqueEventName(name);
  requireCallback(static_cast<bool>(callback), name);
  const Ticks start = futureTick(first, timeline_.now(), name);
  events_.addSelfRescheduling(std::move(name), start, std::move(callback), std::move(options));
}

void Simulation::registerBeginIoStepEvent(std::string name, EventCallback callback,
                                          EventOptions options) {
  requireBetweenHops("register event '" + name + "'");
  requireUniqueEventName(name);
  requireCallback(static_cast<bool>(callback), name);
  events_.addPhase(std::move(name), EventKind::BeginIoStep, std::move(callback),
                   std::move(options));
}

void Simulation::registerEndIoStepEvent(std::string name, EventCallback callback,
                                        EventOptions options) {
  requireBetweenHops("register event '" + name + "'");
  requireUniqueEventName(name);
  requireCallback(static_cast<bool>(callback), name);
  events_.addPhase(std::move(name), EventKind::EndIoStep, std::move(callback), std::move(options));
}

void Simulation::registerEndHopEvent(std::string name, EventCallback callback,
                                     EventOptions options) {
  requireBetweenHops("register event '" + name + "'");
  requireUniqueEventName(name);
  requireCallback(static_cast<bool>(callback), name);
  events_.addPhase(std::move(name), EventKind::EndHop, std::move(callback), std::move(options));
}

void Simulation::registerModelEvent(std::string name, std::string_view model, ModelMethod method,
                                    EventTiming timing, EventCallback callback,
                                    EventOptions options) {
  requireBetweenHops("register event '" + name + "'");
  requireUniqueEventName(name);
  requireCallback(static_cast<bool>(callback), name);
  events_.addModelMethod(std::move(name), *slot(model).model, method, timing, std::move(callback),
                         std::move(options));
  if (locked()) rebuildCallLists();  // the method is called now, even if its class leaves it empty
}

}  // namespace hopsim
