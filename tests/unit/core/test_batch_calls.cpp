// Batches of models of one class are called through one batch call (BatchCalls, BatchList): the
// calls happen in the same order, with the same results, as one virtual call per model; a
// model-method event, a model of unknown class or a private override falls back to the call per
// model; a model added as a std::unique_ptr<Model> is recognized by its dynamic type; the
// output-write permission holds only inside updateFlowOuts.

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "hopsim/core/batch_calls.h"
#include "hopsim/core/continuous_model.h"
#include "hopsim/core/flow_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

/// Logs "<name>.<method>" for startHop, updateFlowOuts and endHop; publishes how many calls it
/// has logged. `Tag` makes two distinct classes of the same behaviour.
template <int Tag>
class Logger final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Logger" + std::to_string(Tag), ModelKind::Flow, "logs its calls") {}
    OutKey<double> y = flowOut<double>("y");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  Logger(std::string name, std::vector<std::string>* log)
      : FlowModel(std::move(name), declaration()), log_(log) {}
  void startHop(double, double) override { note("startHop"); }
  void updateFlowOuts(double) override {
    note("updateFlowOuts");
    out(declaration().y) = static_cast<double>(log_->size());
  }
  void endHop(double, double) override { note("endHop"); }

 private:
  void note(const char* method) { log_->push_back(name() + "." + method); }
  std::vector<std::string>* log_;
};

/// Overrides startHop where a qualified call from outside cannot name it.
class PrivateHop final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("PrivateHop", ModelKind::Flow, "private startHop") {}
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit PrivateHop(std::string name) : FlowModel(std::move(name), declaration()) {}
  int hops = 0;

 private:
  void startHop(double, double) override { ++hops; }
};

/// Writes its output where told: inside updateFlowOuts (throwing there on request) or, wrongly,
/// in startHop.
class Writer final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Writer", ModelKind::Flow, "writes its output") {}
    OutKey<double> y = flowOut<double>("y");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Writer(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double, double) override {
    if (writeInStartHop) out(declaration().y) = 2.0;
  }
  void updateFlowOuts(double) override {
    out(declaration().y) = 1.0;
    if (throwInUpdate) throw std::runtime_error("update failed");
  }
  bool writeInStartHop = false;
  bool throwInUpdate = false;
};

/// x' = -k x, with preDeriv computing the rate and postDeriv the derivative.
class Decay final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("BatchDecay", ModelKind::Continuous, "x' = -k x") {}
    ParamKey<double> k = param<double>("k").defaultValue(1.0);
    ContinuousStateKey<double> x = continuousState<double>("x").defaultValue(1.0);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Decay(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void preDeriv(double) override { rate_ = -param(declaration().k) * state(declaration().x); }
  void postDeriv(double) override { derivative(declaration().x) = rate_; }

 private:
  double rate_ = 0.0;
};

static_assert(batchCallsOf<Logger<1>>().startHop == &detail::startHopOf<Logger<1>>);
static_assert(batchCallsOf<Logger<1>>().updateFlowOuts == &detail::updateFlowOutsOf<Logger<1>>);
static_assert(batchCallsOf<Logger<1>>().endHop == &detail::endHopOf<Logger<1>>);
static_assert(batchCallsOf<Logger<1>>().preDeriv == nullptr);  // not a ContinuousModel
static_assert(batchCallsOf<PrivateHop>().startHop == nullptr);
static_assert(batchCallsOf<Decay>().preDeriv == &detail::preDerivOf<Decay>);
static_assert(batchCallsOf<Decay>().postDeriv == &detail::postDerivOf<Decay>);

/// Six unconnected models (so the calling order is the order of creation) of three classes, the
/// fourth of a class no code names to recognizeClass, added as a std::unique_ptr<Model> (class
/// unknown: called through its virtual methods), and an event before startHop of the fifth when
/// `event`; `typed` false adds the others as std::unique_ptr<Model> too, whose classes the
/// executive then recognizes by their dynamic type. Returns the log of the hop after lock()'s
/// first.
std::vector<std::string> secondHopLog(bool typed, bool event) {
  std::vector<std::string> log;
  Simulation sim{{.ioStepSize = 0.1}};
  const auto add = [&]<class M>(const std::string& name) {
    if (typed) {
      sim.addModel<M>(name, &log);
    } else {
      sim.addModel(std::unique_ptr<Model>(std::make_unique<M>(name, &log)));
    }
    sim.addSignal(name + "_y", ElementType::Double);
    sim.tie(name, "y", name + "_y");
  };
  add.operator()<Logger<1>>("a1");
  add.operator()<Logger<1>>("a2");
  add.operator()<Logger<2>>("b1");
  sim.addModel(std::unique_ptr<Model>(std::make_unique<Logger<3>>("plain", &log)));
  sim.addSignal("plain_y", ElementType::Double);
  sim.tie("plain", "y", "plain_y");
  add.operator()<Logger<1>>("a3");
  add.operator()<Logger<1>>("a4");
  // The models of named classes carry their class's batch functions, however they were added;
  // the model of the unnamed class does not.
  CHECK(ModelBinding::batchCalls(sim.model("a1")) == &detail::kBatchCalls<Logger<1>>);
  CHECK(ModelBinding::batchCalls(sim.model("b1")) == &detail::kBatchCalls<Logger<2>>);
  CHECK(ModelBinding::batchCalls(sim.model("plain")) == nullptr);
  sim.lock();
  if (event) {
    sim.registerModelEvent("before a3", "a3", ModelMethod::StartHop, EventTiming::Before,
                           [&log](Simulation&, double) { log.push_back("event"); });
  }
  sim.advanceOverHop();
  log.clear();
  sim.advanceOverHop();
  CHECK(std::get<double>(sim.get("signals.a4_y")) > 0.0);
  return log;
}

}  // namespace

TEST_CASE("batches of one class are called in the order of one call per model") {
  const std::vector<std::string> order = {"a1", "a2", "b1", "plain", "a3", "a4"};
  const auto sweep = [&](const char* method, bool event = false) {
    std::vector<std::string> calls;
    for (const std::string& name : order) {
      if (event && name == "a3") calls.push_back("event");
      calls.push_back(name + "." + method);
    }
    return calls;
  };
  // Output granularity ALL: updates at STARTIO and STARTHOP, startHop, the update at ENDHOP,
  // then endHop.
  const auto expected = [&](bool event) {
    std::vector<std::string> hop;
    for (const auto& part : {sweep("updateFlowOuts"), sweep("updateFlowOuts"),
                             sweep("startHop", event), sweep("updateFlowOuts"), sweep("endHop")}) {
      hop.insert(hop.end(), part.begin(), part.end());
    }
    return hop;
  };
  CHECK(secondHopLog(true, false) == expected(false));
  CHECK(secondHopLog(false, false) == expected(false));
  // An event splits the batch around its model; the order stays.
  CHECK(secondHopLog(true, true) == expected(true));
}

TEST_CASE("a private override is called through the virtual method") {
  Simulation sim{{.ioStepSize = 0.1}};
  auto& first = sim.addModel<PrivateHop>("first");
  auto& second = sim.addModel<PrivateHop>("second");
  sim.lock();
  sim.advanceTimeTo(0.5);
  CHECK(first.hops == 5);
  CHECK(second.hops == 5);
}

TEST_CASE("a batch grants output writes only inside each updateFlowOuts, failures included") {
  Simulation sim{{.ioStepSize = 0.1}};
  auto& w1 = sim.addModel<Writer>("w1");
  auto& w2 = sim.addModel<Writer>("w2");
  for (const char* name : {"w1", "w2"}) {
    sim.addSignal(std::string(name) + "_y", ElementType::Double);
    sim.tie(name, "y", std::string(name) + "_y");
  }
  sim.lock();
  sim.advanceOverHop();
  CHECK(std::get<double>(sim.get("signals.w2_y")) == 1.0);

  w1.throwInUpdate = true;
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(), "update failed", std::runtime_error);
  w1.throwInUpdate = false;
  // The failed call withdrew w1's permission: a write in its startHop is refused.
  w1.writeInStartHop = true;
  CHECK_THROWS_AS(sim.advanceOverHop(), ModelError);
  w1.writeInStartHop = false;
  w2.writeInStartHop = true;
  CHECK_THROWS_AS(sim.advanceOverHop(), ModelError);
}

TEST_CASE("batched preDeriv and postDeriv integrate as calls one by one, bit for bit") {
  const auto run = [](bool typed) {
    Simulation sim{{.ioStepSize = 0.1}};
    for (int i = 0; i < 4; ++i) {
      const std::string name = "d" + std::to_string(i);
      Model& model = typed ? sim.addModel<Decay>(name)
                           : sim.addModel(std::unique_ptr<Model>(std::make_unique<Decay>(name)));
      model.setParam("k", 0.5 + i);
    }
    sim.lock();
    sim.advanceTimeTo(1.0);
    std::vector<double> x;
    for (int i = 0; i < 4; ++i) {
      x.push_back(
          std::get<double>(sim.get("models.d" + std::to_string(i) + ".continuousStates.x")));
    }
    return x;
  };
  const std::vector<double> batched = run(true);
  CHECK(batched == run(false));
  // And both are rk4's solution of the decay: ten steps of 0.1 s (the default integrator, one
  // sub-step per hop), each multiplying x by rk4's stability function R(z) = 1 + z + z^2/2 +
  // z^3/6 + z^4/24 at z = -0.1 k; to rounding.
  for (int i = 0; i < 4; ++i) {
    const double z = -0.1 * (0.5 + i);
    const double factor = 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0;
    CHECK(batched[static_cast<std::size_t>(i)] ==
          doctest::Approx(std::pow(factor, 10)).epsilon(1e-13));
  }
}

TEST_CASE("recognizeClassOf finds a class by the model's dynamic type, once some code names it") {
  // Logger<4> is named to recognizeClass only by the makeModel below; the model made with
  // std::make_unique and seen as a Model is recognized all the same, with the methods its class
  // overrides. Logger<5> is named nowhere: its model keeps every method and no batch calls.
  std::vector<std::string> log;
  const auto named = makeModel<Logger<4>>("named", &log);
  CHECK(ModelBinding::batchCalls(*named) == &detail::kBatchCalls<Logger<4>>);
  std::unique_ptr<Model> model = std::make_unique<Logger<4>>("made", &log);
  CHECK(ModelBinding::batchCalls(*model) == nullptr);
  recognizeClassOf(*model);
  CHECK(ModelBinding::batchCalls(*model) == &detail::kBatchCalls<Logger<4>>);
  CHECK_FALSE(ModelBinding::needsCall(*model, ModelMethod::EndIoStep));
  CHECK(ModelBinding::needsCall(*model, ModelMethod::StartHop));
  std::unique_ptr<Model> unnamed = std::make_unique<Logger<5>>("unnamed", &log);
  recognizeClassOf(*unnamed);
  CHECK(ModelBinding::batchCalls(*unnamed) == nullptr);
  CHECK(ModelBinding::needsCall(*unnamed, ModelMethod::EndIoStep));
}

}  // namespace hopsim
