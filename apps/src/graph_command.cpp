// hopsim graph: the dataflow of a loaded scenario (models, signals, port ties, feed-through,
// breaks, assemblies) as a Graphviz DOT graph, or rendered to SVG by Graphviz's `dot`. Like
// `hopsim check --explain`, it reads the locked simulation back through public APIs only, so it
// draws what will run rather than what the file asked for.

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include "child_process.h"
#include "commands.h"
#include "explain.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/state_machines.h"
#include "hopsim/signals/error.h"

namespace hopsim::apps {
namespace {

enum class Format { Dot, Svg };

/// DOT for no -o, FILE.dot or FILE.gv; SVG for FILE.svg. @throws InputError for anything else.
Format outputFormat(const std::optional<std::string>& output) {
  if (!output) return Format::Dot;
  const std::string extension = std::filesystem::path(*output).extension().string();
  if (extension == ".dot" || extension == ".gv") return Format::Dot;
  if (extension == ".svg") return Format::Svg;
  throw InputError(
      "graph -o '" + *output + "': " +
      (extension.empty() ? std::string("no extension") : "unknown extension '" + extension + "'") +
      " (expected FILE.dot or FILE.gv for DOT, FILE.svg for SVG)");
}

/// A DOT double-quoted string: backslashes and double quotes escaped, newlines as \n. Every
/// identifier and label is written this way, so names with dots, quotes or blanks are safe.
std::string dotQuoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// A quoted multi-line label: the lines escaped one by one, joined by DOT's \n.
std::string label(const std::vector<std::string>& lines) {
  std::string joined;
  for (const std::string& line : lines) {
    const std::string q = dotQuoted(line);
    joined += (joined.empty() ? "" : "\\n") + q.substr(1, q.size() - 2);
  }
  return "\"" + joined + "\"";
}

std::string modelId(const std::string& name) { return dotQuoted("model:" + name); }
std::string signalId(const std::string& name) { return dotQuoted("signal:" + name); }

/// "[3:6]" for a slice of a signal (half-open element range), "" for the whole signal.
std::string sliceSuffix(const SignalSlice& slice) {
  if (slice.isWhole()) return {};
  return "[" + std::to_string(slice.offset()) + ":" +
         std::to_string(slice.offset() + slice.length()) + "]";
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

/// What the graph is drawn from: the locked simulation, its calling order and breaks, and
/// where each model and signal sits in the assembly tree.
struct Dataflow {
  Simulation& sim;
  std::set<std::string> continuous;  ///< continuous (and DARTS family) models
  std::vector<std::string> breaks;   ///< modelOrder().breaks
  /// The assembly below the top that created each model or signal; absent: the top's.
  std::map<std::string, const Assembly*> modelOwner, signalOwner;
};

void findOwners(const Assembly& assembly, Dataflow& flow) {
  if (assembly.parent() != nullptr) {
    for (const std::string& model : assembly.models()) flow.modelOwner[model] = &assembly;
    // Its own signals are named "<path>.<local>"; the others in its scope were tied to it.
    for (const std::string& local : assembly.signalNames()) {
      const SignalRef ref = assembly.signal(local);
      if (ref.signal == assembly.path() + "." + local) flow.signalOwner[ref.signal] = &assembly;
    }
  }
  for (const auto& child : assembly.children()) findOwners(*child, flow);
}

/// True when a break is declared on `model`'s flowIn `port`: the report lists the connection it
/// cuts ("A.y -> s -> B.u") or, when it cuts none, "B.u (declared; ...)".
bool isBroken(const Dataflow& flow, const std::string& model, const std::string& port) {
  const std::string target = model + "." + port;
  const std::string cut = " -> " + target;
  return std::any_of(flow.breaks.begin(), flow.breaks.end(), [&](const std::string& line) {
    return (line.size() >= cut.size() &&
            line.compare(line.size() - cut.size(), cut.size(), cut) == 0) ||
           line.rfind(target + " (declared", 0) == 0;
  });
}

void writeModelNode(const Dataflow& flow, const std::string& name, const std::string& indent,
                    std::ostream& out) {
  const Model& model = flow.sim.model(name);
  std::vector<std::string> lines{name,
                                 model.spec().className() + " (" + toString(model.kind()) + ")"};
  const std::string at = modelAttachment(model);
  if (!at.empty()) lines.push_back(at);
  const bool active = flow.sim.isActive(name);
  if (!active) lines.push_back("inactive");
  std::vector<std::string> style;
  if (flow.continuous.count(name) != 0) style.push_back("rounded");
  if (!active) style.push_back("dotted");
  out << indent << modelId(name) << " [shape=box";
  if (!style.empty()) out << ", style=" << dotQuoted(joined(style, ","));
  out << ", label=" << label(lines) << "];\n";
}

void writeSignalNode(Simulation& sim, const std::string& name, const std::string& indent,
                     std::ostream& out) {
  const Signal& signal = sim.signal(name);
  std::string type(toString(signal.type()));
  if (signal.length() != 1) type += "[" + std::to_string(signal.length()) + "]";
  if (!signal.unit().empty()) type += ", " + signal.unit();
  out << indent << signalId(name) << " [shape=ellipse, label=" << label({name, type}) << "];\n";
}

/// The models and signals of `assembly` (sorted by name), then its children as nested
/// clusters. `models` and `signals` are those `assembly` owns.
void writeAssembly(const Dataflow& flow, const Assembly& assembly,
                   const std::map<const Assembly*, std::vector<std::string>>& models,
                   const std::map<const Assembly*, std::vector<std::string>>& signals, int depth,
                   std::ostream& out) {
  std::string indent(static_cast<std::size_t>(2 * depth), ' ');
  if (assembly.parent() != nullptr) {
    out << indent << "subgraph " << dotQuoted("cluster_" + assembly.path()) << " {\n";
    indent += "  ";
    out << indent << "label=" << label({assembly.name(), assembly.assemblyClass().name}) << ";\n";
  }
  const auto ownModels = models.find(&assembly);
  const auto ownSignals = signals.find(&assembly);
  if (ownModels != models.end()) {
    for (const std::string& name : ownModels->second) writeModelNode(flow, name, indent, out);
  }
  if (ownSignals != signals.end()) {
    for (const std::string& name : ownSignals->second) writeSignalNode(flow.sim, name, indent, out);
  }
  // A plain-text note lists the bodies an assembly created; Graphviz leaves out empty
  // clusters, so an assembly with nothing else to draw says so.
  const bool empty =
      ownModels == models.end() && ownSignals == signals.end() && assembly.children().empty();
  if (assembly.parent() != nullptr && (empty || !assembly.bodies().empty())) {
    const std::string note = assembly.bodies().empty()
                                 ? std::string("(no models, signals or bodies)")
                                 : (assembly.bodies().size() == 1 ? "body " : "bodies ") +
                                       joined(assembly.bodies(), ", ");
    out << indent << dotQuoted("assembly:" + assembly.path())
        << " [shape=plaintext, label=" << dotQuoted(note) << "];\n";
  }
  for (const auto& child : assembly.children()) {
    // The top is no cluster: its children are clusters at its own depth.
    writeAssembly(flow, *child, models, signals, assembly.parent() ? depth + 1 : depth, out);
  }
  if (assembly.parent() != nullptr) {
    out << std::string(static_cast<std::size_t>(2 * depth), ' ') << "}\n";
  }
}

/// Every tie of `model` as an edge: writer -> signal for a flowOut, signal -> reader for a
/// flowIn, labelled with the port (and the slice, for a slice). A flowIn the model feeds
/// through to flowOuts is bold and names them ("u -> y, z"); one with a declared break is
/// dashed and labelled "break".
void writeEdges(const Dataflow& flow, const std::string& name, std::ostream& out) {
  const Model& model = flow.sim.model(name);
  const ModelSpec& spec = model.spec();
  const auto& outputs = spec.fields(FieldRole::FlowOut);
  const auto& inputs = spec.fields(FieldRole::FlowIn);
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    const SignalSlice& slice = model.binding(FieldRole::FlowOut, o);
    if (!slice.valid()) continue;
    out << "  " << modelId(name) << " -> " << signalId(slice.signal().name())
        << " [label=" << dotQuoted(outputs[o].name + sliceSuffix(slice)) << "];\n";
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const SignalSlice& slice = model.binding(FieldRole::FlowIn, i);
    if (!slice.valid()) continue;
    std::vector<std::string> fed;
    for (std::size_t o = 0; o < outputs.size(); ++o) {
      if (spec.feedsThrough(i, o)) fed.push_back(outputs[o].name);
    }
    std::vector<std::string> lines{inputs[i].name + sliceSuffix(slice)};
    if (!fed.empty()) lines.front() += " -> " + joined(fed, ", ");
    std::vector<std::string> style;
    if (!fed.empty()) style.push_back("bold");
    if (isBroken(flow, name, inputs[i].name)) {
      style.push_back("dashed");
      lines.push_back("break");
    }
    out << "  " << signalId(slice.signal().name()) << " -> " << modelId(name)
        << " [label=" << label(lines);
    if (!style.empty()) out << ", style=" << dotQuoted(joined(style, ","));
    out << "];\n";
  }
}

/// Each state machine as a cluster of its states (the current one bold), with its transitions
/// as edges labelled by their guards.
void writeStateMachines(const Simulation& sim, std::ostream& out) {
  for (const std::string& name : stateMachineNames(sim)) {
    const StateMachineModel& machine = stateMachine(sim, name);
    const auto stateId = [&name](const std::string& state) {
      return dotQuoted("machine:" + name + ":" + state);
    };
    out << "  subgraph " << dotQuoted("cluster_machine_" + name) << " {\n"
        << "    label=" << dotQuoted("state machine " + name) << ";\n";
    for (const MachineState& state : machine.spec().states) {
      out << "    " << stateId(state.name) << " [shape=ellipse, style="
          << dotQuoted(state.name == machine.stateName() ? "rounded,bold" : "rounded")
          << ", label=" << dotQuoted(state.name) << "];\n";
    }
    out << "  }\n";
    for (const MachineTransition& t : machine.spec().transitions) {
      out << "  " << stateId(t.from) << " -> " << stateId(t.to)
          << " [label=" << dotQuoted(t.guard.describe()) << "];\n";
    }
  }
}

/// Writes the DOT graph of a loaded (so locked) scenario. Deterministic: nodes are sorted by
/// name within their assembly, clusters follow the assembly tree, edges follow the sorted
/// models and their declared port order, and every id is derived from a name.
void writeDot(Scenario& scenario, const std::string& title, std::ostream& out) {
  Simulation& sim = scenario.sim();
  const ModelOrder order = sim.modelOrder();
  Dataflow flow{sim,
                std::set<std::string>(order.continuousModels.begin(), order.continuousModels.end()),
                order.breaks,
                {},
                {}};
  const Assembly& top = scenario.assemblies();
  findOwners(top, flow);

  std::vector<std::string> modelNames = sim.modelNames();
  std::sort(modelNames.begin(), modelNames.end());
  std::vector<std::string> signalNames = sim.signalNames();
  std::sort(signalNames.begin(), signalNames.end());
  std::map<const Assembly*, std::vector<std::string>> models, signals;
  for (const std::string& name : modelNames) {
    const auto it = flow.modelOwner.find(name);
    models[it == flow.modelOwner.end() ? &top : it->second].push_back(name);
  }
  for (const std::string& name : signalNames) {
    const auto it = flow.signalOwner.find(name);
    signals[it == flow.signalOwner.end() ? &top : it->second].push_back(name);
  }

  out << "// hopsim graph " << title << "\n"
      << "// Boxes are models (rounded: continuous), ellipses signals, clusters assemblies;\n"
      << "// bold edges feed through to the outputs they name, dashed edges are declared breaks;\n"
      << "// state machines are clusters of their states (bold: current), edges their guards.\n"
      << "digraph " << dotQuoted("hopsim") << " {\n"
      << "  graph [rankdir=LR, labelloc=t, label=" << dotQuoted(title) << "];\n";
  writeAssembly(flow, top, models, signals, 1, out);
  for (const std::string& name : modelNames) writeEdges(flow, name, out);
  writeStateMachines(sim, out);
  out << "}\n";
}

/// The first executable `program` in the directories of PATH, or "".
std::string findOnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest(path);
  while (true) {
    const std::size_t colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + program;
    std::error_code error;
    if (::access(candidate.c_str(), X_OK) == 0 &&
        !std::filesystem::is_directory(candidate, error)) {
      return candidate;
    }
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

/// Renders `dot` to the SVG file `output` with Graphviz's dot (its messages go to stderr).
/// @throws Error when dot is not on PATH (naming the graphviz package) or fails.
void writeSvg(const std::string& dot, const std::string& output) {
  const std::string program = findOnPath("dot");
  if (program.empty()) {
    throw Error("cannot write '" + output +
                "': Graphviz's `dot` is not on PATH (install the graphviz package, e.g. "
                "`apt-get install graphviz`, or write DOT with -o FILE.dot)");
  }
  // dot reads the graph from a temporary file on its stdin, so a dot that fails early cannot
  // break a pipe under us.
  std::string temporary =
      (std::filesystem::temp_directory_path() / "hopsim-graph-XXXXXX.dot").string();
  const int fd = ::mkstemps(temporary.data(), 4);
  if (fd < 0) {
    throw Error("cannot create a temporary file for dot: " + std::string(std::strerror(errno)));
  }
  struct Remove {
    std::string path;
    ~Remove() { std::remove(path.c_str()); }
  } remove{temporary};
  std::size_t written = 0;
  while (written < dot.size()) {
    const ssize_t n = ::write(fd, dot.data() + written, dot.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw Error("cannot write the temporary file '" + temporary + "' for dot");
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);

  ChildExit exit;
  if (const int error = runChild({program, "-Tsvg", "-o", output}, nullptr, temporary, exit)) {
    throw Error("cannot run '" + program + "': " + std::strerror(error));
  }
  if (!exit.exited || exit.code != 0) {
    const std::string how = exit.exited ? "exit status " + std::to_string(exit.code)
                                        : "signal " + std::to_string(exit.code);
    std::remove(output.c_str());  // whatever dot left there is no SVG
    throw Error("'" + program + " -Tsvg' failed (" + how + ") writing '" + output + "'");
  }
}

}  // namespace

int graphScenario(const GraphOptions& options, std::ostream& out, std::ostream& err) {
  // Checked before loading, so a mistyped -o fails at once.
  const Format format = outputFormat(options.output);
  std::unique_ptr<Scenario> scenario = Scenario::load(options.file, options.overrides);
  for (const std::string& warning : scenario->warnings()) {
    err << "hopsim: warning: " << warning << "\n";
  }
  std::ostringstream dot;
  writeDot(*scenario, options.file, dot);
  if (!options.output) {
    out << dot.str();
  } else if (format == Format::Svg) {
    writeSvg(dot.str(), *options.output);
  } else {
    std::ofstream file(*options.output, std::ios::binary);
    file << dot.str();
    file.close();
    if (!file) throw InputError("cannot write '" + *options.output + "'");
  }
  if (options.output) {
    out << "wrote " << *options.output << " (" << (format == Format::Svg ? "SVG" : "Graphviz DOT")
        << ")\n";
  }
  return 0;
}

}  // namespace hopsim::apps
