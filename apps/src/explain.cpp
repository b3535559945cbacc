// hopsim check --explain: the assemblies, bodies, constraints, models and signals a scenario
// was lowered into, read back from the locked simulation through public APIs only, so the
// report shows what will run rather than what the file asked for.

#include "explain.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/state_machines.h"

namespace hopsim::apps {
namespace {

using multibody::BodyIndex;

std::string plural(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

/// Writes rows of cells as columns as wide as their widest cell, each row indented by
/// `indent`. A row's last cell is not padded and does not widen its column, so one-cell rows
/// (a body's node list) run on without pushing the other rows' columns apart.
void writeTable(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                const std::string& indent) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i + 1 < row.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  for (const auto& row : rows) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    // Empty trailing cells would leave trailing blanks.
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  }
}

std::string number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

void explainSimulation(const Scenario& scenario, std::ostream& out) {
  const Simulation& sim = scenario.sim();
  out << "simulation:\n"
      << "  end time " << number(scenario.endTime()) << " s, I/O step " << number(sim.ioStepSize())
      << " s, integrator " << sim.integrator().name() << " ("
      << plural(static_cast<std::size_t>(sim.integrationSteps()), "step", "steps") << " per hop), "
      << plural(static_cast<std::size_t>(sim.stateCount()), "state", "states") << "\n";
}

void explainAssembly(const Assembly& assembly, int depth,
                     std::vector<std::vector<std::string>>& rows) {
  std::string what;
  if (!assembly.bodies().empty()) {
    what = plural(assembly.bodies().size(), "body", "bodies") + ": " + joined(assembly.bodies());
  }
  if (!assembly.models().empty()) {
    what += (what.empty() ? "" : "; ") + plural(assembly.models().size(), "model", "models");
  }
  const std::string name = assembly.parent() ? assembly.name() : "(top)";
  rows.push_back({std::string(2 * depth, ' ') + name, assembly.assemblyClass().name, what});
  for (const auto& child : assembly.children()) explainAssembly(*child, depth + 1, rows);
}

/// "prescribed subhinges 0, 2": the subhinges of body b's hinge whose U entries are all
/// prescribed. After lock() masked subhinges are prescribed too, so they are listed here.
std::string prescribedSubhinges(const multibody::MultibodyModel& tree, BodyIndex b) {
  const multibody::Hinge& hinge = tree.hinge(b);
  std::vector<std::string> prescribed;
  for (int k = 0; k < hinge.subhingeCount(); ++k) {
    const int first = tree.uStart(b) + hinge.subhinge(k).uOffset;
    bool all = true;
    for (int i = first; i < first + hinge.subhingeNu(k); ++i) all = all && tree.isPrescribed(i);
    if (all) prescribed.push_back(std::to_string(k));
  }
  if (prescribed.empty()) return {};
  return (prescribed.size() == 1 ? "prescribed subhinge " : "prescribed subhinges ") +
         joined(prescribed);
}

void explainBodies(const MultibodySystem& system, std::ostream& out) {
  const multibody::MultibodyModel& tree = system.model();
  out << "bodies and hinge tree ("
      << plural(static_cast<std::size_t>(tree.bodyCount() - 1), "body", "bodies") << "; nq "
      << tree.nq() << ", nu " << tree.nu() << "):\n";
  std::vector<std::vector<BodyIndex>> children(static_cast<std::size_t>(tree.bodyCount()));
  for (BodyIndex b = 1; b < tree.bodyCount(); ++b) {
    children[static_cast<std::size_t>(tree.parent(b))].push_back(b);
  }
  std::vector<std::vector<std::string>> nodes(children.size());
  for (int n = 0; n < tree.nodeCount(); ++n) {
    const multibody::Node& node = tree.node(n);
    nodes[static_cast<std::size_t>(node.body)].push_back(node.name);
  }
  std::vector<std::vector<std::string>> rows;
  // Depth first from the world, children in index order: each body under its parent.
  const auto visit = [&](const auto& self, BodyIndex b, int depth) -> void {
    const std::string indent(2 * depth, ' ');
    if (b == multibody::kWorldBody) {
      rows.push_back({indent + tree.bodyName(b)});
    } else {
      const multibody::Hinge& hinge = tree.hinge(b);
      rows.push_back({indent + tree.bodyName(b), std::string(toString(hinge.type())),
                      "nq " + std::to_string(hinge.nq()) + ", nu " + std::to_string(hinge.nu()),
                      "mass " + number(tree.massProperties(b).mass()) + " kg",
                      prescribedSubhinges(tree, b)});
    }
    const auto& here = nodes[static_cast<std::size_t>(b)];
    if (!here.empty()) rows.push_back({indent + "  nodes: " + joined(here)});
    for (BodyIndex child : children[static_cast<std::size_t>(b)]) self(self, child, depth + 1);
  };
  visit(visit, multibody::kWorldBody, 0);
  writeTable(out, rows, "  ");
}

void explainConstraints(const multibody::ConstraintSet& constraints,
                        const multibody::MultibodyModel& tree, std::ostream& out) {
  if (constraints.size() == 0) {
    out << "constraints: none\n";
    return;
  }
  out << "constraints (" << constraints.size() << "; "
      << plural(static_cast<std::size_t>(constraints.rowCount()), "equation", "equations")
      << "):\n";
  std::vector<std::vector<std::string>> rows;
  for (int i = 0; i < constraints.size(); ++i) {
    const multibody::Constraint& c = constraints.constraint(i);
    std::string type(toString(c.type));
    if (c.type == multibody::ConstraintType::CutJoint) {
      type += " " + std::string(toString(c.hinge.type()));
    }
    rows.push_back({c.name, type, "A " + tree.bodyName(c.bodyA), "B " + tree.bodyName(c.bodyB),
                    plural(static_cast<std::size_t>(c.rowCount), "equation", "equations")});
  }
  writeTable(out, rows, "  ");
}

void explainModelList(Simulation& sim, const char* title, const std::vector<std::string>& names,
                      std::ostream& out) {
  if (names.empty()) return;
  out << "  " << title << ":\n";
  // Numbers right-aligned, so the names and their port lines line up past nine models.
  const int numberWidth = static_cast<int>(std::to_string(names.size()).size());
  // Past "    12. ", two more blanks.
  const std::string portIndent(static_cast<std::size_t>(4 + numberWidth + 2 + 2), ' ');
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Model& model = sim.model(names[i]);
    out << "    " << std::setw(numberWidth) << i + 1 << ". " << model.name() << "  "
        << model.spec().className() << " (" << toString(model.kind()) << ")";
    const std::string at = modelAttachment(model);
    if (!at.empty()) out << ", " << at;
    if (!sim.isActive(model.name())) out << ", inactive";
    out << "\n";
    // The scenario is locked, so every port is tied.
    std::vector<std::vector<std::string>> rows;
    for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
      const auto& ports = model.spec().fields(role);
      for (std::size_t p = 0; p < ports.size(); ++p) {
        const bool in = role == FieldRole::FlowIn;
        rows.push_back({in ? "in" : "out", ports[p].name, in ? "<-" : "->",
                        model.binding(role, p).describe()});
      }
    }
    writeTable(out, rows, portIndent);
  }
}

void explainModels(Simulation& sim, std::ostream& out) {
  const ModelOrder order = sim.modelOrder();
  if (order.continuousModels.empty() && order.flowModels.empty()) {
    out << "models: none\n";
    return;
  }
  out << "models in calling order ("
      << plural(order.continuousModels.size() + order.flowModels.size(), "model", "models")
      << "; continuous and flow models are sorted separately):\n";
  explainModelList(sim, "continuous models", order.continuousModels, out);
  explainModelList(sim, "flow models", order.flowModels, out);
  if (order.breaks.empty()) {
    out << "  breaks: none\n";
    return;
  }
  out << "  breaks (read one evaluation late):\n";
  for (const std::string& b : order.breaks) out << "    " << b << "\n";
}

void explainSignals(Simulation& sim, std::ostream& out) {
  const std::vector<std::string> names = sim.signalNames();
  if (names.empty()) {
    out << "signals: none\n";
    return;
  }
  out << "signals (" << names.size() << "):\n";
  std::vector<std::vector<std::string>> rows;
  for (const std::string& name : names) {
    const Signal& signal = sim.signal(name);
    std::string type(toString(signal.type()));
    if (signal.length() != 1) type += "[" + std::to_string(signal.length()) + "]";
    rows.push_back({name, type, signal.unit()});
  }
  writeTable(out, rows, "  ");
}

/// Each state machine: its states (the current one marked) and its transitions with guards.
void explainStateMachines(const Simulation& sim, std::ostream& out) {
  const std::vector<std::string> names = stateMachineNames(sim);
  if (names.empty()) {
    out << "state machines: none\n";
    return;
  }
  out << "state machines (" << names.size() << "):\n";
  for (const std::string& name : names) {
    const StateMachineModel& machine = stateMachine(sim, name);
    std::vector<std::string> states;
    for (const MachineState& s : machine.spec().states) {
      states.push_back(s.name == machine.stateName() ? s.name + " (current)" : s.name);
    }
    out << "  " << name << ": " << joined(states) << "\n";
    std::vector<std::vector<std::string>> rows;
    for (const MachineTransition& t : machine.spec().transitions) {
      rows.push_back({t.from + " -> " + t.to, t.guard.describe(),
                      t.priority == 0 ? "" : "priority " + std::to_string(t.priority)});
    }
    writeTable(out, rows, "    ");
  }
}

}  // namespace

std::string modelAttachment(const Model& model) {
  if (const auto* node = dynamic_cast<const NodeModel*>(&model)) return "node " + node->nodeName();
  if (const auto* hinge = dynamic_cast<const HingeModel*>(&model)) {
    return (hinge->subhinge() < 0 ? std::string("hinge")
                                  : "subhinge " + std::to_string(hinge->subhinge())) +
           " of " + hinge->bodyName();
  }
  return {};
}

std::string scenarioCounts(const Scenario& scenario) {
  const Simulation& sim = scenario.sim();
  const MultibodySystem& system = sim.multibody();
  return plural(static_cast<std::size_t>(system.model().bodyCount() - 1), "body", "bodies") + ", " +
         plural(sim.modelNames().size(), "model", "models") + ", " +
         plural(sim.signalNames().size(), "signal", "signals") + ", " +
         plural(static_cast<std::size_t>(system.constraints().rowCount()), "constraint equation",
                "constraint equations");
}

void explainScenario(Scenario& scenario, std::ostream& out) {
  Simulation& sim = scenario.sim();
  explainSimulation(scenario, out);
  out << "\nassemblies:\n";
  std::vector<std::vector<std::string>> rows;
  explainAssembly(scenario.assemblies(), 0, rows);
  writeTable(out, rows, "  ");
  out << "\n";
  explainBodies(sim.multibody(), out);
  out << "\n";
  explainConstraints(sim.multibody().constraints(), sim.multibody().model(), out);
  out << "\n";
  explainModels(sim, out);
  out << "\n";
  explainSignals(sim, out);
  out << "\n";
  explainStateMachines(sim, out);
}

}  // namespace hopsim::apps
