// The simulation and solver files: defaults, the time step rules, errors and file kinds
// (chrono_yaml_files.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "chrono_yaml_test_util.h"

using namespace hopsim;
using namespace hopsim::chrono_test;
using mechanism::Vector3;

TEST_CASE("chrono yaml: simulation file defaults, time step rules, errors, file kinds") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "hopsim_chrono_yaml_test";
  fs::create_directories(dir / "sub");
  auto write = [&](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };
  write(dir / "sub/model.yaml", std::string(kHead));
  write(dir / "solver.yaml", "chrono-version: 10.0\ncontact_method: nsc\n");
  write(dir / "solver_dt.yaml",
        "chrono-version: 10.0\ncontact_method: NSC\nintegrator: {type: hht, time-step: 0.002, "
        "rel_tolerance: 1e-6, use_modified_newton: true}\nsolver: {type: psor}\n");
  write(dir / "sim.yaml", "chrono-version: 10.0\ntype: mbs\nmodel: sub/model.yaml\nsolver: " +
                              (dir / "solver.yaml").string() +
                              "\nsimulation: {time_step: 0.01}\noutput: {format: none}\n");
  auto s = chrono::readSimulationFile((dir / "sim.yaml").string());
  CHECK(s.endTime == -1.0);
  CHECK(s.gravity.isApprox(Vector3(0, 0, -9.8)));
  CHECK_FALSE(s.enforceRealtime);
  CHECK(s.outputFps == 100.0);
  CHECK(s.outputMode == "FRAMES");
  CHECK(s.solver.contactMethod == "NSC");
  CHECK_FALSE(s.solver.timeStepGiven);
  CHECK(s.timeStep == 0.01);  // the solver file gives none
  CHECK(s.visualization.isNull());
  CHECK(s.model.bodies.size() == 2);
  write(dir / "sim2.yaml",
        "chrono-version: 10.0\ntype: MBS\nmodel: sub/model.yaml\nsolver: solver_dt.yaml\n"
        "simulation: {time_step: 0.01, end_time: 2, gravity: [0, -9.81, 0]}\n");
  s = chrono::readSimulationFile((dir / "sim2.yaml").string());
  CHECK(s.timeStep == 0.002);
  CHECK(s.solver.integratorType == "HHT");
  CHECK(s.solver.relTolerance == 1e-6);
  CHECK(s.solver.useModifiedNewton);
  CHECK(s.solver.solverType == "PSOR");
  CHECK(s.gravity.isApprox(Vector3(0, -9.81, 0)));
  CHECK(countHas(s.warnings, "conflicts with the solver file's") == 1);
  CHECK(countHas(s.warnings, "time-step is the documented spelling") == 1);
  // Errors.
  auto error = [&](const std::string& text) {
    write(dir / "bad.yaml", text);
    try {
      chrono::readSimulationFile((dir / "bad.yaml").string());
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(has(error("chrono-version: 10.0\ntype: FEA\nmodel: a\nsolver: b\n"),
            "bad.yaml:2:7: type: unknown value 'FEA'"));
  CHECK(has(error("chrono-version: 10.0\ntype: MBS\nmodel: nothere.yaml\nsolver: solver.yaml\n"),
            "bad.yaml:3:8: model: file '"));
  // A name the file system refuses (256 bytes: found by fuzzing) is a missing file, not a crash.
  CHECK(has(error("chrono-version: 10.0\ntype: MBS\nmodel: sub/model.yaml\nsolver: " +
                  std::string(256, 'a') + "\n"),
            "bad.yaml:4:9: solver: file '"));
  CHECK(has(error("chrono-version: 10.0\ntype: MBS\nmodel: sub/model.yaml\nsolver: solver.yaml\n"
                  "output: {fps: 10}\n"),
            "bad.yaml:5:9: output.format: missing required key 'format'"));
  CHECK(has(error("chrono-version: 10.0\ntype: MBS\nmodel: sub/model.yaml\nsolver: solver.yaml\n"
                  "simulation: {end_time: soon}\n"),
            "bad.yaml:5:24: simulation.end_time: expected a finite number"));
  write(dir / "solver_bad.yaml",
        "chrono-version: 10.0\ncontact_method: SMC\nintegrator: {type: RK4, time_step: 1}\n");
  try {
    chrono::readSolverFile((dir / "solver_bad.yaml").string());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(has(e.what(), "solver_bad.yaml:3:20: integrator.type: unknown value 'RK4'"));
  }
  write(dir / "solver_bad.yaml",
        "chrono-version: 10.0\ncontact_method: SMC\nintegrator: {type: HHT}\n");
  CHECK_THROWS_WITH_AS(chrono::readSolverFile((dir / "solver_bad.yaml").string()),
                       doctest::Contains("integrator.time_step: missing required key"), InputError);
  // File kinds.
  CHECK(chrono::detectFileKind(loadYamlFile((dir / "sim.yaml").string()), "x") ==
        chrono::FileKind::Simulation);
  CHECK(chrono::detectFileKind(loadYamlFile((dir / "sub/model.yaml").string()), "x") ==
        chrono::FileKind::Model);
  CHECK(chrono::detectFileKind(loadYamlFile((dir / "solver.yaml").string()), "x") ==
        chrono::FileKind::Solver);
  CHECK_THROWS_WITH_AS(chrono::detectFileKind(parseYaml("a: 1\n", "f.yaml"), "f.yaml"),
                       doctest::Contains("f.yaml:1:1: not a Chrono MBS YAML file"), InputError);
  fs::remove_all(dir);
}
