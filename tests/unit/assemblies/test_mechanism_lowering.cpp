// Chrono and MBSE files lowered and simulated, against analytic solutions, an independent
// planar formulation and the definitions of the joints.

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
#include "hopsim/core/recorder.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"
#include "mechanism_test_util.h"

#ifndef HOPSIM_SHARED_DATA_DIR
#error "HOPSIM_SHARED_DATA_DIR must name ../shared/data (tests/CMakeLists.txt defines it)"
#endif

namespace hopsim {
namespace {

using testing::element;
using testing::TempDir;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

std::string shared(const std::string& relative) {
  return std::string(HOPSIM_SHARED_DATA_DIR) + "/" + relative;
}

double sampleAt(const Recorder& r, const std::string& column, double t) {
  const std::vector<double>& times = r.times();
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (std::abs(times[i] - t) < 1e-9) return r.values(r.column(column))[i];
  }
  FAIL("no sample at t = " << t);
  return 0.0;
}

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

// ---- the MBSE four-bar against a natural-coordinate reference -----------------------------------

/// fourbars1.yaml in MBSE's own natural coordinates q = [x1, y1, x2, y2] (points 0 and 3 fixed
/// at (0, 0) and (4, 0)), with the mass matrix of each two-point body and |r_b - r_a|² = L²
/// constraints, integrated by RK4 at 1e-4 s with projection: independent of the tree engine.
class FourBarReference {
 public:
  FourBarReference() {
    bodies_ = {Body{0, 1, 1.0, 1.0, 1.0 / 3.0}, Body{1, 2, 2.0, 2.0, 2.0 * 4.0 / 3.0},
               Body{2, 3, std::sqrt(13.0), 4.0, 4.0 * 13.0 / 3.0}};
    q_ << 1.0, 0.0, 1.0, 2.0;
    v_.setZero();
  }
  void advance(double duration) {
    const double h = 1e-4;
    const int n = static_cast<int>(std::lround(duration / h));
    for (int i = 0; i < n; ++i) step(h);
  }
  Eigen::Vector2d point(int k) const { return position(q_, k); }

 private:
  struct Body {
    int a, b;       // point indices
    double length;  // m
    double mass;    // kg
    double i0;      // kg m², about point a
  };
  using Vec4 = Eigen::Vector4d;

  static Eigen::Vector2d position(const Vec4& q, int k) {
    if (k == 0) return {0.0, 0.0};
    if (k == 3) return {4.0, 0.0};
    return q.segment<2>(2 * (k - 1));
  }
  static int slot(int k) { return k == 1 ? 0 : k == 2 ? 2 : -1; }

  void constraints(const Vec4& q, Eigen::Vector3d& phi, Eigen::Matrix<double, 3, 4>& J) const {
    J.setZero();
    for (int c = 0; c < 3; ++c) {
      const Body& body = bodies_[static_cast<std::size_t>(c)];
      const Eigen::Vector2d d = position(q, body.b) - position(q, body.a);
      phi[c] = d.squaredNorm() - body.length * body.length;
      if (slot(body.b) >= 0) J.block<1, 2>(c, slot(body.b)) += 2.0 * d.transpose();
      if (slot(body.a) >= 0) J.block<1, 2>(c, slot(body.a)) -= 2.0 * d.transpose();
    }
  }

  Vec4 acceleration(const Vec4& q, const Vec4& v) const {
    Eigen::Matrix4d M = Eigen::Matrix4d::Zero();
    Vec4 Q = Vec4::Zero();
    const Eigen::Vector2d g(0.0, -9.81);
    for (const Body& body : bodies_) {
      // cog (L/2, 0): a = L/2, b = 0 in B3's formulas.
      const double L = body.length, m = body.mass, a = L / 2.0;
      const double m00 = m - 2.0 * m * a / L + body.i0 / (L * L);
      const double m11 = body.i0 / (L * L);
      const double m01 = m * a / L - body.i0 / (L * L);
      const int sa = slot(body.a), sb = slot(body.b);
      const auto add = [&M](int r, int c, double value) {
        if (r >= 0 && c >= 0) M.block<2, 2>(r, c) += value * Eigen::Matrix2d::Identity();
      };
      add(sa, sa, m00);
      add(sb, sb, m11);
      add(sa, sb, m01);
      add(sb, sa, m01);
      if (sa >= 0) Q.segment<2>(sa) += (1.0 - a / L) * m * g;
      if (sb >= 0) Q.segment<2>(sb) += (a / L) * m * g;
    }
    Eigen::Vector3d phi;
    Eigen::Matrix<double, 3, 4> J;
    constraints(q, phi, J);
    Eigen::Vector3d gamma;
    for (int c = 0; c < 3; ++c) {
      const Body& body = bodies_[static_cast<std::size_t>(c)];
      const Eigen::Vector2d dv = (slot(body.b) >= 0 ? v.segment<2>(slot(body.b)).eval()
                                                    : Eigen::Vector2d::Zero()) -
                                 (slot(body.a) >= 0 ? v.segment<2>(slot(body.a)).eval()
                                                    : Eigen::Vector2d::Zero());
      gamma[c] = -2.0 * dv.squaredNorm();
    }
    Eigen::Matrix<double, 7, 7> K = Eigen::Matrix<double, 7, 7>::Zero();
    K.topLeftCorner<4, 4>() = M;
    K.topRightCorner<4, 3>() = J.transpose();
    K.bottomLeftCorner<3, 4>() = J;
    Eigen::Matrix<double, 7, 1> rhs;
    rhs << Q, gamma;
    return K.fullPivLu().solve(rhs).head<4>();
  }

  void step(double h) {
    const auto f = [this](const Vec4& q, const Vec4& v) { return acceleration(q, v); };
    const Vec4 a1 = f(q_, v_);
    const Vec4 a2 = f(q_ + 0.5 * h * v_, v_ + 0.5 * h * a1);
    const Vec4 a3 = f(q_ + 0.5 * h * (v_ + 0.5 * h * a1), v_ + 0.5 * h * a2);
    const Vec4 a4 = f(q_ + h * (v_ + 0.5 * h * a2), v_ + h * a3);
    q_ += h * v_ + h * h / 6.0 * (a1 + a2 + a3);
    v_ += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    // Project onto the constraints (minimum-norm corrections).
    Eigen::Vector3d phi;
    Eigen::Matrix<double, 3, 4> J;
    for (int k = 0; k < 5; ++k) {
      constraints(q_, phi, J);
      q_ -= J.transpose() * (J * J.transpose()).ldlt().solve(phi);
    }
    constraints(q_, phi, J);
    v_ -= J.transpose() * (J * J.transpose()).ldlt().solve(J * v_);
  }

  std::array<Body, 3> bodies_;
  Vec4 q_;
  Vec4 v_;
};

TEST_CASE("lowering: the MBSE four-bar keeps its loop closed and matches a planar reference") {
  auto scenario = Scenario::load(shared("mbse-examples/fourbars1.yaml"),
                                 {"simulation.end_time=2"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  FourBarReference reference;
  double previous = 0.0;
  for (double t : {0.5, 1.0, 1.5, 2.0}) {
    reference.advance(t - previous);
    previous = t;
    CAPTURE(t);
    for (int k : {1, 2}) {
      CAPTURE(k);
      const std::string base = "points." + std::to_string(k) + ".position.";
      // Both integrate smooth motion with RK4 (1e-3 s against 1e-4 s): their difference is
      // far below 1e-6 m over 2 s of a ~1 m mechanism.
      CHECK(sampleAt(r, base + "x", t) == doctest::Approx(reference.point(k).x()).epsilon(1e-6));
      CHECK(sampleAt(r, base + "y", t) == doctest::Approx(reference.point(k).y()).epsilon(1e-6));
    }
    // The loop stays closed: the coupler keeps its 2 m and the rocker its sqrt(13) m.
    const Eigen::Vector2d p1(sampleAt(r, "points.1.position.x", t),
                             sampleAt(r, "points.1.position.y", t));
    const Eigen::Vector2d p2(sampleAt(r, "points.2.position.x", t),
                             sampleAt(r, "points.2.position.y", t));
    CHECK((p2 - p1).norm() == doctest::Approx(2.0).epsilon(1e-10));
    CHECK((p2 - Eigen::Vector2d(4.0, 0.0)).norm() == doctest::Approx(std::sqrt(13.0)).epsilon(1e-10));
    CHECK(p1.norm() == doctest::Approx(1.0).epsilon(1e-10));
  }
  // It moved: the crank fell from the horizontal (slowly: the coupler starts near a toggle, and
  // the reference says y1(2 s) = -0.022 m).
  CHECK(sampleAt(r, "points.1.position.y", 2.0) < -0.01);
}

TEST_CASE("lowering: an MBSE relative coordinate is the unwrapped angle of its two points") {
  auto scenario = Scenario::load(shared("mbse-examples/fourbars1-with-rel-angle.yaml"),
                                 {"simulation.end_time=3"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto& angle = r.values(r.column("relative_coordinates.0.angle"));
  const auto& x0 = r.values(r.column("points.0.position.x"));
  const auto& y0 = r.values(r.column("points.0.position.y"));
  const auto& x1 = r.values(r.column("points.1.position.x"));
  const auto& y1 = r.values(r.column("points.1.position.y"));
  CHECK(angle.front() == 0.0);  // the crank starts along +X
  for (std::size_t k = 0; k < angle.size(); ++k) {
    CAPTURE(k);
    const double direction = std::atan2(y1[k] - y0[k], x1[k] - x0[k]);
    CHECK(std::abs(std::remainder(angle[k] - direction, 2.0 * std::numbers::pi)) < 1e-12);
    if (k > 0) CHECK(std::abs(angle[k] - angle[k - 1]) < 0.5);  // continuous: no 2π jumps
  }
  // The crank swings past -π within 3 s, where atan2 jumps to +π and the angle must not.
  CHECK(*std::min_element(angle.begin(), angle.end()) < -std::numbers::pi);
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
  s += "    - {name: j, type: " + std::string(c.type) + ", body1: " +
       (reversed ? "ground, body2: b" : "b, body2: ground") +
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
      const auto pose = [&r](double t) {
        const auto at = [&](const std::string& column) {
          return sampleAt(r, "bodies.b." + column, t);
        };
        const Vec3 p(at("position.x"), at("position.y"), at("position.z"));
        const spatial::Quaternion q(at("orientation.e0"), at("orientation.e1"),
                                    at("orientation.e2"), at("orientation.e3"));
        return spatial::RigidTransform::fromQuaternion(q, p);
      };
      const spatial::RigidTransform X_WB0 = pose(0.0);
      const spatial::RigidTransform X_WB = pose(1.0);
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
  CHECK(element(sim, "signals.right.bodies.slider.position", 0) == doctest::Approx(0.0).epsilon(1e-9));
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

// ---- every shared model file runs ---------------------------------------------------------------

TEST_CASE("lowering: every Chrono and MBSE example file, and every hand-written model file, runs") {
  std::vector<std::string> files;
  for (const char* folder : {"chrono-examples/mbs", "chrono-examples/precice/sphere_drop",
                             "chrono-examples/precice/flap_openfoam", "mbse-examples"}) {
    for (const auto& entry : std::filesystem::directory_iterator(shared(folder))) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 16);
  // The hand-written model files of the fuzz corpus use every key of the model spec (every
  // joint, constraint, TSDA and RSDA law, motor, function, load, bushing, contact data).
  std::size_t handWritten = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(HOPSIM_SOURCE_DIR) + "/tests/fuzz/corpus/chrono")) {
    if (entry.path().filename().string().starts_with("model_")) {
      files.push_back(entry.path().string());
      ++handWritten;
    }
  }
  CHECK(handWritten >= 10);
  for (const std::string& file : files) {
    CAPTURE(file);
    if (file.find("solver_") != std::string::npos) {
      CHECK_THROWS_WITH_AS(Scenario::load(file), doctest::Contains("describes no model"),
                           InputError);
      continue;
    }
    auto scenario = Scenario::load(file, {"simulation.end_time=0.2"});
    scenario->run();
    const Recorder& r = scenario->recorder();
    REQUIRE(r.rows() > 1);
    for (std::size_t c = 1; c < r.columns().size(); ++c) {
      for (double v : r.values(c)) REQUIRE(std::isfinite(v));
    }
  }
}

}  // namespace
}  // namespace hopsim
