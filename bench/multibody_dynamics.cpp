// Multibody dynamics cost per call and per body (docs/performance.md): ABA (forward dynamics),
// hybrid dynamics (every other PIN prescribed), abaSolve (M⁻¹ τ), RNEA (inverse dynamics), CRBA
// (mass matrix) and forward kinematics with velocities on serial chains of 7, 30 and 100 PIN
// bodies and on a 30-body branched tree with a FULL6DOF base (five branches of PIN bodies), the
// shapes of Pinocchio's published anchors (reference/peers-and-anchors.md); ABA also on a 30-body
// chain of BALL joints.
// Random but seeded mass properties, frames and states; gravity on.

#include <benchmark/benchmark.h>

#include <cstdint>

#include "bench_context.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/aba_solve.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/rnea.h"
#include "multibody_problem.h"

namespace hopsim::bench {
namespace {

using namespace hopsim::multibody;

void report(benchmark::State& state, int bodies) {
  const auto kSecondsPer =
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert;
  state.counters["per_call"] = benchmark::Counter(1.0, kSecondsPer);
  state.counters["per_body"] = benchmark::Counter(static_cast<double>(bodies), kSecondsPer);
}

void timeAba(benchmark::State& state, const MultibodyProblem& p) {
  MultibodyData data(p.model);
  for (auto _ : state) {
    benchmark::DoNotOptimize(aba(p.model, data, p.q, p.u, p.tau).data());
    benchmark::ClobberMemory();
  }
  report(state, p.model.bodyCount() - 1);
}
void BM_Aba(benchmark::State& state) {
  timeAba(state, makeMultibodyProblem(static_cast<int>(state.range(0)), state.range(1) != 0));
}
// A chain of BALL joints: the recursion's multi-column path (three columns per body).
void BM_AbaBallChain(benchmark::State& state) {
  timeAba(state, makeBallChain(static_cast<int>(state.range(0))));
}

// Hybrid dynamics with every other PIN prescribed (the base, when there is one, stays free).
void BM_HybridDynamics(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  MultibodyProblem p = makeMultibodyProblem(bodies, state.range(1) != 0);
  for (BodyIndex b = 2; b <= bodies; b += 2) p.model.setPrescribed(b, true);
  MultibodyData data(p.model);
  for (auto _ : state) {
    benchmark::DoNotOptimize(hybridDynamics(p.model, data, p.q, p.u, p.tau, p.udot).data());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

void BM_Rnea(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  const MultibodyProblem p = makeMultibodyProblem(bodies, state.range(1) != 0);
  MultibodyData data(p.model);
  for (auto _ : state) {
    benchmark::DoNotOptimize(rnea(p.model, data, p.q, p.u, p.udot).data());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

void BM_ForwardKinematics(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  const MultibodyProblem p = makeMultibodyProblem(bodies, state.range(1) != 0);
  MultibodyData data(p.model);
  for (auto _ : state) {
    forwardKinematics(p.model, data, p.q, p.u);
    benchmark::DoNotOptimize(data.V_WB_B.back());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

void BM_ForwardKinematicsPositions(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  const MultibodyProblem p = makeMultibodyProblem(bodies, state.range(1) != 0);
  MultibodyData data(p.model);
  for (auto _ : state) {
    forwardKinematics(p.model, data, p.q);
    benchmark::DoNotOptimize(data.X_WB.back());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

void BM_Crba(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  const MultibodyProblem p = makeMultibodyProblem(bodies, state.range(1) != 0);
  MultibodyData data(p.model);
  for (auto _ : state) {
    benchmark::DoNotOptimize(crba(p.model, data, p.q).data());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

// M⁻¹ τ on the articulated inertias of the last ABA (abaSolve: ABA's passes 2 and 3 on a force
// alone), once per constraint row and per constrained evaluation in a closed-loop simulation.
void BM_AbaSolve(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  const MultibodyProblem p = makeMultibodyProblem(bodies, state.range(1) != 0);
  MultibodyData data(p.model);
  aba(p.model, data, p.q, p.u, p.tau);
  AbaSolveWorkspace work(p.model);
  Eigen::VectorXd udot(p.model.nu());
  for (auto _ : state) {
    abaSolve(p.model, data, work, p.tau, {}, udot);
    benchmark::DoNotOptimize(udot.data());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

// {bodies, branched}: PIN chains of 7, 30, 100; a 30-body tree on a FULL6DOF base.
#define HOPSIM_MULTIBODY_SHAPES \
  ArgNames({"bodies", "branched"})->Args({7, 0})->Args({30, 0})->Args({100, 0})->Args({30, 1})
BENCHMARK(BM_Aba)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_AbaBallChain)->ArgName("bodies")->Arg(30);
BENCHMARK(BM_HybridDynamics)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_AbaSolve)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_Rnea)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_Crba)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_ForwardKinematics)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_ForwardKinematicsPositions)->HOPSIM_MULTIBODY_SHAPES;

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN()
