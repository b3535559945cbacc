// Memory of a multibody simulation: the resident size a Simulation of 1k, 10k and
// 100k bodies needs, the parts its MultibodyModel and MultibodyData take, the time to build it,
// and the allocations of a steady-state hop, counted. The program exits with status 1 if a
// steady-state hop allocates.
//
// Each measurement runs in a child made by fork(), so that no size's peak carries into the next.
// The child first builds and runs a 7-body copy of the scenario (faulting in the code pages and
// the allocator's first arenas, which a real program pays once), then resets its peak resident
// size (writing 5 to /proc/self/clear_refs, Linux >= 4.0) and reads VmRSS as the baseline; the
// VmRSS and VmHWM read from /proc/self/status later, minus the baseline, are the growth. The
// child runs under an address-space limit (kAddressSpaceLimit), so a size that needs more fails
// with std::bad_alloc instead of calling the OOM killer onto the machine: an error row, not a
// failure of the program (any other error is both).
//
// The models are bench/multibody_problem.h's: a serial PIN chain and a FULL6DOF base carrying
// five PIN branches, at their seeded random Q. The Simulation integrates them from rest with
// euler (one derivative evaluation per hop, the cheapest), hops of 1 ms.

#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "allocation_counter.h"
#include "bench_context.h"
#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/simulation.h"
#include "multibody_problem.h"

namespace hopsim::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kHop = 1e-3;
constexpr int kWarmUpHops = 2;
/// Steady-state hops counted. Few: a long chain integrated by euler from rest stays finite
/// only for tens of hops.
constexpr int kCountedHops = 10;
/// A child's address-space limit: far above what a Simulation of 100k bodies needs without a
/// dense nu x nu matrix, and below this machine's memory.
constexpr rlim_t kAddressSpaceLimit = rlim_t{8} << 30;

/// Whether any measurement failed (an allocating hop, an error other than running out of the
/// address space, a child that died): main's status.
bool checkFailed = false;

/// What a child sends back through its pipe: plain data, so it crosses as bytes.
struct ChildResult {
  bool ok = false;
  bool outOfMemory = false;  ///< the error is std::bad_alloc
  char error[256] = {};
  double modelBytes = 0;     ///< resident growth while building the MultibodyModel
  double dataBytes = 0;      ///< resident growth while building its MultibodyData
  double residentBytes = 0;  ///< Simulation: peak resident growth, build and hops
  double builtBytes = 0;     ///< Simulation: resident growth once locked, before any hop
  double buildSeconds = 0;   ///< Simulation: making the model, moving it in, lock()
  double hopSeconds = 0;     ///< Simulation: one steady-state hop (wall time)
  double allocationsPerHop = 0;
};

/// A value of /proc/self/status ("VmRSS", "VmHWM"), in bytes.
double statusBytes(const std::string& key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with(key + ":")) return 1024.0 * std::stod(line.substr(key.size() + 1));
  }
  throw std::runtime_error("/proc/self/status has no " + key);
}

/// Makes the peak resident size (VmHWM) the current one and returns that, in bytes.
double resetPeak() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.close();
  if (!clear)
    throw std::runtime_error("cannot reset the peak: writing /proc/self/clear_refs failed");
  return statusBytes("VmRSS");
}

/// Runs `measure` in a child process under kAddressSpaceLimit and returns what it filled in.
template <class Measure>
ChildResult inChild(Measure&& measure) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe() failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork() failed");
  if (pid == 0) {
    close(fds[0]);
    ChildResult result;
    try {
      const rlimit limit{kAddressSpaceLimit, kAddressSpaceLimit};
      if (setrlimit(RLIMIT_AS, &limit) != 0) throw std::runtime_error("setrlimit failed");
      measure(result);
      result.ok = true;
    } catch (const std::bad_alloc&) {
      result.outOfMemory = true;
      std::snprintf(result.error, sizeof result.error,
                    "std::bad_alloc: needs more than the %d GiB address-space limit",
                    static_cast<int>(kAddressSpaceLimit >> 30));
    } catch (const std::exception& e) {
      std::snprintf(result.error, sizeof result.error, "%s", e.what());
    }
    const bool sent = write(fds[1], &result, sizeof result) == sizeof result;
    _exit(sent ? 0 : 1);  // no destructors: the parent's objects are not the child's to end
  }
  close(fds[1]);
  ChildResult result;
  const ssize_t got = read(fds[0], &result, sizeof result);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != static_cast<ssize_t>(sizeof result) || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    result = ChildResult{};
    std::snprintf(result.error, sizeof result.error, "the measuring child died (%s %d)",
                  WIFSIGNALED(status) ? "signal" : "status",
                  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    checkFailed = true;
  }
  if (!result.ok && !result.outOfMemory) checkFailed = true;
  return result;
}

/// The standalone engine: the model of `bodies` bodies, then its MultibodyData.
void measureModelAndData(int bodies, bool branched, ChildResult& r) {
  {
    const MultibodyProblem small = makeMultibodyProblem(7, branched);
    const multibody::MultibodyData data(small.model);
  }
  const double base = resetPeak();
  const MultibodyProblem problem = makeMultibodyProblem(bodies, branched);
  const double afterModel = statusBytes("VmRSS");
  const multibody::MultibodyData data(problem.model);
  const double afterData = statusBytes("VmRSS");
  r.modelBytes = afterModel - base;
  r.dataBytes = afterData - afterModel;
}

/// A locked Simulation whose multibody system is the problem of `bodies` bodies, at its Q and at
/// rest.
void buildSimulation(Simulation& sim, int bodies, bool branched) {
  MultibodyProblem problem = makeMultibodyProblem(bodies, branched);
  sim.multibody().editModel() = std::move(problem.model);
  sim.multibody().q() = problem.q;
  sim.lock();
}

/// The Simulation: build, warm-up hops, then counted steady-state hops.
void measureSimulation(int bodies, bool branched, ChildResult& r) {
  const SimulationOptions options{.ioStepSize = kHop, .integrator = "euler"};
  {
    Simulation small(options);
    buildSimulation(small, 7, branched);
    small.step(kWarmUpHops + 1);
  }
  const double base = resetPeak();
  const auto start = Clock::now();
  Simulation sim(options);
  buildSimulation(sim, bodies, branched);
  r.buildSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.builtBytes = statusBytes("VmRSS") - base;
  sim.step(kWarmUpHops);
  // The counter must see an allocation, or its zero below would say nothing.
  std::unique_ptr<int> probe;  // outlives the count, so the allocation cannot be elided
  if (test::allocationsDuring([&] { probe = std::make_unique<int>(bodies); }) != 1) {
    throw std::runtime_error("the allocation counter does not see operator new");
  }
  const int hops = kCountedHops;
  const auto hopsStart = Clock::now();
  const long allocations = test::allocationsDuring([&] { sim.step(hops); });
  r.hopSeconds = std::chrono::duration<double>(Clock::now() - hopsStart).count() / hops;
  r.allocationsPerHop = static_cast<double>(allocations) / hops;
  r.residentBytes = statusBytes("VmHWM") - base;
  if (!sim.multibody().u().allFinite()) throw std::runtime_error("U is not finite after the hops");
}

benchmark::Counter bytes(double value) {
  return benchmark::Counter(value, benchmark::Counter::kDefaults, benchmark::Counter::kIs1024);
}

/// The benchmark's one iteration: `measure` run in a child. Empty, with the benchmark marked as
/// skipped with the child's error, when the measurement failed.
template <class Measure>
std::optional<ChildResult> measureInChild(benchmark::State& state, Measure&& measure) {
  ChildResult r;
  for (auto _ : state) r = inChild(measure);
  if (r.ok) return r;
  state.SkipWithError(r.error);
  return std::nullopt;
}

void BM_ModelAndData(benchmark::State& state, bool branched) {
  const int bodies = static_cast<int>(state.range(0));
  const std::optional<ChildResult> measured =
      measureInChild(state, [&](ChildResult& out) { measureModelAndData(bodies, branched, out); });
  if (!measured) return;
  const ChildResult& r = *measured;
  state.counters["bodies"] = bodies;
  state.counters["model_bytes"] = bytes(r.modelBytes);
  state.counters["data_bytes"] = bytes(r.dataBytes);
  state.counters["model_bytes_per_body"] = r.modelBytes / bodies;
  state.counters["data_bytes_per_body"] = r.dataBytes / bodies;
}

void BM_Simulation(benchmark::State& state, bool branched) {
  const int bodies = static_cast<int>(state.range(0));
  const std::optional<ChildResult> measured =
      measureInChild(state, [&](ChildResult& out) { measureSimulation(bodies, branched, out); });
  if (!measured) return;
  const ChildResult& r = *measured;
  if (r.allocationsPerHop != 0) {
    std::fprintf(stderr,
                 "hopsim_bench_memory: a steady-state hop of the %s of %d bodies allocates %g "
                 "times\n",
                 branched ? "tree" : "chain", bodies, r.allocationsPerHop);
    checkFailed = true;
  }
  state.counters["bodies"] = bodies;
  state.counters["resident_bytes"] = bytes(r.residentBytes);
  state.counters["bytes_per_body"] = r.residentBytes / bodies;
  state.counters["built_bytes"] = bytes(r.builtBytes);
  state.counters["build_s"] = r.buildSeconds;
  state.counters["hop_s"] = r.hopSeconds;
  state.counters["allocs_per_hop"] = r.allocationsPerHop;
}

// One iteration each: a measurement is one child, and its time is the child's whole run.
#define HOPSIM_MEMORY_SIZES                                                                  \
  ArgName("bodies")->Arg(1000)->Arg(10000)->Arg(100000)->Iterations(1)->UseRealTime()->Unit( \
      benchmark::kMillisecond)
BENCHMARK_CAPTURE(BM_ModelAndData, chain, false)->HOPSIM_MEMORY_SIZES;
BENCHMARK_CAPTURE(BM_ModelAndData, tree, true)->HOPSIM_MEMORY_SIZES;
BENCHMARK_CAPTURE(BM_Simulation, chain, false)->HOPSIM_MEMORY_SIZES;
BENCHMARK_CAPTURE(BM_Simulation, tree, true)->HOPSIM_MEMORY_SIZES;

}  // namespace
}  // namespace hopsim::bench

// HOPSIM_BENCHMARK_MAIN's context, with the check's status as the exit status.
int main(int argc, char** argv) {
  hopsim::bench::addBuildContext();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return hopsim::bench::checkFailed ? 1 : 0;
}
