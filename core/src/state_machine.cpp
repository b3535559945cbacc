// State-machine definitions: the ready-made actions and guards (state_machine.h).

#include "hopsim/core/state_machine.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "hopsim/core/simulation.h"
#include "hopsim/core/state_machines.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {

namespace {

// An action on a model checks, when its machine is added, that the model exists.
std::function<void(const Simulation&)> requireActionModel(std::string model, std::string action) {
  return [model = std::move(model), action = std::move(action)](const Simulation& sim) {
    const std::vector<std::string> models = sim.modelNames();
    if (std::find(models.begin(), models.end(), model) == models.end()) {
      throw InputError(action + ": no model named '" + model + "'" + didYouMean(model, models));
    }
  };
}

}  // namespace

MachineAction MachineAction::setValue(std::string path, Value value) {
  std::string description = "set " + path + " = " + describeValue(value);
  return {description,
          [path, description](const Simulation& sim) {
            const Variable& variable = sim.variables().at(path);
            if (!variable.writable()) {
              throw InputError(description + ": " + path + " is read-only");
            }
          },
          [path, value = std::move(value)](Simulation& sim, double) { sim.set(path, value); }};
}

MachineAction MachineAction::activate(std::string model) {
  std::string description = "activate '" + model + "'";
  return {description, requireActionModel(model, description),
          [model](Simulation& sim, double) { sim.activate(model); }};
}

MachineAction MachineAction::deactivate(std::string model) {
  std::string description = "deactivate '" + model + "'";
  return {description, requireActionModel(model, description),
          [model](Simulation& sim, double) { sim.deactivate(model); }};
}

MachineAction MachineAction::setRate(std::string model, double hertz) {
  std::string description = "set the rate of '" + model + "' to " + formatNumber(hertz) + " Hz";
  if (!(hertz > 0.0) || !std::isfinite(hertz)) {
    throw InputError(description + ": expected a finite rate > 0 Hz");
  }
  return {description, requireActionModel(model, description),
          [model, hertz](Simulation& sim, double) { sim.setModelRate(model, hertz); }};
}

MachineAction MachineAction::stopRun() {
  return {"stop the run", {}, [](Simulation& sim, double) { sim.requestStop(); }};
}

MachineAction MachineAction::removeEvent(std::string name) {
  std::string description = "remove the event '" + name + "'";
  return {description,
          [name, description](const Simulation& sim) {
            if (!sim.findEvent(name)) throw InputError(description + ": no such event");
          },
          [name](Simulation& sim, double) {
            if (sim.findEvent(name)) sim.removeEvent(name);  // removed already: nothing to do
          }};
}

MachineAction MachineAction::raise(std::string name) {
  if (name.empty()) throw InputError("raise: the event name is empty");
  return {"raise '" + name + "'", {}, [name](Simulation& sim, double t) {
            raiseMachineEvent(sim, name, t);
          }};
}

MachineAction MachineAction::call(std::string description, EventCallback callback) {
  if (!callback) throw InputError("call '" + description + "': no callable");
  return {std::move(description), {}, std::move(callback)};
}

MachineGuard MachineGuard::crossing(std::string path, double threshold, CrossingDirection direction,
                                    std::size_t element) {
  if (!std::isfinite(threshold)) {
    throw InputError("crossing guard on '" + path + "': threshold " + formatNumber(threshold) +
                     " is not finite");
  }
  MachineGuard guard;
  guard.kind = Kind::Crossing;
  guard.path = std::move(path);
  guard.value = threshold;
  guard.direction = direction;
  guard.element = element;
  return guard;
}

MachineGuard MachineGuard::atTime(double seconds) {
  if (!std::isfinite(seconds)) {
    throw InputError("time guard: " + formatNumber(seconds) + " s is not finite");
  }
  MachineGuard guard;
  guard.kind = Kind::AtTime;
  guard.value = seconds;
  return guard;
}

MachineGuard MachineGuard::timeInState(double seconds) {
  if (!(seconds >= 0.0) || !std::isfinite(seconds)) {
    throw InputError("time-in-state guard: " + formatNumber(seconds) +
                     " s; expected a finite duration >= 0 s");
  }
  MachineGuard guard;
  guard.kind = Kind::TimeInState;
  guard.value = seconds;
  return guard;
}

MachineGuard MachineGuard::onEvent(std::string name) {
  if (name.empty()) throw InputError("event guard: the event name is empty");
  MachineGuard guard;
  guard.kind = Kind::Event;
  guard.name = std::move(name);
  return guard;
}

MachineGuard MachineGuard::inState(std::string machine, std::string state) {
  MachineGuard guard;
  guard.kind = Kind::InState;
  guard.name = std::move(machine);
  guard.state = std::move(state);
  return guard;
}

std::string MachineGuard::describe() const {
  switch (kind) {
    case Kind::Crossing: {
      const char* verb = direction == CrossingDirection::Rising    ? " rises through "
                         : direction == CrossingDirection::Falling ? " falls through "
                                                                   : " crosses ";
      return path + (element == 0 ? "" : "[" + std::to_string(element) + "]") + verb +
             formatNumber(value);
    }
    case Kind::AtTime:
      return "t = " + formatNumber(value) + " s";
    case Kind::TimeInState:
      return formatNumber(value) + " s in state";
    case Kind::Event:
      return "event '" + name + "'";
    case Kind::InState:
      return name + " in '" + state + "'";
  }
  return {};
}

}  // namespace hopsim
