// Project Chrono's MBS YAML example files (the shared data's chrono-examples/, read from there).
// The same checks on the project's own files are in
// tests/unit/assemblies/test_chrono_yaml_project_files.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "chrono_yaml_test_util.h"
#include "shared_data.h"

using namespace hopsim;
using namespace hopsim::chrono_test;
using mechanism::Matrix3;
using mechanism::Vector3;

namespace {
const std::string kDir = testing::sharedData("chrono-examples/");
}  // namespace

TEST_CASE("chrono examples: every model, simulation and solver file reads") {
  const FileCounts counts = readEveryFile({kDir + "mbs", kDir + "precice"});
  CHECK(counts.models + counts.simulations + counts.solvers == 12);
  CHECK(counts.solverSteps == counts.solvers);
}

TEST_CASE("chrono examples: slider-crank") {
  const auto m = chrono::readModelFile(kDir + "mbs/model_slider_crank.yaml");
  CHECK(m.name == "Slider-crank");
  REQUIRE(m.bodies.size() == 5);
  CHECK(m.bodies[0].fixed);
  CHECK(body(m, "crank").X_WR.translation().isApprox(Vector3(-1, 0, 0)));
  CHECK(body(m, "crank").inertia.diagonal().isApprox(Vector3(0.005, 0.1, 0.1)));
  CHECK(body(m, "rod").mass == 0.5);
  CHECK(body(m, "ball").contact.isMapping());
  REQUIRE(m.joints.size() == 4);
  // ground_slider: PRISMATIC along X, Z-frame: Z = X, X = Y.
  CHECK(m.joints[0].type == mechanism::JointType::Prismatic);
  CHECK(m.joints[0].X_WF.rotation().col(2).isApprox(Vector3::UnitX()));
  CHECK(m.joints[0].X_WF.rotation().col(0).isApprox(Vector3::UnitY()));
  // rod_slider: UNIVERSAL with axis1 Y and axis2 Z: X = Y, Z = Y x Z = X, Y = Z x X = Z.
  const auto& u = m.joints[2];
  CHECK(u.name == "rod_slider");
  CHECK(u.type == mechanism::JointType::Universal);
  Matrix3 R;
  R << 0, 0, 1, 1, 0, 0, 0, 1, 0;
  CHECK(u.X_WF.rotation().isApprox(R));
  CHECK(u.X_WF.translation().isApprox(Vector3(2, 0, 0)));
  // The speed motor: X-then-Ry frame of Y; DATA in rad/s (not converted); repeat.
  REQUIRE(m.motors.size() == 1);
  const auto& motor = m.motors[0];
  CHECK(motor.actuation == mechanism::Actuation::Speed);
  CHECK(motor.X_WF.rotation().col(2).isApprox(Vector3::UnitY()));
  CHECK(motor.X_WF.rotation().col(0).isApprox(Vector3::UnitZ()));
  CHECK(motor.function.type == "DATA");
  REQUIRE(motor.function.coefficients.size() == 16);
  CHECK(motor.function.coefficients[3] == 3.14);
  CHECK(motor.function.repeat == std::vector<double>{0, 16, 16});
  REQUIRE(m.tsdas.size() == 1);
  CHECK(m.tsdas[0].law == mechanism::TsdaLaw::Linear);
  CHECK(m.tsdas[0].stiffness == 50.0);
  CHECK(m.tsdas[0].damping == 5.0);
  CHECK(m.tsdas[0].freeLength == 1.0);
  CHECK(m.tsdas[0].point1.isApprox(Vector3(6.5, 0, 0)));
  // Warnings: TSDA `type` and two collision_family keys.
  CHECK(countHas(m.warnings, "collision_family") == 2);
  CHECK(countHas(m.warnings, "tsdas[0].type is not read by Chrono") == 1);
  CHECK(has(m.dataRoot, "chrono-examples/data"));
}

TEST_CASE("chrono examples: bushing model, lin_vel warning, bushing defaults") {
  const auto m = chrono::readModelFile(kDir + "mbs/model_bushing.yaml");
  const auto& b = body(m, "body");
  CHECK(b.mass == 122.0);
  CHECK(b.v_WC_W.isApprox(Vector3(1.0, -0.4, 0.2)));
  CHECK(b.w_WC_C.isApprox(Vector3(1.5, 1.5, -1.5)));
  CHECK(countHas(m.warnings, "lin_vel is not read by Chrono") == 1);
  CHECK(countHas(m.warnings, "did you mean 'initial_linear_velocity'") == 1);
  CHECK(has(m.warnings[0], "model_bushing.yaml:25:16:"));
  REQUIRE(m.joints.size() == 1);
  REQUIRE(m.joints[0].bushing.has_value());
  CHECK(m.joints[0].bushing->stiffness == std::array<double, 6>{1e5, 1e5, 1e5, 1e5, 1e5, 0});
  CHECK(m.joints[0].bushing->damping == std::array<double, 6>{1e3, 1e3, 1e3, 1e3, 1e3, 0});
  REQUIRE(m.loads.size() == 1);
  CHECK(m.loads[0].load.isApprox(Vector3(0, 0, -8e3)));
  CHECK_FALSE(m.loads[0].localLoad);
  CHECK(m.loads[0].localPoint);
}

TEST_CASE("chrono examples: motors model (radians, quaternions, fixed bodies with mass)") {
  const auto m = chrono::readModelFile(kDir + "mbs/model_motors.yaml");
  REQUIRE(m.motors.size() == 6);
  CHECK(m.motors[1].actuation == mechanism::Actuation::Position);
  CHECK(m.motors[1].function.coefficients == std::vector<double>{3.14, 0.05, 0.0, 0.0});
  CHECK(m.motors[3].kind == mechanism::MotorKind::Linear);
  CHECK(m.motors[3].support == mechanism::MotorSupport::Prismatic);
  CHECK(m.motors[4].function.coefficients[2] == 1.5708);  // radians: not converted
  CHECK(body(m, "stator1").fixed);
  CHECK(body(m, "rotor3").mass == 10.0);
  CHECK(body(m, "rotor1").X_WR.rotation().isApprox(Matrix3::Identity()));
}

TEST_CASE("chrono examples: controllers, flap RSDA, sphere drop") {
  const auto load = chrono::readModelFile(kDir + "mbs/model_inverted_pendulum_load.yaml");
  REQUIRE(load.loads.size() == 1);
  CHECK(load.loads[0].controlled);
  CHECK(load.loads[0].name == "cart_controller");
  const auto motor = chrono::readModelFile(kDir + "mbs/model_inverted_pendulum_motor.yaml");
  REQUIRE(motor.motors.size() == 1);
  CHECK(motor.motors[0].function.isController());
  CHECK(motor.motors[0].actuation == mechanism::Actuation::Force);
  const auto flap = chrono::readModelFile(kDir + "precice/flap_openfoam/mbs_model.yaml");
  REQUIRE(flap.rsdas.size() == 1);
  CHECK(flap.rsdas[0].stiffness == 25.0);
  CHECK(body(flap, "flap").X_RC.translation().isApprox(Vector3(0.1, 0, 0)));
  const auto ball = chrono::readModelFile(kDir + "precice/sphere_drop/mbs_model.yaml");
  CHECK(ball.bodies.size() == 1);
  CHECK(ball.joints.empty());
}

TEST_CASE("chrono examples: simulation and solver files") {
  const auto s = chrono::readSimulationFile(kDir + "mbs/mbs.yaml");
  CHECK(has(s.modelFile, "mbs/model_slider_crank.yaml"));
  CHECK(has(s.solverFile, "mbs/solver_mbs.yaml"));
  CHECK(s.endTime == 100.0);
  CHECK(s.gravity.isApprox(Vector3(0, 0, -9.8)));
  CHECK(s.enforceRealtime);
  CHECK(s.outputFormat == "ASCII");
  CHECK(s.outputMode == "SERIES");
  CHECK(s.outputFps == 20.0);
  CHECK(s.visualization.isMapping());
  CHECK(s.solver.contactMethod == "SMC");
  CHECK(s.solver.integratorType == "EULER_IMPLICIT_LINEARIZED");
  CHECK(s.solver.timeStep == 1e-4);
  CHECK(s.timeStep == 1e-4);
  CHECK(s.solver.solverType == "BARZILAI_BORWEIN");
  CHECK(s.model.name == "Slider-crank");
  CHECK(countHas(s.warnings, "collision_family") == 2);
  const auto c = chrono::readSimulationFile(kDir + "mbs/mbs_controller.yaml");
  CHECK(c.simulationTimeStep == 1e-4);
  CHECK(c.outputFormat == "HDF5");
  CHECK(c.outputMode == "FRAMES");
  CHECK(c.model.loads.size() == 1);
  const auto stiff = chrono::readSolverFile(kDir + "mbs/solver_mbs_stiff.yaml");
  CHECK(stiff.solverType == "MINRES");
  CHECK(stiff.solverMaxIterations == 200);
  CHECK(*stiff.solverTolerance == 1e-10);
  CHECK(stiff.warmStart);
  CHECK(stiff.enableDiagonalPreconditioner);
}
