// Multibody dynamics cost per call and per body (docs/performance.md): ABA (forward dynamics),
// hybrid dynamics (every other PIN prescribed), RNEA (inverse dynamics) and CRBA (mass matrix)
// on serial chains of 7, 30 and 100 PIN bodies and on a 30-body branched tree with a FULL6DOF
// base (five branches of PIN bodies), the shapes of Pinocchio's published anchors
// (reference/peers-and-anchors.md). Random but seeded mass properties, frames and states;
// gravity on.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>

#include "bench_context.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/rnea.h"
#include "hopsim/core/spatial/rotation.h"

namespace hopsim::bench {
namespace {

using namespace hopsim::multibody;

struct Problem {
  MultibodyModel model;
  Eigen::VectorXd q, u, udot, tau;
};

/// `bodies` bodies: a serial PIN chain (branched = false), or a FULL6DOF base carrying five
/// PIN branches (branched = true).
Problem makeProblem(int bodies, bool branched) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const auto vec = [&] { return Vector3(uni(rng), uni(rng), uni(rng)); };
  Problem p;
  p.model.setGravity(Vector3(0, 0, -9.81));
  const auto inertia = [&] {
    const Vector3 j(1.1 + uni(rng), 1.1 + uni(rng), 1.1 + uni(rng));
    const Matrix3 I = (0.05 * j).sum() * Matrix3::Identity() - Matrix3(0.05 * j.asDiagonal());
    return SpatialInertia::fromCmInertia(2.0 + uni(rng), 0.1 * vec(), I);
  };
  const auto frame = [&] {
    return RigidTransform(spatial::rotationFromAxisAngle(vec(), 0.3 * uni(rng)),
                          Vector3(0.05 * uni(rng), 0.05 * uni(rng), 0.3));
  };
  const int branchLength = branched ? (bodies - 1 + 4) / 5 : bodies;
  for (int b = 1; b <= bodies; ++b) {
    if (branched && b == 1) {
      p.model.addBody("base", kWorldBody, inertia(), Hinge::full6Dof());
      continue;
    }
    const int k = branched ? b - 2 : b - 1;  // position among the PIN bodies
    const int parent = !branched ? b - 1 : (k % branchLength == 0 ? 1 : b - 1);
    const Vector3 axis = (b % 2 == 0) ? Vector3::UnitZ() : Vector3::UnitY();
    p.model.addBody("b" + std::to_string(b), parent, inertia(), Hinge::pin(axis), frame());
  }
  p.q = p.model.neutralConfiguration();
  for (int i = 0; i < p.model.nq(); ++i) p.q[i] += 0.5 * uni(rng);
  if (branched) p.q.head<4>() = spatial::quaternionFromAxisAngle(vec(), 0.4);
  p.u = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(rng); });
  p.udot = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(rng); });
  p.tau = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(rng); });
  return p;
}

void report(benchmark::State& state, int bodies) {
  const auto kSecondsPer =
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert;
  state.counters["per_call"] = benchmark::Counter(1.0, kSecondsPer);
  state.counters["per_body"] = benchmark::Counter(static_cast<double>(bodies), kSecondsPer);
}

void BM_Aba(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  const Problem p = makeProblem(bodies, state.range(1) != 0);
  MultibodyData data(p.model);
  for (auto _ : state) {
    benchmark::DoNotOptimize(aba(p.model, data, p.q, p.u, p.tau).data());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

// Hybrid dynamics with every other PIN prescribed (the base, when there is one, stays free).
void BM_HybridDynamics(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  Problem p = makeProblem(bodies, state.range(1) != 0);
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
  const Problem p = makeProblem(bodies, state.range(1) != 0);
  MultibodyData data(p.model);
  for (auto _ : state) {
    benchmark::DoNotOptimize(rnea(p.model, data, p.q, p.u, p.udot).data());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

void BM_Crba(benchmark::State& state) {
  const int bodies = static_cast<int>(state.range(0));
  const Problem p = makeProblem(bodies, state.range(1) != 0);
  MultibodyData data(p.model);
  for (auto _ : state) {
    benchmark::DoNotOptimize(crba(p.model, data, p.q).data());
    benchmark::ClobberMemory();
  }
  report(state, bodies);
}

// {bodies, branched}: PIN chains of 7, 30, 100; a 30-body tree on a FULL6DOF base.
#define HOPSIM_MULTIBODY_SHAPES \
  ArgNames({"bodies", "branched"})->Args({7, 0})->Args({30, 0})->Args({100, 0})->Args({30, 1})
BENCHMARK(BM_Aba)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_HybridDynamics)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_Rnea)->HOPSIM_MULTIBODY_SHAPES;
BENCHMARK(BM_Crba)->HOPSIM_MULTIBODY_SHAPES;

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN()
