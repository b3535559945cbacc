// SignalMux against out[i] = in[muxTable[i]]: selection, repetition and reordering; current in
// every derivative evaluation between ContinuousModels; bad indices refused.

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

std::vector<double> vec(const Value& value) {
  if (const auto* x = std::get_if<double>(&value)) return {*x};
  return std::get<std::vector<double>>(value);
}

}  // namespace

TEST_CASE(
    "SignalMux: out[i] = in[muxTable[i]] with repeats, for inputs and outputs of any length") {
  Simulation sim({.ioStepSize = 0.01});
  sim.addSignal("in", ElementType::Double, 5);
  sim.addSignal("out", ElementType::Double, 4);
  sim.addModel(models::standardRegistry().create(
      "SignalMux", "mux", {{"muxTable", std::vector<std::int64_t>{4, 0, 0, 2}}}));
  sim.tie("mux", "in", "in");
  sim.tie("mux", "out", "out");
  sim.set("signals.in", std::vector<double>{10, 20, 30, 40, 50});
  sim.lock();
  // Read only by the user: the declared hop-boundary granularity, no derivative sweeps.
  CHECK(sim.outputGranularity("mux") == (Sweep::StartHop | Sweep::EndHop));
  sim.advanceOverHop();
  CHECK(vec(sim.get("signals.out")) == std::vector<double>{50, 10, 10, 30});
  // A new input shows at the next hop boundary; a new table (same length) too.
  sim.set("signals.in", std::vector<double>{1, 2, 3, 4, 5});
  sim.set("models.mux.params.muxTable", std::vector<std::int64_t>{1, 1, 3, 4});
  sim.advanceOverHop();
  CHECK(vec(sim.get("signals.out")) == std::vector<double>{2, 2, 4, 5});
}

TEST_CASE("SignalMux: between ContinuousModels it is current in every derivative evaluation") {
  // src integrates the constant [1, 2], so src.y = [t, 2t]; the mux picks element 1 (2t) and
  // sink integrates it to t^2. rk4 integrates this polynomial exactly only if the mux output is
  // current at every stage; held over the hop it would give the rectangle rule, t^2 - h t.
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  sim.addSignal("rate", ElementType::Double, 2);
  sim.addSignal("ramp", ElementType::Double, 2);
  sim.addSignal("picked", ElementType::Double, 1);
  sim.addSignal("square", ElementType::Double, 1);
  const ModelRegistry& registry = models::standardRegistry();
  sim.addModel(registry.create("ContinuousIntegrator", "src"));
  sim.addModel(registry.create("SignalMux", "mux", {{"muxTable", std::vector<std::int64_t>{1}}}));
  sim.addModel(registry.create("ContinuousIntegrator", "sink"));
  sim.tie("src", "u", "rate");
  sim.tie("src", "y", "ramp");
  sim.tie("mux", "in", "ramp");
  sim.tie("mux", "out", "picked");
  sim.tie("sink", "u", "picked");
  sim.tie("sink", "y", "square");
  sim.set("signals.rate", std::vector<double>{1.0, 2.0});
  sim.lock();
  CHECK(sim.outputGranularity("mux").contains(Sweep::PreDeriv));
  sim.advanceTimeTo(1.0);
  CHECK(vec(sim.get("signals.square"))[0] == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(vec(sim.get("signals.picked"))[0] == doctest::Approx(2.0).epsilon(1e-12));
}

TEST_CASE("SignalMux: an index outside the input is refused at lock() and when set") {
  Simulation sim;
  sim.addSignal("in", ElementType::Double, 3);
  sim.addSignal("out", ElementType::Double, 2);
  sim.addModel(models::standardRegistry().create("SignalMux", "mux",
                                                 {{"muxTable", std::vector<std::int64_t>{0, 3}}}));
  sim.tie("mux", "in", "in");
  sim.tie("mux", "out", "out");
  CHECK_THROWS_WITH_AS(sim.lock(),
                       doctest::Contains("models.mux.params.muxTable[1]: value 3 is not an index "
                                         "of 'in' (expected 0 to 2"),
                       InputError);
  sim.set("models.mux.params.muxTable", std::vector<std::int64_t>{0, 2});
  sim.set("signals.in", std::vector<double>{1, 2, 3});
  sim.lock();
  sim.advanceOverHop();
  CHECK(vec(sim.get("signals.out")) == std::vector<double>{1, 3});
  sim.set("models.mux.params.muxTable", std::vector<std::int64_t>{-1, 2});
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(), doctest::Contains("muxTable[0]: value -1"),
                       InputError);
}

}  // namespace hopsim
