// The cost of the executive around the multibody engine (docs/performance.md): one hop of a
// PIN chain pendulum integrated by rk4 through a Simulation (Q and U in X, kinematics before
// each sweep, hybrid ABA, Q̇, quaternion and constraint hooks) against the same rk4 step written
// by hand over aba() and computeQdot(). The ratio is what the framework adds per hop.

#include <benchmark/benchmark.h>

#include <string>

#include "bench_context.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/simulation.h"

namespace hopsim::bench {
namespace {

using namespace hopsim::multibody;

constexpr double kStep = 1e-3;
// Both loops start again from the initial state after this many steps: the 100-link chain at
// rk4's fixed 1 ms goes unstable after about 8 s of swinging, and a timing over NaNs means nothing.
constexpr int kStepsPerRun = 1000;
constexpr double kInitialAngle = 0.3;

/// A chain of `bodies` PIN links about x, 0.5 m apart, each 1 kg with its CM at mid-link.
void buildChain(MultibodyModel& model, int bodies) {
  model.setGravity({0, 0, -9.81});
  const SpatialInertia link =
      SpatialInertia::fromCmInertia(1.0, {0, 0, -0.25}, Vector3(0.02, 0.02, 0.001).asDiagonal());
  for (int b = 1; b <= bodies; ++b) {
    model.addBody("link" + std::to_string(b), b - 1, link, Hinge::pin(Vector3::UnitX()),
                  b == 1 ? RigidTransform() : RigidTransform::fromTranslation({0, 0, -0.5}));
  }
}

void report(benchmark::State& state) {
  state.counters["per_hop"] = benchmark::Counter(
      1.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_SimulationHop(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  Simulation sim({.ioStepSize = kStep, .integrator = "rk4"});
  buildChain(sim.multibody().editModel(), bodies);
  sim.multibody().q().setConstant(kInitialAngle);
  sim.lock();
  sim.step();  // warm
  int steps = 0;
  for (auto _ : state) {
    if (++steps % kStepsPerRun == 0) {
      sim.multibody().q().setConstant(kInitialAngle);
      sim.multibody().u().setZero();
    }
    sim.step();
  }
  report(state);
}

// The same rk4 step by hand: X = [Q; U], Ẋ = [Q̇(Q, U); ABA(Q, U, 0)].
void BM_HandWrittenRk4Step(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  MultibodyModel model;
  buildChain(model, bodies);
  MultibodyData data(model);
  const int nq = model.nq(), nu = model.nu(), n = nq + nu;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n), k1(n), k2(n), k3(n), k4(n), xs(n);
  x.head(nq).setConstant(kInitialAngle);
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(nu);
  const auto f = [&](const Eigen::VectorXd& y, Eigen::VectorXd& ydot) {
    computeQdot(model, y.head(nq), y.tail(nu), ydot.head(nq));
    ydot.tail(nu) = aba(model, data, y.head(nq), y.tail(nu), tau);
  };
  int steps = 0;
  for (auto _ : state) {
    if (++steps % kStepsPerRun == 0) {
      x.head(nq).setConstant(kInitialAngle);
      x.tail(nu).setZero();
    }
    f(x, k1);
    xs = x + 0.5 * kStep * k1;
    f(xs, k2);
    xs = x + 0.5 * kStep * k2;
    f(xs, k3);
    xs = x + kStep * k3;
    f(xs, k4);
    x += kStep / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    benchmark::ClobberMemory();
  }
  report(state);
}

BENCHMARK(BM_SimulationHop)->ArgName("bodies")->Arg(7)->Arg(30)->Arg(100);
BENCHMARK(BM_HandWrittenRk4Step)->ArgName("bodies")->Arg(7)->Arg(30)->Arg(100);

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN()
