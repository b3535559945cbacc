// hopsim's multibody algorithms against MuJoCo, DART and Bullet, per call
// (docs/performance.md "Multibody against MuJoCo, DART and Bullet"): forward dynamics, inverse
// dynamics and the mass matrix of serial PIN chains of 7, 30 and 100 bodies and a 30-body tree
// on a floating base, the same models in every engine (peer_problem.h), each call from the
// state to the result (kinematics included).
//
// Before anything is timed, every peer's results are mapped to hopsim's coordinates and
// compared with hopsim's: the largest difference, relative to the largest entry of hopsim's
// result, must be at most 1e-8 (the bound for accelerations, used for the forces and the
// mass matrix too). The engines run different algorithms in double precision (ABA, CRBA with
// a sparse LDLᵀ, Newton-Euler), so they agree to round-off amplified by the conditioning of
// the mass matrix, well inside that bound; a wrong mapping or model gives O(1). On a mismatch
// the program prints the worst entry and exits with status 1, timing nothing. The checks run
// while the benchmarks are registered, before main, so that main stays HOPSIM_BENCHMARK_MAIN().

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench_context.h"
#include "bullet_peer.h"
#include "dart_peer.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/rnea.h"
#include "mujoco_peer.h"
#include "peer_problem.h"

namespace hopsim::bench::peers {
namespace {

using multibody::MultibodyData;

constexpr double kTolerance = 1e-8;

/// One problem built in every engine.
struct Engines {
  explicit Engines(Problem p)
      : problem(std::move(p)),
        data(problem.model),
        mujoco(problem),
        dart(problem),
        bullet(problem) {}
  Problem problem;
  MultibodyData data;
  MujocoPeer mujoco;
  DartPeer dart;
  BulletPeer bullet;
};

// Runs `run` twice (DART alternates between two equal configurations, dart_peer.h: both must
// agree), compares each `result` with `reference`, prints the worse and says whether it passed.
template <typename Run, typename Result>
bool compare(const char* what, const Problem& p, const char* engine, Run run, Result result,
             const Eigen::MatrixXd& reference) {
  double worst = -1.0;
  Eigen::Index row = 0, col = 0;
  Eigen::MatrixXd worstValue;
  for (int pass = 0; pass < 2; ++pass) {
    run();
    const Eigen::MatrixXd value = result();
    Eigen::Index r = 0, c = 0;
    const double d = relativeDiscrepancy(value, reference, &r, &c);
    if (d > worst) worst = d, row = r, col = c, worstValue = value;
  }
  const bool ok = worst <= kTolerance;
  std::fprintf(stderr, "check %-13s %-9s %-7s max|diff|/max|hopsim| = %.2e%s\n", what,
               p.name.c_str(), engine, worst, ok ? "" : "  MISMATCH");
  if (!ok) {
    std::fprintf(stderr, "  worst entry (%ld, %ld): %s %.17g, hopsim %.17g\n",
                 static_cast<long>(row), static_cast<long>(col), engine, worstValue(row, col),
                 reference(row, col));
  }
  return ok;
}

bool checkAgreement(Engines& e) {
  const Problem& p = e.problem;
  bool ok = true;
  const Eigen::VectorXd udot = multibody::aba(p.model, e.data, p.q, p.u, p.tau);
  ok &= compare(
      "forward", p, "mujoco", [&] { e.mujoco.forwardDynamics(); },
      [&] { return e.mujoco.accelerationsInHopsim(); }, udot);
  ok &= compare(
      "forward", p, "dart", [&] { e.dart.forwardDynamics(); },
      [&] { return e.dart.accelerationsInHopsim(); }, udot);
  ok &= compare(
      "forward", p, "bullet", [&] { e.bullet.forwardDynamics(); },
      [&] { return e.bullet.accelerationsInHopsim(); }, udot);

  const Eigen::VectorXd tau = multibody::rnea(p.model, e.data, p.q, p.u, p.udot);
  ok &= compare(
      "inverse", p, "mujoco", [&] { e.mujoco.inverseDynamics(); },
      [&] { return e.mujoco.forcesInHopsim(); }, tau);
  ok &= compare(
      "inverse", p, "dart", [&] { e.dart.inverseDynamics(); },
      [&] { return e.dart.forcesInHopsim(); }, tau);

  const Eigen::MatrixXd M = multibody::crba(p.model, e.data, p.q);
  ok &= compare(
      "mass matrix", p, "mujoco", [&] { e.mujoco.massMatrix(); },
      [&] { return e.mujoco.massMatrixInHopsim(); }, M);
  ok &= compare(
      "mass matrix", p, "dart", [&] { e.dart.massMatrix(); },
      [&] { return e.dart.massMatrixInHopsim(); }, M);
  return ok;
}

void report(benchmark::State& state, int bodies) {
  const auto kSecondsPer =
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert;
  state.counters["per_call"] = benchmark::Counter(1.0, kSecondsPer);
  state.counters["per_body"] = benchmark::Counter(static_cast<double>(bodies), kSecondsPer);
}

// Registers BM_<algorithm>/<engine>/<model> timing `call` on e.
template <typename Call>
void add(const std::string& algorithm, const std::string& engine, Engines* e, Call call) {
  const std::string name = "BM_" + algorithm + "/" + engine + "/" + e->problem.name;
  benchmark::RegisterBenchmark(name.c_str(), [e, call](benchmark::State& state) {
    for (auto _ : state) {
      call(*e);
      benchmark::ClobberMemory();
    }
    report(state, e->problem.bodies);
  });
}

bool registerAll() {
  static std::vector<std::unique_ptr<Engines>> engines;
  for (Problem& p : makeAllProblems()) engines.push_back(std::make_unique<Engines>(std::move(p)));
  bool ok = true;
  for (auto& e : engines) ok &= checkAgreement(*e);
  if (!ok) {
    std::fprintf(stderr, "the engines disagree beyond %.0e: nothing is timed\n", kTolerance);
    std::exit(1);
  }
  benchmark::AddCustomContext(
      "peers", MujocoPeer::version() + ", " + DartPeer::version() + ", " + BulletPeer::version());

  for (auto& ep : engines) {
    Engines* e = ep.get();
    add("Forward", "hopsim", e, [](Engines& x) {
      const Problem& p = x.problem;
      benchmark::DoNotOptimize(multibody::aba(p.model, x.data, p.q, p.u, p.tau).data());
    });
    add("Forward", "mujoco", e, [](Engines& x) { x.mujoco.forwardDynamics(); });
    add("Forward", "dart", e, [](Engines& x) { x.dart.forwardDynamics(); });
    add("Forward", "bullet", e, [](Engines& x) { x.bullet.forwardDynamics(); });
  }
  for (auto& ep : engines) {
    Engines* e = ep.get();
    add("Inverse", "hopsim", e, [](Engines& x) {
      const Problem& p = x.problem;
      benchmark::DoNotOptimize(multibody::rnea(p.model, x.data, p.q, p.u, p.udot).data());
    });
    add("Inverse", "mujoco", e, [](Engines& x) { x.mujoco.inverseDynamics(); });
    add("Inverse", "dart", e, [](Engines& x) { x.dart.inverseDynamics(); });
  }
  for (auto& ep : engines) {
    Engines* e = ep.get();
    add("MassMatrix", "hopsim", e, [](Engines& x) {
      benchmark::DoNotOptimize(multibody::crba(x.problem.model, x.data, x.problem.q).data());
    });
    add("MassMatrix", "mujoco", e, [](Engines& x) { x.mujoco.massMatrix(); });
    add("MassMatrix", "dart", e,
        [](Engines& x) { benchmark::DoNotOptimize(x.dart.massMatrix().data()); });
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = registerAll();

}  // namespace
}  // namespace hopsim::bench::peers

HOPSIM_BENCHMARK_MAIN()
