// What Python costs a run script: one Python event callback, one get and one set by
// path, and a hop of a Python FlowModel against the same model in C++.
//
// The benchmark embeds the interpreter and drives the package the build tree holds
// (HOPSIM_PYTHON_DIR), calling it through pybind11 as a run script would: every number
// includes the Python-to-C++ call a script pays. Build it with the Python module
// (HOPSIM_PYTHON=ON); run build/bench/hopsim_bench_python.

#include <benchmark/benchmark.h>
#include <pybind11/embed.h>

#include "bench_context.h"

namespace py = pybind11;

namespace {

// The scenarios, in Python: a sine drives a gain (C++ Gain or its Python twin) at 1 kHz.
constexpr const char* kScenarios = R"(
import hopsim

class PyGain(hopsim.FlowModel):
    """y = k u, the Python twin of the C++ Gain (vectors: numpy arrays)."""
    k = hopsim.Param(float, default=1.0)
    u = hopsim.FlowIn(float, length="n")
    y = hopsim.FlowOut(float, length="n", feeds_from=["u"])

    def update_flow_outs(self, t):
        self.y = self.k * self.u

class PyScalarGain(hopsim.FlowModel):
    """y = k u on floats."""
    k = hopsim.Param(float, default=1.0)
    u = hopsim.FlowIn(float)
    y = hopsim.FlowOut(float, feeds_from=["u"])

    def update_flow_outs(self, t):
        self.y = self.k * self.u

def gain_chain(python_gain):
    sim = hopsim.Simulation(io_step_size=1e-3)
    sim.add_signal("wave")
    sim.add_signal("out")
    sim.add_model("SineWave", "sine", {"frequency": 2.0})
    if python_gain:
        sim.add_model((PyScalarGain if python_gain == "scalar" else PyGain)("gain", k=3.0))
    else:
        sim.add_model("Gain", "gain", {"k": 3.0})
    sim.tie("sine", "y", "wave")
    sim.tie("gain", "u", "wave")
    sim.tie("gain", "y", "out")
    sim.lock()
    return sim

def with_end_hop_event(sim):
    sim.register_end_hop_event("probe", lambda s, t: None)
    return sim
)";

/// The scenarios' namespace. Never released: it must not outlive the interpreter's finalization.
py::object scenarios() {
  static const auto* module = [] {
    py::module_::import("sys").attr("path").attr("insert")(0, HOPSIM_PYTHON_DIR);
    py::dict globals;
    py::exec(kScenarios, globals);
    return new py::object(py::module_::import("types").attr("SimpleNamespace")(**globals));
  }();
  return *module;
}

/// One hop of the C++ chain, the baseline of the two below.
void BM_HopCppGain(benchmark::State& state) {
  py::object sim = scenarios().attr("gain_chain")(false);
  py::object step = sim.attr("step");
  for (auto _ : state) step();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HopCppGain);

/// One hop with the gain written in Python: the difference to BM_HopCppGain is the cost of a
/// Python model's update_flow_outs (one call, one input read, one output write).
void BM_HopPythonGain(benchmark::State& state) {
  py::object sim = scenarios().attr("gain_chain")(true);
  py::object step = sim.attr("step");
  for (auto _ : state) step();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HopPythonGain);

/// The same with float fields: no numpy array is made or read.
void BM_HopPythonScalarGain(benchmark::State& state) {
  py::object sim = scenarios().attr("gain_chain")("scalar");
  py::object step = sim.attr("step");
  for (auto _ : state) step();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HopPythonScalarGain);

/// One hop of the C++ chain with an end-hop event whose callback is a Python lambda: the
/// difference to BM_HopCppGain is the cost of one Python event callback.
void BM_HopWithPythonEvent(benchmark::State& state) {
  py::object sim = scenarios().attr("with_end_hop_event")(scenarios().attr("gain_chain")(false));
  py::object step = sim.attr("step");
  for (auto _ : state) step();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HopWithPythonEvent);

/// sim.get("signals.out") from Python.
void BM_GetByPath(benchmark::State& state) {
  py::object sim = scenarios().attr("gain_chain")(false);
  sim.attr("step")();
  py::object get = sim.attr("get");
  py::str path("signals.out");
  for (auto _ : state) benchmark::DoNotOptimize(get(path).ptr());
}
BENCHMARK(BM_GetByPath);

/// sim.set("models.gain.params.k", 2.5) from Python (a validated param set).
void BM_SetByPath(benchmark::State& state) {
  py::object sim = scenarios().attr("gain_chain")(false);
  py::object set = sim.attr("set");
  py::str path("models.gain.params.k");
  py::float_ value(2.5);
  for (auto _ : state) set(path, value);
}
BENCHMARK(BM_SetByPath);

}  // namespace

int main(int argc, char** argv) {
  py::scoped_interpreter interpreter;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // HOPSIM_BENCHMARK_MAIN's context, with the interpreter alive around the run.
  hopsim::bench::addBuildContext();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
