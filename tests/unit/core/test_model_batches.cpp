// batch methods (model_batch.h): a class that writes startHop, updateFlowOuts, endHop, preDeriv or
// postDeriv once for a batch of its instances computes what the same class written per instance
// computes, bit for bit, through every path that touches field storage (sets between hops,
// rollback of a hop, checkpoints, activation changes, model-method events), and keeps the
// checks of Model's typed access.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/batch_calls.h"
#include "hopsim/core/continuous_model.h"
#include "hopsim/core/flow_model.h"
#include "hopsim/core/model_batch.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

/// The declaration both forms of the filter share: x <- A x + b u at each hop start (two
/// states), y = c . x at the hop's end, a hop count, whether the input was fresh, and a gain
/// whose length n is fixed by the tied output `echo` (y * gain).
struct FilterDeclaration : ModelSpec {
  explicit FilterDeclaration(const std::string& name)
      : ModelSpec(name, ModelKind::Flow, "two-state discrete filter") {
    setOutputGranularity(Sweep::EndHop);
  }
  ParamKey<Eigen::VectorXd> A = param<Eigen::VectorXd>("A").length(4).defaultValue(0.25);
  ParamKey<Eigen::VectorXd> b = param<Eigen::VectorXd>("b").length(2).defaultValue(1.0);
  ParamKey<double> c = param<double>("c").defaultValue(0.5);
  ParamKey<Eigen::VectorXd> gain = param<Eigen::VectorXd>("gain").length("n").defaultValue(2.0);
  DiscreteStateKey<Eigen::VectorXd> x =
      discreteState<Eigen::VectorXd>("x").length(2).defaultValue(0.0);
  DiscreteStateKey<std::int64_t> hops = discreteState<std::int64_t>("hops").defaultValue(0);
  ScratchKey<bool> fresh = scratch<bool>("fresh").defaultValue(false);
  InKey<double> u = flowIn<double>("u");
  OutKey<double> y = flowOut<double>("y").noFeedThrough();
  OutKey<Eigen::VectorXd> echo = flowOut<Eigen::VectorXd>("echo").length("n").noFeedThrough();
};

/// The filter's hop start for one model, shared by both forms so that they do the same
/// arithmetic in the same order.
void filterStep(const Eigen::Ref<const Eigen::VectorXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b, Eigen::Ref<Eigen::VectorXd> x,
                double u) {
  const Eigen::Vector2d next = Eigen::Map<const Eigen::Matrix2d>(A.data()) * x + b * u;
  x = next;
}

/// Written per instance.
class InstanceFilter final : public FlowModel {
 public:
  using Declaration = FilterDeclaration;
  static const Declaration& declaration() {
    static const Declaration d("InstanceFilter");
    return d;
  }
  explicit InstanceFilter(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startHop(double, double) override {
    scratch(d_.fresh) = isFresh(d_.u);
    filterStep(param(d_.A), param(d_.b), state(d_.x), in(d_.u));
    state(d_.hops) += 1;
  }
  void updateFlowOuts(double) override {
    const double y = param(d_.c) * (state(d_.x)[0] + state(d_.x)[1]);
    out(d_.y) = y;
    out(d_.echo) = y * param(d_.gain);
  }

 private:
  const Declaration& d_ = declaration();
};

/// Written once for a batch of instances.
class BatchedFilter final : public FlowModel {
 public:
  using Declaration = FilterDeclaration;
  static const Declaration& declaration() {
    static const Declaration d("BatchedFilter");
    return d;
  }
  explicit BatchedFilter(std::string name) : FlowModel(std::move(name), declaration()) {}
  static void startHopBatch(const ModelBatch<BatchedFilter>& batch, double, double) {
    const Declaration& d = declaration();
    const auto A = batch.param(d.A);
    const auto b = batch.param(d.b);
    const auto x = batch.state(d.x);
    const auto hops = batch.state(d.hops);
    const auto fresh = batch.scratch(d.fresh);
    const auto u = batch.in(d.u);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      fresh[k] = u.isFresh(k);
      filterStep(A[k], b[k], x[k], u[k]);
      hops[k] += 1;
    }
  }
  static void updateFlowOutsBatch(const ModelBatch<BatchedFilter>& batch, double) {
    const Declaration& d = declaration();
    const auto c = batch.param(d.c);
    const auto gain = batch.param(d.gain);
    const auto x = batch.state(d.x);
    const auto y = batch.out(d.y);
    const auto echo = batch.out(d.echo);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const double value = c[k] * (x[k][0] + x[k][1]);
      y[k] = value;
      echo[k] = value * gain[k];
    }
  }
};

static_assert(batchCallsOf<BatchedFilter>().startHop == &detail::startHopBatchOf<BatchedFilter>);
static_assert(batchCallsOf<BatchedFilter>().updateFlowOuts ==
              &detail::updateFlowOutsBatchOf<BatchedFilter>);
static_assert(batchCallsOf<BatchedFilter>().readsBatchFields);
static_assert(!batchCallsOf<InstanceFilter>().readsBatchFields);
static_assert(implementedMethods<BatchedFilter>() == implementedMethods<InstanceFilter>());

/// A batch class with no double field: its output, of a length n fixed by the tied signal, takes
/// the input in every element.
class BatchedEcho final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("BatchedEcho", ModelKind::Flow, "input copied into every element") {}
    InKey<double> u = flowIn<double>("u");
    OutKey<Eigen::VectorXd> echo = flowOut<Eigen::VectorXd>("echo").length("n");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit BatchedEcho(std::string name) : FlowModel(std::move(name), declaration()) {}
  static void updateFlowOutsBatch(const ModelBatch<BatchedEcho>& batch, double) {
    const Declaration& d = declaration();
    const auto u = batch.in(d.u);
    const auto echo = batch.out(d.echo);
    for (std::size_t k = 0; k < batch.size(); ++k) echo[k].setConstant(u[k]);
  }
};

/// A chain s0 -> m0 -> s1 -> ... -> s{n} of filters of class F (each also publishing its echo),
/// created in reverse order; models listed in `other` are of class G.
template <class F, class G = F>
void buildChain(Simulation& sim, int n, const std::vector<int>& other = {}) {
  for (int i = 0; i <= n; ++i) sim.addSignal("s" + std::to_string(i), ElementType::Double);
  sim.set("signals.s0", 1.0);
  for (int i = n - 1; i >= 0; --i) {
    const std::string name = "m" + std::to_string(i);
    const bool isOther = std::find(other.begin(), other.end(), i) != other.end();
    Model& model = isOther ? static_cast<Model&>(sim.addModel<G>(name))
                           : static_cast<Model&>(sim.addModel<F>(name));
    model.setParam("A", std::vector<double>{0.5 - 0.01 * i, 0.1, -0.2, 0.3 + 0.02 * i});
    model.setParam("b", std::vector<double>{1.0, -0.5 + 0.1 * i});
    // m2's echo, and so its gain, has three elements, the others two: the gain's column is
    // not one stride (the batch reaches it through its table), x's and A's are.
    sim.addSignal("e" + std::to_string(i), ElementType::Double, i == 2 ? 3 : 2);
    sim.tie(name, "u", "s" + std::to_string(i));
    sim.tie(name, "y", "s" + std::to_string(i + 1));
    sim.tie(name, "echo", "e" + std::to_string(i));
  }
}

/// buildChain of BatchedFilters (`batched`) or of InstanceFilters.
void buildFilterChain(Simulation& sim, int n, bool batched) {
  if (batched) {
    buildChain<BatchedFilter>(sim, n);
  } else {
    buildChain<InstanceFilter>(sim, n);
  }
}

/// Every signal and every model's states and scratch, for comparisons bit for bit.
std::vector<Value> snapshot(const Simulation& sim, int n) {
  std::vector<Value> values;
  for (int i = 0; i <= n; ++i) values.push_back(sim.get("signals.s" + std::to_string(i)));
  for (int i = 0; i < n; ++i) {
    const std::string model = "models.m" + std::to_string(i);
    values.push_back(sim.get("signals.e" + std::to_string(i)));
    values.push_back(sim.get(model + ".discreteStates.x"));
    values.push_back(sim.get(model + ".discreteStates.hops"));
    values.push_back(sim.get(model + ".scratch.fresh"));
  }
  return values;
}

constexpr int kChain = 7;

/// The chain of one class, or of BatchedFilter with InstanceFilters at the positions `instances`,
/// after `hops` hops, with a param set and the chain's input changed between hops along the way.
template <class F>
std::vector<Value> runChain(int hops, const std::vector<int>& instances = {}) {
  Simulation sim{{.ioStepSize = 0.1}};
  buildChain<F, InstanceFilter>(sim, kChain, instances);
  sim.lock();
  for (int h = 0; h < hops; ++h) {
    if (h == 5) sim.set("models.m3.params.c", 0.75);  // same length: storage stays in place
    if (h % 4 == 0) sim.set("signals.s0", 1.0 + 0.1 * h);
    sim.advanceOverHop();
  }
  return snapshot(sim, kChain);
}

}  // namespace

TEST_CASE("batch methods compute what methods per instance compute, bit for bit") {
  const std::vector<Value> instances = runChain<InstanceFilter>(20);
  CHECK(runChain<BatchedFilter>(20) == instances);
  // Runs broken by models of another class, at the ends and in the middle.
  CHECK(runChain<BatchedFilter>(20, {0, 3, 4, 6}) == instances);
  // The result is not trivial: every model hopped, values moved down the chain.
  CHECK(std::get<std::int64_t>(instances[instances.size() - 2]) == 20);
  CHECK(std::get<double>(instances[kChain]) != 0.0);
}

TEST_CASE("a model-method event around a batch model fires, and the batch is split around it") {
  const auto run = [](bool batched) {
    Simulation sim{{.ioStepSize = 0.1}};
    buildFilterChain(sim, kChain, batched);
    sim.lock();
    std::vector<std::string> log;
    sim.registerModelEvent(
        "before m2", "m2", ModelMethod::StartHop, EventTiming::Before, [&](Simulation& s, double) {
          log.push_back("before " + std::to_string(std::get<std::int64_t>(
                                        s.get("models.m2.discreteStates.hops"))));
        });
    sim.registerModelEvent(
        "after m2", "m2", ModelMethod::UpdateFlowOuts, EventTiming::After,
        [&](Simulation& s, double) {
          log.push_back("after " + std::to_string(std::get<double>(s.get("signals.s3"))));
        });
    for (int h = 0; h < 6; ++h) sim.advanceOverHop();
    return std::make_pair(log, snapshot(sim, kChain));
  };
  const auto [runLog, runValues] = run(true);
  const auto [instanceLog, instanceValues] = run(false);
  CHECK(runLog.size() >= 12);
  CHECK(runLog == instanceLog);
  CHECK(runValues == instanceValues);
}

TEST_CASE(
    "batched models roll back and re-run a hop, and restore checkpoints, as models per instance") {
  const auto run = [](bool batched, const std::filesystem::path& checkpoint) {
    Simulation sim{{.ioStepSize = 0.1}};
    buildFilterChain(sim, 3, batched);
    // A ball whose bounces are located inside hops: each rolls the hop back (the filters'
    // states and hop counts included) and re-runs it to the impact.
    auto& ball = sim.addModel<test::Ball>("ball");
    sim.lock();
    sim.registerZeroCrossing(
        "impact", [&ball](Simulation&, double) { return ball.height(); },
        CrossingDirection::Falling,
        [&ball](Simulation& s, double) {
          ball.setVelocity(-0.8 * ball.velocity());
          s.set("signals.s0", ball.velocity());
        });
    sim.advanceTimeTo(1.5);  // the first impact is at 1.43 s
    CHECK(sim.propagationStatistics().crossingsFired == 1);
    sim.saveCheckpoint(checkpoint.string());
    sim.advanceTimeTo(3.0);
    const std::vector<Value> straight = snapshot(sim, 3);
    sim.restoreCheckpoint(checkpoint.string());
    sim.advanceTimeTo(3.0);
    CHECK(snapshot(sim, 3) == straight);
    // Every hop counted once: the rolled-back attempt's count was undone.
    CHECK(std::get<std::int64_t>(sim.get("models.m0.discreteStates.hops")) ==
          static_cast<std::int64_t>(sim.hopCount()));
    return straight;
  };
  const auto directory = std::filesystem::temp_directory_path();
  const auto runValues = run(true, directory / "hopsim_test_model_batches_a.json");
  const auto instanceValues = run(false, directory / "hopsim_test_model_batches_b.json");
  CHECK(runValues == instanceValues);
}

TEST_CASE("batched models follow activation changes") {
  const auto run = [](bool batched) {
    Simulation sim{{.ioStepSize = 0.1}};
    buildFilterChain(sim, kChain, batched);
    sim.lock();
    for (int h = 0; h < 10; ++h) {
      if (h == 3) sim.deactivate("m4");
      if (h == 7) sim.activate("m4");
      sim.advanceOverHop();
    }
    return snapshot(sim, kChain);
  };
  CHECK(run(true) == run(false));
}

TEST_CASE("the double fields of batch models lie in columns in calling order while locked") {
  const auto run = [](bool batched) {
    Simulation sim{{.ioStepSize = 0.1}};
    buildFilterChain(sim, kChain, batched);
    sim.lock();
    const FilterDeclaration& d = BatchedFilter::declaration();
    // The filters do not feed through, so nothing orders them and they are called in the
    // order of creation: m6 first.
    const std::vector<std::string> order = sim.modelOrder().flowModels;
    REQUIRE(order.front() == "m" + std::to_string(kChain - 1));
    const auto buffer = [&](std::size_t k, FieldRole role, std::size_t index) -> const Buffer& {
      return sim.model(order[k]).fieldBuffer(role, index);
    };
    for (std::size_t k = 1; k < order.size() && batched; ++k) {
      CAPTURE(k);
      CHECK(buffer(k, FieldRole::DiscreteState, d.x.index).doubles() ==
            buffer(k - 1, FieldRole::DiscreteState, d.x.index).doubles() + 2);
      CHECK(buffer(k, FieldRole::Param, d.A.index).doubles() ==
            buffer(k - 1, FieldRole::Param, d.A.index).doubles() + 4);
      CHECK(buffer(k, FieldRole::Param, d.c.index).doubles() ==
            buffer(k - 1, FieldRole::Param, d.c.index).doubles() + 1);
      CHECK_FALSE(buffer(k, FieldRole::DiscreteState, d.hops.index).placed());  // an int
    }
    if (batched) {
      std::vector<Model*> models;
      for (const std::string& name : order) models.push_back(&sim.model(name));
      // m2's gain is longer than the others' (order m6, m5, m4, m3, m2, m1, m0): the columns
      // continue from model to model up to m3, and m2 starts a batch of its own.
      REQUIRE(order[4] == "m2");
      CHECK(BatchFields::backToBack(models.data(), models.size()) == 4);
      CHECK(BatchFields::backToBack(models.data() + 4, 3) == 1);
      CHECK(BatchFields::backToBack(models.data() + 5, 2) == 2);
      CHECK_THROWS_WITH_AS(
          BatchFields(models.data(), models.size()),
          "a batch of model 'm6' (BatchedFilter) cannot go on to model 'm2' "
          "(BatchedFilter): models.m2.params.gain has 3 elements where the batch's "
          "first model has 2; the executive places the double fields and read "
          "records of a batch class's models in columns at lock() and ends its "
          "batches where they do not continue",
          ModelError);
      // Models that are not neighbours in the columns do not make a batch either.
      Model* apart[] = {models[0], models[2]};
      CHECK(BatchFields::backToBack(apart, 2) == 1);
      CHECK_THROWS_WITH_AS(BatchFields(apart, 2),
                           "a batch of model 'm6' (BatchedFilter) cannot go on to model 'm4' "
                           "(BatchedFilter): models.m4.params.A does not follow model 'm6' "
                           "(BatchedFilter)'s in a column; the executive places the double fields "
                           "and read records of a batch class's models in columns at lock() and "
                           "ends its batches where they do not continue",
                           ModelError);
      // A batch over the first four finds each double field as a column from model 0's elements,
      // and the int hop count through its entries, which point at each model's own elements.
      const BatchFields fields(models.data(), 4);
      CHECK(fields.values(FieldRole::DiscreteState, d.x.index).elements ==
            buffer(0, FieldRole::DiscreteState, d.x.index).doubles());
      CHECK(fields.values(FieldRole::Param, d.gain.index).elements ==
            buffer(0, FieldRole::Param, d.gain.index).doubles());
      CHECK(fields.values(FieldRole::Param, d.gain.index).length == 2);
      const BatchFields::Column hops = fields.values(FieldRole::DiscreteState, d.hops.index);
      for (std::size_t k = 0; k < 4; ++k) {
        CHECK(hops.slots[k].data == buffer(k, FieldRole::DiscreteState, d.hops.index).ints());
      }
      // The input's read records are one column over the class's models in calling order,
      // whatever the lengths: m2's follows m3's.
      const BatchFields alone(models.data() + 4, 1);
      CHECK(alone.port(FieldRole::FlowIn, d.u.index).records ==
            fields.port(FieldRole::FlowIn, d.u.index).records + 4);
      CHECK(fields.port(FieldRole::FlowOut, d.echo.index).length == 2);
      CHECK(alone.port(FieldRole::FlowOut, d.echo.index).length == 3);
    }
    for (int h = 0; h < 5; ++h) sim.advanceOverHop();
    // Unlocked, every field owns its elements again, with their values; locked again, they
    // are columns again.
    sim.unlock();
    CHECK_FALSE(buffer(3, FieldRole::DiscreteState, d.x.index).placed());
    sim.lock();
    CHECK(buffer(3, FieldRole::DiscreteState, d.x.index).placed() == batched);
    for (int h = 0; h < 5; ++h) sim.advanceOverHop();
    return snapshot(sim, kChain);
  };
  CHECK(run(true) == run(false));
}

TEST_CASE("a batch ends where a port's length changes") {
  // Echoes of 2, 3 and 2 elements read one signal: the second's output is longer, so the
  // executive calls the three as three batches, each with its one length.
  Simulation sim{{.ioStepSize = 0.1}};
  sim.addSignal("u", ElementType::Double);
  sim.set("signals.u", 2.5);
  const std::vector<std::size_t> lengths = {2, 3, 2};
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const std::string name = "e" + std::to_string(i);
    sim.addModel<BatchedEcho>(name);
    sim.addSignal(name, ElementType::Double, lengths[i]);
    sim.tie(name, "u", "u");
    sim.tie(name, "echo", name);
  }
  sim.lock();
  sim.advanceOverHop();
  // Nothing orders them: they are called in the order of creation.
  REQUIRE(sim.modelOrder().flowModels == std::vector<std::string>{"e0", "e1", "e2"});
  Model* models[] = {&sim.model("e0"), &sim.model("e1"), &sim.model("e2")};
  CHECK(BatchFields::backToBack(models, 3) == 1);
  CHECK(BatchFields::backToBack(models + 1, 2) == 1);
  CHECK_THROWS_WITH_AS(
      BatchFields(models, 2),
      "a batch of model 'e0' (BatchedEcho) cannot go on to model 'e1' (BatchedEcho): "
      "models.e1.flowOuts.echo is tied to 3 elements where the batch's first "
      "model's is tied to 2; the executive places the double fields and read "
      "records of a batch class's models in columns at lock() and ends its batches "
      "where they do not continue",
      ModelError);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    CHECK(sim.get("signals.e" + std::to_string(i)) == Value(std::vector<double>(lengths[i], 2.5)));
  }
}

TEST_CASE("a model of a batch class made with std::make_unique runs its batch methods") {
  // Simulation::addModel recognizes the class of a std::unique_ptr<BatchedFilter>, and the filter
  // computes what the per-instance one does. Through a std::unique_ptr<Model> it recognizes the
  // class by the model's dynamic type, which this program names to recognizeClass elsewhere
  // (addModel<BatchedFilter>), so the batch methods run there too.
  const auto run = [](auto filter) {
    Simulation sim{{.ioStepSize = 0.1}};
    sim.addSignal("s0", ElementType::Double);
    sim.addSignal("s1", ElementType::Double);
    sim.addSignal("e0", ElementType::Double, 2);
    sim.set("signals.s0", 1.0);
    Model& model = sim.addModel(std::move(filter));
    model.setParam("A", std::vector<double>{0.5, 0.1, -0.2, 0.3});
    sim.tie("m0", "u", "s0");
    sim.tie("m0", "y", "s1");
    sim.tie("m0", "echo", "e0");
    sim.lock();
    for (int h = 0; h < 5; ++h) sim.advanceOverHop();
    return sim.get("models.m0.discreteStates.x");
  };
  const Value expected = run(std::make_unique<InstanceFilter>("m0"));
  CHECK(expected != Value(std::vector<double>{0.0, 0.0}));
  CHECK(run(std::make_unique<BatchedFilter>("m0")) == expected);
  CHECK(run(std::unique_ptr<Model>(std::make_unique<BatchedFilter>("m0"))) == expected);
}

TEST_CASE("a batch's fields come from models of one declaration") {
  // The executive's lists split batches where the declaration changes; a BatchFields built over two
  // declarations would index one model's fields by the other's, so it refuses them.
  Simulation sim{{.ioStepSize = 0.1}};
  buildChain<BatchedFilter, InstanceFilter>(sim, 2, {1});
  sim.lock();
  Model* models[] = {&sim.model("m0"), &sim.model("m1")};
  CHECK_THROWS_WITH_AS(
      BatchFields(models, 2),
      "a batch of model 'm0' (BatchedFilter) also holds model 'm1' (InstanceFilter), "
      "whose declaration is another object; the models of one batch share their "
      "class's one declaration",
      ModelError);
  CHECK_NOTHROW(BatchFields(models, 1));
}

TEST_CASE("a batch method keeps the checks of typed access") {
  SUBCASE("an input nothing has written") {
    Simulation sim{{.ioStepSize = 0.1}};
    sim.addModel<BatchedFilter>("m1");
    sim.addSignal("never", ElementType::Double);
    sim.addSignal("y", ElementType::Double);
    sim.addSignal("echo", ElementType::Double, 3);
    sim.tie("m1", "u", "never");
    sim.tie("m1", "y", "y");
    sim.tie("m1", "echo", "echo");
    sim.lock();
    CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                         doctest::Contains("model 'm1' (BatchedFilter) read flowIn 'u' from signal "
                                           "'never' before anything wrote it"),
                         ModelError);
  }
  SUBCASE("an output written outside updateFlowOutsBatch") {
    class Misplaced final : public FlowModel {
     public:
      struct Declaration : ModelSpec {
        Declaration() : ModelSpec("Misplaced", ModelKind::Flow, "writes in startHopBatch") {}
        OutKey<double> y = flowOut<double>("y");
      };
      static const Declaration& declaration() {
        static const Declaration d;
        return d;
      }
      explicit Misplaced(std::string name) : FlowModel(std::move(name), declaration()) {}
      static void startHopBatch(const ModelBatch<Misplaced>& batch, double, double) {
        batch.out(declaration().y)[0] = 1.0;
      }
      static void updateFlowOutsBatch(const ModelBatch<Misplaced>& batch, double) {
        for (std::size_t k = 0; k < batch.size(); ++k) batch.out(declaration().y)[k] = 0.0;
      }
    };
    Simulation sim{{.ioStepSize = 0.1}};
    sim.addModel<Misplaced>("w");
    sim.addSignal("y", ElementType::Double);
    sim.tie("w", "y", "y");
    sim.lock();
    CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                         doctest::Contains("model 'w' (Misplaced) wrote flowOut 'y' outside "
                                           "updateFlowOuts"),
                         ModelError);
  }
}

namespace {

/// x' = -k x for a ContinuousModel, through preDeriv (the rate, into scratch) and postDeriv.
struct DecayDeclaration : ModelSpec {
  explicit DecayDeclaration(const std::string& name)
      : ModelSpec(name, ModelKind::Continuous, "x' = -k x") {}
  ParamKey<double> k = param<double>("k").defaultValue(1.0);
  ContinuousStateKey<Eigen::VectorXd> x =
      continuousState<Eigen::VectorXd>("x").length(2).defaultValue(1.0);
  ScratchKey<Eigen::VectorXd> rate = scratch<Eigen::VectorXd>("rate").length(2).defaultValue(0.0);
};

class InstanceDecay final : public ContinuousModel {
 public:
  static const DecayDeclaration& declaration() {
    static const DecayDeclaration d("InstanceDecay");
    return d;
  }
  explicit InstanceDecay(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void preDeriv(double) override { scratch(d_.rate) = -param(d_.k) * state(d_.x); }
  void postDeriv(double) override { derivative(d_.x) = scratch(d_.rate); }

 private:
  const DecayDeclaration& d_ = declaration();
};

class BatchedDecay final : public ContinuousModel {
 public:
  static const DecayDeclaration& declaration() {
    static const DecayDeclaration d("BatchedDecay");
    return d;
  }
  explicit BatchedDecay(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  static void preDerivBatch(const ModelBatch<BatchedDecay>& batch, double) {
    const DecayDeclaration& d = declaration();
    const auto k = batch.param(d.k);
    const auto x = batch.state(d.x);
    const auto rate = batch.scratch(d.rate);
    for (std::size_t i = 0; i < batch.size(); ++i) rate[i] = -k[i] * x[i];
  }
  static void postDerivBatch(const ModelBatch<BatchedDecay>& batch, double) {
    const DecayDeclaration& d = declaration();
    const auto rate = batch.scratch(d.rate);
    const auto derivative = batch.derivative(d.x);
    for (std::size_t i = 0; i < batch.size(); ++i) derivative[i] = rate[i];
  }
};

static_assert(batchCallsOf<BatchedDecay>().preDeriv == &detail::preDerivBatchOf<BatchedDecay>);
static_assert(batchCallsOf<BatchedDecay>().postDeriv == &detail::postDerivBatchOf<BatchedDecay>);

template <class D>
std::vector<double> decayStates(const char* integrator) {
  Simulation sim{{.ioStepSize = 0.1, .integrator = integrator}};
  for (int i = 0; i < 4; ++i) {
    const std::string name = "d" + std::to_string(i);
    sim.addModel<D>(name).setParam("k", 0.5 + i);
  }
  sim.lock();
  sim.advanceTimeTo(1.0);
  std::vector<double> x;
  for (int i = 0; i < 4; ++i) {
    const auto value = std::get<std::vector<double>>(
        sim.get("models.d" + std::to_string(i) + ".continuousStates.x"));
    x.insert(x.end(), value.begin(), value.end());
  }
  return x;
}

}  // namespace

TEST_CASE("preDeriv and postDeriv batch methods integrate as the methods per instance") {
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    const std::vector<double> batched = decayStates<BatchedDecay>(integrator);
    CHECK(batched == decayStates<InstanceDecay>(integrator));
    // And the decay itself, x(1) = exp(-k), relative to 1e-3: rk4's ten steps of 0.1 s leave
    // 5.9e-4 at k = 3.5 (its stability function over exp(z) at z = -0.35 is 1 + 5.9e-5 per
    // step), the variable-step methods far less at their default tolerances.
    for (int i = 0; i < 4; ++i) {
      const double expected = std::exp(-(0.5 + i));
      for (const int element : {2 * i, 2 * i + 1}) {
        CHECK(std::abs(batched[static_cast<std::size_t>(element)] / expected - 1.0) < 1e-3);
      }
    }
  }
}

}  // namespace hopsim
