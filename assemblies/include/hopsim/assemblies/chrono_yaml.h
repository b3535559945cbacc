#pragma once
/// @file
/// Readers for Project Chrono's MBS YAML files (docs/chrono-yaml.md): model files
/// (`chrono-version` + `model`) into mechanism::Mechanism, solver files (`contact_method`,
/// `integrator`, `solver`) into SolverSettings, and simulation files (`type: MBS`, `model`,
/// `solver`, `simulation`, `output`, `visualization`) into SimulationFile.
///
/// Every error is an InputError whose message starts with file:line:col and names the key
/// path (`model.joints[2].axis`), the value found and what was expected; warnings are
/// "file:line:col: message" strings. Nothing half-built is returned when a reader throws.

#include <optional>
#include <string>
#include <vector>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/mechanism.h"

namespace hopsim::chrono {

/// The Chrono version these readers implement (a file's `chrono-version` is compared
/// numerically with it, major and minor; a mismatch is a warning).
inline constexpr int kChronoVersionMajor = 10;
inline constexpr int kChronoVersionMinor = 0;

/// Reads a model document (a mapping with `chrono-version` and `model`, or a model of the older
/// spec: isOlderSpecModel). `file` names the document in messages and is the base of a
/// RELATIVE `data_path`.
/// @throws InputError on any error (file:line:col, key path, value, expectation).
mechanism::Mechanism readModel(const InputNode& document, const std::string& file);
/// A model file of Chrono's older YAML model spec: the model's keys at the top level (`bodies`
/// and no `chrono-version` or `model` wrapper), TSDAs and RSDAs in `spring_dampers`, `com` as
/// a point. readModel reads it with a warning naming the spec.
bool isOlderSpecModel(const InputNode& document);
/// Loads and reads the model file at `path`.
mechanism::Mechanism readModelFile(const std::string& path);

/// A solver file (Chrono's defaults where a key is absent; enum values upper-cased).
struct SolverSettings {
  std::string contactMethod{"NSC"};  ///< "SMC" or "NSC" (required in the file)
  /// `integrator.type`: EULER_IMPLICIT_LINEARIZED (default), EULER_IMPLICIT_PROJECTED,
  /// EULER_IMPLICIT or HHT.
  std::string integratorType{"EULER_IMPLICIT_LINEARIZED"};
  double timeStep{1e-3};                ///< `integrator.time_step` (s); 1e-3 when not given
  bool timeStepGiven{false};            ///< whether the file gave `integrator.time_step`
  double relTolerance{1e-4};            ///< `rel_tolerance` (HHT and EULER_IMPLICIT)
  double absToleranceStates{1e-4};      ///< `abs_tolerance_states`
  double absToleranceMultipliers{1e2};  ///< `abs_tolerance_multipliers`
  int maxIterations{50};                ///< `integrator.max_iterations`
  bool useStepsizeControl{false};       ///< HHT only
  bool useModifiedNewton{false};        ///< HHT only
  /// `solver.type`: BARZILAI_BORWEIN (default), PSOR, APGD, MINRES, GMRES, BICGSTAB, PARDISO,
  /// MUMPS, SPARSE_LU, SPARSE_QR.
  std::string solverType{"BARZILAI_BORWEIN"};
  int solverMaxIterations{100};              ///< `solver.max_iterations`
  double overrelaxationFactor{1.0};          ///< `solver.overrelaxation_factor`
  double sharpnessFactor{1.0};               ///< `solver.sharpness_factor`
  std::optional<double> solverTolerance;     ///< `solver.tolerance`
  bool warmStart{false};                     ///< `solver.warm_start`
  bool enableDiagonalPreconditioner{false};  ///< `solver.enable_diagonal_preconditioner`
  InputNode integrator;               ///< the `integrator` block as written (null when absent)
  InputNode solver;                   ///< the `solver` block as written (null when absent)
  std::vector<std::string> warnings;  ///< "file:line:col: message"
  std::string file;
};

/// Reads a solver document (`chrono-version` and `contact_method` required).
SolverSettings readSolver(const InputNode& document, const std::string& file);
/// Loads and reads the solver file at `path`.
SolverSettings readSolverFile(const std::string& path);

/// A simulation file with the model and solver files it names, read.
struct SimulationFile {
  std::string file;
  std::string modelFile;   ///< resolved: relative to the simulation file's directory, or absolute
  std::string solverFile;  ///< likewise
  /// `simulation.end_time` (s); Chrono's default −1. Chrono runs forever when end_time <= 0;
  /// recorded as written, the caller decides.
  double endTime{-1.0};
  mechanism::Vector3 gravity{0.0, 0.0, -9.8};  ///< `simulation.gravity` (m/s^2)
  bool enforceRealtime{false};                 ///< `simulation.enforce_realtime` (pacing only)
  /// `simulation.time_step` (s): ignored by Chrono; hopsim uses it only when the solver file
  /// gives no `integrator.time_step` (a conflict is a warning).
  std::optional<double> simulationTimeStep;
  /// The step to use: the solver file's `integrator.time_step`, else `simulation.time_step`,
  /// else Chrono's default 1e-3 s.
  double timeStep{1e-3};
  bool hasOutput{false};             ///< whether the `output` block is present
  std::string outputFormat{"NONE"};  ///< ASCII, HDF5 or NONE (required when `output` is present)
  std::string outputMode{"FRAMES"};  ///< FRAMES or SERIES
  double outputFps{100.0};           ///< `output.fps` (Chrono's parser default 100)
  InputNode visualization;           ///< as written (null when absent; presence turns rendering on)
  /// `visualization.camera`, for viewers: which world axis is up (`vertical`: Y or Z) and,
  /// when both are given, where the camera is and what it looks at (world, m).
  struct Camera {
    mechanism::Vector3 vertical{mechanism::Vector3::UnitZ()};
    std::optional<mechanism::Vector3> location;
    std::optional<mechanism::Vector3> target;
  };
  std::optional<Camera> camera;
  SolverSettings solver;
  mechanism::Mechanism model;
  /// This file's warnings, then the solver file's, then the model file's.
  std::vector<std::string> warnings;
};

/// Reads a simulation document (loaded from `path`) and the model and solver files it names.
SimulationFile readSimulation(const InputNode& document, const std::string& path);
/// Loads and reads the simulation file at `path` (readSimulation).
SimulationFile readSimulationFile(const std::string& path);

/// What a Chrono YAML document is.
enum class FileKind { Model, Simulation, Solver };
/// Simulation: `type` and a `model` path; Model: a `model` mapping; Solver: `contact_method`.
/// @throws InputError when the document is none of them.
FileKind detectFileKind(const InputNode& document, const std::string& file);

}  // namespace hopsim::chrono
