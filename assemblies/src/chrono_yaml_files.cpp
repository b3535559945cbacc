// Simulation and solver files, file kinds, and the file-loading entry points.
#include <filesystem>
#include <numbers>
#include <system_error>
#include <type_traits>

#include "chrono_yaml_read.h"
#include "hopsim/assemblies/chrono_yaml.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"

namespace hopsim::chrono {

using namespace detail;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kIntegratorTypes = {
    "EULER_IMPLICIT_LINEARIZED", "EULER_IMPLICIT_PROJECTED", "EULER_IMPLICIT", "HHT"};
const std::vector<std::string> kSolverTypes = {
    "BARZILAI_BORWEIN", "PSOR",    "APGD",  "MINRES",    "GMRES",
    "BICGSTAB",         "PARDISO", "MUMPS", "SPARSE_LU", "SPARSE_QR"};

/// `value` relative to `base`'s directory, or as is when absolute.
std::string resolve(const std::string& base, const std::string& value) {
  const fs::path p(value);
  if (p.is_absolute()) return p.lexically_normal().string();
  return (fs::path(base).parent_path() / p).lexically_normal().string();
}

}  // namespace

SolverSettings readSolver(const InputNode& document, const std::string& file) {
  SolverSettings s;
  s.file = file;
  Reader r(file, s.warnings);
  r.expectMapping(document, "");
  r.checkKeys(document, "", {"chrono-version", "contact_method", "integrator", "solver"});
  checkVersion(r, document);
  s.contactMethod =
      r.choice(r.required(document, "", "contact_method"), "contact_method", {"SMC", "NSC"}) == 0
          ? "SMC"
          : "NSC";
  if (const InputNode* in = Reader::optional(document, "integrator")) {
    const std::string p = "integrator";
    r.expectMapping(*in, p);
    s.integrator = *in;
    r.checkKeys(*in, p,
                {"type", "time_step", "time-step", "rel_tolerance", "abs_tolerance_states",
                 "abs_tolerance_multipliers", "max_iterations", "use_stepsize_control",
                 "use_modified_newton"});
    const int type = r.choice(r.required(*in, p, "type"), at(p, "type"), kIntegratorTypes);
    s.integratorType = kIntegratorTypes[type];
    const InputNode* dt = Reader::optional(*in, "time_step");
    if (const InputNode* dash = Reader::optional(*in, "time-step")) {
      if (dt != nullptr) {
        r.warn(*dash, "integrator.time-step (the documented spelling) ignored: time_step is given");
      } else {
        r.warn(*dash,
               "integrator.time-step is the documented spelling; Chrono's parser reads "
               "time_step (hopsim accepts both)");
        dt = dash;
      }
    }
    if (dt == nullptr) r.fail(*in, "integrator.time_step", "missing required key 'time_step'");
    s.timeStep = r.positive(*dt, "integrator.time_step");
    s.timeStepGiven = true;
    const bool implicit = type == 2 || type == 3;
    auto read = [&](const char* key, auto& value) {
      const InputNode* n = Reader::optional(*in, key);
      if (n == nullptr) return;
      using T = std::decay_t<decltype(value)>;
      if constexpr (std::is_same_v<T, bool>) {
        value = r.boolean(*n, at(p, key));
      } else if constexpr (std::is_same_v<T, int>) {
        value = r.integer(*n, at(p, key));
      } else {
        value = r.positive(*n, at(p, key));
      }
      if (!implicit)
        r.warn(
            *n,
            at(p, key) +
                " is read only for the HHT and EULER_IMPLICIT integrators (ignored by Chrono for " +
                s.integratorType + ")");
    };
    read("rel_tolerance", s.relTolerance);
    read("abs_tolerance_states", s.absToleranceStates);
    read("abs_tolerance_multipliers", s.absToleranceMultipliers);
    read("max_iterations", s.maxIterations);
    for (const char* key : {"use_stepsize_control", "use_modified_newton"}) {
      if (const InputNode* n = Reader::optional(*in, key)) {
        (key[4] == 's' ? s.useStepsizeControl : s.useModifiedNewton) = r.boolean(*n, at(p, key));
        if (type != 3) r.warn(*n, at(p, key) + " applies to the HHT integrator only (ignored)");
      }
    }
  }
  if (const InputNode* sv = Reader::optional(document, "solver")) {
    const std::string p = "solver";
    r.expectMapping(*sv, p);
    s.solver = *sv;
    r.checkKeys(*sv, p,
                {"type", "max_iterations", "overrelaxation_factor", "sharpness_factor", "tolerance",
                 "enable_diagonal_preconditioner", "warm_start"});
    s.solverType = kSolverTypes[r.choice(r.required(*sv, p, "type"), at(p, "type"), kSolverTypes)];
    if (const InputNode* n = Reader::optional(*sv, "max_iterations"))
      s.solverMaxIterations = r.integer(*n, at(p, "max_iterations"));
    if (const InputNode* n = Reader::optional(*sv, "overrelaxation_factor"))
      s.overrelaxationFactor = r.positive(*n, at(p, "overrelaxation_factor"));
    if (const InputNode* n = Reader::optional(*sv, "sharpness_factor"))
      s.sharpnessFactor = r.positive(*n, at(p, "sharpness_factor"));
    if (const InputNode* n = Reader::optional(*sv, "tolerance"))
      s.solverTolerance = r.positive(*n, at(p, "tolerance"));
    if (const InputNode* n = Reader::optional(*sv, "enable_diagonal_preconditioner"))
      s.enableDiagonalPreconditioner = r.boolean(*n, at(p, "enable_diagonal_preconditioner"));
    if (const InputNode* n = Reader::optional(*sv, "warm_start"))
      s.warmStart = r.boolean(*n, at(p, "warm_start"));
  }
  return s;
}

mechanism::Mechanism readModelFile(const std::string& path) {
  return readModel(loadYamlFile(path), path);
}

SolverSettings readSolverFile(const std::string& path) {
  return readSolver(loadYamlFile(path), path);
}

SimulationFile readSimulationFile(const std::string& path) {
  return readSimulation(loadYamlFile(path), path);
}

SimulationFile readSimulation(const InputNode& doc, const std::string& path) {
  SimulationFile s;
  s.file = path;
  Reader r(path, s.warnings);
  r.expectMapping(doc, "");
  r.checkKeys(
      doc, "",
      {"chrono-version", "type", "model", "solver", "simulation", "output", "visualization"});
  checkVersion(r, doc);
  r.choice(r.required(doc, "", "type"), "type", {"MBS"});
  const InputNode& modelNode = r.required(doc, "", "model");
  const InputNode& solverNode = r.required(doc, "", "solver");
  s.modelFile = resolve(path, r.text(modelNode, "model"));
  s.solverFile = resolve(path, r.text(solverNode, "solver"));
  if (const InputNode* sim = Reader::optional(doc, "simulation")) {
    const std::string p = "simulation";
    r.expectMapping(*sim, p);
    r.checkKeys(*sim, p, {"end_time", "gravity", "enforce_realtime", "time_step"});
    if (const InputNode* n = Reader::optional(*sim, "end_time"))
      s.endTime = r.number(*n, at(p, "end_time"));
    if (const InputNode* n = Reader::optional(*sim, "gravity"))
      s.gravity = r.vec3(*n, at(p, "gravity"));
    if (const InputNode* n = Reader::optional(*sim, "enforce_realtime"))
      s.enforceRealtime = r.boolean(*n, at(p, "enforce_realtime"));
    if (const InputNode* n = Reader::optional(*sim, "time_step"))
      s.simulationTimeStep = r.positive(*n, at(p, "time_step"));
  }
  if (const InputNode* out = Reader::optional(doc, "output")) {
    const std::string p = "output";
    r.expectMapping(*out, p);
    r.checkKeys(*out, p, {"format", "mode", "fps"});
    s.hasOutput = true;
    const std::vector<std::string> formats = {"ASCII", "HDF5", "NONE"};
    s.outputFormat = formats[r.choice(r.required(*out, p, "format"), at(p, "format"), formats)];
    if (const InputNode* n = Reader::optional(*out, "mode")) {
      const std::vector<std::string> modes = {"FRAMES", "SERIES"};
      s.outputMode = modes[r.choice(*n, at(p, "mode"), modes)];
    }
    if (const InputNode* n = Reader::optional(*out, "fps"))
      s.outputFps = r.positive(*n, at(p, "fps"));
  }
  if (const InputNode* v = Reader::optional(doc, "visualization")) {
    s.visualization = *v;
    const InputNode* camera = v->isMapping() ? Reader::optional(*v, "camera") : nullptr;
    if (camera != nullptr) {
      const std::string p = "visualization.camera";
      r.expectMapping(*camera, p);
      r.checkKeys(*camera, p, {"vertical", "location", "target"});
      SimulationFile::Camera c;
      if (const InputNode* n = Reader::optional(*camera, "vertical"))
        c.vertical =
            r.choice(*n, at(p, "vertical"), {"Y", "Z"}) == 0 ? Vector3::UnitY() : Vector3::UnitZ();
      if (const InputNode* n = Reader::optional(*camera, "location"))
        c.location = r.vec3(*n, at(p, "location"));
      if (const InputNode* n = Reader::optional(*camera, "target"))
        c.target = r.vec3(*n, at(p, "target"));
      s.camera = c;
    }
  }

  // The files it names (their own errors carry their own locations).
  auto load = [&](const InputNode& node, const std::string& key, const std::string& file) {
    std::error_code error;  // a name the file system refuses (too long, ...) does not exist
    if (!fs::exists(file, error))
      r.fail(node, key, "file '" + file + "' does not exist (paths are relative to " + path + ")");
    return loadYamlFile(file);
  };
  s.solver = readSolver(load(solverNode, "solver", s.solverFile), s.solverFile);
  const InputNode modelDoc = load(modelNode, "model", s.modelFile);
  s.model = readModel(modelDoc, s.modelFile);
  // A RELATIVE data_path is resolved against the model file's directory; when that does not
  // exist but the simulation file's directory has it (Chrono's base), that one is used, with a
  // warning.
  const InputNode* model = modelDoc.find("model");
  const InputNode* dataPath = model != nullptr ? Reader::optional(*model, "data_path") : nullptr;
  const InputNode* root = dataPath != nullptr ? Reader::optional(*dataPath, "root") : nullptr;
  const auto* rootText = root != nullptr ? std::get_if<std::string>(&root->scalar()) : nullptr;
  std::error_code error;
  if (rootText != nullptr && !s.model.dataRoot.empty() && fs::path(*rootText).is_relative() &&
      !fs::exists(s.model.dataRoot, error)) {
    const std::string alt = (fs::path(path).parent_path() / *rootText).lexically_normal().string();
    if (fs::exists(alt, error)) {
      s.model.warnings.push_back(
          locateMessage(root->location(), "",
                        "model.data_path.root: '" + s.model.dataRoot + "' does not exist; using '" +
                            alt + "' (relative to the simulation file, as Chrono does)"));
      s.model.dataRoot = alt;
    }
  }
  // The time step: the solver file's, else simulation.time_step (Chrono ignores the latter).
  if (s.solver.timeStepGiven) {
    s.timeStep = s.solver.timeStep;
    if (s.simulationTimeStep && *s.simulationTimeStep != s.solver.timeStep) {
      const InputNode& n = *doc.find("simulation")->find("time_step");
      r.warn(n, "simulation.time_step " + show(n) +
                    " conflicts with the solver file's "
                    "integrator.time_step " +
                    std::to_string(s.solver.timeStep) +
                    "; the solver file's is used (Chrono ignores simulation.time_step)");
    }
  } else if (s.simulationTimeStep) {
    s.timeStep = *s.simulationTimeStep;
  }
  s.warnings.insert(s.warnings.end(), s.solver.warnings.begin(), s.solver.warnings.end());
  s.warnings.insert(s.warnings.end(), s.model.warnings.begin(), s.model.warnings.end());
  return s;
}

FileKind detectFileKind(const InputNode& document, const std::string& file) {
  if (document.isMapping()) {
    const InputNode* model = document.find("model");
    if (document.find("type") != nullptr && model != nullptr && model->isScalar())
      return FileKind::Simulation;
    if (model != nullptr && model->isMapping()) return FileKind::Model;
    if (document.find("contact_method") != nullptr) return FileKind::Solver;
    if (isOlderSpecModel(document)) return FileKind::Model;
  }
  SourceLocation where = document.location();
  if (where.file.empty()) where.file = file;
  throw InputError(locateMessage(
      where, "",
      "not a Chrono MBS YAML file: expected a simulation file (type: MBS and model/solver "
      "paths), a model file (chrono-version and a model mapping, or the older spec's bodies "
      "at the top level) or a solver file "
      "(chrono-version and contact_method)"));
}

}  // namespace hopsim::chrono
