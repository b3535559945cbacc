// Chrono and MBSE files lowered and simulated, against analytic solutions, an independent
// planar formulation, conserved energy and the definitions of the joints: inline models, and
// the project's files in tests/data/ (libmbse's and Chrono's own examples are in
// tests/unit/shared_data/).

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"
#include "mechanism_test_util.h"
#include "planar_mechanism_checks.h"

#ifndef HOPSIM_SOURCE_DIR
#error "HOPSIM_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

namespace hopsim {
namespace {

using testing::element;
using testing::sampleAt;
using testing::TempDir;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

// ---- crank-rod-slider with a constant-speed motor ----------------------------------------------

// The crank (r = 1) turns about +y at 2 rad/s; the rod (l = 3) joins its tip to a slider on the
// x axis. Chrono's rotation is body1 (crank) relative to body2 (ground): the tip is at
// (r cos φ, 0, -r sin φ), so the slider is at x = r cos φ + sqrt(l² - r² sin² φ).
constexpr const char* kSliderCrank = R"(chrono-version: 10.0
model:
  name: crank-rod-slider
  angle_degrees: false
  bodies:
    - {name: ground, location: [0, 0, 0], fixed: true}
    - {name: crank, location: [0.5, 0, 0], mass: 2, inertia: {moments: [0.01, 0.2, 0.2]}}
    - {name: rod, location: [2.5, 0, 0], mass: 1, inertia: {moments: [0.01, 0.8, 0.8]}}
    - {name: slider, location: [4, 0, 0], mass: 3, inertia: {moments: [0.1, 0.1, 0.1]}}
  joints:
    - {name: crank_rod, type: REVOLUTE, body1: crank, body2: rod, location: [1, 0, 0], axis: [0, 1, 0]}
    - {name: rod_slider, type: REVOLUTE, body1: rod, body2: slider, location: [4, 0, 0], axis: [0, 1, 0]}
    - {name: guide, type: PRISMATIC, body1: slider, body2: ground, location: [4, 0, 0], axis: [1, 0, 0]}
  motors:
    - name: drive
      type: ROTATION
      body1: crank
      body2: ground
      location: [0, 0, 0]
      axis: [0, 1, 0]
      actuation_type: SPEED
      actuation_function: {type: CONSTANT, value: 2.0}
)";

TEST_CASE("lowering: a crank-rod-slider with a speed motor follows the analytic slider position") {
  TempDir dir;
  const std::string file = dir.write("slider_crank.yaml", kSliderCrank);
  auto scenario = Scenario::load(file, {"simulation.end_time=3"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  for (double t : {0.0, 0.5, 1.0, 1.55, 2.0, 3.0}) {
    const double phi = 2.0 * t;
    const double x = std::cos(phi) + std::sqrt(9.0 - std::sin(phi) * std::sin(phi));
    CAPTURE(t);
    // The motion is prescribed and the loop closed by projection to 1e-12: only RK4's error on
    // the motor's integral (exact for a constant speed) and the projection tolerance remain.
    CHECK(sampleAt(r, "bodies.slider.position.x", t) == doctest::Approx(x).epsilon(1e-9));
    CHECK(std::abs(sampleAt(r, "bodies.slider.position.z", t)) < 1e-9);
    CHECK(sampleAt(r, "motors.drive.q[0]", t) == doctest::Approx(phi).epsilon(1e-9));
    CHECK(sampleAt(r, "bodies.crank.angular_velocity.y", t) == doctest::Approx(2.0));
  }
}

// ---- cart-pole balanced by a scenario PD controller ---------------------------------------------

// A 1 kg cart on a LINEAR FORCE motor whose CONTROLLER setpoint a PdController writes, and a
// 0.5 kg pole (COM 0.5 m above its pivot) that starts upright turning at 0.5 rad/s. The motor
// axis is -x, so the cart force is F_x = -u = kp θ + kd θ̇: the linearized loop is stable for
// kp > (M + m) g = 14.7 N/rad.
constexpr const char* kCartPole = R"(chrono-version: 10.0
model:
  name: cart-pole
  bodies:
    - {name: ground, location: [0, 0, 0], fixed: true}
    - {name: cart, location: [0, 0, 0], mass: 1.0, inertia: {moments: [0.1, 0.1, 0.1]}}
    - name: pole
      location: [0, 0, 0.5]
      mass: 0.5
      inertia: {moments: [0.05, 0.05, 0.01]}
      initial_angular_velocity: [0, 0.5, 0]
      initial_linear_velocity: [0.25, 0, 0]
  joints:
    - {name: hinge, type: REVOLUTE, body1: pole, body2: cart, location: [0, 0, 0], axis: [0, 1, 0]}
  motors:
    - name: push
      type: LINEAR
      guide: PRISMATIC
      body1: cart
      body2: ground
      location: [0, 0, 0]
      axis: [-1, 0, 0]
      actuation_type: FORCE
      actuation_function: {type: CONTROLLER}
)";

constexpr const char* kCartPoleScenario = R"(hopsim: 1
simulation: {end_time: 8, io_step: 0.01, time_step: 0.001, gravity: [0, 0, -9.8]}
include:
  - {file: cartpole.yaml, name: cp, prefix: "cp_"}
models:
  pd:
    class: PdController
    params: {kp: 60, kd: 12}
    ties: {q: cp.joints.hinge.q, qdot: cp.joints.hinge.u, u: cp.controllers.push}
logging:
  variables: [signals.cp.joints.hinge.q]
)";

TEST_CASE("lowering: a cart-pole with a CONTROLLER force motor balances under a scenario PD") {
  TempDir dir;
  dir.write("cartpole.yaml", kCartPole);
  auto scenario = Scenario::load(dir.write("balance.yaml", kCartPoleScenario));
  CHECK(scenario->warnings().empty());
  scenario->run();
  const Recorder& r = scenario->recorder();
  const std::vector<double>& theta = r.values(r.column("signals.cp.joints.hinge.q"));
  double peak = 0.0;
  for (double x : theta) peak = std::max(peak, std::abs(x));
  // It leans forward first (0.5 rad/s), then comes back: never near falling, settled at the end.
  CHECK(peak > 0.02);
  CHECK(peak < 0.3);
  CHECK(std::abs(theta.back()) < 1e-3);
  CHECK(std::abs(element(scenario->sim(), "signals.cp.joints.hinge.u", 0)) < 1e-3);
  // Without the controller the same pole falls.
  TempDir open;
  open.write("cartpole.yaml", kCartPole);
  auto falling = Scenario::load(open.write("open.yaml", R"(hopsim: 1
simulation: {end_time: 2, gravity: [0, 0, -9.8]}
include: [cartpole.yaml]
)"));
  falling->run();
  CHECK(std::abs(element(falling->sim(), "signals.cartpole.joints.hinge.q", 0)) > 1.0);
}

// ---- the project's MBSE mechanisms (tests/data/mbse/)
// --------------------------------------------

std::string dataFile(const std::string& relative) {
  return std::string(HOPSIM_SOURCE_DIR) + "/tests/data/" + relative;
}

/// crank_rocker.yaml as a reference four-bar: pivots (0, 0) and (3.2, 0), pins (0.8, 0) and
/// (1.4, 1.9), uniform bars of 1.875 kg/m.
testing::FourBarReference crankRockerReference() {
  const auto link = [](int a, int b, double length) {
    const double mass = 1.875 * length;
    return testing::FourBarLink{a, b, length, mass, mass * length * length / 3.0, length / 2.0};
  };
  return testing::FourBarReference(
      {0.0, 0.0}, {3.2, 0.0},
      {link(0, 1, 0.8), link(1, 2, std::hypot(0.6, 1.9)), link(2, 3, std::hypot(1.8, 1.9))},
      {0.8, 0.0}, {1.4, 1.9});
}

TEST_CASE("lowering: the MBSE four-bar keeps its loop closed and matches a planar reference") {
  auto scenario = Scenario::load(dataFile("mbse/crank_rocker.yaml"), {"simulation.end_time=2"});
  scenario->run();
  testing::checkFourBarFollowsReference(scenario->recorder(), crankRockerReference());
  // It moved: the crank fell from the horizontal (the reference has it at -1.69 rad at 0.5 s).
  CHECK(testing::sampleAt(scenario->recorder(), "points.1.position.y", 0.5) < -0.7);
}

TEST_CASE("lowering: an MBSE relative coordinate is the unwrapped angle of its two points") {
  auto scenario = Scenario::load(dataFile("mbse/crank_rocker.yaml"), {"simulation.end_time=3"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  // Along +X (to rounding: the points are projected onto the lengths first).
  CHECK(std::abs(r.values(r.column("relative_coordinates.0.angle")).front()) < 1e-15);
  // The crank swings past -π (to -3.88 rad at 1 s), where atan2 jumps to +π and the angle must
  // not; the rocker's angle, from B = point 3 to point 2, starts at atan2(1.9, -1.8).
  CHECK(testing::checkRelativeAngle(r, 0, 0, 1) < -std::numbers::pi);
  CHECK(r.values(r.column("relative_coordinates.1.angle")).front() ==
        doctest::Approx(std::atan2(1.9, -1.8)).epsilon(1e-12));
  testing::checkRelativeAngle(r, 1, 3, 2);
}

TEST_CASE("lowering: an MBSE compound pendulum swings with the elliptic-integral period") {
  // hammer.yaml: m = 2 kg, a = 1.02 m, I0 = 2.304 kg m² about the pin, released level under
  // g = 9.81: T = 4 sqrt(I0 / (m g a)) K(sin 45°).
  auto scenario = Scenario::load(dataFile("mbse/hammer.yaml"), {"simulation.end_time=4"});
  scenario->run();
  const double period = 4.0 * std::sqrt(2.304 / (2.0 * 9.81 * 1.02)) *
                        std::comp_ellint_1(std::sin(std::numbers::pi / 4.0));
  // The times the hammer passes the bottom (angle -π/2), interpolated linearly between the
  // 10 ms samples: there the angle's second derivative is zero, so the interpolation is off
  // by about 1e-6 s.
  const Recorder& r = scenario->recorder();
  const auto& t = r.times();
  const auto& angle = r.values(r.column("relative_coordinates.0.angle"));
  std::vector<double> bottoms;
  for (std::size_t i = 1; i < t.size(); ++i) {
    const double a = angle[i - 1] + std::numbers::pi / 2.0, b = angle[i] + std::numbers::pi / 2.0;
    if ((a > 0.0) != (b > 0.0)) bottoms.push_back(t[i - 1] + (t[i] - t[i - 1]) * a / (a - b));
  }
  REQUIRE(bottoms.size() == 3);
  CHECK(bottoms[0] == doctest::Approx(period / 4.0).epsilon(1e-5));
  CHECK(bottoms[2] - bottoms[0] == doctest::Approx(period).epsilon(1e-5));
  // It swings to the level on the far side and back: the angle stays within [-π, 0].
  for (double x : angle)
    CHECK(std::abs(x + std::numbers::pi / 2.0) < std::numbers::pi / 2.0 + 1e-6);
}

/// The total energy (kinetic plus gravity's potential) of a scenario's multibody system now.
double totalEnergy(const Simulation& sim) {
  const MultibodySystem& mb = sim.multibody();
  multibody::MultibodyData data(mb.model());
  multibody::computeEnergyAndMomentum(mb.model(), data, mb.q(), mb.u());
  return data.kineticEnergy + data.potentialEnergy;
}

/// Runs `scenario` to `end` in steps of 0.25 s: the total energy stays within `tolerance` (J)
/// of its start. Returns the largest kinetic energy seen, to show that it moved.
double checkEnergyKept(Scenario& scenario, double end, double tolerance) {
  Simulation& sim = scenario.sim();
  const double start = totalEnergy(sim);
  double moving = 0.0;
  while (sim.time() < end - 1e-9) {
    sim.advanceTimeBy(0.25);
    CAPTURE(sim.time());
    CHECK(std::abs(totalEnergy(sim) - start) < tolerance);
    multibody::MultibodyData data(sim.multibody().model());
    multibody::computeEnergyAndMomentum(sim.multibody().model(), data, sim.multibody().q(),
                                        sim.multibody().u());
    moving = std::max(moving, data.kineticEnergy);
  }
  return moving;
}

TEST_CASE("lowering: an MBSE open chain and a Watt six-bar keep their energy and their links") {
  // Nothing dissipates. rk4 at 1 ms keeps the open chain's energy (13 J at most kinetic) to
  // 1e-9 J over 2 s (measured 3.6e-11 J); the six-bar whips through 42 J of kinetic energy,
  // and the projection of its two loops onto their constraints after every step costs more:
  // 1e-6 J (measured 3.0e-7 J).
  auto chain = Scenario::load(dataFile("mbse/plate_linkage.yaml"), {"simulation.end_time=2"});
  CHECK(checkEnergyKept(*chain, 2.0, 1e-9) > 10.0);
  auto watt = Scenario::load(dataFile("mbse/watt_linkage.yaml"), {"simulation.end_time=2"});
  CHECK(checkEnergyKept(*watt, 2.0, 1e-6) > 10.0);
  // The six-bar's links keep their lengths (constraints projected to 1e-12).
  const Recorder& r = watt->recorder();
  const std::array<Eigen::Vector2d, 7> start = {
      {{0, 0}, {0.5, 0.5}, {2.0, 1.2}, {2.5, 0}, {3.2, 1.0}, {4.2, 1.8}, {5.0, 0}}};
  for (const auto& [a, b] : {std::pair{0, 1}, {1, 2}, {2, 3}, {3, 4}, {2, 4}, {4, 5}, {5, 6}}) {
    CAPTURE(a);
    CAPTURE(b);
    const double length =
        (start[static_cast<std::size_t>(b)] - start[static_cast<std::size_t>(a)]).norm();
    CHECK((testing::recordedPoint(r, b, 2.0) - testing::recordedPoint(r, a, 2.0)).norm() ==
          doctest::Approx(length).epsilon(1e-10));
  }
  CHECK((testing::recordedPoint(r, 1, 2.0) - start[1]).norm() > 0.1);  // it moved
}

// ---- the project's Chrono model files (tests/data/chrono/), element by element ------------------

TEST_CASE("lowering: each motor moves its body as its function and support say") {
  // motors_model.yaml under the model file's gravity (0, 0, -9.8). Prescribed motions are exact
  // (rk4 integrates a SPEED polynomial of degree 2, and a piecewise-linear DATA profile whose
  // corners fall on steps, exactly); the free bodies follow Newton to rk4's 1 ms accuracy.
  auto scenario = Scenario::load(dataFile("chrono/motors_model.yaml"), {"simulation.end_time=3"});
  CHECK(scenario->warnings().empty());
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto at = [&r](const std::string& column, double t) {
    return testing::sampleAt(r, column, t);
  };
  const double pi = std::numbers::pi;
  // The table's SPEED profile integrated: 0.4 m per 2 s period.
  const auto table = [](double t) {
    const double period = std::floor(t / 2.0), s = t - 2.0 * period;
    const double within = s < 0.5   ? 0.4 * s * s
                          : s < 1.0 ? 0.1 + 0.4 * (s - 0.5)
                          : s < 1.5 ? 0.3 + 0.4 * (s - 1.0) - 0.4 * (s - 1.0) * (s - 1.0)
                                    : 0.4;
    return 0.4 * period + within;
  };
  for (double t : {0.0, 0.25, 0.7, 1.3, 2.0, 2.6, 3.0}) {
    CAPTURE(t);
    // POSITION SINE (the phase converted from degrees, the shift added), on the arm's PIN.
    CHECK(at("motors.arm_sine.q[0]", t) ==
          doctest::Approx(0.4 * std::sin(pi * t + pi / 6.0) + 0.1).epsilon(1e-12));
    // SPEED POLYNOMIAL on the CYLINDRICAL spindle's turning coordinate (subhinge 1).
    CHECK(at("motors.wheel_poly.u[1]", t) == doctest::Approx(0.5 + t - 0.2 * t * t).epsilon(1e-12));
    CHECK(at("motors.wheel_poly.q[1]", t) ==
          doctest::Approx(0.5 * t + t * t / 2.0 - 0.2 * t * t * t / 3.0).epsilon(1e-12));
    CHECK(std::abs(at("motors.wheel_poly.q[0]", t)) < 1e-12);  // no load along the axle
    // A FREE spindle: the torque spins the flywheel about z (I = 0.08) while it falls.
    CHECK(at("bodies.flywheel.angular_velocity.z", t) == doctest::Approx(7.5 * t).epsilon(1e-9));
    CHECK(at("bodies.flywheel.position.z", t) == doctest::Approx(2.0 - 4.9 * t * t).epsilon(1e-9));
    // POSITION RAMP along x: the ram is there from t = 0 on.
    CHECK(at("bodies.ram.position.x", t) == doctest::Approx(0.05 + 0.2 * t).epsilon(1e-12));
    // SPEED DATA repeated every 2 s, along y.
    CHECK(at("bodies.table.position.y", t) == doctest::Approx(4.0 + table(t)).epsilon(1e-12));
    // A SPHERICAL guide holds the probe's point on the vertical line; 20 N push it up.
    CHECK(at("bodies.probe.position.z", t) ==
          doctest::Approx(1.0 + 0.5 * (20.0 / 1.5 - 9.8) * t * t).epsilon(1e-9));
    CHECK(std::abs(at("bodies.probe.position.x", t)) < 1e-9);
    // A FREE guide: 3 sin(2π t) N along x on 2 kg, and gravity.
    CHECK(at("bodies.pod.position.x", t) ==
          doctest::Approx(0.75 / pi * (t - std::sin(2.0 * pi * t) / (2.0 * pi))).epsilon(1e-9));
    CHECK(at("bodies.pod.position.z", t) == doctest::Approx(3.0 - 4.9 * t * t).epsilon(1e-9));
    // Nothing writes the CONTROLLER torque: the wrist stays. CONSTANT POSITION: 0.1 m up.
    CHECK(at("motors.wrist_ctrl.q[0]", t) == 0.0);
    CHECK(at("bodies.stop.position.z", t) == doctest::Approx(1.1).epsilon(1e-12));
  }
}

TEST_CASE("lowering: each TSDA and RSDA law balances or moves its body as the law says") {
  // springs_model.yaml under g = 9.8. A TSDA body hangs at z = 1 - L (L the spring's length).
  auto scenario = Scenario::load(dataFile("chrono/springs_model.yaml"), {"simulation.end_time=4"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto at = [&r](const std::string& column, double t) {
    return testing::sampleAt(r, column, t);
  };
  const double g = 9.8;
  // Settled (each decays at 5 /s or faster; 4 s leave less than 1e-8 m):
  // LINEAR, P - k (L - L0) = -m g with stops far off;
  CHECK(at("bodies.weight.position.z", 4.0) ==
        doctest::Approx(1.0 - (0.9 + (5.0 + 2.0 * g) / 400.0)).epsilon(1e-8));
  // CURVES, Kt(L - L0) = m g on the 300 N/m branch;
  CHECK(at("bodies.hanger.position.z", 4.0) ==
        doctest::Approx(1.0 - (0.9 + 1.5 * g / 300.0)).epsilon(1e-8));
  // MAP, M(L, 0) = P + m g with M = 200 (L - 0.5).
  CHECK(at("bodies.mapped.position.z", 4.0) ==
        doctest::Approx(1.0 - (0.5 + (4.0 + 2.0 * g) / 200.0)).epsilon(1e-8));
  // Dampers: DAMPER, exactly v = -(m g / c)(1 - exp(-c t / m)) from rest; DEGRESSIVE in
  // expansion and DAMPER_CURVE at their terminal speeds.
  for (double t : {0.2, 0.5, 1.0, 2.0}) {
    CAPTURE(t);
    const double terminal = g / 5.0;
    CHECK(at("bodies.dropper.velocity.z", t) ==
          doctest::Approx(-terminal * (1.0 - std::exp(-5.0 * t))).epsilon(1e-9));
    CHECK(at("bodies.dropper.position.z", t) ==
          doctest::Approx(-terminal * (t - (1.0 - std::exp(-5.0 * t)) / 5.0)).epsilon(1e-9));
  }
  CHECK(at("bodies.sinker.velocity.z", 4.0) ==
        doctest::Approx(-g / (20.0 - 0.5 * g)).epsilon(1e-9));
  CHECK(at("bodies.damped.velocity.z", 4.0) == doctest::Approx(-g / 20.0).epsilon(1e-9));
  // A spring curve without damping: z = -(m g / k)(1 - cos ω t), ω = √(k / m).
  const double omega = std::sqrt(200.0);
  for (double t : {0.1, 0.37, 1.0, 2.5, 4.0}) {
    CAPTURE(t);
    CHECK(at("bodies.bouncer.position.z", t) ==
          doctest::Approx(-g / 200.0 * (1.0 - std::cos(omega * t))).epsilon(1e-8));
  }
  // RSDAs: the dial settles at θ0 + P / k; the spinner's damper slows it as 4 exp(-c t / I).
  CHECK(element(scenario->sim(), "signals.model.rsdas.dial_spring.angle", 0) ==
        doctest::Approx(std::numbers::pi / 6.0 + 0.25).epsilon(1e-9));
  CHECK(at("joints.dial_pin.q[0]", 4.0) ==
        doctest::Approx(std::numbers::pi / 6.0 + 0.25).epsilon(1e-9));
  for (double t : {0.5, 1.0, 2.0}) {
    CAPTURE(t);
    CHECK(at("joints.spinner_pin.u[0]", t) ==
          doctest::Approx(4.0 * std::exp(-2.0 * t)).epsilon(1e-9));
  }
  // The knob and the vane slow down under their curves.
  CHECK(std::abs(at("joints.knob_pin.u[0]", 4.0)) < 2.0);
  CHECK(std::abs(at("joints.vane_pin.u[0]", 4.0)) < 3.0);
}

TEST_CASE("lowering (long): every joint and constraint keeps its equations and the energy") {
  // joints_model.yaml: nothing dissipates. rk4 at 1 ms keeps the energy (up to 107 J of it
  // kinetic) to 1e-8 J over 2 s (measured 6.8e-10 J).
  auto scenario = Scenario::load(dataFile("chrono/joints_model.yaml"), {"simulation.end_time=2"});
  CHECK(scenario->warnings().empty());
  CHECK(checkEnergyKept(*scenario, 2.0, 1e-8) > 10.0);
  const Recorder& r = scenario->recorder();
  const auto pose = [&r](const char* body) { return testing::recordedPose(r, body, 2.0); };
  // LOCK: the welded body has not moved.
  CHECK((pose("welded").translation() - Vec3(0, 0, 1)).norm() < 1e-12);
  // SPHERICAL: the top's pivot, 0.5 m above its reference origin, stays at (1, 0, 1).
  CHECK((pose("top") * Vec3(0, 0, 0.5) - Vec3(1, 0, 1)).norm() < 1e-9);
  // PRISMATIC: the slide stays on the incline through (3, 0, 1), and has moved along it.
  const Vec3 slid = pose("slide").translation() - Vec3(3, 0, 1);
  CHECK(slid.cross(Vec3(1, 0, -1).normalized()).norm() < 1e-9);
  CHECK(slid.norm() > 0.5);
  // POINT_LINE: the bead's point on the line y = 0, z = 1; POINT_PLANE: the puck's in z = 1.
  const Vec3 bead = pose("bead").translation();
  CHECK(std::hypot(bead.y(), bead.z() - 1.0) < 1e-9);
  CHECK(std::abs(pose("puck").translation().z() - 1.0) < 1e-9);
  // DISTANCE: the bob 0.8 m from (7, 0, 1).
  CHECK((pose("bob").translation() - Vec3(7, 0, 1)).norm() == doctest::Approx(0.8).epsilon(1e-10));
  // REVOLUTE-SPHERICAL: the link's point 0.3 m from the arm's point (0.2 m below the arm's
  // origin), in the arm's xz plane.
  const spatial::RigidTransform arm = pose("arm");
  const Vec3 elbow = pose("link").translation() - arm * Vec3(0, 0, -0.2);
  CHECK(elbow.norm() == doctest::Approx(0.3).epsilon(1e-10));
  CHECK(std::abs(elbow.dot(arm.rotation() * Vec3::UnitY())) < 1e-9);
  // REVOLUTE-TRANSLATIONAL: the carriage's point stays at z = 1 and 0.5 m from the vertical
  // axis at (9, 0) along the carriage's x; it turned and slid along its y.
  const spatial::RigidTransform carriage = pose("carriage");
  const Vec3 fromAxis = carriage.translation() - Vec3(9, 0, 1);
  CHECK(std::abs(fromAxis.z()) < 1e-9);
  CHECK(fromAxis.dot(carriage.rotation() * Vec3::UnitX()) == doctest::Approx(0.5).epsilon(1e-10));
  CHECK(std::abs(fromAxis.dot(carriage.rotation() * Vec3::UnitY())) > 0.1);
  CHECK((carriage.rotation() * Vec3::UnitX() - Vec3::UnitX()).norm() > 0.1);
  // The four-bar's cut REVOLUTE: the rocker's end stays on the coupler's.
  CHECK((pose("rocker") * Vec3(0.05, 0, -0.2) - pose("coupler") * Vec3(0.3, 0, 0)).norm() < 1e-9);
}

TEST_CASE("lowering: a bushing sags by m g / k, body loads move a free body as Newton says") {
  auto scenario =
      Scenario::load(dataFile("chrono/bushings_loads_model.yaml"), {"simulation.end_time=1"});
  const auto warned = [&](const std::string& what) {
    const auto& w = scenario->warnings();
    return std::count_if(w.begin(), w.end(),
                         [&](const std::string& s) { return s.find(what) != std::string::npos; });
  };
  CHECK(warned("acts on the fixed body") == 1);  // the load `idle`
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto at = [&r](const std::string& column, double t) {
    return testing::sampleAt(r, column, t);
  };
  // The mount on its critically damped LOCK bushing: 10 kg on 1e5 N/m.
  CHECK(at("bodies.mount.position.z", 1.0) ==
        doctest::Approx(1.0 - 10.0 * 9.8 / 1e5).epsilon(1e-12));
  // The sled: `float` cancels gravity, `push` (2 N × 0.5 t, along x, at a world point on its
  // line of motion) gives x = t³ / 12, `twirl` (0.3 N m about its z) ω_z = 7.5 t.
  for (double t : {0.25, 0.5, 1.0}) {
    CAPTURE(t);
    CHECK(at("bodies.sled.position.x", t) == doctest::Approx(t * t * t / 12.0).epsilon(1e-10));
    CHECK(at("bodies.sled.position.z", t) == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(at("bodies.sled.angular_velocity.z", t) == doctest::Approx(7.5 * t).epsilon(1e-12));
  }
}

TEST_CASE("lowering: load controllers and CONTROLLER motors follow their signals") {
  // tests/data/hoist_scenario.yaml holds controllers.lift at (0, 0, 60) N on the 5 kg carriage
  // and controllers.spin at 0.5 N m on the drum (0.25 kg m² about its axle).
  auto scenario = Scenario::load(dataFile("hoist_scenario.yaml"));
  CHECK(scenario->warnings().empty());
  scenario->run();
  const Simulation& sim = scenario->sim();
  CHECK(element(sim, "signals.hoist.bodies.carriage.position", 2) ==
        doctest::Approx(1.0 + 0.5 * (60.0 / 5.0 - 9.81) * 4.0).epsilon(1e-12));
  CHECK(element(sim, "signals.hoist.motors.spin.u", 0) ==
        doctest::Approx(0.5 / 0.25 * 2.0).epsilon(1e-12));
  // Standing alone nothing writes them: the carriage falls and the drum stays. With rk4, which
  // integrates the fall's quadratic exactly (the file's own implicit Euler errs by O(h)).
  auto alone = Scenario::load(dataFile("chrono/hoist.yaml"),
                              {"simulation.end_time=1", "simulation.integrator=rk4"});
  alone->run();
  CHECK(testing::sampleAt(alone->recorder(), "bodies.carriage.position.z", 1.0) ==
        doctest::Approx(1.0 - 0.5 * 9.81).epsilon(1e-12));
  CHECK(testing::sampleAt(alone->recorder(), "motors.spin.u[0]", 1.0) == 0.0);
}

// ---- every joint type against its definition ---------------------------------------------------

struct JointCase {
  const char* type;
  const char* extra;  // joint keys besides name, type, bodies, location
};

/// A body on one joint to the ground, thrown with a velocity under gravity; `first` (a motor)
/// or `spherical` (a SPHERICAL joint at the same point, listed first) takes the tree, so that
/// the joint closes a loop as a cut joint instead of being a tree hinge.
std::string jointModel(const JointCase& c, bool reversed, const std::string& first,
                       bool spherical) {
  std::string s = R"(chrono-version: 10.0
model:
  angle_degrees: true
  bodies:
    - {name: ground, location: [0, 0, 0], fixed: true}
    - name: b
      location: [0.3, -0.2, 0.5]
      orientation: [20, -30, 40]
      mass: 1.5
      com: {location: [0.1, 0.05, -0.1], orientation: [5, 10, 15]}
      inertia: {moments: [0.2, 0.25, 0.3], products: [0.01, -0.02, 0.015]}
      initial_linear_velocity: [0.2, 0.1, -0.4]
      initial_angular_velocity: [0.3, -0.7, 0.5]
)";
  s += first;
  s += "  joints:\n";
  if (spherical) {
    s += "    - {name: s, type: SPHERICAL, body1: b, body2: ground, location: [0.1, 0.2, 0.3]}\n";
  }
  s += "    - {name: j, type: " + std::string(c.type) +
       ", body1: " + (reversed ? "ground, body2: b" : "b, body2: ground") +
       ", location: [0.1, 0.2, 0.3]" + c.extra + "}\n";
  return s;
}

TEST_CASE("lowering: each joint type allows exactly the relative motion of its definition") {
  const JointCase cases[] = {
      {"LOCK", ""},
      {"SPHERICAL", ""},
      {"REVOLUTE", ", axis: [1, 2, 2]"},
      {"PRISMATIC", ", axis: [1, 2, 2]"},
      {"UNIVERSAL", ", axis1: [1, 0, 0], axis2: [0, 0.6, 0.8]"},
      {"POINT_LINE", ""},
      {"POINT_PLANE", ""},
  };
  for (const JointCase& c : cases) {
    for (int variant = 0; variant < 3; ++variant) {
      const bool reversed = variant == 1;
      // Variant 2: a zero-force motor or a spherical joint comes first and takes the tree, so
      // this joint closes the loop as a cut joint.
      std::string first;
      bool spherical = false;
      const std::string type = c.type;
      if (variant == 2) {
        if (type == "REVOLUTE" || type == "PRISMATIC") {
          first = std::string("  motors:\n    - {name: m, type: ") +
                  (type == "REVOLUTE" ? "ROTATION" : "LINEAR") +
                  ", body1: b, body2: ground, location: [0.1, 0.2, 0.3], axis: [1, 2, 2], "
                  "actuation_type: FORCE, actuation_function: {type: CONSTANT, value: 0}}\n";
        } else if (type != "POINT_LINE" && type != "POINT_PLANE") {
          spherical = true;
        } else {
          continue;  // always cut joints
        }
      }
      CAPTURE(type);
      CAPTURE(variant);
      TempDir dir;
      const std::string model = jointModel(c, reversed, first, spherical);
      auto scenario = Scenario::load(dir.write("joint.yaml", model), {"simulation.end_time=1"});
      scenario->run();
      // The body's pose at t = 0 and at the end, from the recorded columns.
      const Recorder& r = scenario->recorder();
      const spatial::RigidTransform X_WB0 = testing::recordedPose(r, "b", 0.0);
      const spatial::RigidTransform X_WB = testing::recordedPose(r, "b", 1.0);
      // The joint frame F at t = 0 (world axes for LOCK, SPHERICAL and the point joints, the
      // Z-frame of (1, 2, 2) for REVOLUTE and PRISMATIC, X = a1, Z = a1 x a2 for UNIVERSAL):
      // marker 2 stays there (on the ground), marker 1 moves with b.
      Mat3 R_WF = Mat3::Identity();
      if (type == "REVOLUTE" || type == "PRISMATIC") {
        const Vec3 z = Vec3(1, 2, 2).normalized();
        const Vec3 y = z.cross(Vec3::UnitX()).normalized();
        R_WF << y.cross(z), y, z;
      } else if (type == "UNIVERSAL") {
        const Vec3 x = Vec3::UnitX();
        const Vec3 z = x.cross(Vec3(0, 0.6, 0.8)).normalized();
        R_WF << x, z.cross(x), z;
      }
      const spatial::RigidTransform X_WF(R_WF, Vec3(0.1, 0.2, 0.3));
      // Both markers coincide with F at t = 0; the one on b moves with it, the other stays.
      const spatial::RigidTransform X_WMoving = X_WB * (X_WB0.inverse() * X_WF);
      const spatial::RigidTransform& X_W1 = reversed ? X_WF : X_WMoving;  // marker 1 (body1)
      const spatial::RigidTransform& X_W2 = reversed ? X_WMoving : X_WF;  // marker 2 (body2)
      const Vec3 d = X_W2.rotation().transpose() * (X_W1.translation() - X_W2.translation());
      const Mat3 R = X_W2.rotation().transpose() * X_W1.rotation();  // marker 1 in marker 2
      const double moved = (X_WB.translation() - X_WB0.translation()).norm() +
                           (X_WB.rotation() - X_WB0.rotation()).norm();
      // Constraints are projected to 1e-12 at every step.
      const double tol = 1e-9;
      if (type == "LOCK") {
        CHECK(moved < tol);
      } else {
        CHECK(moved > 0.05);
      }
      if (type == "LOCK" || type == "SPHERICAL" || type == "REVOLUTE" || type == "UNIVERSAL") {
        CHECK(d.norm() < tol);
      }
      if (type == "REVOLUTE") CHECK((R.col(2) - Vec3::UnitZ()).norm() < tol);
      if (type == "PRISMATIC") {
        CHECK((R - Mat3::Identity()).norm() < tol);
        CHECK(std::hypot(d.x(), d.y()) < tol);
        CHECK(std::abs(d.z()) > 0.01);
      }
      if (type == "UNIVERSAL") CHECK(std::abs(R.col(0).dot(Vec3::UnitY())) < tol);
      if (type == "POINT_LINE") CHECK(std::hypot(d.y(), d.z()) < tol);
      if (type == "POINT_PLANE") CHECK(std::abs(d.z()) < tol);
    }
  }
}

// ---- placement, prefixes and errors -------------------------------------------------------------

TEST_CASE("lowering: a model file included twice with prefixes and placements") {
  TempDir dir;
  dir.write("slider_crank.yaml", kSliderCrank);
  auto scenario = Scenario::load(dir.write("two.yaml", R"(hopsim: 1
simulation: {end_time: 0.5, time_step: 0.001}
include:
  - {file: slider_crank.yaml, name: left, prefix: "L_"}
  - {file: slider_crank.yaml, name: right, prefix: "R_", location: [0, 10, 0], orientation: [0.7071067811865476, 0, 0, 0.7071067811865476]}
)"));
  scenario->run();
  const Simulation& sim = scenario->sim();
  const double phi = 1.0;  // 2 rad/s for 0.5 s
  const double x = std::cos(phi) + std::sqrt(9.0 - std::sin(phi) * std::sin(phi));
  CHECK(element(sim, "signals.left.bodies.slider.position", 0) == doctest::Approx(x).epsilon(1e-9));
  // The right copy is turned 90° about z and moved 10 m along y: its x axis is the world's y.
  CHECK(element(sim, "signals.right.bodies.slider.position", 0) ==
        doctest::Approx(0.0).epsilon(1e-9));
  CHECK(element(sim, "signals.right.bodies.slider.position", 1) ==
        doctest::Approx(10.0 + x).epsilon(1e-9));
  CHECK(sim.multibody().model().bodyIndex("L_crank") > 0);
  CHECK(sim.multibody().model().bodyIndex("R_crank") > 0);
}

TEST_CASE("lowering: a position motor that cannot be a tree hinge is an error at its entry") {
  TempDir dir;
  const std::string file = dir.write("free_motor.yaml", R"(chrono-version: 10.0
model:
  bodies:
    - {name: ground, location: [0, 0, 0], fixed: true}
    - {name: b, location: [0, 0, 0], mass: 1, inertia: {moments: [1, 1, 1]}}
  motors:
    - name: m
      type: ROTATION
      spindle: FREE
      body1: b
      body2: ground
      location: [0, 0, 0]
      axis: [0, 0, 1]
      actuation_type: POSITION
      actuation_function: {type: CONSTANT, value: 0}
)");
  try {
    Scenario::load(file);
    FAIL("expected an error");
  } catch (const InputError& e) {
    const std::string message = e.what();
    CHECK(message.find("free_motor.yaml:7:") != std::string::npos);
    CHECK(message.find("motor 'm'") != std::string::npos);
    CHECK(message.find("FREE") != std::string::npos);
  }
}

TEST_CASE("lowering: items between two fixed bodies warn at their entry and act on nothing") {
  TempDir dir;
  const std::string file = dir.write("grounded.yaml", R"(chrono-version: 10.0
model:
  bodies:
    - {name: ground, location: [0, 0, 0], fixed: true}
    - {name: wall, location: [1, 0, 0], fixed: true}
    - {name: b, location: [0, 0, 1], mass: 1, inertia: {moments: [1, 1, 1]}}
  joints:
    - {name: weld, type: LOCK, body1: ground, body2: wall, location: [0, 0, 0]}
  tsdas:
    - {name: s, body1: ground, body2: wall, point1: [0, 0, 0], point2: [1, 0, 0],
       free_length: 1, spring_coefficient: 10}
  rsdas:
    - {name: r, body1: wall, body2: ground, axis: [0, 0, 1], free_angle: 0,
       spring_coefficient: 1}
  motors:
    - {name: m, type: ROTATION, body1: ground, body2: wall, location: [0, 0, 0], axis: [0, 0, 1],
       actuation_type: POSITION, actuation_function: {type: CONSTANT, value: 0}}
)");
  auto scenario = Scenario::load(file, {"simulation.end_time=0.5"});
  const auto warned = [&](const std::string& what, const std::string& line) {
    for (const std::string& w : scenario->warnings()) {
      if (w.find("grounded.yaml:" + line + ":") != std::string::npos &&
          w.find(what + " joins two fixed bodies") != std::string::npos) {
        return true;
      }
    }
    return false;
  };
  CHECK(warned("joint 'weld'", "8"));
  CHECK(warned("TSDA 's'", "10"));
  CHECK(warned("RSDA 'r'", "13"));
  CHECK(warned("motor 'm'", "16"));
  scenario->run();
  // The free body falls as if nothing else were there.
  CHECK(sampleAt(scenario->recorder(), "bodies.b.position.z", 0.5) ==
        doctest::Approx(1.0 - 0.5 * 9.8 * 0.25).epsilon(1e-12));
}

// ---- every project file runs
// ----------------------------------------------------------------------

TEST_CASE("lowering: every project Chrono and MBSE file, and every hand-written model file, runs") {
  std::vector<std::string> files;
  for (const char* folder : {"chrono", "mbse"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dataFile(folder))) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() == 22);
  // The hand-written model files of the fuzz corpus use every key of the model spec (every
  // joint, constraint, TSDA and RSDA law, motor, function, load, bushing, contact data).
  std::size_t handWritten = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(HOPSIM_SOURCE_DIR) +
                                                               "/tests/fuzz/corpus/chrono")) {
    if (entry.path().filename().string().starts_with("model_")) {
      files.push_back(entry.path().string());
      ++handWritten;
    }
  }
  CHECK(handWritten >= 7);
  for (const std::string& file : files) {
    // Run on its own, a model file gets rk4 at 1 ms, where this one's bushing (3.2e4 rad/s)
    // diverges; its simulation file, stiff_pendulum.yaml, runs it with implicit Euler.
    if (file.ends_with("stiff_pendulum_model.yaml")) {
      CHECK_THROWS_AS(Scenario::load(file, {"simulation.end_time=0.2"})->run(), NumericalError);
      continue;
    }
    testing::checkFileRuns(file);
  }
}

}  // namespace
}  // namespace hopsim
