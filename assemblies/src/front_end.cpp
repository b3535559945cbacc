#include "hopsim/assemblies/front_end.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>

#include "hopsim/assemblies/chrono_yaml.h"
#include "hopsim/assemblies/mbse_yaml.h"
#include "hopsim/assemblies/mechanism_lowering.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"

namespace hopsim {

namespace {

/// What a run of a mechanism file needs besides the model.
struct RunSettings {
  std::string modelFile;
  double endTime{-1.0};  // Chrono: <= 0 runs until stopped
  double timeStep{1e-3};
  double fps{100.0};
  // Where `hopsim run` writes without --out: what the simulation file's `output` asks.
  std::optional<std::string> outputFile;
  mechanism::Vector3 gravity{0.0, 0.0, -9.8};
  // The hopsim integrator and its settings; a model file run on its own keeps rk4.
  std::vector<InputNode::Entry> integrator{{"integrator", InputNode("rk4")}};
};

// The hopsim integrator that runs a Chrono solver file's `integrator.type`, with the file's
// tolerances where the method has them (docs/chrono-yaml.md, "Integrators").
// EULER_IMPLICIT_PROJECTED is the linearized step followed by a projection onto the
// constraints, which the executive makes after every step of every fixed-step method. HHT,
// which hopsim lacks, runs as the linearized step: one Newton iteration per step needs no
// convergence, where iterating to HHT's tolerances through a penalty contact's onset can fail.
std::vector<InputNode::Entry> integratorFor(const chrono::SolverSettings& solver) {
  if (solver.integratorType == "EULER_IMPLICIT") {
    return {{"integrator", InputNode("euler_implicit")},
            {"rtol", InputNode(solver.relTolerance)},
            {"atol", InputNode(solver.absToleranceStates)}};
  }
  return {{"integrator", InputNode("euler_implicit_linearized")}};
}

/// Chrono runs until stopped when end_time <= 0; a command-line run needs an end.
constexpr double kDefaultEndTime = 10.0;

/// The file a simulation file's `output` section asks for, in the working directory as
/// Chrono's output directory is: `<simulation file's stem>.csv` (ASCII, hopsim's CSV) or `.h5`
/// (HDF5); none for NONE or no section.
std::optional<std::string> outputFileFor(const chrono::SimulationFile& sim,
                                         const std::string& file) {
  if (!sim.hasOutput || sim.outputFormat == "NONE") return std::nullopt;
  const std::string extension = sim.outputFormat == "HDF5" ? ".h5" : ".csv";
  const std::filesystem::path name = std::filesystem::path(file).stem().string() + extension;
  return std::filesystem::absolute(name).lexically_normal().string();
}

bool overridden(const std::vector<std::string>& overrides, const std::string& path) {
  for (const std::string& o : overrides) {
    if (o.starts_with(path + "=")) return true;
  }
  return false;
}

InputNode vector3(const mechanism::Vector3& v) { return InputNode{v.x(), v.y(), v.z()}; }

}  // namespace

std::string describe(YamlFileKind kind) {
  switch (kind) {
    case YamlFileKind::Scenario:
      return "native scenario";
    case YamlFileKind::ChronoModel:
      return "Chrono model file";
    case YamlFileKind::ChronoSimulation:
      return "Chrono simulation file";
    case YamlFileKind::ChronoSolver:
      return "Chrono solver file";
    case YamlFileKind::Mbse:
      return "MBSE mechanism file";
  }
  return "?";
}

YamlFileKind detectYamlFileKind(const InputNode& document, const std::string& file) {
  if (document.isMapping()) {
    if (document.find("hopsim") != nullptr) return YamlFileKind::Scenario;
    if (document.find("chrono-version") != nullptr) {
      if (document.find("type") != nullptr) return YamlFileKind::ChronoSimulation;
      if (const InputNode* model = document.find("model")) {
        return model->isMapping() ? YamlFileKind::ChronoModel : YamlFileKind::ChronoSimulation;
      }
      if (document.find("contact_method") != nullptr) return YamlFileKind::ChronoSolver;
    }
    if (chrono::isOlderSpecModel(document)) return YamlFileKind::ChronoModel;
    if (mbse::looksLikeMbse(document)) return YamlFileKind::Mbse;
  }
  const SourceLocation where =
      document.location().known() ? document.location() : SourceLocation{file, 0, 0};
  if (document.isMapping() && document.find("campaign") != nullptr) {
    // A campaign names a scenario and runs it many times: a different tool runs it.
    throw InputError(locateMessage(
        where, "",
        "is a campaign file (`campaign: 1`), which runs its scenario many times: run it with "
        "`hopsim campaign " +
            file + "` (docs/campaigns.md), or hopsim.Campaign.from_file in Python"));
  }
  throw InputError(locateMessage(
      where, "",
      "is not a file hopsim reads (expected a native scenario with `hopsim: 1`, a Chrono model "
      "file with `chrono-version` and `model` (or `bodies` at the top, the older spec), a "
      "Chrono simulation file with `chrono-version` "
      "and `type: MBS`, a Chrono solver file with `chrono-version` and `contact_method`, or an "
      "MBSE mechanism with `points` and `planar_bodies`)"));
}

mechanism::Mechanism readMechanism(const InputNode& document, const std::string& file) {
  const YamlFileKind kind = detectYamlFileKind(document, file);
  if (kind == YamlFileKind::ChronoModel) return chrono::readModel(document, file);
  if (kind == YamlFileKind::Mbse) return mbse::readMechanism(document, file);
  throw InputError(file + ": is a " + describe(kind) +
                   " (expected a Chrono model file or an MBSE mechanism file)");
}

mechanism::Mechanism readMechanismFile(const std::string& path) {
  return readMechanism(loadYamlFile(path), path);
}

RunDocument runDocumentFor(InputNode document, const std::string& file,
                           const std::vector<std::string>& overrides) {
  const YamlFileKind kind = detectYamlFileKind(document, file);
  if (kind == YamlFileKind::Scenario) return {std::move(document), {}, {}};
  RunDocument out;
  RunSettings run;
  run.modelFile = std::filesystem::absolute(file).lexically_normal().string();
  // The model, read once: the output columns come from its lowering plan, and the ModelFile
  // assembly of the run document lowers it.
  std::optional<mechanism::Mechanism> model;
  switch (kind) {
    case YamlFileKind::ChronoSolver:
      throw InputError(file +
                       ": is a Chrono solver file, which describes no model: run the "
                       "simulation file that names it (`type: MBS`, `model: ...`, "
                       "`solver: " +
                       std::filesystem::path(file).filename().string() + "`)");
    case YamlFileKind::ChronoSimulation: {
      chrono::SimulationFile sim = chrono::readSimulation(document, file);
      // The model's own warnings come again from the assembly that reads it.
      const std::size_t own =
          sim.warnings.size() - std::min(sim.warnings.size(), sim.model.warnings.size());
      out.warnings.assign(sim.warnings.begin(), sim.warnings.begin() + static_cast<long>(own));
      run.modelFile = std::filesystem::absolute(sim.modelFile).lexically_normal().string();
      run.endTime = sim.endTime;
      run.gravity = sim.gravity;
      run.fps = sim.outputFps;
      run.outputFile = outputFileFor(sim, file);
      run.timeStep = sim.timeStep;
      run.integrator = integratorFor(sim.solver);
      if (sim.solver.integratorType == "HHT" && !overridden(overrides, "simulation.integrator")) {
        out.warnings.push_back(sim.solverFile +
                               ": integrator HHT is run as euler_implicit_linearized "
                               "(first order, one Newton iteration per step, more numerical "
                               "damping than HHT; docs/chrono-yaml.md)");
      }
      const bool contact = std::any_of(sim.model.bodies.begin(), sim.model.bodies.end(),
                                       [](const auto& b) { return !b.contactShapes.empty(); });
      if (contact && sim.solver.contactMethod == "NSC") {
        out.warnings.push_back(sim.solverFile +
                               ": contact_method NSC (complementarity) is run "
                               "as SMC, smooth penalty contact, with the materials' SMC "
                               "properties (docs/contact.md)");
      }
      model = std::move(sim.model);
      break;
    }
    case YamlFileKind::Mbse:
    case YamlFileKind::ChronoModel:
      model = readMechanism(document, file);
      // A model file run on its own gets its tool's gravity (Chrono's simulation-file default,
      // or libmbse's -9.81 along Y); a simulation file says its own.
      run.gravity = model->defaultGravity;
      break;
    case YamlFileKind::Scenario:
      break;
  }
  if (!(run.endTime > 0.0) && !overridden(overrides, "simulation.end_time")) {
    std::ostringstream w;
    w << file
      << (kind == YamlFileKind::Mbse
              ? ": no end time (an MBSE file has none); hopsim stops at "
              : ": no end time (a Chrono run without a positive end_time goes on until "
                "stopped); hopsim stops at ")
      << kDefaultEndTime << " s: give --end T";
    out.warnings.push_back(w.str());
  }
  const double endTime = run.endTime > 0.0 ? run.endTime : kDefaultEndTime;

  std::vector<InputNode::Entry> columns;
  {
    const mechanism::MechanismBuilder builder(*model, {});
    for (const auto& [name, source] : builder.outputColumns("model.")) {
      columns.emplace_back(name, InputNode(source));
    }
  }
  out.files.keep(run.modelFile, std::move(*model));

  const double ioStep = 1.0 / run.fps;
  std::vector<InputNode::Entry> simulation{{"end_time", InputNode(endTime)},
                                           {"io_step", InputNode(ioStep)},
                                           {"time_step", InputNode(run.timeStep)}};
  simulation.insert(simulation.end(), run.integrator.begin(), run.integrator.end());
  simulation.emplace_back("gravity", vector3(run.gravity));
  std::vector<InputNode::Entry> logging{{"rate", InputNode(run.fps)},
                                        {"columns", InputNode::mapping(std::move(columns))}};
  if (run.outputFile) logging.emplace_back("file", InputNode(*run.outputFile));
  out.document = InputNode::mapping(
      {{"hopsim", InputNode(1)},
       {"simulation", InputNode::mapping(std::move(simulation))},
       {"assemblies",
        InputNode::mapping({{"model", InputNode::mapping({{"class", InputNode("ModelFile")},
                                                          {"file", InputNode(run.modelFile)}})}})},
       {"logging", InputNode::mapping(std::move(logging))}},
      SourceLocation{file, 0, 0});
  return out;
}

}  // namespace hopsim
