// Simulation: structure rules, lock/unlock, the calling sequence, freshness, activation,
// granularity and the variable tree of models.

#include <doctest/doctest.h>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "test_models.h"

namespace hopsim {

TEST_CASE("a model acting only on fresh input acts exactly once per write") {
  Simulation sim({.ioStepSize = 0.1});
  sim.addSignal("u", ElementType::Double);
  auto& fresh = sim.addModel<test::FreshOnly>("fresh");
  sim.tie("fresh", "u", "u");
  sim.lock();
  // Writes at 0.0 (x2 before the first hop: still one unread change), 0.35 and 0.72.
  sim.set("signals.u", 1.0);
  sim.set("signals.u", 2.0);
  sim.registerTimedEvent("w1", 0.35, [](Simulation& s, double) { s.set("signals.u", 10.0); });
  sim.registerTimedEvent("w2", 0.72, [](Simulation& s, double) { s.set("signals.u", 100.0); });
  sim.advanceTimeTo(2.0);
  CHECK(fresh.actions == 3);
  CHECK(fresh.sum == 112.0);
}

TEST_CASE("one hop calls the models' methods in the documented sequence") {
  Simulation sim({.ioStepSize = 0.5});
  std::vector<std::string> log;
  sim.addSignal("a", ElementType::Double);
  sim.addSignal("b", ElementType::Double);
  sim.addModel(std::make_unique<test::Logger>("m1", log));
  sim.addModel(std::make_unique<test::Logger>("m2", log));
  sim.tie("m1", "y", "a");
  sim.tie("m2", "y", "b");
  sim.setModelPeriod("m2", 1.0);
  sim.lock();
  sim.advanceTimeTo(0.5);
  const std::vector<std::string> first{
      "m1.processParams@0.00",  "m2.processParams@0.00",                         // params
      "m1.updateFlowOuts@0.00", "m2.updateFlowOuts@0.00",                        // step zero
      "m1.updateFlowOuts@0.00", "m2.updateFlowOuts@0.00",                        // STARTIO
      "m1.startIoStep@0.00",    "m2.startIoStep@0.00",                           // I/O starts
      "m1.startHop@0.00",       "m2.startHop@0.00",                              // (no STARTHOP)
      "m1.updateFlowOuts@0.50", "m2.updateFlowOuts@0.50",                        // ENDHOP
      "m1.endHop@0.50",         "m2.endHop@0.50",         "m1.endIoStep@0.50"};  // m2 runs to 1.0
  CHECK(log == first);
  log.clear();
  sim.advanceTimeTo(1.0);
  const std::vector<std::string> second{
      "m1.updateFlowOuts@0.50", "m2.updateFlowOuts@0.50", "m1.startIoStep@0.50",
      "m1.startHop@0.50",       "m2.startHop@0.50",       "m1.updateFlowOuts@1.00",
      "m2.updateFlowOuts@1.00", "m1.endHop@1.00",         "m2.endHop@1.00",
      "m1.endIoStep@1.00",      "m2.endIoStep@1.00"};
  CHECK(log == second);
}

TEST_CASE("structure changes need an unlocked simulation, lock() twice is harmless") {
  Simulation sim;
  sim.addSignal("u", ElementType::Double);
  sim.addModel<test::Probe>("p");
  sim.lock();
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.addSignal("v", ElementType::Double),
                       "addSignal('v'): the simulation is locked; call unlock() first", ModelError);
  CHECK_THROWS_AS(sim.addModel<test::Probe>("q"), ModelError);
  CHECK_THROWS_AS(sim.removeModel("p"), ModelError);
  CHECK_THROWS_AS(sim.tie("p", "u", "u"), ModelError);
  sim.advanceTimeBy(0.05);
  sim.unlock();
  CHECK_THROWS_WITH_AS(sim.advanceTimeBy(0.01), doctest::Contains("call lock() first"), ModelError);
  sim.addModel<test::Probe>("q");
  sim.lock();
  sim.advanceTimeBy(0.05);
  CHECK(sim.time() == doctest::Approx(0.1));
}

TEST_CASE("an untied port stops lock() naming model and port") {
  Simulation sim;
  sim.addSignal("x", ElementType::Double);
  sim.addModel<test::Pass>("p");
  sim.tie("p", "y", "x");
  CHECK_THROWS_WITH_AS(sim.lock(), "model 'p' (Pass): flowIn 'u' is not tied to a signal",
                       ModelError);
}

namespace {

/// y = u + bias and doubled = 2 u, where bias has a default: the ports users may leave untied.
class Biased final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Biased", ModelKind::Flow, "y = u + bias; doubled = 2 u") {}
    InKey<double> u = flowIn<double>("u");
    InKey<double> bias = flowIn<double>("bias").defaultValue(2.5);
    OutKey<double> y = flowOut<double>("y");
    OutKey<double> doubled = flowOut<double>("doubled");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Biased(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double) override {
    out(d_.y) = in(d_.u) + in(d_.bias);
    out(d_.doubled) = 2.0 * in(d_.u);
  }

 private:
  const Declaration& d_ = declaration();
};

/// An output whose length nothing but a tie can fix.
class Sized final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Sized", ModelKind::Flow, "y = 0 (n elements)") {}
    OutKey<Eigen::VectorXd> y = flowOut<Eigen::VectorXd>("y").length("n");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Sized(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double) override { out(d_.y).setZero(); }

 private:
  const Declaration& d_ = declaration();
};

}  // namespace

TEST_CASE("an output nobody reads and an input with a default may stay untied") {
  Simulation sim;
  sim.addSignal("u", ElementType::Double);
  sim.addSignal("y", ElementType::Double);
  sim.addModel<Biased>("m");
  sim.tie("m", "u", "u");
  sim.tie("m", "y", "y");
  sim.set("signals.u", 4.0);
  sim.lock();
  const Model& m = sim.model("m");
  CHECK(m.ownsSignal(FieldRole::FlowIn, 1));   // bias: its default
  CHECK(m.ownsSignal(FieldRole::FlowOut, 1));  // doubled: nobody reads it
  CHECK_FALSE(m.ownsSignal(FieldRole::FlowOut, 0));
  sim.advanceTimeBy(0.1);
  CHECK(std::get<double>(sim.get("signals.y")) == 6.5);
  // The untied output is computed all the same, and readable as the model's port.
  CHECK(std::get<double>(sim.get("models.m.flowOuts.doubled")) == 8.0);
  CHECK(std::get<double>(sim.get("models.m.flowIns.bias")) == 2.5);
  CHECK(sim.signalNames() == std::vector<std::string>{"u", "y"});  // nothing added

  // Tied later, the port uses its tie: the signal of its own is gone.
  sim.unlock();
  sim.addSignal("twice", ElementType::Double);
  sim.tie("m", "doubled", "twice");
  sim.lock();
  CHECK_FALSE(sim.model("m").ownsSignal(FieldRole::FlowOut, 1));
  sim.advanceTimeBy(0.1);
  CHECK(std::get<double>(sim.get("signals.twice")) == 8.0);
}

TEST_CASE("an untied output whose length nothing fixes stops lock() saying so") {
  Simulation sim;
  sim.addModel<Sized>("s");
  CHECK_THROWS_WITH_AS(sim.lock(),
                       "model 's' (Sized): length 'n' of untied flowOut 'y' is fixed by no tied "
                       "port and no set param (tie it)",
                       ModelError);
}

TEST_CASE("names are validated and unknown names suggest the nearest") {
  Simulation sim;
  sim.addSignal("thrust", ElementType::Double);
  sim.addModel<test::Probe>("engine");
  CHECK_THROWS_WITH_AS(sim.signal("thrus"), "no signal 'thrus' (did you mean 'thrust'?)",
                       InputError);
  CHECK_THROWS_WITH_AS(sim.model("engin"), "no model 'engin' (did you mean 'engine'?)", InputError);
  CHECK_THROWS_AS(sim.addSignal("thrust", ElementType::Double), InputError);
  CHECK_THROWS_AS(sim.addModel<test::Probe>("engine"), InputError);
  CHECK_THROWS_WITH_AS(sim.addModel<test::Probe>("bad name"),
                       doctest::Contains("model name 'bad name': character ' '"), InputError);
  CHECK_THROWS_AS(sim.addSignal("a..b", ElementType::Double), InputError);
}

TEST_CASE("removing a signal still tied is refused, removing a model frees its names") {
  Simulation sim;
  sim.addSignal("u", ElementType::Double);
  sim.addSignal("y", ElementType::Double);
  sim.addModel<test::Pass>("p");
  sim.tie("p", "u", "u");
  sim.tie("p", "y", "y");
  sim.addBreak("p", "u");
  sim.registerModelEvent("e", "p", ModelMethod::StartHop, EventTiming::Before,
                         [](Simulation&, double) {});
  CHECK_THROWS_WITH_AS(sim.removeSignal("u"),
                       "signal 'u' is still tied to models.p.flowIns.u; retie or remove those "
                       "models first",
                       ModelError);
  sim.removeModel("p");
  CHECK_FALSE(sim.variables().isBranch("models.p"));
  CHECK(sim.listEvents().empty());
  sim.removeSignal("u");
  CHECK(sim.signalNames() == std::vector<std::string>{"y"});
  sim.addModel<test::Pass>("p");  // the name is free again
}

TEST_CASE("model fields and signals are variables with dotted paths") {
  Simulation sim;
  sim.addSignal("lander.thrust", ElementType::Double, 1, "N");
  sim.addModel<test::Pass>("lander.engine");
  sim.tie("lander.engine", "y", "lander.thrust");
  CHECK(sim.list("models.lander.engine") ==
        std::vector<std::string>{"models.lander.engine.flowIns.u",
                                 "models.lander.engine.flowOuts.y",
                                 "models.lander.engine.params.offset"});
  CHECK(sim.variables().at("signals.lander.thrust").unit() == "N");
  CHECK_THROWS_WITH_AS(sim.get("models.lander.engine.flowIns.u"),
                       "models.lander.engine.flowIns.u is not tied to a signal", InputError);
  CHECK_THROWS_WITH_AS(sim.get("models.lander.engine.params.ofset"),
                       doctest::Contains("did you mean 'models.lander.engine.params.offset'"),
                       InputError);
}

TEST_CASE("a deactivated model is skipped, reactivated, it starts a fresh I/O step") {
  Simulation sim({.ioStepSize = 0.1});
  auto& probe = sim.addModel<test::Probe>("p");
  sim.setModelPeriod("p", 0.25);
  sim.lock();
  sim.advanceTimeTo(0.3);  // I/O steps [0, 0.25] done, [0.25, 0.5] running
  sim.deactivate("p");
  CHECK_FALSE(sim.isActive("p"));
  const long hops = probe.hops;
  sim.advanceTimeTo(0.6);
  CHECK(probe.hops == hops);
  sim.activate("p");
  sim.advanceTimeTo(0.7);
  CHECK(probe.lastStart == doctest::Approx(0.6));    // a fresh step at reactivation ...
  CHECK(probe.plannedEnd == doctest::Approx(0.75));  // ... ending on its own grid
  sim.advanceTimeTo(0.8);
  CHECK(probe.endIoSteps == 2);  // [0, 0.25] and [0.6, 0.75]; [0.25, 0.5] was abandoned
}

TEST_CASE("structural calls from inside a hop are refused") {
  Simulation sim;
  sim.addModel<test::Probe>("p");
  sim.registerModelEvent("meddle", "p", ModelMethod::StartHop, EventTiming::Before,
                         [](Simulation& s, double) { s.deactivate("p"); });
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(), doctest::Contains("not allowed inside a hop"),
                       ModelError);
}

TEST_CASE("an event between hops may unlock, change and relock the structure") {
  Simulation sim({.ioStepSize = 0.1});
  sim.addModel<test::Probe>("p");
  test::Probe* added = nullptr;
  sim.registerTimedEvent("grow", 0.5, [&](Simulation& s, double) {
    s.unlock();
    added = &s.addModel<test::Probe>("late");
    s.lock();
  });
  sim.lock();
  sim.advanceTimeTo(1.0);
  REQUIRE(added != nullptr);
  CHECK(added->lastStart == doctest::Approx(0.9));
  CHECK(added->endIoSteps == 5);
}

TEST_CASE(
    "granularity: declared minimum, raised by the user, pushed upstream along "
    "feed-through") {
  Simulation sim;
  sim.addSignal("a", ElementType::Double);
  sim.addSignal("b", ElementType::Double);
  sim.addSignal("c", ElementType::Double);
  std::vector<std::string> log;
  sim.addModel(std::make_unique<test::Logger>("source", log));  // STARTIO|ENDHOP
  sim.addModel<test::Pass>("pass");                             // ALL, fed from source
  sim.tie("source", "y", "a");
  sim.tie("pass", "u", "a");
  sim.tie("pass", "y", "b");
  sim.lock();
  CHECK(sim.outputGranularity("source") == Granularity::all());  // pass needs it everywhere
  sim.unlock();
  sim.removeModel("pass");
  sim.lock();
  CHECK(sim.outputGranularity("source").toString() == "STARTIO|ENDHOP");
  sim.raiseOutputGranularity("source", Sweep::StartHop);
  CHECK(sim.outputGranularity("source").toString() == "STARTIO|STARTHOP|ENDHOP");
}

TEST_CASE("a value set between hops reaches the outputs before the next hop reads them") {
  // u -> source (y = gain u + x, ENDHOP only) -> y -> reader (reads y in startHop).
  Simulation sim({.ioStepSize = 0.1});
  test::buildEndHopChain(sim);
  const auto& source = dynamic_cast<const test::EndHopOutput&>(sim.model("source"));
  const auto& reader = dynamic_cast<const test::StartHopReader&>(sim.model("reader"));
  sim.step(2);  // step zero and ENDHOP: two updates in the first hop, one in the second
  CHECK(source.updates == 3);
  CHECK(reader.read == std::vector<double>{1.0, 1.0});

  SUBCASE("a discrete state") {
    sim.set("models.source.discreteStates.x", 10.0);
    sim.step();
    CHECK(reader.read.back() == 11.0);
  }
  SUBCASE("a param") {
    sim.set("models.source.params.gain", 3.0);
    sim.step();
    CHECK(reader.read.back() == 3.0);
  }
  SUBCASE("an input signal, by path and through Signal::set") {
    sim.set("signals.u", 5.0);
    sim.step();
    CHECK(reader.read.back() == 5.0);
    sim.signal("u").set(Value(7.0));
    sim.step();
    CHECK(reader.read.back() == 7.0);
    sim.signal("u").slice(0, 1).set(Value(8.0));
    sim.step();
    CHECK(reader.read.back() == 8.0);
  }
  SUBCASE("by an event at a barrier") {
    sim.registerTimedEvent(
        "bump", 0.3, [](Simulation& s, double) { s.set("models.source.discreteStates.x", 100.0); });
    sim.step();  // the event fires at this hop's end barrier, t = 0.3
    CHECK(reader.read.back() == 1.0);
    sim.step();
    CHECK(reader.read.back() == 101.0);
  }
  // One update for the set, one at ENDHOP, then one per hop again.
  const int before = source.updates;
  sim.step();
  CHECK(source.updates - before == 1);
}

TEST_CASE("without a set between hops, the hop start updates no output") {
  Simulation sim({.ioStepSize = 0.1});
  test::buildEndHopChain(sim);
  const auto& source = dynamic_cast<const test::EndHopOutput&>(sim.model("source"));
  sim.step();
  const int afterFirst = source.updates;
  // Reading values and writing an output the way models do are not sets.
  CHECK(std::get<double>(sim.get("signals.y")) == 1.0);
  sim.step(10);
  CHECK(source.updates - afterFirst == 10);
  sim.set("signals.u", 4.0);
  sim.step(10);
  CHECK(source.updates - afterFirst == 21);
  CHECK(std::get<double>(sim.get("signals.y")) == 4.0);
}

TEST_CASE("stop callbacks cannot change the list of stop callbacks while it is asked") {
  Simulation sim;
  sim.lock();
  sim.addStopCallback("adder", [](Simulation& s, double) {
    s.addStopCallback("another", [](Simulation&, double) { return true; });
    return false;
  });
  CHECK_THROWS_WITH_AS(sim.run(), doctest::Contains("not allowed from inside a stop callback"),
                       ModelError);
  sim.removeStopCallback("adder");  // allowed again once the callbacks have returned
}

TEST_CASE("settings are validated and fixed while locked") {
  Simulation sim;
  CHECK_THROWS_AS(sim.setIntegrationSteps(0), InputError);
  sim.setIntegrationSteps(4);
  CHECK(sim.integrationSteps() == 4);
  sim.setIoStepSize(0.02);
  CHECK(sim.ioStepSize() == 0.02);
  CHECK_THROWS_AS(Simulation({.ioStepSize = -1.0}), InputError);
  CHECK_THROWS_AS(Simulation({.startTime = std::nan("")}), InputError);
  sim.lock();
  CHECK_THROWS_AS(sim.setIoStepSize(0.1), ModelError);
  CHECK_THROWS_AS(sim.modelOrder().flowModels.at(0), std::out_of_range);  // no models
}

}  // namespace hopsim
