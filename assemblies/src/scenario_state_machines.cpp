// A scenario's `state_machines:` section read into StateMachineSpecs (scenario_state_machines.h).

#include "scenario_state_machines.h"

#include <algorithm>
#include <utility>

#include "hopsim/core/state_machines.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "scenario_document.h"

namespace hopsim::scenario {
namespace {

[[noreturn]] void fail(const InputNode& node, const std::string& key, const std::string& message) {
  throw InputError(locateMessage(node.location(), key, message));
}

const std::string& text(const InputNode& node, const std::string& key, const std::string& what) {
  if (!node.isScalar() || !std::holds_alternative<std::string>(node.scalar())) {
    fail(node, key, node.describe() + "; expected " + what);
  }
  return std::get<std::string>(node.scalar());
}

void requireKeys(const InputNode& node, const std::string& key,
                 const std::vector<std::string>& known) {
  if (!node.isMapping()) fail(node, key, node.describe() + "; expected a mapping");
  for (const auto& [name, value] : node.entries()) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      fail(value, key + "." + name, "unknown key '" + name + "'" + didYouMean(name, known));
    }
  }
}

CrossingDirection direction(const InputNode& node, const std::string& key) {
  const std::string& d = text(node, key, "rising, falling or either");
  if (d == "rising") return CrossingDirection::Rising;
  if (d == "falling") return CrossingDirection::Falling;
  if (d == "either") return CrossingDirection::Either;
  fail(node, key,
       "'" + d + "'; expected rising, falling or either" +
           didYouMean(d, {"rising", "falling", "either"}));
}

class MachineReader {
 public:
  MachineReader(Simulation& sim, const ValueReaders& read) : sim_(sim), read_(read) {}

  StateMachineSpec machine(const std::string& name, const InputNode& node) {
    const std::string key = "state_machines." + name;
    requireKeys(node, key, {"initial", "states", "transitions"});
    StateMachineSpec spec;
    spec.name = name;
    const InputNode* states = node.find("states");
    if (states == nullptr || !states->isMapping() || states->entries().empty()) {
      fail(states != nullptr ? *states : node, key + ".states",
           "expected a mapping of state names to their actions");
    }
    for (const auto& [stateName, definition] : states->entries()) {
      spec.states.push_back(state(stateName, definition, key + ".states." + stateName));
    }
    std::vector<std::string> names;
    for (const MachineState& s : spec.states) names.push_back(s.name);
    if (const InputNode* initial = node.find("initial")) {
      spec.initial = knownState(*initial, key + ".initial", names);
    }
    if (const InputNode* transitions = node.find("transitions"); transitions != nullptr) {
      if (!transitions->isSequence()) {
        fail(*transitions, key + ".transitions", transitions->describe() + "; expected a list");
      }
      for (std::size_t i = 0; i < transitions->items().size(); ++i) {
        spec.transitions.push_back(transition(
            transitions->items()[i], key + ".transitions[" + std::to_string(i) + "]", names));
      }
    }
    return spec;
  }

 private:
  std::string knownState(const InputNode& node, const std::string& key,
                         const std::vector<std::string>& names) {
    const std::string& s = text(node, key, "a state name");
    if (std::find(names.begin(), names.end(), s) == names.end()) {
      fail(node, key, "unknown state '" + s + "'" + didYouMean(s, names));
    }
    return s;
  }

  MachineState state(const std::string& name, const InputNode& node, const std::string& key) {
    MachineState s{name, {}, {}, {}};
    if (node.isNull()) return s;
    requireKeys(node, key, {"entry", "exit", "during"});
    if (const InputNode* a = node.find("entry")) s.entry = actions(*a, key + ".entry");
    if (const InputNode* a = node.find("exit")) s.exit = actions(*a, key + ".exit");
    if (const InputNode* a = node.find("during")) s.during = actions(*a, key + ".during");
    return s;
  }

  MachineTransition transition(const InputNode& node, const std::string& key,
                               const std::vector<std::string>& names) {
    requireKeys(node, key, {"from", "to", "when", "at", "after", "on", "in", "priority", "do"});
    const InputNode* from = node.find("from");
    const InputNode* to = node.find("to");
    if (from == nullptr || to == nullptr) fail(node, key, "expected `from` and `to`");
    MachineTransition t;
    t.from = knownState(*from, key + ".from", names);
    t.to = knownState(*to, key + ".to", names);
    std::vector<std::string> guards;
    for (const char* g : {"when", "at", "after", "on", "in"}) {
      if (node.find(g) != nullptr) guards.emplace_back(g);
    }
    if (guards.size() != 1) {
      fail(node, key,
           "expected exactly one guard of when, at, after, on and in; found " +
               std::to_string(guards.size()));
    }
    const InputNode& g = *node.find(guards[0]);
    const std::string gKey = key + "." + guards[0];
    t.guard = locatedAt(g.location(), gKey, [&] { return guard(guards[0], g, gKey); });
    if (const InputNode* p = node.find("priority")) {
      t.priority = static_cast<int>(read_.quantity(*p, "", key + ".priority"));
    }
    if (const InputNode* a = node.find("do")) t.actions = actions(*a, key + ".do");
    return t;
  }

  MachineGuard guard(const std::string& kind, const InputNode& node, const std::string& key) {
    if (kind == "at") return MachineGuard::atTime(read_.quantity(node, "s", key));
    if (kind == "after") return MachineGuard::timeInState(read_.quantity(node, "s", key));
    if (kind == "on") return MachineGuard::onEvent(text(node, key, "an event name"));
    if (kind == "in") {
      requireKeys(node, key, {"machine", "state"});
      const InputNode* machine = node.find("machine");
      const InputNode* state = node.find("state");
      if (machine == nullptr || state == nullptr) fail(node, key, "expected `machine` and `state`");
      return MachineGuard::inState(text(*machine, key + ".machine", "a machine name"),
                                   text(*state, key + ".state", "a state name"));
    }
    requireKeys(node, key, {"variable", "element", "value", "direction"});
    const InputNode* variable = node.find("variable");
    if (variable == nullptr) fail(node, key, "expected `variable`");
    const std::string& path = text(*variable, key + ".variable", "a variable path");
    const Variable& v = locatedAt(variable->location(), key + ".variable",
                                  [&]() -> const Variable& { return sim_.variables().at(path); });
    const InputNode* elementNode = node.find("element");
    const auto element = static_cast<std::size_t>(
        elementNode != nullptr ? read_.quantity(*elementNode, "", key + ".element") : 0.0);
    if (v.type() == ElementType::String || element >= v.length()) {
      fail(elementNode != nullptr ? *elementNode : *variable, key,
           "'" + path + "' has " +
               std::to_string(v.type() == ElementType::String ? 0 : v.length()) +
               " numeric elements; element " + std::to_string(element) + " does not exist");
    }
    const InputNode* value = node.find("value");
    const double threshold = value != nullptr ? read_.threshold(*value, v, key) : 0.0;
    const InputNode* d = node.find("direction");
    return MachineGuard::crossing(
        path, threshold,
        d != nullptr ? direction(*d, key + ".direction") : CrossingDirection::Either, element);
  }

  std::vector<MachineAction> actions(const InputNode& node, const std::string& key) {
    if (!node.isSequence()) fail(node, key, node.describe() + "; expected a list of actions");
    std::vector<MachineAction> out;
    for (std::size_t i = 0; i < node.items().size(); ++i) {
      const InputNode& a = node.items()[i];
      const std::string aKey = key + "[" + std::to_string(i) + "]";
      out.push_back(locatedAt(a.location(), aKey, [&] { return action(a, aKey); }));
    }
    return out;
  }

  MachineAction action(const InputNode& node, const std::string& key) {
    if (node.isScalar() && std::holds_alternative<std::string>(node.scalar()) &&
        std::get<std::string>(node.scalar()) == "stop") {
      return MachineAction::stopRun();
    }
    static const std::vector<std::string> kinds = {"set",   "activate",     "deactivate", "rate",
                                                   "raise", "remove_event", "stop"};
    if (!node.isMapping() || node.entries().size() != 1) {
      fail(node, key,
           node.describe() +
               "; expected `stop` or a one-key mapping of set, activate, "
               "deactivate, rate, raise or remove_event");
    }
    const auto& [kind, value] = node.entries()[0];
    const std::string vKey = key + "." + kind;
    if (kind == "set") {
      if (!value.isMapping() || value.entries().size() != 1) {
        fail(value, vKey, value.describe() + "; expected one `path: value`");
      }
      const auto& [path, v] = value.entries()[0];
      return MachineAction::setValue(path, locatedAt(v.location(), vKey + "." + path,
                                                     [&] { return read_.variable(path, v); }));
    }
    if (kind == "activate") return MachineAction::activate(text(value, vKey, "a model name"));
    if (kind == "deactivate") return MachineAction::deactivate(text(value, vKey, "a model name"));
    if (kind == "raise") return MachineAction::raise(text(value, vKey, "an event name"));
    if (kind == "remove_event") {
      return MachineAction::removeEvent(text(value, vKey, "an event name"));
    }
    if (kind == "rate") {
      requireKeys(value, vKey, {"model", "hz"});
      const InputNode* model = value.find("model");
      const InputNode* hz = value.find("hz");
      if (model == nullptr || hz == nullptr) fail(value, vKey, "expected `model` and `hz`");
      return MachineAction::setRate(text(*model, vKey + ".model", "a model name"),
                                    read_.quantity(*hz, "Hz", vKey + ".hz"));
    }
    fail(node, key, "unknown action '" + kind + "'" + didYouMean(kind, kinds));
  }

  Simulation& sim_;
  const ValueReaders& read_;
};

}  // namespace

void addStateMachines(Simulation& sim, const InputNode& section, const ValueReaders& read,
                      std::vector<std::string>& warnings) {
  if (section.isNull()) return;
  if (!section.isMapping()) {
    fail(section, "state_machines", section.describe() + "; expected a mapping of machines");
  }
  MachineReader reader(sim, read);
  for (const auto& [name, definition] : section.entries()) {
    StateMachineSpec spec = reader.machine(name, definition);
    const std::string key = "state_machines." + name;
    const std::vector<std::string> found = locatedAt(
        definition.location(), key, [&] { return addStateMachine(sim, std::move(spec)); });
    for (const std::string& w : found) warnings.push_back(at(definition) + w);
  }
}

}  // namespace hopsim::scenario
