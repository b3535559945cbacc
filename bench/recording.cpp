// What streaming a recording costs a run (docs/recording.md, "Cost of streaming"): a 50-body
// PIN chain integrated by rk4 in 1 ms hops, run without recording and with its 100
// coordinates (multibody.Q and multibody.U) recorded at 1 kHz, one sample at the end of every
// hop, streamed to a file: CSV, HDF5, or kept in memory only (for comparison).
//
// Each iteration runs a batch of kBatch hops of the plain run, then kBatch hops of the recorded
// one, each batch timed with steady_clock and with the thread's CPU clock (interleaved, so that
// both see the same machine load). Counters: `plain_per_hop` and `recorded_per_hop` (wall
// time, seconds) and their `ratio`, the recorded run's wall time over the plain run's; and
// `cpu_ratio`, the same for the CPU time of the thread that runs them, which a loaded machine
// disturbs less (the CSV sink's own thread, which formats and writes, is not in it). The recorded
// run's file grows in the system's temporary directory and is removed at the end; both runs start
// over from the initial state every kHopsPerRun hops, as the chain swung longer goes unstable at
// rk4's fixed step.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_context.h"
#include "hopsim/core/csv_sink.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/viewer/hdf5_recording.h"

namespace hopsim::bench {
namespace {

using namespace hopsim::multibody;

constexpr int kBodies = 50;
constexpr double kHop = 1e-3;
constexpr int kBatch = 100;
constexpr int kHopsPerRun = 1000;
constexpr double kInitialAngle = 0.3;

/// What the recorded run's samples go to; None records nothing, for the measurement's own
/// bias (two identical runs).
enum class Sink { None, Memory, Csv, Hdf5 };

/// A chain of kBodies PIN links about x, 0.5 m apart, each 1 kg with its CM at mid-link,
/// locked in a Simulation of 1 ms hops with one rk4 step each.
std::unique_ptr<Simulation> makeChain() {
  auto sim =
      std::make_unique<Simulation>(SimulationOptions{.ioStepSize = kHop, .integrator = "rk4"});
  MultibodyModel& model = sim->multibody().editModel();
  model.setGravity({0, 0, -9.81});
  const SpatialInertia link =
      SpatialInertia::fromCmInertia(1.0, {0, 0, -0.25}, Vector3(0.02, 0.02, 0.001).asDiagonal());
  for (int b = 1; b <= kBodies; ++b) {
    model.addBody("link" + std::to_string(b), b - 1, link, Hinge::pin(Vector3::UnitX()),
                  b == 1 ? RigidTransform() : RigidTransform::fromTranslation({0, 0, -0.5}));
  }
  sim->multibody().q().setConstant(kInitialAngle);
  sim->lock();
  return sim;
}

/// The CPU time of the calling thread, s.
double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

void restart(Simulation& sim) {
  sim.multibody().q().setConstant(kInitialAngle);
  sim.multibody().u().setZero();
}

void BM_StreamedRecording(benchmark::State& state) {
  const auto sink = static_cast<Sink>(state.range(0));
  const std::unique_ptr<Simulation> plain = makeChain();
  const std::unique_ptr<Simulation> recorded = makeChain();
  std::optional<Recorder> recorder;
  if (sink != Sink::None) {
    recorder.emplace(*recorded, std::vector<std::string>{"multibody.Q", "multibody.U"}, 1.0 / kHop);
    if (recorder->columns().size() != 2 * kBodies + 1) {
      state.SkipWithError("expected 100 recorded columns");
      return;
    }
  }
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("hopsim_bench_recording_" + std::to_string(::getpid()) +
                                      (sink == Sink::Hdf5 ? ".h5" : ".csv"));
  if (sink == Sink::Csv) recorder->streamTo(std::make_unique<CsvSink>(file.string(), ""));
  if (sink == Sink::Hdf5) recorder->streamTo(viewer::hdf5Sink(file.string(), "", ""));
  if (sink == Sink::Memory) recorder->reserve(1 << 20);

  using Clock = std::chrono::steady_clock;
  Clock::duration plainTime{}, recordedTime{};
  double plainCpu = 0.0, recordedCpu = 0.0;
  int hops = 0;
  for (auto _ : state) {
    if (hops % kHopsPerRun == 0) {
      restart(*plain);
      restart(*recorded);
      // The in-memory recorder keeps at most its reserved rows: no reallocation is timed.
      if (sink == Sink::Memory && recorder->rows() + kHopsPerRun > (1 << 20)) {
        state.SkipWithError("the in-memory recording outgrew its reserved rows");
        break;
      }
    }
    const double cpuStart = threadCpuSeconds();
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < kBatch; ++i) plain->advanceOverHop();
    const Clock::time_point middle = Clock::now();
    const double cpuMiddle = threadCpuSeconds();
    for (int i = 0; i < kBatch; ++i) recorded->advanceOverHop();
    const Clock::time_point end = Clock::now();
    const double cpuEnd = threadCpuSeconds();
    plainTime += middle - start;
    recordedTime += end - middle;
    plainCpu += cpuMiddle - cpuStart;
    recordedCpu += cpuEnd - cpuMiddle;
    hops += kBatch;
  }
  if (recorder && recorder->streaming()) recorder->finishStream();
  std::error_code ignored;
  std::filesystem::remove(file, ignored);
  std::filesystem::remove(sidecarPath(file.string(), ".units.json"), ignored);
  std::filesystem::remove(sidecarPath(file.string(), ".status.json"), ignored);
  const double plainSeconds = std::chrono::duration<double>(plainTime).count() / hops;
  const double recordedSeconds = std::chrono::duration<double>(recordedTime).count() / hops;
  state.counters["plain_per_hop"] = plainSeconds;
  state.counters["recorded_per_hop"] = recordedSeconds;
  state.counters["ratio"] = recordedSeconds / plainSeconds;
  state.counters["cpu_ratio"] = recordedCpu / plainCpu;
  state.counters["samples"] = recorder ? static_cast<double>(recorder->rows()) : 0.0;
}

BENCHMARK(BM_StreamedRecording)
    ->ArgName("sink")
    ->Arg(static_cast<int>(Sink::None))
    ->Arg(static_cast<int>(Sink::Memory))
    ->Arg(static_cast<int>(Sink::Csv))
    ->Arg(static_cast<int>(Sink::Hdf5))
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN();
