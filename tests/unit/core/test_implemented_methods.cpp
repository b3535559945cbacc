// The executive calls only the methods a model's class overrides (batch_calls.h): which
// ones a class overrides is found at compile time, a model-method event still fires around a
// method its class leaves empty, and a model whose class is unknown has every method called.

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "hopsim/core/batch_calls.h"
#include "hopsim/core/continuous_model.h"
#include "hopsim/core/flow_model.h"
#include "hopsim/core/model_registry.h"
#include "hopsim/core/simulation.h"

namespace hopsim {
namespace {

/// Overrides startHop only; counts its calls.
class HopCounter : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("HopCounter", ModelKind::Flow, "counts hops") {}
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit HopCounter(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double, double) override { ++hops; }
  int hops = 0;
};

/// Adds endHop to what it inherits.
class HopAndEndCounter final : public HopCounter {
 public:
  using HopCounter::HopCounter;
  void endHop(double, double) override { ++ends; }
  int ends = 0;
};

/// Overrides endHop where name lookup cannot see it from outside: counted as implemented.
class PrivateEnd final : public HopCounter {
 public:
  using HopCounter::HopCounter;
  int ends = 0;

 private:
  void endHop(double, double) override { ++ends; }
};

/// A class that no code names to recognizeClass: the executive cannot know it.
class UnnamedCounter final : public HopCounter {
 public:
  using HopCounter::HopCounter;
};

/// A ContinuousModel with one state, overriding postDeriv only.
class Decay final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Decay", ModelKind::Continuous, "x' = -x") {}
    ContinuousStateKey<double> x = continuousState<double>("x").defaultValue(1.0);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Decay(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void postDeriv(double) override { derivative(declaration().x) = -state(declaration().x); }
};

constexpr ModelMethodSet bits(std::initializer_list<ModelMethod> methods) {
  ModelMethodSet set = 0;
  for (ModelMethod m : methods) set |= methodBit(m);
  return set;
}

static_assert(implementedMethods<HopCounter>() == bits({ModelMethod::StartHop}));
static_assert(implementedMethods<HopAndEndCounter>() ==
              bits({ModelMethod::StartHop, ModelMethod::EndHop}));
static_assert(implementedMethods<PrivateEnd>() ==
              bits({ModelMethod::StartHop, ModelMethod::EndHop}));
static_assert(implementedMethods<Decay>() == bits({ModelMethod::PostDeriv}));

}  // namespace

TEST_CASE("a model knows the methods its class overrides when the program names the class") {
  Simulation sim;
  Model& typed = sim.addModel<HopAndEndCounter>("typed");
  Model& made = sim.addModel(makeModel<HopCounter>("made"));
  Model& plain = sim.addModel(std::unique_ptr<Model>(std::make_unique<HopCounter>("plain")));
  Model& recognized = sim.addModel(std::make_unique<HopCounter>("recognized"));
  // Passed as a pointer to a base of its class, whose class is named above: recognized by its
  // dynamic type.
  std::unique_ptr<HopCounter> derived = std::make_unique<HopAndEndCounter>("derived");
  Model& throughBase = sim.addModel(std::move(derived));
  ModelRegistry registry;
  registry.add<Decay>();
  Model& registered = sim.addModel(registry.create("Decay", "registered"));
  Model& unnamed =
      sim.addModel(std::unique_ptr<Model>(std::make_unique<UnnamedCounter>("unnamed")));

  CHECK(ModelBinding::needsCall(typed, ModelMethod::EndHop));
  CHECK_FALSE(ModelBinding::needsCall(typed, ModelMethod::EndIoStep));
  CHECK(ModelBinding::needsCall(made, ModelMethod::StartHop));
  CHECK_FALSE(ModelBinding::needsCall(made, ModelMethod::UpdateFlowOuts));
  // A std::unique_ptr<Model> of a class the program names is recognized by its dynamic type.
  CHECK(ModelBinding::needsCall(plain, ModelMethod::StartHop));
  CHECK_FALSE(ModelBinding::needsCall(plain, ModelMethod::EndIoStep));
  // One of a class named nowhere stays unknown: every method is called.
  CHECK(ModelBinding::needsCall(unnamed, ModelMethod::EndIoStep));
  // A std::unique_ptr of the model's own class shows it.
  CHECK(ModelBinding::needsCall(recognized, ModelMethod::StartHop));
  CHECK_FALSE(ModelBinding::needsCall(recognized, ModelMethod::EndIoStep));
  CHECK(ModelBinding::needsCall(throughBase, ModelMethod::EndHop));
  CHECK_FALSE(ModelBinding::needsCall(throughBase, ModelMethod::EndIoStep));
  CHECK(ModelBinding::needsCall(registered, ModelMethod::PostDeriv));
  CHECK_FALSE(ModelBinding::needsCall(registered, ModelMethod::PreDeriv));
}

TEST_CASE("the overridden methods run every hop, inherited and hidden overrides included") {
  Simulation sim{{.ioStepSize = 0.1}};
  auto& inherited = sim.addModel<HopAndEndCounter>("inherited");
  auto& hidden = sim.addModel<PrivateEnd>("hidden");
  sim.addModel<Decay>("decay");
  sim.lock();
  sim.advanceTimeTo(1.0);
  CHECK(inherited.hops == 10);
  CHECK(inherited.ends == 10);
  CHECK(hidden.hops == 10);
  CHECK(hidden.ends == 10);
  // postDeriv runs: x(1) = e^-1 with the default rk4 at 0.1 s, to its truncation error.
  CHECK(std::get<double>(sim.get("models.decay.continuousStates.x")) ==
        doctest::Approx(std::exp(-1.0)).epsilon(1e-5));
}

TEST_CASE("a model-method event fires around a method the model's class leaves empty") {
  Simulation sim{{.ioStepSize = 0.1}};
  sim.addModel<HopCounter>("counter");
  sim.addModel<Decay>("decay");
  std::vector<std::string> log;
  const auto note = [&log](std::string what) {
    return [&log, what](Simulation&, double t) { log.push_back(what + "@" + std::to_string(t)); };
  };
  // Registered before lock() ...
  sim.registerModelEvent("before end", "counter", ModelMethod::EndHop, EventTiming::Before,
                         note("endHop"));
  sim.lock();
  sim.advanceTimeTo(0.1);
  CHECK(log == std::vector<std::string>{"endHop@0.100000"});
  // ... and after it, between hops: the next hop calls the empty methods too.
  sim.registerModelEvent("after io", "counter", ModelMethod::EndIoStep, EventTiming::After,
                         note("endIoStep"));
  int preDerivs = 0;
  sim.registerModelEvent("pre", "decay", ModelMethod::PreDeriv, EventTiming::After,
                         [&](Simulation&, double) { ++preDerivs; });
  log.clear();
  sim.advanceTimeTo(0.2);
  CHECK(log == std::vector<std::string>{"endHop@0.200000", "endIoStep@0.200000"});
  CHECK(preDerivs == 4);  // rk4, one sub-step per hop: four derivative evaluations
}

}  // namespace hopsim
