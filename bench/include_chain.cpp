// Cost of a chain of includes (docs/scenario-yaml.md#includes): Scenario::load of a scenario
// whose N included files each include the next and define one signal, for N = 1000, 4000 and
// 16000. The time per include staying flat as N grows 16-fold is the linear cost the include
// walk promises (a walk that searched the chain, or merged each file's definitions into every
// file above it, grows with N per include); the BigO line fits the times to N.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "bench_context.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/signals/error.h"

namespace hopsim::bench {
namespace {

/// A directory holding top.yaml and the chain c0.yaml ... c<N-1>.yaml, removed when it goes.
class IncludeChain {
 public:
  explicit IncludeChain(int count)
      : dir_(
            std::filesystem::temp_directory_path() /
            ("hopsim-bench-includes-" + std::to_string(::getpid()) + "-" + std::to_string(count))) {
    std::filesystem::create_directories(dir_);
    write("top.yaml", "hopsim: 1\nsimulation: {end_time: 1}\ninclude: [c0.yaml]\n");
    for (int i = 0; i < count; ++i) {
      std::string text = "hopsim: 1\nsignals: {s" + std::to_string(i) + ": {}}\n";
      if (i + 1 < count) text += "include: [c" + std::to_string(i + 1) + ".yaml]\n";
      write("c" + std::to_string(i) + ".yaml", text);
    }
  }
  ~IncludeChain() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  IncludeChain(const IncludeChain&) = delete;
  IncludeChain& operator=(const IncludeChain&) = delete;

  std::string top() const { return (dir_ / "top.yaml").string(); }

 private:
  void write(const std::string& name, const std::string& text) const {
    std::ofstream out(dir_ / name);
    out << text;
    if (!out) throw Error("cannot write " + (dir_ / name).string());
  }

  std::filesystem::path dir_;
};

void BM_IncludeChain(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  const IncludeChain chain(count);
  for (auto _ : state) {
    std::unique_ptr<Scenario> scenario = Scenario::load(chain.top());
    benchmark::DoNotOptimize(scenario.get());
  }
  state.SetComplexityN(count);
  state.counters["per_include"] =
      benchmark::Counter(static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}
BENCHMARK(BM_IncludeChain)
    ->Arg(1000)
    ->Arg(4000)
    ->Arg(16000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN();
