// The project's Chrono MBS YAML files (tests/data/chrono/, written for these tests) read back:
// every model, simulation and solver file, and each element kind with the values, frames,
// conversions and warnings the reader must give it (docs/chrono-yaml.md).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "chrono_yaml_test_util.h"

#ifndef HOPSIM_SOURCE_DIR
#error "HOPSIM_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

using namespace hopsim;
using namespace hopsim::chrono_test;
using mechanism::Matrix3;
using mechanism::Vector3;

namespace {

const std::string kDir = std::string(HOPSIM_SOURCE_DIR) + "/tests/data/chrono/";

template <class T>
const T& named(const std::vector<T>& items, const std::string& name) {
  for (const T& x : items)
    if (x.name == name) return x;
  FAIL("nothing named " << name);
  return items.front();
}

constexpr double kDegree = std::numbers::pi / 180.0;

}  // namespace

TEST_CASE("chrono project files: every model, simulation and solver file reads") {
  const FileCounts counts = readEveryFile({kDir});
  CHECK(counts.models == 10);  // with the older-spec pendulum and its twin
  CHECK(counts.simulations == 4);
  CHECK(counts.solvers == 4);
  CHECK(counts.solverSteps == 3);  // solver_iterative.yaml leaves the step to its simulation file
}

TEST_CASE("chrono project files: the shuttle's model") {
  const auto m = chrono::readModelFile(kDir + "shuttle_model.yaml");
  CHECK(m.name == "crank-shuttle");
  REQUIRE(m.bodies.size() == 5);
  CHECK(m.bodies[0].fixed);
  // The crank: yaw 90 degrees turns its x axis onto the world's y.
  const auto& crank = body(m, "crank");
  CHECK(crank.X_WR.translation().isApprox(Vector3(0, 0.3, 0)));
  CHECK(crank.X_WR.rotation().col(0).isApprox(Vector3::UnitY()));
  CHECK(crank.X_WR.rotation().col(2).isApprox(Vector3::UnitZ()));
  CHECK(crank.inertia.diagonal().isApprox(Vector3(0.004, 0.04, 0.04)));
  // The rod's quaternion, -36.87 degrees about z: x from the crank pin to the shuttle.
  const auto& rod = body(m, "rod");
  CHECK(rod.mass == 0.7);
  CHECK(rod.X_WR.rotation().col(0).isApprox(Vector3(0.8, -0.6, 0), 1e-12));
  CHECK(rod.X_RC.translation().isZero());
  // Contact: the shuttle's head and the block, each with its material.
  const auto& shuttle = body(m, "shuttle");
  CHECK(shuttle.contact.isMapping());
  REQUIRE(shuttle.contactShapes.size() == 1);
  CHECK(shuttle.contactShapes[0].type == mechanism::ShapeGeometry::Type::Sphere);
  CHECK(shuttle.contactShapes[0].radius == 0.1);
  CHECK(shuttle.contactShapes[0].X_RS.translation().isApprox(Vector3(0.2, 0, 0)));
  REQUIRE(shuttle.contactMaterials.size() == 1);
  CHECK(shuttle.contactMaterials[0].properties.youngModulus == 2e8);
  CHECK(shuttle.contactMaterials[0].properties.restitution == 0.2);
  const auto& block = body(m, "block");
  REQUIRE(block.contactShapes.size() == 1);
  CHECK(block.contactShapes[0].type == mechanism::ShapeGeometry::Type::Box);
  CHECK(block.contactShapes[0].dimensions.isApprox(Vector3(0.3, 0.3, 0.3)));
  CHECK(block.contactMaterials[0].properties.friction == 0.6);
  // Visualization: the rail as the ground's model_file, boxes, cylinders, spheres and a mesh.
  CHECK(body(m, "ground").visualShapes.size() == 1);
  CHECK(body(m, "ground").visualShapes[0].type == mechanism::ShapeGeometry::Type::Mesh);
  CHECK(body(m, "ground").visualShapes[0].file == "rail.obj");
  CHECK(crank.visualShapes.size() == 2);
  REQUIRE(shuttle.visualShapes.size() == 3);
  CHECK(shuttle.visualShapes[2].scale == 0.5);
  CHECK(shuttle.visualShapes[0].color.isApprox(Vector3(0.2, 0.3, 0.7)));
  CHECK(has(m.dataRoot, "tests/data/chrono/meshes"));

  REQUIRE(m.joints.size() == 4);
  // shuttle_guide: PRISMATIC along x, the Z-frame of x: Z = x, X = y.
  const auto& guide = named(m.joints, "shuttle_guide");
  CHECK(guide.type == mechanism::JointType::Prismatic);
  CHECK(guide.X_WF.rotation().col(2).isApprox(Vector3::UnitX()));
  CHECK(guide.X_WF.rotation().col(0).isApprox(Vector3::UnitY()));
  // crank_pin: UNIVERSAL with axis1 z and axis2 (0.6, 0.8, 0): X = z, Z = z x axis2 =
  // (-0.8, 0.6, 0) (the rod's own axis), Y = Z x X = (0.6, 0.8, 0).
  const auto& pin = named(m.joints, "crank_pin");
  CHECK(pin.type == mechanism::JointType::Universal);
  Matrix3 R;
  R << 0, 0.6, -0.8, 0, 0.8, 0.6, 1, 0, 0;
  CHECK(pin.X_WF.rotation().isApprox(R, 1e-12));
  CHECK(pin.X_WF.translation().isApprox(Vector3(0, 0.6, 0)));
  CHECK(named(m.joints, "wrist_pin").type == mechanism::JointType::Spherical);
  CHECK(named(m.joints, "wrist_pin").X_WF.rotation().isIdentity());

  // The speed motor about z: its X-then-Ry frame is the world's; a DATA function, repeated.
  REQUIRE(m.motors.size() == 1);
  const auto& motor = m.motors[0];
  CHECK(motor.actuation == mechanism::Actuation::Speed);
  CHECK(motor.X_WF.rotation().isApprox(Matrix3::Identity()));
  CHECK(motor.function.type == "DATA");
  CHECK(motor.function.coefficients == std::vector<double>{0, 0, 0.5, 6, 2, 6, 2.5, 0, 4, 0});
  CHECK(motor.function.repeat == std::vector<double>{0, 4, 0});
  // The block's spring-damper, drawn as a coil.
  REQUIRE(m.tsdas.size() == 1);
  const auto& spring = m.tsdas[0];
  CHECK(spring.law == mechanism::TsdaLaw::Linear);
  CHECK(spring.stiffness == 400.0);
  CHECK(spring.damping == 50.0);
  CHECK(spring.freeLength == 0.45);
  CHECK(spring.point1.isApprox(Vector3(2.05, 0, 0)));
  REQUIRE(spring.visualization.has_value());
  CHECK(spring.visualization->spring);
  CHECK(spring.visualization->turns == 12);
  CHECK(spring.visualization->radius == 0.05);
  // Warnings: the two collision_family keys, nothing else.
  CHECK(countHas(m.warnings, "collision_family") == 2);
  CHECK(m.warnings.size() == 2);
}

TEST_CASE("chrono project files: bushings, loads and the velocity keys Chrono does not read") {
  const auto m = chrono::readModelFile(kDir + "bushings_loads_model.yaml");
  // lin_vel and ang_vel read with a warning; both spellings given: the documented one wins.
  const auto& drifter = body(m, "drifter");
  CHECK(drifter.v_WC_W.isApprox(Vector3(0.5, 0, 0)));
  CHECK(drifter.w_WC_C.isApprox(Vector3(0, 0, 0.2)));
  CHECK(body(m, "twin").v_WC_W.isApprox(Vector3(0, 0.5, 0)));
  CHECK(countHas(m.warnings, "lin_vel is not read by Chrono") == 2);
  CHECK(countHas(m.warnings, "ang_vel is not read by Chrono") == 1);
  CHECK(countHas(m.warnings, "did you mean 'initial_linear_velocity'") == 2);
  CHECK(countHas(m.warnings, "bushings_loads_model.yaml:30:") == 2);  // the drifter's line
  // Bushings: six diagonal entries; the joint's free rotations take the DOF values (default 0).
  REQUIRE(m.joints.size() == 4);
  const auto& mount = named(m.joints, "mount_bushing");
  REQUIRE(mount.bushing.has_value());
  CHECK(mount.bushing->stiffness == std::array<double, 6>{1e5, 1e5, 1e5, 1e4, 1e4, 1e4});
  CHECK(mount.bushing->damping == std::array<double, 6>{2e3, 2e3, 2e3, 100, 100, 100});
  const auto& swing = *named(m.joints, "swing_bushing").bushing;
  CHECK(swing.stiffness == std::array<double, 6>{5e4, 5e4, 5e4, 2e3, 2e3, 3});
  CHECK(swing.damping == std::array<double, 6>{200, 200, 200, 20, 20, 0.05});
  const auto& ball = *named(m.joints, "ball_bushing").bushing;
  CHECK(ball.stiffness == std::array<double, 6>{5e4, 5e4, 5e4, 0.5, 0.5, 0.5});
  CHECK(countHas(m.warnings, "the linear DOF values are unused") == 1);
  const auto& yoke = *named(m.joints, "yoke_bushing").bushing;
  CHECK(yoke.stiffness == std::array<double, 6>{2e4, 2e4, 2e4, 0, 0, 500});
  // Body loads (world or COM axes, a world or COM point, a modulation) and load controllers.
  REQUIRE(m.loads.size() == 7);
  const auto& lift = named(m.loads, "float");
  CHECK(lift.load.isApprox(Vector3(0, 0, 19.6)));
  CHECK_FALSE(lift.localLoad);
  CHECK(lift.localPoint);
  const auto& push = named(m.loads, "push");
  CHECK_FALSE(push.localPoint);
  CHECK(push.point.isApprox(Vector3(0, 3, 1)));
  CHECK(push.modulation.type == "RAMP");
  CHECK(push.modulation.coefficients == std::vector<double>{0.5, 0.0});
  CHECK(named(m.loads, "twirl").torque);
  CHECK(named(m.loads, "twirl").localLoad);
  CHECK(named(m.loads, "nudge").modulation.repeat == std::vector<double>{0, 1, 0});
  CHECK(countHas(m.warnings, "body_loads[3].point is missing") == 1);
  CHECK(countHas(m.warnings, "body_loads[3].local_point is missing") == 1);
  CHECK(named(m.loads, "steer").controlled);
  CHECK(named(m.loads, "thrust").controlled);
  CHECK(named(m.loads, "thrust").point.isApprox(Vector3(0, 0, 0.1)));
  CHECK_FALSE(named(m.loads, "idle").controlled);
  CHECK(m.warnings.size() == 6);  // `idle` on the fixed body warns when lowered
}

TEST_CASE("chrono project files: motors (degrees, quaternions, a fixed body with mass)") {
  const auto m = chrono::readModelFile(kDir + "motors_model.yaml");
  REQUIRE(m.motors.size() == 9);
  CHECK(m.warnings.empty());
  using mechanism::Actuation;
  using mechanism::MotorKind;
  using mechanism::MotorSupport;
  const auto& arm = named(m.motors, "arm_sine");
  CHECK(arm.actuation == Actuation::Position);
  CHECK(arm.support == MotorSupport::Revolute);
  // SINE: [A, f, phase (converted from degrees), shift]; f in Hz, never converted.
  REQUIRE(arm.function.coefficients.size() == 4);
  CHECK(arm.function.coefficients[0] == 0.4);
  CHECK(arm.function.coefficients[1] == 0.5);
  CHECK(arm.function.coefficients[2] == doctest::Approx(30 * kDegree).epsilon(1e-15));
  CHECK(arm.function.coefficients[3] == 0.1);
  // X-then-Ry frame of y: X = z, Y = x.
  CHECK(arm.X_WF.rotation().col(0).isApprox(Vector3::UnitZ()));
  CHECK(arm.X_WF.rotation().col(1).isApprox(Vector3::UnitX()));
  const auto& wheel = named(m.motors, "wheel_poly");
  CHECK(wheel.support == MotorSupport::Cylindrical);
  CHECK(wheel.actuation == Actuation::Speed);
  CHECK(wheel.function.coefficients == std::vector<double>{0.5, 1, -0.2});
  CHECK(named(m.motors, "flywheel_torque").support == MotorSupport::Free);
  CHECK(named(m.motors, "flywheel_torque").function.coefficients == std::vector<double>{0.6});
  const auto& ram = named(m.motors, "ram_ramp");
  CHECK(ram.kind == MotorKind::Linear);
  CHECK(ram.support == MotorSupport::Prismatic);
  CHECK(ram.function.coefficients == std::vector<double>{0.2, 0.05});
  const auto& table = named(m.motors, "table_data");
  CHECK(table.support == MotorSupport::Prismatic);  // the default guide
  CHECK(table.function.coefficients.size() == 10);
  CHECK(table.function.repeat == std::vector<double>{0, 2, 0});
  CHECK(named(m.motors, "probe_push").support == MotorSupport::Spherical);
  CHECK(named(m.motors, "pod_shake").support == MotorSupport::Free);
  CHECK(named(m.motors, "pod_shake").function.coefficients == std::vector<double>{3, 1, 0, 0});
  const auto& wrist = named(m.motors, "wrist_ctrl");
  CHECK(wrist.function.isController());
  CHECK(wrist.actuation == Actuation::Force);
  CHECK(named(m.motors, "stop_hold").function.coefficients == std::vector<double>{0.1});
  // A fixed body keeps its mass as written (unused); a quaternion is never converted.
  CHECK(body(m, "stand").fixed);
  CHECK(body(m, "stand").mass == 200.0);
  const double c = std::cos(std::numbers::pi / 4), s = std::sin(std::numbers::pi / 4);
  CHECK(body(m, "flywheel").X_WR.rotation().col(0).isApprox(Vector3(c, s, 0), 1e-12));
}

TEST_CASE("chrono project files: every TSDA and RSDA law, a centre of mass off its frame") {
  const auto m = chrono::readModelFile(kDir + "springs_model.yaml");
  using mechanism::RsdaLaw;
  using mechanism::TsdaLaw;
  REQUIRE(m.tsdas.size() == 7);
  const auto& coil = named(m.tsdas, "coil");
  CHECK(coil.law == TsdaLaw::Linear);
  CHECK(coil.preload == 5.0);
  REQUIRE(coil.lengthLimits.has_value());
  CHECK(*coil.lengthLimits == std::array<double, 2>{0.7, 1.2});
  CHECK(coil.visualization->turns == 10);
  CHECK(named(m.tsdas, "dashpot").law == TsdaLaw::Damper);
  CHECK_FALSE(named(m.tsdas, "dashpot").visualization->spring);
  const auto& degressive = named(m.tsdas, "degressive");
  CHECK(degressive.law == TsdaLaw::Degressive);
  CHECK(degressive.degressivityCompression == 2.0);
  CHECK(degressive.degressivityExpansion == 0.5);
  const auto& curves = named(m.tsdas, "curves");
  CHECK(curves.law == TsdaLaw::Curves);
  CHECK(curves.springCurve.x == std::vector<double>{-0.5, 0, 0.4});  // sorted
  CHECK(curves.springCurve.y == std::vector<double>{-60, 0, 120});
  CHECK(curves.dampingCurve.y == std::vector<double>{-30, 30});
  CHECK(named(m.tsdas, "spring_only").law == TsdaLaw::Curves);
  CHECK(named(m.tsdas, "damper_curve").law == TsdaLaw::DamperCurve);
  const auto& map = named(m.tsdas, "map");
  CHECK(map.law == TsdaLaw::Map);
  CHECK(map.mapLengths == std::vector<double>{0.5, 1.0});
  CHECK(map.mapSpeeds == std::vector<double>{-1, 1});
  CHECK(map.mapForces == std::vector<std::vector<double>>{{-30, 70}, {30, 130}});
  CHECK(map.preload == 4.0);
  REQUIRE(m.rsdas.size() == 4);
  const auto& dial = named(m.rsdas, "dial_spring");
  CHECK(dial.law == RsdaLaw::Linear);
  CHECK(dial.freeAngle == doctest::Approx(30 * kDegree).epsilon(1e-15));  // degrees converted
  CHECK(dial.stiffness == 2.0);                                           // never converted
  CHECK(dial.preload == 0.5);
  CHECK(dial.X_WF.translation().isApprox(Vector3(0, 2, 0)));
  CHECK(named(m.rsdas, "spinner_damper").law == RsdaLaw::Damper);
  CHECK(named(m.rsdas, "knob_curves").law == RsdaLaw::Curves);
  CHECK(named(m.rsdas, "knob_curves").freeAngle == doctest::Approx(-20 * kDegree));
  CHECK(named(m.rsdas, "vane_damper_curve").law == RsdaLaw::DamperCurve);
  CHECK(named(m.rsdas, "vane_damper_curve").X_WF.translation().isZero());  // no location
  CHECK(body(m, "dial").X_RC.translation().isApprox(Vector3(0.05, 0, 0)));
  CHECK(body(m, "spinner").w_WC_C.isApprox(Vector3(0, 0, 4)));
  // The warnings: each dropped term, the ignored TSDA `type` and RSDA visualization.
  CHECK(countHas(m.warnings, "tsdas[4].damping_coefficient is ignored") == 1);
  CHECK(countHas(m.warnings, "tsdas[5].spring_coefficient is ignored") == 1);
  CHECK(countHas(m.warnings, "tsdas[6].free_length is ignored with map_data") == 1);
  CHECK(countHas(m.warnings, "tsdas[6].type is not read by Chrono") == 1);
  CHECK(countHas(m.warnings, "rsdas[3].free_angle is ignored") == 1);
  CHECK(countHas(m.warnings, "rsdas[3].preload is ignored") == 1);
  CHECK(countHas(m.warnings, "rsdas[3].visualization is not read by Chrono") == 1);
  CHECK(m.warnings.size() == 7);
}

TEST_CASE("chrono project files: every joint type and constraint") {
  const auto m = chrono::readModelFile(kDir + "joints_model.yaml");
  CHECK(m.warnings.empty());
  using mechanism::JointType;
  REQUIRE(m.joints.size() == 12);
  const JointType types[] = {JointType::Lock,      JointType::Spherical, JointType::Revolute,
                             JointType::Prismatic, JointType::Universal, JointType::PointLine,
                             JointType::PointPlane};
  for (std::size_t i = 0; i < std::size(types); ++i) CHECK(m.joints[i].type == types[i]);
  // The incline: the Z-frame of (1, 0, -1) normalized.
  CHECK(named(m.joints, "incline")
            .X_WF.rotation()
            .col(2)
            .isApprox(Vector3(1, 0, -1).normalized(), 1e-15));
  // Radians: yaw 0.3 on the welded body; Cardan angles Rz(a0) Ry(a1) Rx(a2) on the pendulum.
  const double yaw = 0.3;
  CHECK(body(m, "welded")
            .X_WR.rotation()
            .col(0)
            .isApprox(Vector3(std::cos(yaw), std::sin(yaw), 0), 1e-15));
  const Matrix3 expected =
      (Eigen::AngleAxisd(0.4, Vector3::UnitY()) * Eigen::AngleAxisd(0.2, Vector3::UnitX()))
          .toRotationMatrix();
  CHECK(body(m, "pendulum").X_WR.rotation().isApprox(expected, 1e-15));
  // Products of inertia are [Ixy, Ixz, Iyz].
  CHECK(body(m, "top").inertia(0, 1) == 0.004);
  CHECK(body(m, "pendulum").inertia(0, 2) == 0.002);
  REQUIRE(m.constraints.size() == 3);
  using mechanism::ConstraintType;
  CHECK(m.constraints[0].type == ConstraintType::Distance);
  CHECK_FALSE(m.constraints[0].distance.has_value());  // the initial distance, 0.8 m
  CHECK(m.constraints[1].type == ConstraintType::RevoluteSpherical);
  CHECK(m.constraints[1].axis.isApprox(Vector3::UnitY()));
  CHECK(m.constraints[2].type == ConstraintType::RevoluteTranslational);
  CHECK(m.constraints[2].axis2.isApprox(Vector3::UnitX()));
}

TEST_CASE("chrono project files: every collision shape and material spelling") {
  const auto m = chrono::readModelFile(kDir + "contact_shapes_model.yaml");
  using Type = mechanism::ShapeGeometry::Type;
  const auto& floor = body(m, "floor");
  REQUIRE(floor.contactShapes.size() == 3);
  CHECK(floor.contactShapes[2].type == Type::Cylinder);
  CHECK(floor.contactShapes[2].length == 0.4);
  const auto& concrete = floor.contactMaterials[0].properties;
  CHECK(concrete.normalStiffness == 3e5);
  CHECK(concrete.tangentialDamping == 30.0);
  CHECK(concrete.youngModulus == 5e7);
  // Two visualization shapes skipped: an unknown type, and one without a type.
  CHECK(floor.visualShapes.size() == 1);
  CHECK(body(m, "ball").contactShapes[0].type == Type::Sphere);
  CHECK(body(m, "crate").contactShapes[0].type == Type::Box);
  CHECK(body(m, "crate").contactMaterials[0].properties.youngModulus == 5e7);  // `properties`
  CHECK(body(m, "can").contactShapes[0].type == Type::Cylinder);
  CHECK(body(m, "can").contactMaterials[0].properties.poissonRatio == 0.3);
  CHECK(body(m, "can").contactMaterials[0].properties.friction == 0.8);  // the default
  CHECK(body(m, "rock").contactShapes[0].type == Type::Hull);
  CHECK(body(m, "rock").contactShapes[0].file == "octahedron.obj");
  const auto& wedge = body(m, "wedge").contactShapes[0];
  CHECK(wedge.type == Type::Mesh);
  CHECK(wedge.contactRadius == 0.005);
  CHECK(body(m, "wedge").visualShapes.size() == 1);  // its model_file
  CHECK(countHas(m.warnings, "collision_family") == 1);
  CHECK(countHas(m.warnings, "orientation is ignored: a cylinder is posed by its axis") == 1);
  CHECK(countHas(m.warnings, "unknown value 'LINE'") == 1);
  CHECK(countHas(m.warnings, "visualization shape without 'type'") == 1);
  CHECK(countHas(m.warnings, "Chrono reads 'physical_properties'") == 2);
  CHECK(countHas(m.warnings, "Chrono reads 'Young_modulus'") == 1);
  CHECK(m.warnings.size() == 7);
}

TEST_CASE("chrono project files: controllers") {
  const auto m = chrono::readModelFile(kDir + "hoist_model.yaml");
  REQUIRE(m.loads.size() == 1);
  CHECK(m.loads[0].controlled);
  CHECK(m.loads[0].name == "lift");
  CHECK_FALSE(m.loads[0].localLoad);
  REQUIRE(m.motors.size() == 1);
  CHECK(m.motors[0].function.isController());
  CHECK(m.motors[0].actuation == mechanism::Actuation::Force);
  CHECK(m.warnings.empty());
}

TEST_CASE("chrono project files: simulation and solver files") {
  const auto s = chrono::readSimulationFile(kDir + "shuttle.yaml");
  CHECK(has(s.modelFile, "tests/data/chrono/shuttle_model.yaml"));
  CHECK(has(s.solverFile, "tests/data/chrono/solver_shuttle.yaml"));
  CHECK(s.endTime == 8.0);
  CHECK(s.gravity.isApprox(Vector3(0, 0, -9.81)));
  CHECK_FALSE(s.enforceRealtime);
  CHECK(s.outputFormat == "ASCII");
  CHECK(s.outputMode == "SERIES");
  CHECK(s.outputFps == 50.0);
  CHECK(s.visualization.isMapping());
  REQUIRE(s.camera.has_value());
  CHECK(s.camera->vertical == Vector3::UnitZ());
  CHECK(*s.camera->location == Vector3(1.2, -2.5, 1.5));
  CHECK(*s.camera->target == Vector3(1.0, 0, 0));
  CHECK(s.model.name == "crank-shuttle");
  CHECK(countHas(s.warnings, "collision_family") == 2);
  // The solver file: HHT with every integrator key, an iterative solver with every solver key.
  const chrono::SolverSettings& solver = s.solver;
  CHECK(solver.contactMethod == "SMC");
  CHECK(solver.integratorType == "HHT");
  CHECK(solver.timeStep == 2e-4);
  CHECK(s.timeStep == 2e-4);
  CHECK(solver.relTolerance == 1e-5);
  CHECK(solver.absToleranceStates == 1e-7);
  CHECK(solver.absToleranceMultipliers == 50.0);
  CHECK(solver.maxIterations == 30);
  CHECK_FALSE(solver.useStepsizeControl);
  CHECK(solver.useModifiedNewton);
  CHECK(solver.solverType == "BARZILAI_BORWEIN");
  CHECK(solver.solverMaxIterations == 150);
  CHECK(solver.overrelaxationFactor == 0.9);
  CHECK(solver.sharpnessFactor == 0.95);
  CHECK(*solver.solverTolerance == 1e-9);
  CHECK(solver.enableDiagonalPreconditioner);
  CHECK_FALSE(solver.warmStart);
  CHECK(solver.warnings.empty());
  // No integrator in the solver file: simulation.time_step is the step.
  const auto hoist = chrono::readSimulationFile(kDir + "hoist.yaml");
  CHECK_FALSE(hoist.solver.timeStepGiven);
  CHECK(hoist.simulationTimeStep == 5e-4);
  CHECK(hoist.timeStep == 5e-4);
  CHECK(hoist.outputFormat == "HDF5");
  CHECK(hoist.outputMode == "FRAMES");
  CHECK(hoist.outputFps == 40.0);
  CHECK_FALSE(hoist.camera.has_value());
  CHECK(hoist.solver.contactMethod == "NSC");
  CHECK(hoist.solver.solverType == "MINRES");
  CHECK(hoist.solver.solverMaxIterations == 400);
  CHECK(*hoist.solver.solverTolerance == 1e-11);
  CHECK(hoist.solver.warmStart);
  CHECK_FALSE(hoist.solver.enableDiagonalPreconditioner);
  CHECK(hoist.model.loads.size() == 1);
  CHECK(hoist.warnings.empty());
  const auto direct = chrono::readSolverFile(kDir + "solver_direct.yaml");
  CHECK(direct.integratorType == "EULER_IMPLICIT");
  CHECK(direct.timeStep == 1e-3);
  CHECK(direct.relTolerance == 1e-6);
  CHECK(direct.absToleranceStates == 1e-8);
  CHECK(direct.maxIterations == 12);
  CHECK(direct.solverType == "SPARSE_QR");
  CHECK(direct.warnings.empty());
}
