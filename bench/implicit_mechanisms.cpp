// The implicit Euler integrators against rk4 and cvode on a stiff mechanism from a Chrono file
// (docs/performance.md, "Implicit integrators on a stiff mechanism"):
// tests/data/chrono/stiff_pendulum.yaml, a pendulum held by a bushing whose stiffest mode is at
// 3.2e4 rad/s, 1 s of motion. Each benchmark iteration loads the file (with the method's
// overrides) and runs it; reported: wall time and `error`, the largest distance of the bob from
// the reference's over the 10 Hz samples, against cvode at rtol 1e-10, atol 1e-12 (run once).
//
//   euler_implicit_linearized, euler_implicit  the file's 1 ms step (h omega = 32)
//   rk4                                        50 us, the largest power-of-two fraction of 1 ms
//                                              at which rk4 is stable (h omega = 1.6 < 2.83)
//   cvode                                      BDF at rtol 1e-4, atol 1e-6 (error close to the
//                                              implicit methods' at 1 ms)

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bench_context.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"

#ifndef HOPSIM_SOURCE_DIR
#error "HOPSIM_SOURCE_DIR must name the source tree (bench/CMakeLists.txt defines it)"
#endif

namespace hopsim::bench {
namespace {

const std::string kFile = std::string(HOPSIM_SOURCE_DIR) + "/tests/data/chrono/stiff_pendulum.yaml";

std::unique_ptr<Scenario> run(const std::vector<std::string>& overrides) {
  std::unique_ptr<Scenario> scenario = Scenario::load(kFile, overrides);
  scenario->run();
  return scenario;
}

// The bob's positions over the samples, x then z.
std::vector<double> positions(const Scenario& scenario) {
  const Recorder& r = scenario.recorder();
  std::vector<double> p = r.values(r.column("bodies.bob.position.x"));
  const std::vector<double>& z = r.values(r.column("bodies.bob.position.z"));
  p.insert(p.end(), z.begin(), z.end());
  return p;
}

const std::vector<double>& reference() {
  static const std::vector<double> ref = positions(
      *run({"simulation.integrator=cvode", "simulation.rtol=1e-10", "simulation.atol=1e-12"}));
  return ref;
}

double error(const std::vector<double>& p) {
  const std::vector<double>& ref = reference();
  const std::size_t n = ref.size() / 2;
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    worst = std::max(worst, std::hypot(p[i] - ref[i], p[n + i] - ref[n + i]));
  }
  return worst;
}

void BM_StiffPendulum(benchmark::State& state, std::vector<std::string> overrides) {
  reference();  // computed before the timing
  std::vector<double> p;
  for (auto _ : state) {
    p = positions(*run(overrides));
    benchmark::DoNotOptimize(p.data());
  }
  state.counters["error"] = error(p);
}

// The benchmark names are the captured tokens: not for clang-format.
// clang-format off
#define HOPSIM_TIMING Unit(benchmark::kMillisecond)->UseRealTime()
BENCHMARK_CAPTURE(BM_StiffPendulum, euler_implicit_linearized,
                  std::vector<std::string>{})->HOPSIM_TIMING;
BENCHMARK_CAPTURE(BM_StiffPendulum, euler_implicit,
                  std::vector<std::string>{"simulation.integrator=euler_implicit"})->HOPSIM_TIMING;
BENCHMARK_CAPTURE(BM_StiffPendulum, rk4_50us,
                  std::vector<std::string>{"simulation.integrator=rk4",
                                           "simulation.time_step=5e-5"})->HOPSIM_TIMING;
BENCHMARK_CAPTURE(BM_StiffPendulum, cvode_rtol1e-4,
                  std::vector<std::string>{"simulation.integrator=cvode", "simulation.rtol=1e-4",
                                           "simulation.atol=1e-6"})->HOPSIM_TIMING;
// clang-format on

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN()
