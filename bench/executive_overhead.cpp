// Executive overhead (docs/performance.md, "Executive overhead per model per hop" and "The
// framework against a hand-written loop").
//
// BM_ExecutiveChain / BM_MonolithicChain: a chain of N trivial FlowModels (y = u + 1) is advanced
// one default-period hop per iteration; the time per hop divided by N is what the executive
// costs per model, because the models themselves do almost nothing. The same chain written as a
// plain loop over doubles is the floor.
//
// BM_LinearChain<n>: the same computation done twice, as a hopsim dataflow and as a hand-written
// monolithic loop, and the ratio of the two (the executive-overhead ratio): 100 models in a chain,
// each a discrete-time linear system with n states, one input and one output, x <- A x + B u at
// each hop start and y = C x (no feed-through, as LowPass), written per instance and with batch
// methods. n = 2, 4, 8, 16, 32.
//
// BM_GainChain<n>: the library's Gain (y = k u on signals of n elements), 100 of them in a chain,
// against the same products written as a loop.

#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench_context.h"
#include "hopsim/core/flow_model.h"
#include "hopsim/core/model_batch.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/gain.h"

namespace hopsim::bench {
namespace {

/// The cheapest model that still exercises a port read and a port write: y = u + 1, with
/// feed-through so that the chain is a real dependency the sort must respect.
class AddOne final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("AddOne", ModelKind::Flow, "Adds one to its input: y = u + 1.") {}
    InKey<double> u = flowIn<double>("u").describe("input u");
    OutKey<double> y = flowOut<double>("y").feedsFrom(u).describe("output y = u + 1");
  };
  /// The one declaration shared by every instance.
  static const Declaration& declaration() {
    static const Declaration declaration;
    return declaration;
  }

  /// @param name the model's name in the simulation.
  explicit AddOne(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double /*t*/) override { out(d_.y) = in(d_.u) + 1.0; }

 private:
  const Declaration& d_ = declaration();
};

std::string signalName(std::int64_t i) { return "s" + std::to_string(i); }

/// Counters shared by both benchmarks, so their rows compare directly: time per model per hop
/// and time per hop. kIsIterationInvariantRate divides value * iterations by the measured time
/// and kInvert turns that rate into seconds per unit. The console prints them with an SI prefix
/// ("41.7ns"); JSON and CSV output carry plain seconds. The counters are left in seconds rather
/// than pre-scaled to ns because the console appends an "s" unit to every inverted rate, which
/// would print ns values as seconds.
void reportPerModelHop(benchmark::State& state, std::int64_t models) {
  const auto kSecondsPer =
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert;
  state.counters["per_model_hop"] = benchmark::Counter(static_cast<double>(models), kSecondsPer);
  state.counters["per_hop"] = benchmark::Counter(1.0, kSecondsPer);
}

/// The chain s0 -> m0 -> s1 -> m1 -> ... -> s{N}, run by the executive.
void BM_ExecutiveChain(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Simulation sim;  // default period 0.01 s, one integration sub-step
  for (std::int64_t i = 0; i <= n; ++i) sim.addSignal(signalName(i), ElementType::Double);
  sim.set("signals.s0", 0.0);
  // Reverse creation order: the stable topological sort must reverse it completely, so the
  // benchmark does not flatter an executive that happens to run models in creation order.
  for (std::int64_t i = n - 1; i >= 0; --i) {
    const std::string name = "m" + std::to_string(i);
    sim.addModel<AddOne>(name);
    sim.tie(name, "u", signalName(i));
    sim.tie(name, "y", signalName(i + 1));
  }
  sim.lock();
  if (sim.modelOrder().flowModels.front() != "m0") {
    state.SkipWithError("the sort did not put m0 first");
    return;
  }
  // Warm-up: the step-zero update, processParams and first-use capacity growth happen here,
  // so the timed hops are steady-state hops.
  for (int i = 0; i < 100; ++i) sim.advanceOverHop();

  for (auto _ : state) sim.advanceOverHop();

  // A chain that was not run in dependency order would still be right after the first sweep,
  // so this checks the computation, not the order (the order is checked above).
  if (std::get<double>(sim.get("signals." + signalName(n))) != static_cast<double>(n)) {
    state.SkipWithError("the chain computed a wrong value");
    return;
  }
  reportPerModelHop(state, n);
}

/// The same chain as a hand-written loop: one pass of y = u + 1 through N + 1 doubles per
/// iteration. No executive, no virtual calls, no ports: the floor for the same arithmetic.
void BM_MonolithicChain(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  std::vector<double> s(static_cast<std::size_t>(n) + 1, 0.0);
  for (auto _ : state) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) s[i + 1] = s[i] + 1.0;
    // Keeps the stores: without it the compiler may keep the chain in registers or drop
    // iterations whose results nobody reads.
    benchmark::DoNotOptimize(s.data());
    benchmark::ClobberMemory();
  }
  if (s[static_cast<std::size_t>(n)] != static_cast<double>(n)) {
    state.SkipWithError("the loop computed a wrong value");
    return;
  }
  reportPerModelHop(state, n);
}

// ---- The framework against a hand-written loop ------------------------------------------------

/// One hop of a linear system with N states: x <- A x + B u. Shared by the model and the
/// hand-written loop, so that both do the same arithmetic in the same order and their results
/// can be compared bit for bit.
template <int N>
inline void linearStep(const double* A, const double* B, double* x, double u) {
  using Vector = Eigen::Matrix<double, N, 1>;
  Eigen::Map<Vector> state(x);
  state =
      Eigen::Map<const Eigen::Matrix<double, N, N>>(A) * state + Eigen::Map<const Vector>(B) * u;
}

/// The output y = C x of a linear system with N states.
template <int N>
inline double linearOutput(const double* C, const double* x) {
  using Vector = Eigen::Matrix<double, N, 1>;
  return Eigen::Map<const Vector>(C).dot(Eigen::Map<const Vector>(x));
}

/// A discrete-time linear system with N states, one input u and one output y, written as a model
/// author would (docs/model-authors.md, LowPass): A, B, C are params, x a discrete state updated
/// in startHop, y = C x published with no feed-through at ENDHOP (x changes only in startHop).
template <int N>
class LinearSystem final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration()
        : ModelSpec("LinearSystem" + std::to_string(N), ModelKind::Flow,
                    "Discrete-time linear system: x <- A x + B u at each hop start, y = C x.") {
      setOutputGranularity(Sweep::EndHop);
    }
    ParamKey<Eigen::VectorXd> A =
        param<Eigen::VectorXd>("A").length(N * N).describe("state matrix, column-major");
    ParamKey<Eigen::VectorXd> B = param<Eigen::VectorXd>("B").length(N).describe("input matrix");
    ParamKey<Eigen::VectorXd> C = param<Eigen::VectorXd>("C").length(N).describe("output matrix");
    DiscreteStateKey<Eigen::VectorXd> x =
        discreteState<Eigen::VectorXd>("x").length(N).defaultValue(0.0).describe("state");
    InKey<double> u = flowIn<double>("u").describe("input");
    OutKey<double> y = flowOut<double>("y").noFeedThrough().describe("output y = C x");
  };
  static const Declaration& declaration() {
    static const Declaration declaration;
    return declaration;
  }

  explicit LinearSystem(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double /*t0*/, double /*t1*/) override {
    linearStep<N>(param(d_.A).data(), param(d_.B).data(), state(d_.x).data(), in(d_.u));
  }
  void updateFlowOuts(double /*t*/) override {
    out(d_.y) = linearOutput<N>(param(d_.C).data(), state(d_.x).data());
  }

 private:
  const Declaration& d_ = declaration();
};

/// The same system written with batch methods (docs/model-authors.md, "Batches"): the
/// executive calls each method once for the whole chain, whose fields it hands over as columns.
template <int N>
class LinearSystemBatched final : public FlowModel {
 public:
  using Declaration = typename LinearSystem<N>::Declaration;
  static const Declaration& declaration() { return LinearSystem<N>::declaration(); }

  explicit LinearSystemBatched(std::string name) : FlowModel(std::move(name), declaration()) {}
  static void startHopBatch(const ModelBatch<LinearSystemBatched>& batch, double /*t0*/,
                            double /*t1*/) {
    const Declaration& d = declaration();
    const auto A = batch.param(d.A);
    const auto B = batch.param(d.B);
    const auto x = batch.state(d.x);
    const auto u = batch.in(d.u);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      linearStep<N>(A[k].data(), B[k].data(), x[k].data(), u[k]);
    }
  }
  static void updateFlowOutsBatch(const ModelBatch<LinearSystemBatched>& batch, double /*t*/) {
    const Declaration& d = declaration();
    const auto C = batch.param(d.C);
    const auto x = batch.state(d.x);
    const auto y = batch.out(d.y);
    for (std::size_t k = 0; k < batch.size(); ++k) y[k] = linearOutput<N>(C[k].data(), x[k].data());
  }
};

/// The matrices of `models` systems with N states, seeded: entries of A uniform in
/// [-0.9 / N, 0.9 / N] (so |A|_inf <= 0.9 and every system is stable), B in [-1, 1], C in
/// [-1 / N, 1 / N]. Stored contiguously, system after system, as the hand-written loop wants them.
struct LinearChainData {
  int n;
  std::vector<double> A, B, C;
  LinearChainData(int models, int states) : n(states) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> uni(-1.0, 1.0);
    const auto count = static_cast<std::size_t>(models);
    const auto size = static_cast<std::size_t>(states);
    A.resize(count * size * size);
    B.resize(count * size);
    C.resize(count * size);
    for (double& a : A) a = 0.9 / states * uni(rng);
    for (double& b : B) b = uni(rng);
    for (double& c : C) c = uni(rng) / states;
  }
  /// The `count` entries of `values` that belong to system i, as a param value.
  static std::vector<double> slice(const std::vector<double>& values, int i, int count) {
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(i) * count;
    return {first, first + count};
  }
};

/// The hand-written equivalent of one hop of the dataflow: every system steps with the output
/// its predecessor published at the end of the previous hop, then every output is published.
template <int N>
struct MonolithicLinearChain {
  const LinearChainData& data;
  std::vector<double> x, y;
  double input;
  MonolithicLinearChain(const LinearChainData& d, int models, double u0)
      : data(d),
        x(static_cast<std::size_t>(models) * N, 0.0),
        y(static_cast<std::size_t>(models), 0.0),
        input(u0) {}
  void hop() {
    const std::size_t models = y.size();
    for (std::size_t i = 0; i < models; ++i) {
      linearStep<N>(data.A.data() + i * N * N, data.B.data() + i * N, x.data() + i * N,
                    i == 0 ? input : y[i - 1]);
    }
    for (std::size_t i = 0; i < models; ++i) {
      y[i] = linearOutput<N>(data.C.data() + i * N, x.data() + i * N);
    }
  }
};

/// Interleaved timing of the dataflow and the hand-written loop, as BM_LinearChain and
/// BM_GainChain report it: each benchmark iteration runs kBatch hops of each, timed with
/// steady_clock, so that both see the same machine load; counters `executive_per_hop`,
/// `monolithic_per_hop` (seconds) and their `ratio`.
template <class Dataflow, class Loop>
void timeInterleaved(benchmark::State& state, Dataflow&& dataflowHop, Loop&& loopHop) {
  constexpr int kBatch = 20;
  using Clock = std::chrono::steady_clock;
  Clock::duration executive{}, monolithic{};
  for (auto _ : state) {
    const Clock::time_point t0 = Clock::now();
    for (int k = 0; k < kBatch; ++k) dataflowHop();
    const Clock::time_point t1 = Clock::now();
    for (int k = 0; k < kBatch; ++k) loopHop();
    benchmark::ClobberMemory();
    const Clock::time_point t2 = Clock::now();
    executive += t1 - t0;
    monolithic += t2 - t1;
  }
  const double hops = static_cast<double>(state.iterations()) * kBatch;
  const double executiveSeconds = std::chrono::duration<double>(executive).count() / hops;
  const double monolithicSeconds = std::chrono::duration<double>(monolithic).count() / hops;
  state.counters["executive_per_hop"] = executiveSeconds;
  state.counters["monolithic_per_hop"] = monolithicSeconds;
  state.counters["ratio"] = executiveSeconds / monolithicSeconds;
}

/// 100 System models (LinearSystem<N> or LinearSystemBatched<N>) tied s0 -> m0 -> s1 -> ... ->
/// s100 (created in reverse order, as in BM_ExecutiveChain), and the same chain as a
/// hand-written loop, timed interleaved (timeInterleaved).
template <template <int> class System, int N>
void BM_LinearChain(benchmark::State& state) {
  constexpr int kModels = 100;
  constexpr double kInput = 1.0;
  const LinearChainData data(kModels, N);
  Simulation sim;
  for (int i = 0; i <= kModels; ++i) sim.addSignal(signalName(i), ElementType::Double);
  sim.set("signals.s0", kInput);
  for (int i = kModels - 1; i >= 0; --i) {
    const std::string name = "m" + std::to_string(i);
    auto& model = sim.addModel<System<N>>(name);
    model.setParam("A", LinearChainData::slice(data.A, i, N * N));
    model.setParam("B", LinearChainData::slice(data.B, i, N));
    model.setParam("C", LinearChainData::slice(data.C, i, N));
    sim.tie(name, "u", signalName(i));
    sim.tie(name, "y", signalName(i + 1));
  }
  sim.lock();
  MonolithicLinearChain<N> loop(data, kModels, kInput);

  // Both start from x = 0 and run the same number of hops, warm-up included, so their states
  // must then be equal bit for bit (same functions, same data, same order of operations). The
  // comparison reads every state back through the variable tree.
  const auto compare = [&](const char* when) {
    for (int i = 0; i < kModels; ++i) {
      const auto x = std::get<std::vector<double>>(
          sim.get("models.m" + std::to_string(i) + ".discreteStates.x"));
      for (int k = 0; k < N; ++k) {
        const auto at = static_cast<std::size_t>(k);
        const double expected = loop.x[static_cast<std::size_t>(i * N + k)];
        if (x[at] != expected) {
          std::fprintf(stderr,
                       "executive benchmark: %s, model m%d: state x[%d] = %.17g from the "
                       "dataflow, %.17g from the hand-written loop\n",
                       when, i, k, x[at], expected);
          std::exit(1);
        }
      }
    }
    const double last = std::get<double>(sim.get("signals." + signalName(kModels)));
    if (last != loop.y.back()) {
      std::fprintf(stderr, "executive benchmark: %s: output %.17g against %.17g\n", when, last,
                   loop.y.back());
      std::exit(1);
    }
  };
  for (int i = 0; i < 100; ++i) {
    sim.advanceOverHop();
    loop.hop();
  }
  compare("after the warm-up, before timing");

  timeInterleaved(
      state, [&] { sim.advanceOverHop(); },
      [&] {
        loop.hop();
        benchmark::DoNotOptimize(loop.x.data());
      });
  compare("after timing");
  state.counters["models"] = kModels;
  state.counters["states"] = N;
}

/// 100 library Gains tied s0 -> g0 -> s1 -> ... -> s100 on signals of N elements, each made with
/// std::make_unique as user code makes them, and the same products as a hand-written loop:
/// s[i + 1] = k_i s[i]. Gain has
/// feed-through and output granularity ALL, so the executive computes it at every sweep of the
/// hop; the loop makes as many passes per hop as the dataflow writes each signal (counted from
/// the signals' freshness counters), so that the ratio is the cost of the calls, not of the
/// semantics. Both must agree bit for bit before and after timing.
template <int N>
void BM_GainChain(benchmark::State& state) {
  constexpr int kModels = 100;
  Simulation sim;
  std::vector<double> gains(kModels);
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> uni(0.5, 1.5);
  for (double& k : gains) k = uni(rng);
  for (int i = 0; i <= kModels; ++i) sim.addSignal(signalName(i), ElementType::Double, N);
  sim.set("signals.s0", std::vector<double>(N, 1.0));
  for (int i = kModels - 1; i >= 0; --i) {
    const std::string name = "g" + std::to_string(i);
    Model& gain = sim.addModel(std::make_unique<models::Gain>(name));
    gain.setParam("k", gains[static_cast<std::size_t>(i)]);
    sim.tie(name, "u", signalName(i));
    sim.tie(name, "y", signalName(i + 1));
  }
  sim.lock();
  for (int i = 0; i < 100; ++i) sim.advanceOverHop();
  const std::uint64_t before = sim.signal(signalName(kModels)).version();
  sim.advanceOverHop();
  const auto passes = static_cast<int>(sim.signal(signalName(kModels)).version() - before);

  std::vector<double> s(static_cast<std::size_t>(kModels + 1) * N, 1.0);
  const auto loopHop = [&] {
    for (int pass = 0; pass < passes; ++pass) {
      for (std::size_t i = 0; i < kModels; ++i) {
        using Vector = Eigen::Matrix<double, N, 1>;
        Eigen::Map<Vector>(s.data() + (i + 1) * N) =
            gains[i] * Eigen::Map<const Vector>(s.data() + i * N);
      }
    }
    benchmark::DoNotOptimize(s.data());
  };
  const auto compare = [&](const char* when) {
    loopHop();
    const auto last = std::get<std::vector<double>>(sim.get("signals." + signalName(kModels)));
    for (int k = 0; k < N; ++k) {
      if (last[static_cast<std::size_t>(k)] != s[static_cast<std::size_t>(kModels * N + k)]) {
        std::fprintf(stderr, "gain chain benchmark: %s: s100[%d] = %.17g against %.17g\n", when, k,
                     last[static_cast<std::size_t>(k)],
                     s[static_cast<std::size_t>(kModels * N + k)]);
        std::exit(1);
      }
    }
  };
  compare("before timing");
  timeInterleaved(
      state, [&] { sim.advanceOverHop(); }, loopHop);
  compare("after timing");
  state.counters["models"] = kModels;
  state.counters["states"] = N;
  state.counters["passes"] = passes;
}

BENCHMARK(BM_LinearChain<LinearSystem, 2>)->Name("BM_LinearChain/models:100/states:2");
BENCHMARK(BM_LinearChain<LinearSystem, 4>)->Name("BM_LinearChain/models:100/states:4");
BENCHMARK(BM_LinearChain<LinearSystem, 8>)->Name("BM_LinearChain/models:100/states:8");
BENCHMARK(BM_LinearChain<LinearSystem, 16>)->Name("BM_LinearChain/models:100/states:16");
BENCHMARK(BM_LinearChain<LinearSystem, 32>)->Name("BM_LinearChain/models:100/states:32");
BENCHMARK(BM_LinearChain<LinearSystemBatched, 2>)
    ->Name("BM_LinearChainBatched/models:100/states:2");
BENCHMARK(BM_LinearChain<LinearSystemBatched, 4>)
    ->Name("BM_LinearChainBatched/models:100/states:4");
BENCHMARK(BM_LinearChain<LinearSystemBatched, 8>)
    ->Name("BM_LinearChainBatched/models:100/states:8");
BENCHMARK(BM_LinearChain<LinearSystemBatched, 16>)
    ->Name("BM_LinearChainBatched/models:100/states:16");
BENCHMARK(BM_LinearChain<LinearSystemBatched, 32>)
    ->Name("BM_LinearChainBatched/models:100/states:32");

BENCHMARK(BM_GainChain<2>)->Name("BM_GainChain/models:100/states:2");
BENCHMARK(BM_GainChain<8>)->Name("BM_GainChain/models:100/states:8");
BENCHMARK(BM_GainChain<32>)->Name("BM_GainChain/models:100/states:32");

BENCHMARK(BM_ExecutiveChain)->ArgName("models")->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_MonolithicChain)->ArgName("models")->Arg(10)->Arg(100)->Arg(1000);

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN()
