// Steady-state hops allocate nothing (DESIGN.md section 12): every allocation through the
// global operator new and the malloc family is counted while a simulation with multi-rate
// models, events of every kind and a chain of feed-through models advances.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "allocation_counter.h"
#include "continuous_test_models.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/csv_sink.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/aba_derivatives.h"
#include "hopsim/core/multibody/aba_solve.h"
#include "hopsim/core/multibody/constraints.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/frames.h"
#include "hopsim/core/multibody/hinge_forces.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/multibody/rnea.h"
#include "hopsim/core/multibody/tangent_space.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/smooth_contact.h"
#include "hopsim/models/standard_models.h"
#include "multibody_test_models.h"
#include "temp_dir.h"

namespace hopsim {

using test::allocationsDuring;

namespace {

TEST_CASE("the counter sees operator new and, outside AddressSanitizer, Eigen's malloc") {
  std::unique_ptr<int> held;  // both outlive the work, so the compiler cannot elide them
  Eigen::VectorXd heap;
  CHECK(allocationsDuring([&] { held = std::make_unique<int>(1); }) == 1);
  const long eigen = allocationsDuring([&] { heap.resize(100); });
#if HOPSIM_COUNT_MALLOC
  CHECK(eigen == 1);
#else
  CHECK(eigen == 0);
#endif
  CHECK(heap.size() == 100);
}

TEST_CASE("advancing time allocates nothing once the simulation is warm") {
  const ModelRegistry& registry = models::standardRegistry();
  Simulation sim;
  constexpr int kChain = 50;
  for (int i = 0; i <= kChain; ++i) sim.addSignal("s" + std::to_string(i), ElementType::Double, 3);
  sim.set("signals.s0", std::vector<double>{1.0, 2.0, 3.0});
  for (int i = 0; i < kChain; ++i) {
    const std::string name = "gain" + std::to_string(i);
    sim.addModel(registry.create("Gain", name, {{"k", 1.001}}));
    sim.tie(name, "u", "s" + std::to_string(i));
    sim.tie(name, "y", "s" + std::to_string(i + 1));
  }
  sim.addSignal("held", ElementType::Double, 3);
  sim.addSignal("logged", ElementType::Double, 3);
  sim.addModel(registry.create("ZeroOrderHold", "controller"));
  sim.tie("controller", "u", "s" + std::to_string(kChain));
  sim.tie("controller", "y", "held");
  sim.setModelRate("controller", 2.5);
  sim.addModel(registry.create("ZeroOrderHold", "recorder"));
  sim.tie("recorder", "u", "held");
  sim.tie("recorder", "y", "logged");
  int cycle = 0;
  sim.registerMultiRateModel("recorder", [&cycle](double now) -> std::optional<double> {
    return now + 0.013 * (1 + cycle++ % 4);
  });
  long fired = 0;
  const auto count = [&fired](Simulation&, double) { ++fired; };
  sim.registerPeriodicEvent("periodic", 0.0, 0.037, count);
  sim.registerEndHopEvent("end hop", count);
  sim.registerEndIoStepEvent("end io", count);
  sim.registerBeginIoStepEvent("begin io", count);
  sim.registerModelEvent("model", "gain3", ModelMethod::StartHop, EventTiming::After, count);
  sim.registerSelfReschedulingEvent("self", 0.0, [&fired](Simulation&, double t) {
    ++fired;
    return std::optional<double>(t + 0.021);
  });
  sim.addStopCallback("never", [](Simulation&, double) { return false; });
  sim.lock();
  sim.advanceTimeBy(1.0);  // warm-up: containers reach their steady-state capacity

  const std::uint64_t hopsBefore = sim.hopCount();
  const long firedBefore = fired;
  CHECK(allocationsDuring([&] {
          sim.advanceTimeBy(10.0);
          sim.step(7);
          sim.advanceTimeTo(sim.time() + 0.5);
        }) == 0);
  CHECK(sim.hopCount() - hopsBefore > 1000);  // it did run
  CHECK(fired - firedBefore > 3000);
}

}  // namespace
}  // namespace hopsim

namespace hopsim {
namespace {

using test::Ball;

TEST_CASE("integrating, localizing and rolling back allocate nothing once warm") {
  struct Case {
    const char* integrator;
    NonlinearSolver solver;
    bool continueAcrossHops;
  };
  for (const auto& [integrator, solver, continueAcrossHops] :
       {Case{"rk4", NonlinearSolver::Newton, false}, Case{"rkf45", NonlinearSolver::Newton, false},
        Case{"cvode", NonlinearSolver::Newton, false},
        Case{"cvode", NonlinearSolver::FixedPoint, false},
        Case{"cvode", NonlinearSolver::Newton, true}}) {
    CAPTURE(std::string(integrator));
    CAPTURE(static_cast<int>(solver));
    CAPTURE(continueAcrossHops);
    IntegratorOptions options;
    options.nonlinearSolver = solver;
    options.continueAcrossHops = continueAcrossHops;
    Simulation sim({.ioStepSize = 0.05,
                    .integrationSteps = 2,
                    .integrator = integrator,
                    .integratorOptions = options});
    test::addSpring(sim);
    auto& ball = sim.addModel<Ball>("ball");
    sim.lock();
    sim.registerZeroCrossing(
        "impact", [&ball](Simulation&, double) { return ball.height(); },
        CrossingDirection::Falling,
        [&ball](Simulation&, double) { ball.setVelocity(-0.9 * ball.velocity()); });
    // Warm-up through several impacts: the dense history grows to the most internal steps one
    // hop has needed so far and then stays.
    sim.advanceTimeBy(13.0);
    const std::uint64_t firedBefore = sim.propagationStatistics().crossingsFired;
    CHECK(allocationsDuring([&] { sim.advanceTimeBy(10.0); }) == 0);
    CHECK(sim.propagationStatistics().crossingsFired - firedBefore >= 3);
    CHECK((sim.integrator().statistics().continuations > 0) == continueAcrossHops);
  }
}

/// The mass properties every body of the multibody cases shares.
const multibody::SpatialInertia kBodyInertia = multibody::SpatialInertia::fromCmInertia(
    1.0, spatial::Vector3(0.1, 0, 0), spatial::Matrix3::Identity());

/// A model under gravity with one body "base" on a FULL6DOF hinge, to build on.
multibody::MultibodyModel floatingBase() {
  multibody::MultibodyModel model;
  model.setGravity(spatial::Vector3(0, 0, -9.81));
  model.addBody("base", multibody::kWorldBody, kBodyInertia, multibody::Hinge::full6Dof());
  return model;
}

TEST_CASE("multibody evaluations allocate nothing once the data is built") {
  using namespace multibody;
  MultibodyModel model = floatingBase();
  const SpatialInertia& M = kBodyInertia;
  model.addBody("pin", 1, M, Hinge::pin(spatial::Vector3::UnitZ()));
  model.addBody("gimbal", 2, M, Hinge::gimbal());
  model.addBody("ball", 1, M, Hinge::ball());
  model.addBody("inertial", 4, M, Hinge::full6DofInertial());
  model.addBody("planar", 3, M, Hinge::planar());
  model.setPrescribed(2, true);     // a prescribed PIN
  model.setPrescribed(3, 1, true);  // one subhinge of the GIMBAL
  MultibodyData data(model);
  const Eigen::VectorXd q = model.neutralConfiguration();
  const Eigen::VectorXd u = Eigen::VectorXd::Constant(model.nu(), 0.3);
  Eigen::VectorXd qdot(model.nq());
  const std::vector<SpatialForce> F(static_cast<std::size_t>(model.bodyCount()));
  CHECK(data.M.size() == 0);  // the nu x nu mass matrix waits for CRBA, which sizes it once
  crba(model, data, q);
  CHECK(allocationsDuring([&] {
          aba(model, data, q, u, u, F);
          hybridDynamics(model, data, q, u, u, u, F);
          forwardKinematics(model, data, q, u);
          articulatedBodyDynamics(model, data, u, u, F);
          rnea(model, data, q, u, u, F);
          crba(model, data, q);
          computeQdot(model, q, u, qdot);
          computeEnergyAndMomentum(model, data, q, u);
        }) == 0);
}

TEST_CASE("the derivatives of forward dynamics allocate nothing once their workspace is built") {
  using namespace multibody;
  // A floating base carrying 40 GIMBALs and a BALL: nu = 129, past the size where Eigen's
  // Cholesky factorization switches to its blocked form.
  MultibodyModel model = floatingBase();
  for (int b = 0; b < 40; ++b) {
    model.addBody("g" + std::to_string(b), b + 1, kBodyInertia, Hinge::gimbal());
  }
  model.addBody("ball", 41, kBodyInertia, Hinge::ball());
  MultibodyData data(model);
  AbaDerivativesWorkspace work(model);
  const int n = model.nu();
  const Eigen::VectorXd u = Eigen::VectorXd::Constant(n, 0.3);
  Eigen::VectorXd q = model.neutralConfiguration();
  integrateConfiguration(model, q, u, q);
  const std::vector<SpatialForce> F(static_cast<std::size_t>(model.bodyCount()));
  Eigen::MatrixXd dq(n, n), du(n, n), dtau(n, n);
  CHECK(allocationsDuring([&] {
          abaDerivatives(model, data, work, q, u, u, F, dq, du, dtau);
          integrateConfiguration(model, q, u, q);
        }) == 0);
}

TEST_CASE("multibody frame queries and hinge forces allocate nothing") {
  using namespace multibody;
  MultibodyModel model = floatingBase();
  const SpatialInertia& M = kBodyInertia;
  model.addBody("arm", 1, M, Hinge::ujoint(spatial::Vector3::UnitX(), spatial::Vector3::UnitY()),
                RigidTransform::fromTranslation(spatial::Vector3(0, 0, 1)));
  model.addNode("tip", 2, RigidTransform::fromTranslation(spatial::Vector3(0, 0, 1)));
  MultibodyData data(model);
  const Eigen::VectorXd q = model.neutralConfiguration();
  const Eigen::VectorXd u = Eigen::VectorXd::Constant(model.nu(), 0.3);
  const std::vector<SpatialForce> F_ext(static_cast<std::size_t>(model.bodyCount()));
  std::vector<SpatialForce> F_M(static_cast<std::size_t>(model.bodyCount()));
  aba(model, data, q, u, u, F_ext);
  const Frame tip = Frame::node(0), F = Frame::hingeInboard(2), W = Frame::world();
  double sink = 0.0;
  CHECK(allocationsDuring([&] {
          sink += relativePose(model, data, tip, F).translation().x();
          sink += relativeVelocity(model, data, tip, F, W)[0];
          sink += relativeAcceleration(model, data, tip, Frame::hingeOutboard(1), W)[0];
          hingeForces(model, data, F_ext, F_M);
        }) == 0);
  CHECK(std::isfinite(sink));
}

}  // namespace
}  // namespace hopsim

namespace hopsim {
namespace {

/// A free base carrying a gimbal arm with a node "tip", and a prescribed (masked) pin; a
/// thruster and a probe on the tip, a drive on the arm's second gimbal axis and a sine motion on
/// the pin. Unlocked.
void addArmMechanism(Simulation& sim) {
  using multibody::Hinge;
  using spatial::Matrix3;
  using spatial::RigidTransform;
  using spatial::SpatialInertia;
  using spatial::Vector3;
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -9.81});
  const SpatialInertia M = SpatialInertia::fromCmInertia(1.0, {0, 0, -0.5}, Matrix3::Identity());
  const auto base = tree.addBody("base", multibody::kWorldBody, M, Hinge::full6Dof());
  const auto arm = tree.addBody("arm", base, M, Hinge::gimbal());
  const auto driven = tree.addBody("driven", arm, M, Hinge::pin(Vector3::UnitX()));
  tree.addNode("tip", arm, RigidTransform::fromTranslation({0, 0, -1}));
  sim.multibody().setMasked(driven, 0, true);
  sim.addModel<test::ConstantForce>("thruster").attachToNode("tip");
  sim.set("models.thruster.params.force", std::vector<double>{1.0, 2.0, 3.0});
  sim.addModel<test::NodeProbe>("imu").attachToNode("tip");
  sim.addModel<test::HingeDrive>("motor").attachToHinge("arm", 1);
  sim.addModel<test::SinePin>("drive").attachToHinge("driven");
}

TEST_CASE("a simulation with a multibody tree and DartsModels allocates nothing once warm") {
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.05, .integrationSteps = 2, .integrator = integrator});
    addArmMechanism(sim);
    sim.lock();
    sim.registerZeroCrossing(
        "half turn", [](Simulation& s, double) { return s.multibody().q()[4] - 0.5; },
        CrossingDirection::Either, [](Simulation&, double) {});
    sim.advanceTimeBy(0.5);
    CHECK(allocationsDuring([&] { sim.advanceTimeBy(2.0); }) == 0);
  }
}

TEST_CASE("recording at a rate inside hops allocates nothing once warm and reserved") {
  // Samples inside the hops (1/997 s never lands on the 0.05 s I/O grid) evaluate the
  // derivatives at interpolated states and put back what they overwrote: a multibody tree
  // with masked coordinates and DartsModels, and a continuous model.
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    Simulation sim({.ioStepSize = 0.05, .integrationSteps = 2, .integrator = integrator});
    addArmMechanism(sim);
    test::addSpring(sim);
    sim.lock();
    Recorder recorder(sim,
                      {"multibody.Q", "multibody.U", "multibody.energy.*",
                       "multibody.bodies.*.position", "multibody.nodes.**", "signals.x"},
                      997.0);
    recorder.reserve(3000);
    sim.advanceTimeBy(0.5);
    CHECK(allocationsDuring([&] { sim.advanceTimeBy(2.0); }) == 0);
    CHECK(recorder.rows() > 2400);
  }
}

TEST_CASE(
    "streaming a recording to a CSV file allocates nothing once a write of its size was made") {
  // 1 kHz samples of the arm's coordinates, energies and node frames, ten per 10 ms hop,
  // written every 4 samples (inside the hops' sampling) and at the end of every hop
  // (flushSeconds 0): the file is written all the time.
  Simulation sim({.ioStepSize = 0.01, .integrationSteps = 2, .integrator = "rk4"});
  addArmMechanism(sim);
  sim.lock();
  Recorder recorder(sim, {"multibody.Q", "multibody.U", "multibody.energy.*", "multibody.nodes.**"},
                    1000.0);
  testing::TempDir dir;
  const std::string csv = dir.path() + "/arm.csv";
  recorder.streamTo(std::make_unique<CsvSink>(csv, ""), {.flushSamples = 4, .flushSeconds = 0.0});
  sim.advanceTimeBy(0.5);
  const std::uintmax_t before = std::filesystem::file_size(csv);
  CHECK(allocationsDuring([&] { sim.advanceTimeBy(2.0); }) == 0);
  CHECK(std::filesystem::file_size(csv) > before);
  CHECK(recorder.times().size() < 4);
  recorder.finishStream();
  CHECK(recorder.rows() == 2501);
}

TEST_CASE("constrained multibody dynamics allocates nothing once its data is built") {
  using namespace multibody;
  using spatial::RigidTransform;
  using spatial::Vector3;
  MultibodyModel model;
  model.setGravity(Vector3(0, -9.81, 0));
  const SpatialInertia M =
      SpatialInertia::fromCmInertia(1.0, Vector3(0.5, 0, 0), spatial::Matrix3::Identity());
  const Hinge pinZ = Hinge::pin(Vector3::UnitZ());
  model.addBody("crank", kWorldBody, M, pinZ);
  model.addBody("coupler", 1, M, pinZ, RigidTransform::fromTranslation(Vector3(1, 0, 0)));
  model.addBody("rocker", 2, M, pinZ, RigidTransform::fromTranslation(Vector3(3, 0, 0)));
  model.addBody("free", kWorldBody, M, Hinge::full6Dof());
  ConstraintSet set(model);
  set.addCutJoint("closure", pinZ, 3, RigidTransform::fromTranslation(Vector3(2.5, 0, 0)),
                  kWorldBody, RigidTransform::fromTranslation(Vector3(3, 0, 0)));
  set.addDistance("tether", 4, Vector3::Zero(), 2, Vector3(1, 0, 0), 1.0);
  set.addRevoluteSpherical("revsph", 4, Vector3(0, 1, 0), Vector3::UnitZ(), 1, Vector3(0.5, 0, 0),
                           1.5);
  MultibodyData data(model);
  ConstraintData cdata(model, set);
  AbaSolveWorkspace work(model);
  Eigen::VectorXd q = model.neutralConfiguration();
  q.head(3) << 0.3, 1.2, 1.6;
  Eigen::VectorXd u = Eigen::VectorXd::Constant(model.nu(), 0.2);
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nu());
  Eigen::VectorXd udot(model.nu());
  Matrix6X J(6, model.nu());
  const std::vector<SpatialForce> F(static_cast<std::size_t>(model.bodyCount()));
  aba(model, data, q, u, tau, F);
  CHECK(allocationsDuring([&] {
          frameJacobian(model, data, 3, Vector3(1, 2, 3), J);
          aba(model, data, q, u, tau, F);
          abaSolve(model, data, work, tau, F, udot);
          applyConstraints(model, set, data, cdata);
          projectPositions(model, set, data, cdata, q, 1e-12, 20);
          projectVelocities(model, set, data, cdata, q, u, 1e-6);
        }) == 0);
}

TEST_CASE("lowered Chrono and MBSE models allocate nothing once warm") {
  // Between them: every joint type as hinge and cut joint, the constraints, every TSDA and
  // RSDA law, bushings, motors of every actuation (on and off the tree, CONTROLLER ones),
  // body loads and load controllers, and an MBSE relative coordinate.
  const std::string tests = std::string(HOPSIM_SOURCE_DIR) + "/tests/";
  for (const char* file :
       {"fuzz/corpus/chrono/model_joints.yaml", "fuzz/corpus/chrono/model_loop.yaml",
        "fuzz/corpus/chrono/model_tsdas.yaml", "fuzz/corpus/chrono/model_rsdas_motors.yaml",
        "fuzz/corpus/chrono/model_bushings.yaml", "fuzz/corpus/chrono/model_loads_contact.yaml",
        "data/chrono/hoist.yaml", "data/mbse/crank_rocker.yaml"}) {
    CAPTURE(std::string(file));
    const auto scenario = Scenario::load(tests + file);
    Simulation& sim = scenario->sim();
    // The scenario's recorder records too: it reserved its rows for the planned run.
    sim.advanceTimeBy(0.2);
    CHECK(allocationsDuring([&] { sim.advanceTimeBy(0.5); }) == 0);
  }
}

// A simulation (rk4, 1 ms hops of two steps, gravity along -z) with a SmoothContact model
// "contact", each of its outputs tied to a signal of its name, one material, and free bodies of
// 1 kg that each carry one shape.
struct ContactScene {
  ContactScene() : contact(sim.addModel<models::SmoothContact>("contact")) {
    sim.multibody().editModel().setGravity({0, 0, -9.81});
    for (const char* output :
         {"contact_count", "max_penetration", "normal_force", "friction_force"}) {
      sim.addSignal(output, ElementType::Double);
      sim.tie("contact", output, output);
    }
    material = contact.addMaterial("m", {.friction = 0.4, .restitution = 0.3});
  }
  // A shape on the world.
  void addGround(models::CollisionShape shape) {
    shape.body = "world";
    shape.material = material;
    contact.addShape(std::move(shape));
  }
  // A free body carrying `shape`, its pose set after lock() by placeBody.
  void addBody(const std::string& name, models::CollisionShape shape) {
    sim.multibody().editModel().addBody(
        name, multibody::kWorldBody,
        spatial::SpatialInertia::fromCmInertia(1.0, spatial::Vector3::Zero(),
                                               0.01 * spatial::Matrix3::Identity()),
        multibody::Hinge::full6DofInertial());
    shape.body = name;
    shape.material = material;
    contact.addShape(std::move(shape));
  }
  // Body b (1 for the first added) turned by `angle` about `axis` with its origin at p.
  void placeBody(int b, double angle, const spatial::Vector3& axis, const spatial::Vector3& p) {
    const Eigen::Quaterniond q(Eigen::AngleAxisd(angle, axis.normalized()));
    sim.multibody().q(b) << q.w(), q.x(), q.y(), q.z(), p;
  }
  double contactCount() const { return std::get<double>(sim.get("signals.contact_count")); }

  Simulation sim{{.ioStepSize = 1e-3, .integrationSteps = 2, .integrator = "rk4"}};
  models::SmoothContact& contact;
  int material = -1;
};

TEST_CASE("smooth contact allocates nothing once warm: a pile of shapes on the ground") {
  // Every narrow phase meets here: spheres with anything (FCL's closed forms), box-box, capsule
  // pairs, capsules on boxes and cylinders (GJK distance), box-cylinder and cylinder-cylinder
  // (GJK and the model's one EPA), and every shape on the ground.
  using models::ShapeType;
  ContactScene scene;
  scene.addGround({.type = ShapeType::HalfSpace});
  const ShapeType types[] = {ShapeType::Sphere, ShapeType::Box, ShapeType::Capsule,
                             ShapeType::Cylinder};
  constexpr int kBodies = 16;
  for (int i = 0; i < kBodies; ++i) {
    scene.addBody("body" + std::to_string(i), {.type = types[i % 4],
                                               .radius = 0.1,
                                               .dimensions = spatial::Vector3(0.2, 0.15, 0.1),
                                               .length = 0.2});
  }
  scene.sim.lock();
  for (int i = 0; i < kBodies; ++i) {
    // Four layers of four that fall onto one another and the ground.
    scene.placeBody(i + 1, 0.3 * i, spatial::Vector3(1, 1, 0),
                    spatial::Vector3(0.3 * (i % 4), 0.05 * (i % 3), 0.25 + 0.45 * (i / 4)));
  }
  scene.sim.advanceTimeBy(0.8);
  CHECK(allocationsDuring([&] { scene.sim.advanceTimeBy(0.3); }) == 0);
  CHECK(scene.contactCount() > 10.0);
}

TEST_CASE("smooth contact allocates nothing when a first contact appears: a box lands on a box") {
  // Warm while the box is still in the air: its first touch, on an edge, and the four-point
  // manifold it settles into both come inside the counted interval.
  ContactScene scene;
  scene.addGround({.type = models::ShapeType::Box, .dimensions = spatial::Vector3(1.0, 1.0, 0.2)});
  scene.addBody("box",
                {.type = models::ShapeType::Box, .dimensions = spatial::Vector3::Constant(0.2)});
  scene.sim.lock();
  scene.placeBody(1, 0.2, spatial::Vector3::UnitX(), spatial::Vector3(0.0, 0.0, 0.4));
  scene.sim.advanceTimeBy(0.01);
  REQUIRE(scene.contactCount() == 0.0);
  CHECK(allocationsDuring([&] { scene.sim.advanceTimeBy(1.5); }) == 0);
  CHECK(scene.contactCount() == 4.0);  // resting on a face
}

}  // namespace
}  // namespace hopsim
