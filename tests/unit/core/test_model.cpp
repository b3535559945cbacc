// Model: typed access, validated sets, variable lengths, snapshots and the authoring rules.

#include <doctest/doctest.h>

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "test_models.h"

namespace hopsim {
namespace {

/// y = scale .* u (elementwise, variable length n), with a state counting evaluations and a
/// scratch vector; a bounded int param.
class Scale final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Scale", ModelKind::Flow, "y = scale .* u") {}
    ParamKey<Eigen::VectorXd> scale =
        param<Eigen::VectorXd>("scale").length("n").defaultValue(2.0).describe("per element");
    ParamKey<std::int64_t> level =
        param<std::int64_t>("level").bounds(0, 3).defaultValue(std::int64_t{1});
    ParamKey<double> required = param<double>("required").unit("m");
    ParamKey<double> tau = param<double>("tau").unit("s").above(0.0).defaultValue(1.0);
    InKey<Eigen::VectorXd> u = flowIn<Eigen::VectorXd>("u").length("n");
    OutKey<Eigen::VectorXd> y = flowOut<Eigen::VectorXd>("y").length("n");
    DiscreteStateKey<Eigen::VectorXd> last =
        discreteState<Eigen::VectorXd>("last").length("n").defaultValue(-1.0);
    DiscreteStateKey<std::string> mode =
        discreteState<std::string>("mode").defaultValue(std::string("idle"));
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Scale(std::string name) : FlowModel(std::move(name), declaration()) {}
  void setup() override { ++setups; }
  void processParams(double) override { ++paramUpdates; }
  void startHop(double, double) override {
    state(d_.last) = in(d_.u);
    state(d_.mode) = "running";
  }
  void updateFlowOuts(double) override { out(d_.y) = param(d_.scale).cwiseProduct(in(d_.u)); }
  void endHop(double, double) override {
    if (writeOutsideUpdate) out(d_.y)[0] = 0.0;
  }
  int setups = 0;
  int paramUpdates = 0;
  bool writeOutsideUpdate = false;

 private:
  const Declaration& d_ = declaration();
};

struct Fixture {
  Simulation sim;
  Scale* scale;
  Fixture() {
    sim.addSignal("u", ElementType::Double, 3);
    sim.addSignal("y", ElementType::Double, 3);
    scale = &sim.addModel<Scale>("scale");
    sim.tie("scale", "u", "u");
    sim.tie("scale", "y", "y");
    sim.set("signals.u", std::vector<double>{1.0, 2.0, 3.0});
  }
};

}  // namespace

TEST_CASE("variable lengths are fixed by the tied signals at lock(), scalar defaults fill them") {
  Fixture f;
  f.sim.set("models.scale.params.required", 1.5);
  f.sim.lock();
  CHECK(f.scale->setups == 1);
  CHECK(std::get<std::vector<double>>(f.sim.get("models.scale.params.scale")) ==
        std::vector<double>{2.0, 2.0, 2.0});
  CHECK(std::get<std::vector<double>>(f.sim.get("models.scale.discreteStates.last")) ==
        std::vector<double>{-1.0, -1.0, -1.0});
  f.sim.advanceOverHop();
  CHECK(std::get<std::vector<double>>(f.sim.get("signals.y")) ==
        std::vector<double>{2.0, 4.0, 6.0});
  CHECK(std::get<std::string>(f.sim.get("models.scale.discreteStates.mode")) == "running");
  CHECK(std::get<std::vector<double>>(f.sim.get("models.scale.flowIns.u"))[2] == 3.0);
}

/// A history of `capacity` entries: its length comes from an integer param of that name.
class History final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("History", ModelKind::Flow, "keeps capacity entries") {}
    ParamKey<std::int64_t> capacity =
        param<std::int64_t>("capacity").defaultValue(std::int64_t{4}).describe("entries");
    DiscreteStateKey<IntVector> entries =
        discreteState<IntVector>("entries").length("capacity").defaultValue(std::int64_t{-1});
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit History(std::string name) : FlowModel(std::move(name), declaration()) {}
};

TEST_CASE("a variable length no port fixes is fixed by the integer param of its name") {
  Simulation sim;
  sim.addModel<History>("history");
  sim.lock();
  CHECK(std::get<std::vector<std::int64_t>>(sim.get("models.history.discreteStates.entries")) ==
        std::vector<std::int64_t>{-1, -1, -1, -1});
  sim.unlock();
  sim.set("models.history.params.capacity", std::int64_t{2});
  sim.lock();
  CHECK(std::get<std::vector<std::int64_t>>(sim.get("models.history.discreteStates.entries")) ==
        std::vector<std::int64_t>{-1, -1});
  sim.unlock();
  sim.set("models.history.params.capacity", std::int64_t{0});
  CHECK_THROWS_WITH_AS(sim.lock(),
                       "model 'history' (History): param 'capacity' = 0 must be at least 1 (it "
                       "is a length)",
                       ModelError);
}

TEST_CASE("a param with no default must be set before lock()") {
  Fixture f;
  CHECK_THROWS_WITH_AS(f.sim.lock(),
                       "model 'scale' (Scale): param 'required' has no default and was never "
                       "set (set models.scale.params.required)",
                       ModelError);
  CHECK_FALSE(f.sim.locked());
}

TEST_CASE(
    "sets are validated: bounds, types and resolved lengths, a rejected set changes "
    "nothing") {
  Fixture f;
  f.sim.set("models.scale.params.required", 1.0);
  CHECK_THROWS_WITH_AS(f.sim.set("models.scale.params.level", std::int64_t{7}),
                       "models.scale.params.level: value 7 is above the upper bound 3", InputError);
  CHECK(std::get<std::int64_t>(f.sim.get("models.scale.params.level")) == 1);
  // An exclusive bound (declared with above()) refuses the bound itself.
  CHECK_THROWS_WITH_AS(f.sim.set("models.scale.params.tau", 0.0),
                       "models.scale.params.tau: value 0 is at or below the lower bound 0 s",
                       InputError);
  f.sim.set("models.scale.params.tau", 1e-9);
  CHECK_THROWS_WITH_AS(f.sim.set("models.scale.params.level", 2.5),
                       doctest::Contains("not a whole number"), InputError);
  f.sim.lock();
  CHECK_THROWS_WITH_AS(f.sim.set("models.scale.params.scale", std::vector<double>{1.0, 2.0}),
                       "models.scale.params.scale: expected 3 elements (length 'n' is fixed by "
                       "its ties) but got [1, 2]",
                       InputError);
  CHECK_THROWS_WITH_AS(f.sim.set("models.scale.flowIns.u", std::vector<double>{1, 2, 3}),
                       doctest::Contains("is a port and read-only"), InputError);
}

TEST_CASE("changing a param makes processParams run once before the next hop") {
  Fixture f;
  f.sim.set("models.scale.params.required", 1.0);
  f.sim.lock();
  f.sim.advanceOverHop();
  f.sim.advanceOverHop();
  CHECK(f.scale->paramUpdates == 1);  // once after lock()
  f.sim.set("models.scale.params.scale", std::vector<double>{1.0, 1.0, 1.0});
  f.sim.advanceOverHop();
  CHECK(f.scale->paramUpdates == 2);
  CHECK(std::get<std::vector<double>>(f.sim.get("signals.y")) ==
        std::vector<double>{1.0, 2.0, 3.0});
}

TEST_CASE("a param set while its model is inactive is processed when the model is activated") {
  Fixture f;
  f.sim.set("models.scale.params.required", 1.0);
  f.sim.lock();
  f.sim.advanceOverHop();
  f.sim.deactivate("scale");
  f.sim.set("models.scale.params.tau", 2.0);
  f.sim.advanceOverHop();  // looks at the active models' flags only
  CHECK(f.scale->paramUpdates == 1);
  f.sim.activate("scale");
  f.sim.advanceOverHop();
  CHECK(f.scale->paramUpdates == 2);
  f.sim.advanceOverHop();
  CHECK(f.scale->paramUpdates == 2);
}

TEST_CASE("typed access follows a vector param and state through lock() and every later set") {
  // Six elements: longer than a Buffer keeps inline, so each set may hand the field new storage.
  Simulation sim;
  sim.addSignal("u", ElementType::Double, 6);
  sim.addSignal("y", ElementType::Double, 6);
  auto& scale = sim.addModel<Scale>("scale");
  sim.tie("scale", "u", "u");
  sim.tie("scale", "y", "y");
  sim.set("signals.u", std::vector<double>{1, 2, 3, 4, 5, 6});
  sim.set("models.scale.params.required", 1.0);
  sim.set("models.scale.params.scale", std::vector<double>{1, 1, 1});  // before lock: any length
  sim.set("models.scale.params.scale", std::vector<double>{1, 2, 3, 4, 5, 6});
  sim.lock();
  sim.advanceOverHop();
  CHECK(std::get<std::vector<double>>(sim.get("signals.y")) ==
        std::vector<double>{1, 4, 9, 16, 25, 36});
  sim.set("models.scale.params.scale", std::vector<double>{-1, -1, -1, -1, -1, -1});
  sim.set("models.scale.discreteStates.last", std::vector<double>{7, 7, 7, 7, 7, 7});
  CHECK(std::get<std::vector<double>>(sim.get("models.scale.discreteStates.last")) ==
        std::vector<double>{7, 7, 7, 7, 7, 7});
  sim.advanceOverHop();
  CHECK(std::get<std::vector<double>>(sim.get("signals.y")) ==
        std::vector<double>{-1, -2, -3, -4, -5, -6});
  // startHop wrote the state through typed access; the variable tree reads the same storage.
  CHECK(std::get<std::vector<double>>(sim.get("models.scale.discreteStates.last")) ==
        std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(std::get<std::string>(sim.get("models.scale.discreteStates.mode")) == "running");
  CHECK(scale.paramUpdates == 2);
}

TEST_CASE("discrete states round-trip through a snapshot") {
  Fixture f;
  f.sim.set("models.scale.params.required", 1.0);
  f.sim.lock();
  f.sim.advanceOverHop();
  std::vector<Buffer> saved;
  f.scale->saveDiscreteStates(saved);
  f.sim.set("signals.u", std::vector<double>{7.0, 8.0, 9.0});
  f.sim.set("models.scale.discreteStates.mode", std::string("changed"));
  f.sim.advanceOverHop();
  CHECK(std::get<std::vector<double>>(f.sim.get("models.scale.discreteStates.last"))[0] == 7.0);
  f.scale->restoreDiscreteStates(saved);
  CHECK(std::get<std::vector<double>>(f.sim.get("models.scale.discreteStates.last")) ==
        std::vector<double>{1.0, 2.0, 3.0});
  CHECK(std::get<std::string>(f.sim.get("models.scale.discreteStates.mode")) == "running");
}

TEST_CASE("writing an output outside updateFlowOuts is an error naming model and port") {
  Fixture f;
  f.sim.set("models.scale.params.required", 1.0);
  f.scale->writeOutsideUpdate = true;
  f.sim.lock();
  CHECK_THROWS_WITH_AS(f.sim.advanceOverHop(),
                       "model 'scale' (Scale) wrote flowOut 'y' outside updateFlowOuts; only "
                       "updateFlowOuts writes flow outputs",
                       ModelError);
}

TEST_CASE("ties check element type and fixed lengths and name both ends") {
  Simulation sim;
  sim.addSignal("flag", ElementType::Bool);
  sim.addSignal("pair", ElementType::Double, 2);
  sim.addModel<test::Pass>("p");
  CHECK_THROWS_WITH_AS(sim.tie("p", "u", "flag"),
                       "cannot tie models.p.flowIns.u (double) to 'flag' (bool): element types "
                       "differ",
                       InputError);
  CHECK_THROWS_WITH_AS(sim.tie("p", "u", "pair"), doctest::Contains("lengths differ"), InputError);
  CHECK_NOTHROW(sim.tie("p", "u", "pair", 1, 1));
  CHECK_THROWS_WITH_AS(sim.tie("p", "v", "pair"),
                       "model 'p' (Pass) has no port 'v' (did you mean 'u' or 'y'?)", InputError);
  CHECK_THROWS_AS(sim.tie("p", "u", "pair", 1, 2), InputError);
}

TEST_CASE("a model class must derive from the family its declaration names") {
  struct Continuous : ModelSpec {
    Continuous() : ModelSpec("ContinuousThing", ModelKind::Continuous, "") {}
  };
  static const Continuous continuousSpec;
  struct Wrong : FlowModel {
    Wrong() : FlowModel("w", continuousSpec) {}
  };
  CHECK_THROWS_WITH_AS(Wrong(),
                       "model 'w': class 'ContinuousThing' is declared a ContinuousModel but "
                       "derives from FlowModel",
                       ModelError);
}

}  // namespace hopsim
