// Feed-through-aware sorting: chains in dataflow order, topological loops
// without breaks, algebraic loops refused with the cycle, declared breaks one evaluation late.

#include <doctest/doctest.h>

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "test_models.h"

namespace hopsim {

TEST_CASE("a chain declared in reverse order runs in dataflow order, with no lag") {
  Simulation sim;
  constexpr int kLength = 20;
  for (int i = 0; i <= kLength; ++i) sim.addSignal("s" + std::to_string(i), ElementType::Double);
  for (int i = kLength - 1; i >= 0; --i) {  // created downstream first
    const std::string name = "p" + std::to_string(i);
    sim.addModel<test::Pass>(name);
    sim.tie(name, "u", "s" + std::to_string(i));
    sim.tie(name, "y", "s" + std::to_string(i + 1));
  }
  sim.set("signals.s0", 100.0);
  sim.lock();
  const ModelOrder order = sim.modelOrder();
  for (int i = 0; i < kLength; ++i) CHECK(order.flowModels[i] == "p" + std::to_string(i));
  CHECK(order.breaks.empty());
  sim.advanceOverHop();
  // Each model adds 1; in dataflow order the end of the chain is current after one hop.
  CHECK(std::get<double>(sim.get("signals.s20")) == 120.0);
  sim.set("signals.s0", 0.0);
  sim.advanceOverHop();
  CHECK(std::get<double>(sim.get("signals.s20")) == 20.0);
}

TEST_CASE("ties between independent models keep creation order") {
  Simulation sim;
  for (const char* name : {"c", "a", "b"}) {
    sim.addSignal(std::string(name) + "_in", ElementType::Double);
    sim.addSignal(std::string(name) + "_out", ElementType::Double);
    sim.addModel<test::Pass>(name);
    sim.tie(name, "u", std::string(name) + "_in");
    sim.tie(name, "y", std::string(name) + "_out");
  }
  sim.lock();
  CHECK(sim.modelOrder().flowModels == std::vector<std::string>{"c", "a", "b"});
}

TEST_CASE("a topological loop through a model without feed-through sorts without a break") {
  // acc (no feed-through) -> x -> pass (feed-through) -> u -> acc
  Simulation sim;
  sim.addSignal("x", ElementType::Double);
  sim.addSignal("u", ElementType::Double);
  sim.addModel<test::Pass>("pass");
  sim.addModel<test::Accumulator>("acc");
  sim.tie("pass", "u", "x");
  sim.tie("pass", "y", "u");
  sim.tie("acc", "u", "u");
  sim.tie("acc", "y", "x");
  sim.lock();
  CHECK(sim.modelOrder().flowModels == std::vector<std::string>{"acc", "pass"});
  // x_{k+1} = x_k + (x_k + 1): 0, 1, 3, 7, 15
  sim.advanceOverHop();
  sim.advanceOverHop();
  sim.advanceOverHop();
  sim.advanceOverHop();
  CHECK(std::get<double>(sim.get("models.acc.discreteStates.x")) == 15.0);
}

TEST_CASE("an algebraic loop fails at lock() with the cycle and the feed-through involved") {
  Simulation sim;
  sim.addSignal("a_to_b", ElementType::Double);
  sim.addSignal("b_to_c", ElementType::Double);
  sim.addSignal("c_to_a", ElementType::Double);
  sim.addSignal("side", ElementType::Double);
  for (const char* name : {"a", "b", "c", "d"}) sim.addModel<test::Pass>(name);
  sim.tie("a", "u", "c_to_a");
  sim.tie("a", "y", "a_to_b");
  sim.tie("b", "u", "a_to_b");
  sim.tie("b", "y", "b_to_c");
  sim.tie("c", "u", "b_to_c");
  sim.tie("c", "y", "c_to_a");
  sim.tie("d", "u", "b_to_c");  // downstream of the loop, not in it
  sim.tie("d", "y", "side");
  std::string message;
  try {
    sim.lock();
  } catch (const ModelError& e) {
    message = e.what();
  }
  CHECK(message.find("algebraic loop") != std::string::npos);
  CHECK(message.find("a.y -> 'a_to_b' -> b.u   (feed-through Pass declares u -> y)") !=
        std::string::npos);
  CHECK(message.find("b.y -> 'b_to_c' -> c.u") != std::string::npos);
  CHECK(message.find("c.y -> 'c_to_a' -> a.u") != std::string::npos);
  CHECK(message.find("d.u") == std::string::npos);
  CHECK(message.find("addBreak") != std::string::npos);
  CHECK_FALSE(sim.locked());
}

TEST_CASE(
    "a declared break makes an algebraic loop run, reading the broken input one "
    "evaluation late") {
  // a: y = u + 1 reads b's output through the break; b: y = u + 10 reads a's output.
  Simulation sim;
  sim.addSignal("a_out", ElementType::Double);
  sim.addSignal("b_out", ElementType::Double);
  auto& a = sim.addModel<test::Pass>("a");
  sim.addModel<test::Pass>("b");
  sim.set("models.b.params.offset", 10.0);
  sim.tie("a", "u", "b_out");
  sim.tie("a", "y", "a_out");
  sim.tie("b", "u", "a_out");
  sim.tie("b", "y", "b_out");
  sim.addBreak("a", "u");
  sim.set("signals.b_out", 0.0);  // the value a reads before b has run once
  sim.lock();
  const ModelOrder order = sim.modelOrder();
  CHECK(order.flowModels == std::vector<std::string>{"a", "b"});
  REQUIRE(order.breaks.size() == 1);
  CHECK(order.breaks[0] == "b.y -> 'b_out' -> a.u");

  // Evaluation n: a_n = b_{n-1} + 1 (late), b_n = a_n + 10 (current). With b_0 = 0:
  // a = 1, 12, 23, ...; b = 11, 22, 33, ...
  double expectedB = 0.0;
  int evaluations = 0;
  for (int hop = 0; hop < 5; ++hop) {
    const int before = a.updates;
    sim.advanceOverHop();
    for (int n = before; n < a.updates; ++n) expectedB = (expectedB + 1.0) + 10.0;
    evaluations += a.updates - before;
  }
  CHECK(evaluations > 5);
  CHECK(std::get<double>(sim.get("signals.b_out")) == expectedB);
  CHECK(std::get<double>(sim.get("signals.a_out")) == expectedB - 10.0);
}

TEST_CASE("without an initial value, a broken loop reports the unset read") {
  Simulation sim;
  sim.addSignal("a_out", ElementType::Double);
  sim.addSignal("b_out", ElementType::Double);
  sim.addModel<test::Pass>("a");
  sim.addModel<test::Pass>("b");
  sim.tie("a", "u", "b_out");
  sim.tie("a", "y", "a_out");
  sim.tie("b", "u", "a_out");
  sim.tie("b", "y", "b_out");
  sim.addBreak("a", "u");
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       doctest::Contains("model 'a' (Pass) read flowIn 'u' from signal 'b_out' "
                                         "before anything wrote it"),
                       ModelError);
}

TEST_CASE("slices order only the models whose elements overlap") {
  Simulation sim;
  sim.addSignal("bus", ElementType::Double, 2);
  sim.addSignal("out0", ElementType::Double);
  sim.addSignal("in1", ElementType::Double);
  sim.addModel<test::Pass>("reader0");  // reads bus[0], which writer0 writes
  sim.addModel<test::Pass>("writer1");  // writes bus[1]
  sim.addModel<test::Pass>("writer0");  // writes bus[0]
  sim.tie("reader0", "u", "bus", 0, 1);
  sim.tie("reader0", "y", "out0");
  sim.tie("writer1", "u", "in1");
  sim.tie("writer1", "y", "bus", 1, 1);
  sim.tie("writer0", "u", "in1");
  sim.tie("writer0", "y", "bus", 0, 1);
  sim.lock();
  CHECK(sim.modelOrder().flowModels == std::vector<std::string>{"writer1", "writer0", "reader0"});
}

TEST_CASE("two outputs writing the same elements are refused at lock()") {
  Simulation sim;
  sim.addSignal("bus", ElementType::Double, 2);
  sim.addSignal("in", ElementType::Double);
  sim.addModel<test::Pass>("w1");
  sim.addModel<test::Pass>("w2");
  sim.tie("w1", "u", "in");
  sim.tie("w2", "u", "in");
  sim.tie("w1", "y", "bus", 1, 1);
  sim.tie("w2", "y", "bus", 1, 1);
  CHECK_THROWS_WITH_AS(sim.lock(),
                       doctest::Contains("signal 'bus' has two writers on the same elements: "
                                         "w1.y (bus[1:2]) and w2.y (bus[1:2])"),
                       ModelError);
}

}  // namespace hopsim
