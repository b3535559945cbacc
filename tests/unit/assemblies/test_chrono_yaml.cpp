// The Chrono MBS YAML model reader on hand-written documents: every key, every semantic rule.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "chrono_yaml_test_util.h"
#include "hopsim/core/spatial/rotation.h"

using namespace hopsim;
using namespace hopsim::chrono_test;
using mechanism::Matrix3;
using mechanism::Vector3;

TEST_CASE("chrono yaml: body frames, Cardan angles in degrees, COM, products of inertia") {
  const auto m = readInline(std::string(kHead) + R"(    - name: c
      location: [1, 2, 3]
      orientation: [30, 20, 10]
      mass: 3
      com:
        location: [0.1, 0.2, 0.3]
        orientation: [90, 0, 0]
      inertia:
        moments: [4, 5, 6]
        products: [0.1, 0.2, 0.3]
      initial_linear_velocity: [1, 2, 3]
      initial_angular_velocity: [0.5, 0.6, 0.7]
)");
  REQUIRE(m.bodies.size() == 3);
  const auto& c = m.bodies[2];
  CHECK(c.name == "c");
  CHECK_FALSE(c.fixed);
  CHECK(c.mass == 3.0);
  CHECK(c.X_WR.translation().isApprox(Vector3(1, 2, 3)));
  // Z-Y'-X'': yaw 30 about Z, then pitch 20 about the new Y, then roll 10 about the new X,
  // built independently from axis-angle rotations.
  const double d = std::numbers::pi / 180.0;
  const Matrix3 expected = spatial::rotationFromAxisAngle(Vector3::UnitZ(), 30 * d) *
                           spatial::rotationFromAxisAngle(Vector3::UnitY(), 20 * d) *
                           spatial::rotationFromAxisAngle(Vector3::UnitX(), 10 * d);
  CHECK(c.X_WR.rotation().isApprox(expected, 1e-12));
  CHECK(c.X_RC.translation().isApprox(Vector3(0.1, 0.2, 0.3)));
  CHECK(c.X_RC.rotation().col(0).isApprox(Vector3::UnitY(), 1e-12));
  Matrix3 J;
  J << 4, 0.1, 0.2, 0.1, 5, 0.3, 0.2, 0.3, 6;  // products are [Ixy, Ixz, Iyz]
  CHECK(c.inertia.isApprox(J));
  CHECK(c.v_WC_W.isApprox(Vector3(1, 2, 3)));
  CHECK(c.w_WC_C.isApprox(Vector3(0.5, 0.6, 0.7)));
  CHECK(m.warnings.empty());
  // The ground and defaults.
  CHECK(m.bodies[0].fixed);
  CHECK(m.bodies[1].X_RC.isApprox(mechanism::RigidTransform(), 0.0));
  CHECK(m.name == "model");
  CHECK(m.dataRoot.empty());
}

TEST_CASE("chrono yaml: angle_degrees false, quaternions never converted and normalized") {
  const auto m = readInline(R"(chrono-version: 10.0
model:
  angle_degrees: false
  bodies:
    - name: a
      location: [0, 0, 0]
      orientation: [0.5, 0, 0]
      fixed: true
    - name: b
      location: [0, 0, 0]
      orientation: [2, 0, 0, 2]
      fixed: true
    - name: q
      location: [0, 0, 0]
      orientation: [0.7071067811865476, 0, 0, 0.7071067811865476]
      fixed: true
)");
  CHECK(m.bodies[0].X_WR.rotation().isApprox(spatial::rotationZ(0.5), 1e-12));
  CHECK(m.bodies[1].X_WR.rotation().isApprox(spatial::rotationZ(std::numbers::pi / 2), 1e-12));
  CHECK(m.bodies[2].X_WR.rotation().isApprox(spatial::rotationZ(std::numbers::pi / 2), 1e-12));
  REQUIRE(m.warnings.size() == 1);
  CHECK(has(m.warnings[0], "m.yaml:11:20:"));
  CHECK(has(m.warnings[0], "norm"));
}

TEST_CASE("chrono yaml: moments that break the triangle inequality warn, as Chrono takes them") {
  std::string y = kHead;
  y.replace(y.find("moments: [1, 2, 3]"), 18, "moments: [1, 1, 3]");
  const auto m = readInline(y);
  CHECK(m.bodies[1].inertia.diagonal().isApprox(Vector3(1, 1, 3)));
  REQUIRE(m.warnings.size() == 1);
  CHECK(has(m.warnings[0], "m.yaml:11:9:"));
  CHECK(has(m.warnings[0], "violate the triangle inequality"));
}

TEST_CASE("chrono yaml: joint frames (Z-frame, universal, world, point-line/plane)") {
  const auto m = readInline(std::string(kHead) + R"(  joints:
    - name: rev
      type: revolute
      body1: ground
      body2: b
      location: [1, 0, 0]
      axis: [2, 0, 0]
    - name: pri
      type: PRISMATIC
      body1: ground
      body2: b
      location: [0, 0, 0]
      axis: [0, 0, 1]
    - name: uni
      type: Universal
      body1: ground
      body2: b
      location: [2, 0, 0]
      axis1: [0, 1, 0]
      axis2: [0, 0, 1]
    - name: lock
      type: LOCK
      body1: ground
      body2: b
      location: [0, 0, 0]
    - name: pl
      type: point-line
      body1: ground
      body2: b
      location: [0, 0, 0]
      axis: [0, 1, 0]
    - name: pp
      type: POINT_PLANE
      body1: ground
      body2: b
      location: [0, 0, 0]
      axis: [0, 1, 0]
    - name: sph
      type: SPHERICAL
      body1: ground
      body2: b
      location: [0, 0, 1]
)");
  REQUIRE(m.joints.size() == 7);
  using mechanism::JointType;
  // A5: axis (1, 0, 0) gives X = (0, 1, 0).
  CHECK(m.joints[0].type == JointType::Revolute);
  const Matrix3& R0 = m.joints[0].X_WF.rotation();
  CHECK(R0.col(2).isApprox(Vector3::UnitX()));
  CHECK(R0.col(0).isApprox(Vector3::UnitY()));
  CHECK(R0.col(1).isApprox(Vector3::UnitZ()));
  CHECK(m.joints[0].X_WF.translation().isApprox(Vector3(1, 0, 0)));
  // Axis (0, 0, 1): Y = Z x (1, 0, 0) = (0, 1, 0), X = Y x Z = (1, 0, 0).
  CHECK(m.joints[1].X_WF.rotation().isApprox(Matrix3::Identity()));
  // Universal: X = a1, Z = a1 x a2, Y = Z x X.
  const Matrix3& Ru = m.joints[2].X_WF.rotation();
  CHECK(Ru.col(0).isApprox(Vector3::UnitY()));
  CHECK(Ru.col(2).isApprox(Vector3::UnitX()));
  CHECK(Ru.col(1).isApprox(Vector3::UnitZ()));
  CHECK(m.joints[3].X_WF.rotation().isApprox(Matrix3::Identity()));
  // POINT_LINE with an axis: the line (X) along it; POINT_PLANE: the normal (Z) along it.
  CHECK(m.joints[4].type == JointType::PointLine);
  CHECK(m.joints[4].X_WF.rotation().col(0).isApprox(Vector3::UnitY()));
  CHECK(m.joints[4].X_WF.rotation().determinant() == doctest::Approx(1.0));
  CHECK(m.joints[5].X_WF.rotation().col(2).isApprox(Vector3::UnitY()));
  CHECK(m.joints[6].X_WF.rotation().isApprox(Matrix3::Identity()));
  // Warnings: 'point-line' spelling, and two axes Chrono ignores.
  CHECK(countHas(m.warnings, "POINT_LINE") >= 1);
  CHECK(countHas(m.warnings, "Chrono ignores the axis") == 2);
}

TEST_CASE("chrono yaml: X-then-Ry frames of motors and RSDAs") {
  const auto m = readInline(std::string(kHead) + R"(  motors:
    - name: m
      type: rotation
      body1: b
      body2: ground
      location: [0, 0, 1]
      axis: [0, 1, 0]
      actuation_type: SPEED
      actuation_function: {type: CONSTANT, value: 2}
  rsdas:
    - name: r
      body1: ground
      body2: b
      axis: [1, 0, 0]
      spring_coefficient: 3
      free_angle: 90
)");
  const Matrix3& R = m.motors[0].X_WF.rotation();
  // A5: axis (0, 1, 0) gives X = (0, 0, 1), Y = (1, 0, 0).
  CHECK(R.col(0).isApprox(Vector3::UnitZ()));
  CHECK(R.col(1).isApprox(Vector3::UnitX()));
  CHECK(R.col(2).isApprox(Vector3::UnitY()));
  CHECK(m.motors[0].X_WF.translation().isApprox(Vector3(0, 0, 1)));
  CHECK(m.motors[0].kind == mechanism::MotorKind::Rotation);
  CHECK(m.motors[0].actuation == mechanism::Actuation::Speed);
  CHECK(m.motors[0].support == mechanism::MotorSupport::Revolute);
  CHECK(m.motors[0].function.coefficients == std::vector<double>{2.0});
  // RSDA axis (1, 0, 0): X0 = a, Z0 = a x (0, 1, 0) = (0, 0, 1), Y0 = Z0 x X0 = (0, 1, 0);
  // X = -Z0, Y = Y0, Z = a. Origin defaults to 0; free_angle converted from degrees.
  const Matrix3& Rr = m.rsdas[0].X_WF.rotation();
  CHECK(Rr.col(0).isApprox(-Vector3::UnitZ()));
  CHECK(Rr.col(1).isApprox(Vector3::UnitY()));
  CHECK(Rr.col(2).isApprox(Vector3::UnitX()));
  CHECK(m.rsdas[0].X_WF.translation().isZero());
  CHECK(m.rsdas[0].law == mechanism::RsdaLaw::Linear);
  CHECK(m.rsdas[0].stiffness == 3.0);
  CHECK(m.rsdas[0].freeAngle == doctest::Approx(std::numbers::pi / 2));
}

TEST_CASE("chrono yaml: lin_vel and ang_vel aliases warn with a did-you-mean") {
  const auto m = readInline(std::string(kHead) + R"(    - name: v
      location: [0, 0, 0]
      mass: 1
      inertia: {moments: [1, 1, 1]}
      lin_vel: [1, 2, 3]
      ang_vel: [4, 5, 6]
      masss: 3
)");
  CHECK(m.bodies[2].v_WC_W.isApprox(Vector3(1, 2, 3)));
  CHECK(m.bodies[2].w_WC_C.isApprox(Vector3(4, 5, 6)));
  REQUIRE(m.warnings.size() == 3);
  CHECK(has(m.warnings[0], "m.yaml:18:"));
  CHECK(has(m.warnings[0], "did you mean 'mass'"));
  CHECK(has(m.warnings[1], "m.yaml:16:16:"));
  CHECK(has(m.warnings[1], "did you mean 'initial_linear_velocity'"));
  CHECK(has(m.warnings[2], "did you mean 'initial_angular_velocity'"));
}

TEST_CASE("chrono yaml: bushings take the DOF rotational values on the free rotations") {
  const auto m = readInline(std::string(kHead) + R"(  joints:
    - name: rev
      type: REVOLUTE
      body1: ground
      body2: b
      location: [0, 0, 0]
      axis: [0, 0, 1]
      bushing_data: {stiffness_linear: 1, damping_linear: 2, stiffness_rotational: 3, damping_rotational: 4, DOF: {stiffness_linear: 0, damping_linear: 0, stiffness_rotational: 5, damping_rotational: 6}}
    - name: uni
      type: UNIVERSAL
      body1: ground
      body2: b
      location: [0, 0, 0]
      axis1: [1, 0, 0]
      axis2: [0, 1, 0]
      bushing_data: {stiffness_linear: 1, damping_linear: 2, stiffness_rotational: 3, damping_rotational: 4}
    - name: sph
      type: SPHERICAL
      body1: ground
      body2: b
      location: [0, 0, 0]
      bushing_data: {stiffness_linear: 1, damping_linear: 2, stiffness_rotational: 3, damping_rotational: 4, DOF: {stiffness_linear: 9, damping_linear: 0, stiffness_rotational: 5, damping_rotational: 6}}
    - name: lock
      type: LOCK
      body1: ground
      body2: b
      location: [0, 0, 0]
      bushing_data: {stiffness_linear: 1, damping_linear: 2, stiffness_rotational: 3, damping_rotational: 4}
)");
  using A = std::array<double, 6>;
  CHECK(m.joints[0].bushing->stiffness == A{1, 1, 1, 3, 3, 5});
  CHECK(m.joints[0].bushing->damping == A{2, 2, 2, 4, 4, 6});
  CHECK(m.joints[1].bushing->stiffness == A{1, 1, 1, 0, 0, 3});
  CHECK(m.joints[1].bushing->damping == A{2, 2, 2, 0, 0, 4});
  CHECK(m.joints[2].bushing->stiffness == A{1, 1, 1, 5, 5, 5});
  CHECK(m.joints[3].bushing->stiffness == A{1, 1, 1, 3, 3, 3});
  REQUIRE(m.warnings.size() == 1);  // the unused DOF linear stiffness 9
  CHECK(has(m.warnings[0], "linear DOF values are unused"));
}

TEST_CASE("chrono yaml: constraints, with the distance and axis extensions") {
  const auto m = readInline(std::string(kHead) + R"(  constraints:
    - name: d
      type: DISTANCE
      body1: ground
      body2: b
      point1: [0, 0, 0]
      point2: [1, 0, 0]
    - name: d2
      type: distance
      body1: ground
      body2: b
      point1: [0, 0, 0]
      point2: [1, 0, 0]
      distance: 2
    - name: rs
      type: REVOLUTE_SPHERICAL
      body1: ground
      body2: b
      point1: [0, 0, 0]
      point2: [1, 0, 0]
      axis: [0, 0, 2]
    - name: rt
      type: REVOLUTE-TRANSLATIONAL
      body1: ground
      body2: b
      point1: [0, 0, 0]
      point2: [1, 0, 0]
      axis: [0, 0, 1]
      axis2: [3, 0, 0]
)");
  using mechanism::ConstraintType;
  REQUIRE(m.constraints.size() == 4);
  CHECK(m.constraints[0].type == ConstraintType::Distance);
  CHECK_FALSE(m.constraints[0].distance.has_value());
  CHECK(m.constraints[0].point2.isApprox(Vector3(1, 0, 0)));
  CHECK(*m.constraints[1].distance == 2.0);
  CHECK(m.constraints[2].type == ConstraintType::RevoluteSpherical);
  CHECK(m.constraints[2].axis.isApprox(Vector3::UnitZ()));
  CHECK(m.constraints[3].type == ConstraintType::RevoluteTranslational);
  CHECK(m.constraints[3].axis2.isApprox(Vector3::UnitX()));
  CHECK(countHas(m.warnings, "hopsim extension") == 1);
  CHECK(countHas(m.warnings, "REVOLUTE-SPHERICAL") == 1);  // the '_' spelling
}

TEST_CASE("chrono yaml: TSDA force laws resolved with Chrono's precedence") {
  const auto m = readInline(std::string(kHead) + R"(  tsdas:
    - {name: lin, body1: ground, body2: b, point1: [0, 0, 0], point2: [1, 0, 0], spring_coefficient: 10, damping_coefficient: 2, free_length: 0.5, preload: 3, minimum_length: 0.2, maximum_length: 2}
    - {name: damp, body1: ground, body2: b, point1: [0, 0, 0], point2: [1, 0, 0], damping_coefficient: 2, preload: 3}
    - {name: degr, body1: ground, body2: b, point1: [0, 0, 0], point2: [1, 0, 0], damping_coefficient: 2, degressivity_compression: 0.1, degressivity_expansion: 0.2}
    - {name: kcurve, body1: ground, body2: b, point1: [0, 0, 0], point2: [1, 0, 0], spring_curve_data: [[1, 10], [0, 0]], damping_coefficient: 4, free_length: 1}
    - {name: dcurve, body1: ground, body2: b, point1: [0, 0, 0], point2: [1, 0, 0], damping_curve_data: [[0, 0], [1, 5]], spring_coefficient: 4}
    - {name: both, body1: ground, body2: b, point1: [0, 0, 0], point2: [1, 0, 0], spring_curve_data: [[0, 0], [1, 10]], damping_curve_data: [[0, 0], [1, 5]], free_length: 1, minimum_length: 0.5}
    - {name: map, body1: ground, body2: b, point1: [0, 0, 0], point2: [1, 0, 0], deformation: [0.1, 0.2], map_data: [[-1, -10, -20], [1, 10, 20]], spring_coefficient: 5, free_length: 1, minimum_length: 0.1, maximum_length: 3}
)");
  using mechanism::TsdaLaw;
  REQUIRE(m.tsdas.size() == 7);
  const auto& lin = m.tsdas[0];
  CHECK(lin.law == TsdaLaw::Linear);
  CHECK(lin.stiffness == 10.0);
  CHECK(lin.damping == 2.0);
  CHECK(lin.freeLength == 0.5);
  CHECK(lin.preload == 3.0);
  REQUIRE(lin.lengthLimits.has_value());
  CHECK((*lin.lengthLimits)[1] == 2.0);
  CHECK(m.tsdas[1].law == TsdaLaw::Damper);
  CHECK(m.tsdas[1].preload == 0.0);
  CHECK(m.tsdas[2].law == TsdaLaw::Degressive);
  CHECK(m.tsdas[2].degressivityCompression == 0.1);
  CHECK(m.tsdas[2].degressivityExpansion == 0.2);
  CHECK(m.tsdas[3].law == TsdaLaw::Curves);
  CHECK(m.tsdas[3].springCurve.x == std::vector<double>{0, 1});  // sorted
  CHECK(m.tsdas[3].damping == 0.0);
  CHECK(m.tsdas[4].law == TsdaLaw::DamperCurve);
  CHECK(m.tsdas[4].stiffness == 0.0);
  CHECK(m.tsdas[5].law == TsdaLaw::Curves);
  CHECK_FALSE(m.tsdas[5].lengthLimits.has_value());
  CHECK(m.tsdas[6].law == TsdaLaw::Map);
  CHECK(m.tsdas[6].mapLengths == std::vector<double>{0.1, 0.2});
  CHECK(m.tsdas[6].mapSpeeds == std::vector<double>{-1, 1});
  CHECK(m.tsdas[6].mapForces[1] == std::vector<double>{10, 20});
  CHECK(m.tsdas[6].freeLength == 0.0);
  // Warnings: damp's preload, kcurve's damper, dcurve's spring, both's lone stop, map's
  // spring, free length and stops.
  CHECK(countHas(m.warnings, "preload") == 1);
  CHECK(countHas(m.warnings, "damper is dropped") == 1);
  CHECK(countHas(m.warnings, "spring is dropped") == 1);
  CHECK(countHas(m.warnings, "need both minimum_length and maximum_length") == 1);
  CHECK(countHas(m.warnings, "map_data overrides") == 1);
  CHECK(countHas(m.warnings, "free_length is ignored with map_data") == 1);
  CHECK(countHas(m.warnings, "has no stops") == 2);
}

TEST_CASE("chrono yaml: RSDA laws, damper-only drops free angle and preload") {
  const auto m = readInline(std::string(kHead) + R"(  rsdas:
    - {name: d, body1: ground, body2: b, axis: [0, 0, 1], damping_coefficient: 2, free_angle: 10, preload: 1}
    - {name: c, body1: ground, body2: b, axis: [0, 0, 1], spring_curve_data: [[0, 0], [1, 3]], damping_curve_data: [[0, 0], [1, 1]], free_angle: 180, preload: 2, location: [1, 1, 1]}
    - {name: dc, body1: ground, body2: b, axis: [0, 0, 1], damping_curve_data: [[0, 0], [1, 1]]}
)");
  using mechanism::RsdaLaw;
  CHECK(m.rsdas[0].law == RsdaLaw::Damper);
  CHECK(m.rsdas[0].freeAngle == 0.0);
  CHECK(m.rsdas[1].law == RsdaLaw::Curves);
  CHECK(m.rsdas[1].freeAngle == doctest::Approx(std::numbers::pi));
  CHECK(m.rsdas[1].preload == 2.0);
  CHECK(m.rsdas[1].X_WF.translation().isApprox(Vector3(1, 1, 1)));
  CHECK(m.rsdas[2].law == RsdaLaw::DamperCurve);
  CHECK(countHas(m.warnings, "free_angle") == 1);
  CHECK(countHas(m.warnings, "preload") == 1);
}

TEST_CASE("chrono yaml: functions, degrees on SINE phase only, repeat") {
  const auto m = readInline(std::string(kHead) + R"(  motors:
    - {name: c, type: LINEAR, body1: b, body2: ground, location: [0, 0, 0], axis: [1, 0, 0], actuation_type: position, guide: spherical, actuation_function: {type: constant, value: 1.5}}
    - {name: p, type: LINEAR, body1: b, body2: ground, location: [0, 0, 0], axis: [1, 0, 0], actuation_type: speed, guide: FREE, actuation_function: {type: POLYNOMIAL, coefficients: [1, 2, 3]}}
    - {name: s, type: ROTATION, body1: b, body2: ground, location: [0, 0, 0], axis: [1, 0, 0], actuation_type: force, spindle: cylindrical, actuation_function: {type: SINE, amplitude: 2, frequency: 0.5, phase: 90, shift: 0.25, repeat: {start: 1, width: 2, shift: 3}}}
    - {name: r, type: ROTATION, body1: b, body2: ground, location: [0, 0, 0], axis: [1, 0, 0], actuation_type: speed, spindle: free, actuation_function: {type: RAMP, slope: 2}}
    - {name: d, type: ROTATION, body1: b, body2: ground, location: [0, 0, 0], axis: [1, 0, 0], actuation_type: position, actuation_function: {type: DATA, data: [[0, 0], [1, 7], [2, 1]]}}
    - {name: k, type: LINEAR, body1: b, body2: ground, location: [0, 0, 0], axis: [1, 0, 0], actuation_type: FORCE, actuation_function: {type: CONTROLLER}}
)");
  using mechanism::MotorSupport;
  REQUIRE(m.motors.size() == 6);
  CHECK(m.motors[0].kind == mechanism::MotorKind::Linear);
  CHECK(m.motors[0].support == MotorSupport::Spherical);
  CHECK(m.motors[0].function.type == "CONSTANT");
  CHECK(m.motors[0].function.coefficients == std::vector<double>{1.5});
  CHECK(m.motors[1].support == MotorSupport::Free);
  CHECK(m.motors[1].function.coefficients == std::vector<double>{1, 2, 3});
  CHECK(m.motors[2].support == MotorSupport::Cylindrical);
  const auto& s = m.motors[2].function;
  CHECK(s.type == "SINE");
  REQUIRE(s.coefficients.size() == 4);
  CHECK(s.coefficients[0] == 2.0);
  CHECK(s.coefficients[1] == 0.5);  // Hz, never converted
  CHECK(s.coefficients[2] == doctest::Approx(std::numbers::pi / 2));
  CHECK(s.coefficients[3] == 0.25);
  CHECK(s.repeat == std::vector<double>{1, 2, 3});
  CHECK(m.motors[3].support == MotorSupport::Free);
  CHECK(m.motors[3].function.coefficients == std::vector<double>{2, 0});
  CHECK(m.motors[4].function.coefficients == std::vector<double>{0, 0, 1, 7, 2, 1});
  CHECK(m.motors[5].function.isController());
  CHECK(m.motors[5].function.coefficients.empty());
  // The rotation POSITION DATA exceeds 2*pi with degrees on.
  CHECK(countHas(m.warnings, "exceeds 2*pi") == 1);
}

TEST_CASE("chrono yaml: body loads and load controllers") {
  const auto m = readInline(std::string(kHead) + R"(  body_loads:
    - {name: f, type: FORCE, body: b, load: [1, 2, 3], local_load: false, point: [0, 0, 1], local_point: false, modulation_function: {type: RAMP, slope: 1, intercept: 0.5}}
    - {name: t, type: torque, body: b, load: [0, 0, 1]}
    - {name: g, type: FORCE, body: b}
  load_controllers:
    - {name: lc, type: FORCE, body: b, local_load: true, point: [0, 0, 0], local_point: true, load: [1, 1, 1]}
)");
  REQUIRE(m.loads.size() == 4);
  const auto& f = m.loads[0];
  CHECK_FALSE(f.torque);
  CHECK(f.load.isApprox(Vector3(1, 2, 3)));
  CHECK_FALSE(f.localLoad);
  CHECK_FALSE(f.localPoint);
  CHECK(f.point.isApprox(Vector3(0, 0, 1)));
  CHECK(f.modulation.type == "RAMP");
  CHECK(f.modulation.coefficients == std::vector<double>{1, 0.5});
  CHECK(m.loads[1].torque);
  CHECK(m.loads[1].localLoad);
  CHECK(m.loads[1].modulation.coefficients == std::vector<double>{1.0});
  CHECK(m.loads[2].load.isZero());
  CHECK(m.loads[2].localPoint);
  CHECK(m.loads[3].controlled);
  CHECK(m.loads[3].load.isZero());
  CHECK(countHas(m.warnings, "is missing (Chrono requires it for a FORCE)") == 2);
  CHECK(countHas(m.warnings, "ignored for a load controller") == 1);
}

TEST_CASE(
    "chrono yaml: contact read and visualization kept, spellings of A14 accepted with warnings") {
  const auto m = readInline(std::string(kHead) + R"(    - name: s
      location: [0, 0, 0]
      fixed: true
      contact:
        materials:
          - name: m1
            coefficient_of_friction: 0.3
            physical__properties: {Youngs_modulus: 1e8, Poisson_ratio: 0.3}
          - name: m2
            properties: {Young_modulus: 1e8, Poisson_ratio: 0.3}
            coefficients: {normal_stiffness: 1, normal_damping: 2, tangential_stiffness: 3, tangential_damping: 4}
        shapes:
          - {type: sphere, material: m1, radius: 0.1, location: [0, 0, 0]}
        collision_family: 2
      visualization:
        model_file: a.obj
        shapes:
          - {type: CAPSULE, radius: 1}
)");
  const auto& s = m.bodies[2];
  REQUIRE(s.contact.isMapping());
  REQUIRE(s.contactMaterials.size() == 2);
  const auto& m1 = s.contactMaterials[0].properties;
  const auto& m2 = s.contactMaterials[1].properties;
  CHECK(s.contactMaterials[0].name == "m1");
  CHECK(m1.friction == 0.3);
  CHECK(m1.restitution == 0.01);  // the spec's default
  CHECK(m1.youngModulus == 1e8);  // read under the spelling Chrono ignores
  CHECK(m2.youngModulus == 1e8);
  CHECK(m2.normalStiffness == 1);
  CHECK(m2.normalDamping == 2);
  CHECK(m2.tangentialStiffness == 3);
  CHECK(m2.tangentialDamping == 4);
  REQUIRE(s.contactShapes.size() == 1);
  CHECK(s.contactShapes[0].type == mechanism::ContactShape::Type::Sphere);
  CHECK(s.contactShapes[0].radius == 0.1);
  CHECK(s.contactShapes[0].material == "m1");
  REQUIRE(s.visualization.isMapping());
  CHECK(s.visualization.find("model_file") != nullptr);
  CHECK(countHas(m.warnings, "Chrono reads 'physical_properties'") == 2);
  CHECK(countHas(m.warnings, "Chrono reads 'Young_modulus'") == 1);
  CHECK(countHas(m.warnings, "collision_family") == 1);
  CHECK(countHas(m.warnings, "CAPSULE") == 1);  // visualization-only enum: a warning
}

TEST_CASE("chrono yaml: version compared numerically, data_path") {
  auto m = readInline(R"(chrono-version: 10
model:
  name: x
  data_path: {type: relative, root: data}
  bodies: [{name: g, location: [0, 0, 0], fixed: true}]
)",
                      "/some/dir/m.yaml");
  CHECK(m.warnings.empty());
  CHECK(m.dataRoot == "/some/dir/data");
  m = readInline(R"(chrono-version: "9.1"
model:
  bodies: [{name: g, location: [0, 0, 0], fixed: true}]
)");
  REQUIRE(m.warnings.size() == 1);
  CHECK(has(m.warnings[0], "m.yaml:1:17: chrono-version 9.1 differs"));
  m = readInline(R"(chrono-version: 10.0.2
model:
  data_path: {type: ABSOLUTE, root: /data}
  bodies: [{name: g, location: [0, 0, 0], fixed: true}]
)");
  CHECK(m.warnings.empty());
  CHECK(m.dataRoot == "/data");
}
