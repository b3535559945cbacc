// A user-defined FlowModel in a complete program (docs/model-authors.md walks through it).
//
// LowPass, a first-order low-pass filter, is declared, implemented and registered next to the
// standard models; a standard SineWave drives it for 2 s; the filter output is compared at every
// hop with the analytic solution of the continuous filter, and with a twin written with batch
// methods. The program exits with status 1 if a comparison fails, so `ctest` catches a broken
// model or executive.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/core/flow_model.h"
#include "hopsim/core/model_batch.h"
#include "hopsim/core/model_reference.h"
#include "hopsim/core/model_registry.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace example {

/// A first-order low-pass filter, tau dy/dt = u - y. The input is read at the start of each hop
/// [t0, t1] and held across it, which makes the discrete update exact:
///   y(t1) = y(t0) + (1 - exp(-(t1 - t0) / tau)) (u(t0) - y(t0)).
/// The output is the state, so u does not feed through to y: the filter may close a dataflow
/// loop without a declared break.
class LowPass final : public hopsim::FlowModel {
 public:
  /// The one declaration of the class: what the seed's .mdl file held.
  struct Declaration : hopsim::ModelSpec {
    Declaration();
    /// No default: a user must set it before lock(). Bounds are inclusive; tau = 0 is
    /// meaningful (y(t1) = u(t0)), so the bound is tau >= 0.
    hopsim::ParamKey<double> tau = param<double>("tau").unit("s").min(0.0).describe(
        "time constant; 0 passes u through one hop late");
    hopsim::DiscreteStateKey<double> y =
        discreteState<double>("y").defaultValue(0.0).describe("filtered value, in the unit of u");
    hopsim::InKey<double> u = flowIn<double>("u").describe("input");
    hopsim::OutKey<double> yOut =
        flowOut<double>("y").noFeedThrough().describe("the filtered value y");
  };
  /// The declaration shared by every LowPass; ModelRegistry::add<LowPass>() looks for it.
  static const Declaration& declaration() {
    static const Declaration declaration;
    return declaration;
  }

  /// @param name the instance name, unique in its simulation ("filter").
  explicit LowPass(std::string name) : FlowModel(std::move(name), declaration()) {}

  /// Advances the state across the hop [t0, t1] (s) from the input at t0.
  void startHop(double t0, double t1) override {
    // expm1 keeps full precision when the hop is much shorter than tau; tau = 0 gives
    // -expm1(-inf) = 1.
    const double gain = -std::expm1(-(t1 - t0) / param(d_.tau));
    state(d_.y) += gain * (in(d_.u) - state(d_.y));
  }
  /// Publishes the state. Side-effect free, as every updateFlowOuts must be.
  void updateFlowOuts(double /*t*/) override { out(d_.yOut) = state(d_.y); }

 private:
  const Declaration& d_ = declaration();
};

LowPass::Declaration::Declaration()
    : ModelSpec("LowPass", hopsim::ModelKind::Flow,
                "First-order low-pass filter tau dy/dt = u - y, exact for an input held across "
                "each hop.") {
  // y changes only in startHop, and the ENDHOP sweep publishes it. A y set by path between hops
  // is published by the update the executive runs before the next hop (docs/executive.md,
  // "Values set between hops"). lock() raises this where a reader that feeds y through needs y
  // at more sweeps.
  setOutputGranularity(hopsim::Sweep::EndHop);
}

/// The same filter written with batch methods (docs/model-authors.md, "Batches"): one call
/// for every batch of consecutive LowPassBatched models, whose fields come as columns over the
/// batch. It shares LowPass's declaration, so its fields, paths and checks are LowPass's.
class LowPassBatched final : public hopsim::FlowModel {
 public:
  using Declaration = LowPass::Declaration;
  static const Declaration& declaration() { return LowPass::declaration(); }

  explicit LowPassBatched(std::string name) : FlowModel(std::move(name), declaration()) {}

  /// LowPass::startHop for each model of the batch, in order.
  static void startHopBatch(const hopsim::ModelBatch<LowPassBatched>& batch, double t0, double t1) {
    const Declaration& d = declaration();
    const auto tau = batch.param(d.tau);
    const auto y = batch.state(d.y);
    const auto u = batch.in(d.u);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const double gain = -std::expm1(-(t1 - t0) / tau[k]);
      y[k] += gain * (u[k] - y[k]);
    }
  }
  /// LowPass::updateFlowOuts for each model of the batch.
  static void updateFlowOutsBatch(const hopsim::ModelBatch<LowPassBatched>& batch, double /*t*/) {
    const Declaration& d = declaration();
    const auto y = batch.state(d.y);
    const auto yOut = batch.out(d.yOut);
    for (std::size_t k = 0; k < batch.size(); ++k) yOut[k] = y[k];
  }
};

/// The scenario: u = A sin(2 pi f t) into a filter with time constant tau, from y(0) = 0.
struct Scenario {
  static constexpr double kAmplitude = 2.0;   // V
  static constexpr double kFrequency = 1.0;   // Hz
  static constexpr double kTau = 0.1;         // s
  static constexpr double kIoStep = 0.001;    // s, the default period and so the hop length
  static constexpr double kDuration = 2.0;    // s
  static constexpr double kTolerance = 5e-5;  // V, see exactOutput

  /// The continuous filter's response, y(t) = A / (1 + (w tau)^2)
  /// (sin(w t) - w tau cos(w t) + w tau exp(-t / tau)) with w = 2 pi f.
  static double continuousResponse(double t) {
    const double w = 2.0 * std::numbers::pi * kFrequency;
    const double wtau = w * kTau;
    return kAmplitude / (1.0 + wtau * wtau) *
           (std::sin(w * t) - wtau * std::cos(w * t) + wtau * std::exp(-t / kTau));
  }
  /// What the filter should publish at a hop end t. It sees u sampled at each hop start and
  /// held, a staircase that lags u by half a hop on average, so its exact response is the
  /// continuous one delayed by h / 2 (h = kIoStep), up to a remainder of order
  /// A w h^2 / (12 tau) = 1e-5 V. A wrong discretization fails kTolerance by far: forward
  /// Euler's gain h / tau is off by 4.5e-3 V, and comparing without the delay by 5.3e-3 V.
  static double exactOutput(double t) { return continuousResponse(t - kIoStep / 2.0); }
};

double read(const hopsim::Simulation& sim, const char* path) {
  return std::get<double>(sim.get(path));
}

int run() {
  using hopsim::Simulation;

  // The standard library and the new class in one registry, so scenarios create either by
  // class name.
  hopsim::ModelRegistry registry;
  hopsim::models::registerStandardModels(registry);
  registry.add<LowPass>();

  std::cout << "hopsim example: a user-defined model (LowPass) driven by a SineWave\n\n";
  hopsim::writeModelReference(std::cout, registry.spec("LowPass"));

  Simulation sim({.startTime = 0.0, .ioStepSize = Scenario::kIoStep});
  sim.addSignal("u", hopsim::ElementType::Double, 1, "V", "filter input");
  sim.addSignal("y", hopsim::ElementType::Double, 1, "V", "filter output");
  sim.addModel(
      registry.create("SineWave", "source",
                      {{"amplitude", Scenario::kAmplitude}, {"frequency", Scenario::kFrequency}}));
  sim.addModel(registry.create("LowPass", "filter", {{"tau", Scenario::kTau}}));
  sim.tie("source", "y", "u");
  sim.tie("filter", "u", "u");
  sim.tie("filter", "y", "y");
  // The batch-method twin, on the same input: it must publish the same value at every hop.
  sim.addSignal("y_batched", hopsim::ElementType::Double, 1, "V", "twin filter output");
  sim.addModel<LowPassBatched>("filter_batched").setParam("tau", Scenario::kTau);
  sim.tie("filter_batched", "u", "u");
  sim.tie("filter_batched", "y", "y_batched");

  // Every set is checked against the declaration; a rejected value changes nothing.
  try {
    sim.set("models.filter.params.tau", -1.0);
  } catch (const hopsim::InputError& e) {
    std::cout << "rejected as expected: " << e.what() << "\n\n";
  }

  sim.lock();
  std::cout << sim.modelOrder().toString() << "\n";

  // Compare after every hop; print a few rows.
  double worst = 0.0;
  bool twinsAgree = true;
  sim.registerEndHopEvent("compare", [&worst, &twinsAgree](Simulation& s, double t) {
    worst = std::max(worst, std::abs(read(s, "signals.y") - Scenario::exactOutput(t)));
    twinsAgree = twinsAgree && read(s, "signals.y_batched") == read(s, "signals.y");
  });
  std::printf("%8s %10s %10s %10s %10s\n", "t [s]", "u [V]", "y [V]", "exact [V]", "error [V]");
  sim.registerPeriodicEvent("print", 0.25, 0.25, [](Simulation& s, double t) {
    const double y = read(s, "signals.y");
    std::printf("%8.3f %+10.6f %+10.6f %+10.6f %10.1e\n", t, read(s, "signals.u"), y,
                Scenario::exactOutput(t), y - Scenario::exactOutput(t));
  });
  sim.advanceTimeTo(Scenario::kDuration);

  // Discrete states are declared, so they can be saved and restored (what rollback and
  // checkpoints do).
  hopsim::Model& filter = sim.model("filter");
  std::vector<hopsim::Buffer> saved;
  filter.saveDiscreteStates(saved);
  sim.set("models.filter.discreteStates.y", 0.0);
  filter.restoreDiscreteStates(saved);
  const bool restored = read(sim, "models.filter.discreteStates.y") == read(sim, "signals.y");

  std::printf("\n%llu hops to t = %g s; largest |y - exact| = %.2e V (tolerance %.0e V)\n",
              static_cast<unsigned long long>(sim.hopCount()), sim.time(), worst,
              Scenario::kTolerance);
  std::printf("discrete state restored from a snapshot: %s\n", restored ? "yes" : "NO");
  std::printf("the batch-method twin published the same y at every hop: %s\n",
              twinsAgree ? "yes" : "NO");
  const bool ok =
      worst <= Scenario::kTolerance && restored && twinsAgree && sim.time() == Scenario::kDuration;
  std::cout << (ok ? "OK\n" : "FAILED\n");
  return ok ? 0 : 1;
}

}  // namespace example

int main() {
  try {
    return example::run();
  } catch (const hopsim::Error& e) {
    std::cerr << "custom_model: error: " << e.what() << "\n";
    return 1;
  }
}
