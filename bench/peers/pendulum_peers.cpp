// Full simulation against MuJoCo, DART and Bullet (docs/performance.md "Multibody
// against MuJoCo, DART and Bullet"): 10 s of a 30-link pendulum chain at a fixed step of 1 ms,
// hopsim with rk4 through a Simulation, each peer with its own stepping (MuJoCo's mj_step with
// RK4 and with its default semi-implicit Euler, DART's World::step, Bullet's
// btMultiBodyDynamicsWorld::stepSimulation, both semi-implicit Euler). Reported: steps per
// second, and the largest joint-angle error at 10 s against hopsim's rkf45 at rtol = atol =
// 1e-12, since the integrators trade accuracy for speed differently.
//
// The chain is 30 equal rods hanging from the world, released at rest straight and tilted
// (makePendulum): a nonlinear swing, yet regular enough that the reference converges
// (loosening its tolerance tenfold moves it by about 5e-11 rad). The random chain30 of the
// per-call program, hung the same way from angles within 0.1 rad, is not: there rkf45 at 1e-11
// and at 1e-12 differ by 4e-3 rad at 10 s, and semi-implicit Euler at 1 ms diverges.
//
// Before anything is timed, every engine's accelerations at the initial state must agree with
// hopsim's to 1e-8 of their scale (the same model, the same state), and every engine's 10 s
// result must lie within 0.05 rad of the reference (a wrongly applied gravity or torque gives
// O(1)); otherwise the program prints the discrepancy and exits with status 1.

#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench_context.h"
#include "bullet_peer.h"
#include "dart_peer.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/simulation.h"
#include "mujoco_peer.h"
#include "peer_problem.h"

namespace hopsim::bench::peers {
namespace {

constexpr double kDuration = 10.0;  // s
constexpr double kStep = 1e-3;      // s
constexpr int kSteps = 10000;       // kDuration / kStep
constexpr double kAccelerationTolerance = 1e-8;
constexpr double kErrorBound = 0.05;  // rad
constexpr double kInitialTilt = 0.3;  // rad

// A hanging chain of 30 equal rods, 0.5 m long and 1 kg each, on PIN joints about x (a planar
// 30-link pendulum), released at rest with the whole chain straight and tilted by 0.3 rad.
Problem makePendulum() {
  Problem p;
  p.name = "pendulum30";
  p.bodies = 30;
  p.model.setGravity(Vector3(0, 0, -9.81));
  const spatial::SpatialInertia rod = spatial::SpatialInertia::fromCmInertia(
      1.0, Vector3(0, 0, -0.25), Matrix3(Vector3(1.0 / 48.0, 1.0 / 48.0, 1e-3).asDiagonal()));
  for (int b = 1; b <= p.bodies; ++b) {
    p.model.addBody("link" + std::to_string(b), b - 1, rod, multibody::Hinge::pin(Vector3::UnitX()),
                    b == 1 ? RigidTransform() : RigidTransform::fromTranslation({0, 0, -0.5}));
  }
  p.q = Eigen::VectorXd::Zero(p.bodies);
  p.q[0] = kInitialTilt;
  p.u = p.udot = p.tau = Eigen::VectorXd::Zero(p.bodies);
  return p;
}

/// hopsim: a Simulation holding the pendulum, advanced one 1 ms hop (one rk4 step) at a time.
class HopsimRun {
 public:
  HopsimRun(const Problem& p, SimulationOptions options) : problem_(p), options_(options) {}
  void start() {
    sim_ = std::make_unique<Simulation>(options_);
    sim_->multibody().editModel() = problem_.model;
    sim_->lock();
    sim_->multibody().q() = problem_.q;
    sim_->multibody().u() = problem_.u;
  }
  void step() { sim_->step(); }
  void advanceTo(double t) { sim_->advanceTimeTo(t); }
  Eigen::VectorXd positions() const { return sim_->multibody().q(); }

 private:
  const Problem& problem_;
  SimulationOptions options_;
  std::unique_ptr<Simulation> sim_;
};

/// One engine's 10 s run: start at the initial state, step kSteps times, read Q.
struct Run {
  std::string name;
  std::function<void()> start;
  std::function<void()> step;
  std::function<Eigen::VectorXd()> positions;
  double error{0.0};  // max |Q(10 s) - Q_ref(10 s)|, rad
};

Eigen::VectorXd simulate(Run& run) {
  run.start();
  for (int k = 0; k < kSteps; ++k) run.step();
  return run.positions();
}

Eigen::VectorXd reference(const Problem& p, double tolerance) {
  SimulationOptions options{.ioStepSize = 0.01, .integrator = "rkf45"};
  options.integratorOptions.relativeTolerance = tolerance;
  options.integratorOptions.absoluteTolerance = tolerance;
  HopsimRun run(p, options);
  run.start();
  run.advanceTo(kDuration);
  return run.positions();
}

bool checkInitialAccelerations(const Problem& p) {
  multibody::MultibodyData data(p.model);
  const Eigen::VectorXd udot = multibody::aba(p.model, data, p.q, p.u, p.tau);
  MujocoPeer mujoco(p);
  DartPeer dart(p);
  BulletPeer bullet(p);
  mujoco.forwardDynamics();
  dart.forwardDynamics();
  bullet.forwardDynamics();
  const std::pair<const char*, Eigen::VectorXd> results[] = {
      {"mujoco", mujoco.accelerationsInHopsim()},
      {"dart", dart.accelerationsInHopsim()},
      {"bullet", bullet.accelerationsInHopsim()}};
  bool ok = true;
  for (const auto& [engine, value] : results) {
    const double d = relativeDiscrepancy(value, udot);
    std::fprintf(stderr, "check initial accelerations %-7s max|diff|/max|hopsim| = %.2e%s\n",
                 engine, d, d <= kAccelerationTolerance ? "" : "  MISMATCH");
    ok &= d <= kAccelerationTolerance;
  }
  return ok;
}

void report(benchmark::State& state, double error) {
  state.counters["steps_per_s"] =
      benchmark::Counter(kSteps, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["per_step"] = benchmark::Counter(
      kSteps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["error_rad"] = error;
}

bool registerAll() {
  static const Problem problem = makePendulum();
  if (!checkInitialAccelerations(problem)) {
    std::fprintf(stderr, "the engines disagree at the initial state: nothing is timed\n");
    std::exit(1);
  }
  const Eigen::VectorXd qRef = reference(problem, 1e-12);
  const double referenceSpread = (reference(problem, 1e-11) - qRef).cwiseAbs().maxCoeff();
  std::fprintf(stderr,
               "reference: rkf45 at rtol = atol = 1e-12; |Q(1e-11) - Q(1e-12)| = %.1e rad\n",
               referenceSpread);

  static HopsimRun hopsim(problem, {.ioStepSize = kStep, .integrator = "rk4"});
  static MujocoPeer mujoco(problem);
  static DartPeer dart(problem);
  static BulletPeer bullet(problem);
  const Problem& p = problem;
  static std::vector<Run> runs = {
      {"hopsim_rk4", [] { hopsim.start(); }, [] { hopsim.step(); },
       [] { return hopsim.positions(); }},
      {"mujoco_rk4", [&p] { mujoco.startSimulation(p.q, p.u, mjINT_RK4, kStep); },
       [] { mujoco.step(); }, [] { return mujoco.positions(); }},
      {"mujoco_euler", [&p] { mujoco.startSimulation(p.q, p.u, mjINT_EULER, kStep); },
       [] { mujoco.step(); }, [] { return mujoco.positions(); }},
      {"dart_euler", [&p] { dart.startSimulation(p.q, p.u, kStep); }, [] { dart.step(); },
       [] { return dart.positions(); }},
      {"bullet_euler", [&p] { bullet.startSimulation(p.q, p.u, kStep); }, [] { bullet.step(); },
       [] { return bullet.positions(); }},
  };
  bool ok = true;
  for (Run& run : runs) {
    run.error = (simulate(run) - qRef).cwiseAbs().maxCoeff();
    const bool within = run.error <= kErrorBound;
    std::fprintf(stderr, "check 10 s %-13s max|Q - Q_ref| = %.2e rad%s\n", run.name.c_str(),
                 run.error, within ? "" : "  BEYOND 0.05 rad");
    ok &= within;
  }
  if (!ok) {
    std::fprintf(stderr, "an engine's run is far from the reference: nothing is timed\n");
    std::exit(1);
  }
  benchmark::AddCustomContext(
      "peers", MujocoPeer::version() + ", " + DartPeer::version() + ", " + BulletPeer::version());

  for (Run& run : runs) {
    Run* r = &run;
    benchmark::RegisterBenchmark(("BM_Pendulum30/" + run.name).c_str(),
                                 [r](benchmark::State& state) {
                                   for (auto _ : state) {
                                     state.PauseTiming();
                                     r->start();
                                     state.ResumeTiming();
                                     for (int k = 0; k < kSteps; ++k) r->step();
                                     benchmark::ClobberMemory();
                                   }
                                   report(state, r->error);
                                 })
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = registerAll();

}  // namespace
}  // namespace hopsim::bench::peers

HOPSIM_BENCHMARK_MAIN()
