// The multibody system in a simulation: Q and U in X, the DartsModel family's inputs and
// outputs, masked coordinates, run-time mass changes, quaternion renormalization, rollback,
// tree edits between locks and the errors of misuse. References are closed-form motions and
// conserved quantities.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <tuple>

#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/signals/error.h"
#include "multibody_test_models.h"

namespace hopsim::test {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

constexpr double kG = 9.81;

SpatialInertia pointMass(double m, const Vector3& cm) {
  return SpatialInertia::fromCmInertia(m, cm, 1e-3 * Matrix3::Identity());
}

// A pendulum of two PIN bodies about x, each a point-like mass 1 kg at 1 m below its hinge.
void addDoublePendulum(Simulation& sim) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  const auto upper =
      tree.addBody("upper", kWorldBody, pointMass(1.0, {0, 0, -1}), Hinge::pin(Vector3::UnitX()));
  tree.addBody("lower", upper, pointMass(1.0, {0, 0, -1}), Hinge::pin(Vector3::UnitX()),
               RigidTransform::fromTranslation({0, 0, -1}));
}

// Variable-step tolerances; the other options at their defaults.
IntegratorOptions tolerances(double relative, double absolute) {
  IntegratorOptions options;
  options.relativeTolerance = relative;
  options.absoluteTolerance = absolute;
  return options;
}

double totalEnergy(const MultibodySystem& mb) {
  multibody::MultibodyData data(mb.model());
  multibody::computeEnergyAndMomentum(mb.model(), data, mb.q(), mb.u());
  return data.kineticEnergy + data.potentialEnergy;
}

// data()'s kinematics are those of the current Q and U, bit for bit: what a fresh
// forwardKinematics gives.
void checkKinematicsCurrent(const MultibodySystem& mb) {
  multibody::MultibodyData fresh(mb.model());
  multibody::forwardKinematics(mb.model(), fresh, mb.q(), mb.u());
  for (int b = 1; b < mb.model().bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    CHECK(mb.data().X_WB[i].rotation() == fresh.X_WB[i].rotation());
    CHECK(mb.data().X_WB[i].translation() == fresh.X_WB[i].translation());
    CHECK(mb.data().V_WB_B[i].vector() == fresh.V_WB_B[i].vector());
  }
}

/// Counts its preDeriv calls and reads nothing: a model there makes the executive compute the
/// kinematics before preDeriv, in a pass of their own, rather than in the dynamics' pass.
class PreDerivCounter final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("PreDerivCounter", ModelKind::Continuous, "counts preDeriv") {}
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit PreDerivCounter(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void preDeriv(double) override { ++calls; }
  int calls = 0;
};

}  // namespace

TEST_CASE(
    "multibody in a simulation: with nothing reading the kinematics before the dynamics, "
    "one pass computes both, with the same motion bit for bit") {
  const auto run = [](bool reader) {
    Simulation sim({.ioStepSize = 0.01, .integrationSteps = 2, .integrator = "rk4"});
    addDoublePendulum(sim);
    sim.multibody().q().setConstant(0.4);
    const PreDerivCounter* counter = reader ? &sim.addModel<PreDerivCounter>("reader") : nullptr;
    sim.lock();
    for (int k = 0; k < 50; ++k) sim.step();
    checkKinematicsCurrent(sim.multibody());
    if (counter != nullptr) CHECK(counter->calls == 50 * 2 * 4);
    return std::tuple(Eigen::VectorXd(sim.multibody().q()), Eigen::VectorXd(sim.multibody().u()),
                      sim.multibody().kinematicsEvaluations());
  };
  const auto [q, u, kinematics] = run(false);
  const auto [qReader, uReader, kinematicsReader] = run(true);
  CHECK(q == qReader);
  CHECK(u == uReader);
  // The same number of distinct states, whoever computes their kinematics.
  CHECK(kinematics == kinematicsReader);
}

TEST_CASE(
    "multibody in a simulation: each distinct Q and U has its kinematics computed once, "
    "and data() holds the current state's between hops") {
  SUBCASE("a double pendulum, rk4 with two sub-steps per hop") {
    Simulation sim({.ioStepSize = 0.01, .integrationSteps = 2, .integrator = "rk4"});
    addDoublePendulum(sim);
    sim.multibody().q().setConstant(0.4);
    sim.lock();
    sim.step();
    const std::uint64_t before = sim.multibody().kinematicsEvaluations();
    for (int k = 0; k < 20; ++k) {
      sim.step();
      checkKinematicsCurrent(sim.multibody());
    }
    // Per sub-step: rk4's stages 2 to 4 and the end state. The nine sweeps and evaluations that
    // ask for kinematics see only those four states.
    CHECK(sim.multibody().kinematicsEvaluations() - before == 20 * 2 * 4);
  }
  SUBCASE("samples inside hops evaluate in a workspace that is put back") {
    Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
    addDoublePendulum(sim);
    sim.multibody().q().setConstant(0.4);
    int samples = 0;
    sim.addSampler(0.0025, [&](Simulation& s, double) {
      ++samples;
      checkKinematicsCurrent(s.multibody());
    });
    sim.lock();
    for (int k = 0; k < 20; ++k) {
      sim.step();
      checkKinematicsCurrent(sim.multibody());
    }
    CHECK(samples == 81);
  }
  SUBCASE("a slider-crank: the constraint projection computes kinematics at trial Q") {
    Simulation sim(
        {.ioStepSize = 0.01, .integrator = "rkf45", .integratorOptions = tolerances(1e-9, 1e-12)});
    auto& tree = sim.multibody().editModel();
    tree.setGravity({0, -kG, 0});
    const SpatialInertia link =
        SpatialInertia::fromCmInertia(1.0, {0.25, 0, 0}, Vector3(1e-4, 0.02, 0.02).asDiagonal());
    const auto crank = tree.addBody("crank", kWorldBody, link, Hinge::pin(Vector3::UnitZ()));
    const auto rod = tree.addBody("rod", crank, link, Hinge::pin(Vector3::UnitZ()),
                                  RigidTransform::fromTranslation({0.3, 0, 0}));
    const auto slider = tree.addBody("slider", kWorldBody, pointMass(0.5, Vector3::Zero()),
                                     Hinge::slider(Vector3::UnitX()));
    sim.multibody().editConstraints().addCutJoint("wrist", Hinge::pin(Vector3::UnitZ()), rod,
                                                  RigidTransform::fromTranslation({0.5, 0, 0}),
                                                  slider, RigidTransform());
    sim.multibody().q(slider)[0] = 0.8;
    sim.multibody().u(crank)[0] = 1.0;
    sim.multibody().u(rod)[0] = -0.6;
    sim.multibody().u(slider)[0] = 0.0;
    sim.lock();
    for (int k = 0; k < 30; ++k) {
      sim.step();
      checkKinematicsCurrent(sim.multibody());
    }
  }
}

TEST_CASE("multibody in a simulation: Q and U join X and a pendulum swings") {
  Simulation sim(
      {.ioStepSize = 0.01, .integrator = "rkf45", .integratorOptions = tolerances(1e-11, 1e-12)});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  tree.addBody("arm", kWorldBody, pointMass(2.0, {0, 0, -0.5}), Hinge::pin(Vector3::UnitX()));
  sim.multibody().q()[0] = 1e-4;  // small angle: period 2π√(I/(m g c))
  sim.lock();
  CHECK(sim.stateNames() ==
        std::vector<std::string>{"multibody.bodies.arm.Q[0]", "multibody.bodies.arm.U[0]"});
  const double I = 2.0 * 0.25 + 1e-3;
  const double period = 2 * M_PI * std::sqrt(I / (2.0 * kG * 0.5));
  sim.advanceTimeTo(std::round(period * 100) / 100);  // on the I/O grid, within 5 ms
  const double phase = 2 * M_PI * (std::round(period * 100) / 100) / period;
  CHECK(sim.multibody().q()[0] == doctest::Approx(1e-4 * std::cos(phase)).epsilon(1e-6));
  CHECK(std::get<double>(sim.get("multibody.bodies.arm.Q")) == sim.multibody().q()[0]);
}

TEST_CASE("multibody in a simulation: a double pendulum conserves energy to 1e-9 over 100 s") {
  // cvode (Adams, the non-stiff method) at rtol 1e-12: the acceptance bound, 1e-9 of
  // the energy.
  IntegratorOptions options = tolerances(1e-12, 1e-12);
  options.maxStepsPerAdvance = 1000000;
  options.multistep = MultistepMethod::Adams;
  Simulation sim({.ioStepSize = 1.0, .integrator = "cvode", .integratorOptions = options});
  addDoublePendulum(sim);
  sim.multibody().q() << 1.2, -0.7;
  sim.multibody().u() << 0.3, 0.0;
  sim.lock();
  const double E0 = totalEnergy(sim.multibody());
  double worst = 0.0;
  for (int k = 0; k < 100; ++k) {
    sim.advanceTimeBy(1.0);
    worst = std::max(worst, std::abs(totalEnergy(sim.multibody()) - E0) / std::abs(E0));
  }
  MESSAGE("double pendulum: worst relative energy error over 100 s = " << worst);
  CHECK(worst < 1e-9);
}

TEST_CASE(
    "multibody in a simulation: an actuator's force accelerates at F/m, then 2F/m after "
    "the mass is halved between hops") {
  Simulation sim({.ioStepSize = 0.1, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  const auto body =
      tree.addBody("box", kWorldBody, pointMass(4.0, Vector3::Zero()), Hinge::full6Dof());
  tree.addNode("center", body, RigidTransform());
  auto& thruster = sim.addModel<ConstantForce>("thruster");
  thruster.attachToNode("center");
  sim.set("models.thruster.params.force", std::vector<double>{2.0, 0.0, 0.0});
  sim.lock();
  // The box does not rotate, so U's linear part (in the body frame) is the world velocity.
  sim.advanceTimeTo(1.0);
  CHECK(sim.multibody().u()[3] == doctest::Approx(0.5).epsilon(1e-14));  // F/m t
  sim.multibody().setMassProperties(body, pointMass(2.0, Vector3::Zero()));
  CHECK(sim.multibody().u()[3] == doctest::Approx(0.5).epsilon(1e-14));  // U unchanged
  sim.advanceTimeTo(2.0);
  CHECK(sim.multibody().u()[3] == doctest::Approx(1.5).epsilon(1e-13));  // + 2F/m · 1 s
}

TEST_CASE(
    "multibody in a simulation: a mass change inside maskedCoordinates acts at once and "
    "a moved CM changes the gravity torque") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  const auto arm =
      tree.addBody("arm", kWorldBody, pointMass(1.0, {0, 0.5, 0}), Hinge::pin(Vector3::UnitX()));
  sim.addModel(std::make_unique<MassChanger>("tank", "arm", 0.05, pointMass(1.0, {0, 1.0, 0})));
  auto& encoder = sim.addModel<HingeDrive>("encoder");
  encoder.attachToHinge("arm");
  sim.lock();
  // Horizontal arm at rest: θ̈ = -m g c / (I + m c²) about x (CM along +y, gravity along -z
  // gives a torque -m g c about x).
  sim.advanceTimeTo(0.01);
  CHECK(encoder.udot[0] == doctest::Approx(-kG * 0.5 / (1e-3 + 0.25)).epsilon(1e-3));
  sim.advanceTimeTo(0.06);
  CHECK(encoder.udot[0] == doctest::Approx(-kG * 1.0 / (1e-3 + 1.0)).epsilon(1e-3));
  (void)arm;
}

TEST_CASE("multibody in a simulation: a motor's torque and an encoder's readings") {
  Simulation sim({.ioStepSize = 0.1, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.addBody("wheel", kWorldBody,
               SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Matrix3::Identity() * 0.5),
               Hinge::pin(Vector3::UnitZ()));
  auto& motor = sim.addModel<HingeDrive>("motor");
  motor.attachToHinge("wheel", 0);
  sim.set("models.motor.params.f", 1.0);
  sim.lock();
  sim.advanceTimeTo(1.0);
  // θ̈ = τ / I = 2: θ = t², θ̇ = 2 t (rk4 is exact on this polynomial).
  CHECK(sim.multibody().q()[0] == doctest::Approx(1.0).epsilon(1e-13));
  CHECK(sim.multibody().u()[0] == doctest::Approx(2.0).epsilon(1e-13));
  CHECK(motor.udot[0] == doctest::Approx(2.0).epsilon(1e-13));
  CHECK(motor.force[0] == 1.0);
}

TEST_CASE(
    "multibody in a simulation: a sensor reads a falling node's true acceleration g and "
    "a spinning node's centripetal acceleration") {
  Simulation sim({.ioStepSize = 0.1, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  const auto ball =
      tree.addBody("ball", kWorldBody, pointMass(1.0, Vector3::Zero()), Hinge::full6DofInertial());
  tree.addNode("imu", ball, RigidTransform::fromTranslation({0.3, 0, 0}));
  const auto rotor = tree.addBody("rotor", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                  Hinge::pin(Vector3::UnitZ()));
  tree.addNode("rim", rotor, RigidTransform::fromTranslation({0.5, 0, 0}));
  auto& imu = sim.addModel<NodeProbe>("imu");
  imu.attachToNode("imu");
  auto& rim = sim.addModel<NodeProbe>("rim");
  rim.attachToNode("rim");
  sim.multibody().u(ball) << 0.0, 0.0, 0.0, 1.0, 0.0, 0.0;
  sim.multibody().u(rotor)[0] = 3.0;
  sim.lock();
  sim.advanceTimeTo(0.5);
  CHECK((imu.acceleration.translational() - Vector3(0, 0, -kG)).norm() < 1e-12);
  CHECK(imu.acceleration.rotational().norm() < 1e-12);
  // Uniform spin at 3 rad/s: a = -ω² r toward the axis, |a| = 9 · 0.5.
  const Vector3 r = rim.pose.translation();
  CHECK(r.norm() == doctest::Approx(0.5).epsilon(1e-12));
  CHECK((rim.acceleration.translational() + 9.0 * r).norm() < 1e-12);
  CHECK((rim.velocity.translational() - Vector3(0, 0, 3.0).cross(r)).norm() < 1e-12);
}

TEST_CASE(
    "multibody in a simulation: masked coordinates follow their model and the dynamics "
    "returns the torque the motion needs") {
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  const double m = 2.0, c = 0.5, Icm = 0.01;
  const auto arm = tree.addBody(
      "arm", kWorldBody, SpatialInertia::fromCmInertia(m, {0, 0, -c}, Matrix3::Identity() * Icm),
      Hinge::pin(Vector3::UnitX()));
  sim.multibody().setMasked(arm, 0, true);
  auto& drive = sim.addModel<SinePin>("drive");
  drive.attachToHinge("arm");
  sim.lock();
  CHECK(sim.stateCount() == 0);
  sim.advanceTimeTo(0.73);
  const double a = 0.5, w = 2.0, t = drive.time;
  const double theta = a * std::sin(w * t), thetaDdot = -a * w * w * std::sin(w * t);
  CHECK(sim.multibody().q()[0] == doctest::Approx(a * std::sin(w * 0.73)).epsilon(1e-14));
  // τ = (I_cm + m c²) θ̈ + m g c sin θ.
  CHECK(
      drive.force ==
      doctest::Approx((Icm + m * c * c) * thetaDdot + m * kG * c * std::sin(theta)).epsilon(1e-12));
}

TEST_CASE("multibody in a simulation: quaternions stay unit after every step") {
  // rk4 projects after each of its steps (the sub-steps), rkf45 and cvode after each accepted
  // internal step.
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.05, .integrator = integrator});
    auto& tree = sim.multibody().editModel();
    const auto body = tree.addBody(
        "tumbler", kWorldBody,
        SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Vector3(1.0, 2.0, 3.0).asDiagonal()),
        Hinge::ball());
    sim.multibody().u(body) << 0.1, 3.0, 0.2;  // near the unstable intermediate axis
    sim.lock();
    for (int k = 0; k < 200; ++k) {
      sim.step();
      CHECK(std::abs(sim.multibody().q(body).norm() - 1.0) < 4e-16);
    }
  }
}

TEST_CASE("multibody in a simulation: a zero crossing on Q is located and rolls Q and U back") {
  Simulation sim(
      {.ioStepSize = 0.1, .integrator = "rkf45", .integratorOptions = tolerances(1e-12, 1e-14)});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  tree.addBody("drop", kWorldBody, pointMass(1.0, Vector3::Zero()),
               Hinge::slider(Vector3::UnitZ()));
  sim.multibody().q()[0] = 2.0;
  double landed = -1.0, speed = 0.0;
  sim.registerZeroCrossing(
      "floor", [](Simulation& s, double) { return s.multibody().q()[0]; },
      CrossingDirection::Falling,
      [&](Simulation& s, double t) {
        landed = t;
        speed = s.multibody().u()[0];
        s.requestStop();
      });
  sim.lock();
  sim.advanceTimeTo(5.0);
  CHECK(landed == doctest::Approx(std::sqrt(2 * 2.0 / kG)).epsilon(1e-9));
  CHECK(speed == doctest::Approx(-std::sqrt(2 * kG * 2.0)).epsilon(1e-9));
}

TEST_CASE("multibody in a simulation: bodies added between locks keep the others' Q and U") {
  Simulation sim({.ioStepSize = 0.1, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.addBody("a", kWorldBody, pointMass(1.0, Vector3::Zero()), Hinge::slider(Vector3::UnitX()));
  sim.multibody().u()[0] = 1.0;
  sim.lock();
  sim.advanceTimeTo(1.0);
  CHECK_THROWS_AS(sim.multibody().editModel(), ModelError);
  sim.unlock();
  sim.multibody().editModel().addBody("b", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                      Hinge::ball());
  CHECK(sim.multibody().q().size() == 5);
  CHECK(sim.multibody().q()[0] == doctest::Approx(1.0));
  CHECK(sim.multibody().q()[1] == 1.0);  // the new BALL starts at the identity quaternion
  sim.lock();
  CHECK(sim.stateCount() == 2 + 4 + 3);
  sim.advanceTimeTo(2.0);
  CHECK(sim.multibody().q()[0] == doctest::Approx(2.0));

  // Removing the first body moves the second to the front of Q; its values go with it.
  sim.unlock();
  sim.multibody().q(2) << 0.0, 1.0, 0.0, 0.0;  // a half turn about x
  sim.multibody().editModel().removeBody(1);
  sim.lock();
  CHECK(sim.stateNames().front() == "multibody.bodies.b.Q[0]");
  CHECK(sim.multibody().q() == Eigen::Vector4d(0.0, 1.0, 0.0, 0.0));
  CHECK_THROWS_AS(sim.get("multibody.bodies.a.Q"), InputError);  // its variables went too
}

TEST_CASE("multibody in a simulation: misuse is an error that names the model and the fix") {
  Simulation sim;
  auto& tree = sim.multibody().editModel();
  const auto body =
      tree.addBody("box", kWorldBody, pointMass(1.0, Vector3::Zero()), Hinge::gimbal());
  tree.addNode("nozzle", body, RigidTransform());
  auto& thruster = sim.addModel<ConstantForce>("thruster");
  CHECK_THROWS_WITH_AS(
      sim.lock(), doctest::Contains("is attached to no node; call attachToNode(name)"), ModelError);
  CHECK(!sim.locked());
  thruster.attachToNode("nozle");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("'nozle', which does not exist"), ModelError);
  thruster.attachToNode("nozzle");
  auto& motor = sim.addModel<HingeDrive>("motor");
  motor.attachToHinge("box", 3);
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("GIMBAL hinge has 3 subhinges"), ModelError);
  motor.attachToHinge("box", 1);
  CHECK_THROWS_AS(sim.multibody().setMasked(body, 5, true), InputError);
  sim.lock();
  CHECK_THROWS_AS(sim.multibody().setMasked(body, 0, true), ModelError);
  CHECK_THROWS_WITH_AS(sim.multibody().setPrescribedAcceleration(0, 1.0),
                       doctest::Contains("U entry 0 is free"), InputError);
}

TEST_CASE("multibody in a simulation: a checkpoint restores Q, U and mass properties bit for bit") {
  const auto build = [](Simulation& sim) {
    addDoublePendulum(sim);
    sim.multibody().q() << 1.0, 0.5;
    sim.lock();
  };
  const std::string file = "multibody_checkpoint.txt";
  Simulation straight({.ioStepSize = 0.01, .integrator = "rkf45"});
  build(straight);
  straight.advanceTimeTo(1.0);
  straight.multibody().setMassProperties(2, pointMass(0.5, {0, 0, -0.8}));
  straight.saveCheckpoint(file);
  straight.advanceTimeTo(2.0);

  Simulation resumed({.ioStepSize = 0.01, .integrator = "rkf45"});
  build(resumed);
  resumed.restoreCheckpoint(file);
  CHECK(resumed.multibody().model().massProperties(2).mass() == 0.5);
  resumed.advanceTimeTo(2.0);
  CHECK(resumed.multibody().q() == straight.multibody().q());
  CHECK(resumed.multibody().u() == straight.multibody().u());

  Simulation other({.ioStepSize = 0.01, .integrator = "rkf45"});
  other.multibody().editModel().addBody("solo", kWorldBody, pointMass(1.0, Vector3::Zero()),
                                        Hinge::pin(Vector3::UnitX()));
  other.lock();
  CHECK_THROWS_WITH_AS(other.restoreCheckpoint(file), doctest::Contains("body count"), InputError);
  std::remove(file.c_str());
}

TEST_CASE(
    "multibody in a simulation: a slider-crank driven at constant crank speed follows "
    "x(θ) = r cos θ + √(l² − r² sin² θ) to 1e-8") {
  Simulation sim(
      {.ioStepSize = 0.01, .integrator = "rkf45", .integratorOptions = tolerances(1e-10, 1e-12)});
  auto& tree = sim.multibody().editModel();
  const double r = 0.3, l = 1.0, w = 2.0;
  const auto link = [](double length) {
    return SpatialInertia::fromCmInertia(
        1.0, {length / 2, 0, 0},
        Vector3(1e-4, length * length / 12, length * length / 12).asDiagonal());
  };
  const auto crank = tree.addBody("crank", kWorldBody, link(r), Hinge::pin(Vector3::UnitZ()));
  const auto rod = tree.addBody("rod", crank, link(l), Hinge::pin(Vector3::UnitZ()),
                                RigidTransform::fromTranslation({r, 0, 0}));
  const auto slider = tree.addBody("slider", kWorldBody, pointMass(0.5, Vector3::Zero()),
                                   Hinge::slider(Vector3::UnitX()));
  // The rod's end pinned to the slider: a 3D PIN cut joint (5 rows, 3 of them redundant in the
  // plane).
  sim.multibody().editConstraints().addCutJoint("wrist", Hinge::pin(Vector3::UnitZ()), rod,
                                                RigidTransform::fromTranslation({l, 0, 0}), slider,
                                                RigidTransform());
  sim.multibody().setMasked(crank, 0, true);
  sim.multibody().q(slider)[0] = r + l;
  auto& drive = sim.addModel<SinePin>("drive");
  drive.attachToHinge("crank");
  sim.set("models.drive.params.a", 0.0);
  sim.set("models.drive.params.rate", w);
  sim.lock();
  double worst = 0.0;
  for (int k = 1; k <= 500; ++k) {
    sim.advanceTimeTo(0.01 * k);
    const double theta = w * sim.time();
    const double x = r * std::cos(theta) + std::sqrt(l * l - r * r * std::pow(std::sin(theta), 2));
    worst = std::max(worst, std::abs(sim.multibody().q(slider)[0] - x));
  }
  MESSAGE("slider-crank through the executive: worst |x - x(θ)| over 5 s = " << worst);
  CHECK(worst < 1e-8);
  CHECK(sim.multibody().constraintData().rank == 2);
}

TEST_CASE(
    "multibody in a simulation: a beam held by its pin and a rope shares its weight, as "
    "the hinge and constraint forces say") {
  // A 1 kg beam of length 1 along y, pinned at y = 0, its CM at y = 0.5, held level by a
  // vertical rope (DISTANCE 1 m) from its tip to a point above: statics give the rope and the
  // pin m g / 2 each.
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -kG});
  const auto beam =
      tree.addBody("beam", kWorldBody, pointMass(1.0, {0, 0.5, 0}), Hinge::pin(Vector3::UnitX()));
  sim.multibody().editConstraints().addDistance("rope", kWorldBody, {0, 1, 1}, beam, {0, 1, 0},
                                                1.0);
  auto& pin = sim.addModel<HingeDrive>("pin");
  pin.attachToHinge("beam");
  sim.lock();
  sim.advanceTimeTo(0.1);
  CHECK(std::abs(sim.multibody().q()[0]) < 1e-12);  // it stays level
  CHECK((pin.hingeForce.translational() - Vector3(0, 0, kG / 2)).norm() < 1e-9);
  CHECK(pin.hingeForce.rotational().x() == doctest::Approx(0.0).epsilon(1e-9));
  const auto& rope = sim.multibody().constraintData();
  CHECK((rope.F_B_Q_W[0].translational() - Vector3(0, 0, kG / 2)).norm() < 1e-9);
  // The multiplier of the last evaluation survives the velocity projection after the step:
  // the rope's one row has unit gradient along it, so |λ| is the tension.
  CHECK(std::abs(rope.lambda[0]) == doctest::Approx(kG / 2).epsilon(1e-9));
  CHECK((rope.tauConstraint - rope.G.transpose() * rope.lambda).norm() < 1e-9);
  std::vector<spatial::SpatialForce> tooFew(1);
  CHECK_THROWS_WITH_AS(
      multibody::addConstraintLoads(sim.multibody().model(), sim.multibody().constraints(),
                                    sim.multibody().data(), rope, tooFew),
      "addConstraintLoads: loads given for 1 bodies (expected 2, one per body "
      "including the world)",
      InputError);
}

}  // namespace hopsim::test
