// Events: same-tick order by (priority, registration), self-rescheduling
// at chosen times, removed events never fire; plus every other kind and the registry API.

#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>

#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "test_models.h"

namespace hopsim {
namespace {

/// A locked simulation with one model, default period 0.1 s.
struct Fixture {
  Simulation sim{{.ioStepSize = 0.1}};
  std::vector<std::string> log;
  Fixture() { sim.addModel<test::Probe>("probe"); }
  EventCallback note(const std::string& what) {
    return [this, what](Simulation&, double t) {
      log.push_back(what + "@" + std::to_string(t).substr(0, 4));
    };
  }
};

}  // namespace

TEST_CASE("events at the same tick run in (priority, registration) order, whatever their kind") {
  Fixture f;
  f.sim.registerTimedEvent("late", 0.2, f.note("timed p5"), {.priority = 5});
  f.sim.registerEndHopEvent("hop", f.note("endHop p0"), {.priority = 0});
  f.sim.registerTimedEvent("early", 0.2, f.note("timed p-1"), {.priority = -1});
  f.sim.registerEndIoStepEvent("io", f.note("endIo p0"), {.priority = 0});
  f.sim.registerPeriodicEvent("periodic", 0.2, 1.0, f.note("periodic p0"));
  f.sim.lock();
  f.sim.advanceTimeTo(0.15);
  f.log.clear();
  f.sim.advanceTimeTo(0.2);
  CHECK(f.log == std::vector<std::string>{"timed p-1@0.20", "endHop p0@0.20", "endIo p0@0.20",
                                          "periodic p0@0.20", "timed p5@0.20"});
}

TEST_CASE("a self-rescheduling event fires exactly at the times it chooses") {
  Fixture f;
  std::vector<double> fired;
  const std::vector<double> chosen{0.05, 0.3, 0.31, 1.0};
  f.sim.registerSelfReschedulingEvent("self", 0.05, [&](Simulation& s, double t) {
    fired.push_back(t);
    CHECK(s.time() == t);
    const auto next = std::upper_bound(chosen.begin(), chosen.end(), t);
    return next == chosen.end() ? std::nullopt : std::optional<double>(*next);
  });
  f.sim.lock();
  f.sim.advanceTimeTo(2.0);
  CHECK(fired == chosen);
  CHECK_FALSE(f.sim.findEvent("self").has_value());  // it chose to stop
}

TEST_CASE("a removed event never fires, also when removed by another event at the same tick") {
  Fixture f;
  int fired = 0;
  f.sim.registerTimedEvent("victim", 0.5, [&](Simulation&, double) { ++fired; });
  f.sim.registerPeriodicEvent("gone", 0.0, 0.1, [&](Simulation&, double) { ++fired; });
  f.sim.registerTimedEvent("remover", 0.5, [&](Simulation& s, double) { s.removeEvent("victim"); },
                           {.priority = -1});
  f.sim.removeEvent("gone");
  f.sim.lock();
  f.sim.advanceTimeTo(1.0);
  CHECK(fired == 0);
  CHECK_THROWS_WITH_AS(f.sim.removeEvent("victm"), "no event named 'victm'",
                       InputError);  // it is gone, nothing near
  CHECK(f.sim.listEvents().empty());
}

TEST_CASE("periodic events fire at first + k*period exactly, with no drift") {
  Fixture f;
  long count = 0;
  long off = 0;
  f.sim.registerPeriodicEvent("tick", 0.0, 0.015, [&](Simulation& s, double) {
    if (s.ticks() != count * 15'000'000) ++off;
    ++count;
  });
  f.sim.lock();
  f.sim.advanceTimeTo(1500.0);
  CHECK(count == 100'001);
  CHECK(off == 0);
}

TEST_CASE(
    "a list of times fires at each, and a timed event at the current time fires at the "
    "start of the next hop") {
  Fixture f;
  f.sim.registerTimedEvent("list", std::vector<double>{0.33, 0.1, 0.77}, f.note("list"));
  f.sim.lock();
  f.sim.advanceTimeTo(0.5);
  f.sim.registerTimedEvent("now", 0.5, f.note("now"));
  CHECK(f.log == std::vector<std::string>{"list@0.10", "list@0.33"});
  f.sim.advanceTimeTo(1.0);
  CHECK(f.log == std::vector<std::string>{"list@0.10", "list@0.33", "now@0.50", "list@0.77"});
}

TEST_CASE("begin-I/O-step events fire at default barriers only, before the models' steps") {
  Fixture f;
  f.sim.registerBeginIoStepEvent("begin", f.note("begin"));
  f.sim.lock();
  f.sim.advanceTimeTo(0.15);  // barriers 0, 0.1; the stop at 0.15 is not a default barrier
  f.sim.advanceTimeTo(0.2);
  CHECK(f.log == std::vector<std::string>{"begin@0.00", "begin@0.10"});
  f.sim.advanceTimeTo(0.25);
  CHECK(f.log.back() == "begin@0.20");
}

TEST_CASE("model-method events run before and after the named method, with its time") {
  Simulation sim({.ioStepSize = 0.1});
  std::vector<std::string> log;
  sim.addModel(std::make_unique<test::Logger>("m", log));
  sim.addSignal("y", ElementType::Double);
  sim.tie("m", "y", "y");
  sim.registerModelEvent(
      "before", "m", ModelMethod::StartHop, EventTiming::Before,
      [&](Simulation&, double t) { log.push_back("before@" + std::to_string(t).substr(0, 4)); });
  sim.registerModelEvent(
      "after", "m", ModelMethod::EndIoStep, EventTiming::After,
      [&](Simulation&, double t) { log.push_back("after@" + std::to_string(t).substr(0, 4)); });
  sim.lock();
  sim.advanceTimeTo(0.1);
  const std::vector<std::string> expected{"m.processParams@0.00",  "m.updateFlowOuts@0.00",
                                          "m.updateFlowOuts@0.00", "m.startIoStep@0.00",
                                          "before@0.00",           "m.startHop@0.00",
                                          "m.updateFlowOuts@0.10", "m.endHop@0.10",
                                          "m.endIoStep@0.10",      "after@0.10"};
  CHECK(log == expected);
  const auto info = sim.findEvent("after");
  REQUIRE(info.has_value());
  CHECK((info->kind == EventKind::ModelMethod));
  CHECK(info->target == "m.endIoStep (after)");
}

TEST_CASE("a condition gates an event's callback without changing its schedule") {
  Fixture f;
  int fired = 0;
  f.sim.registerPeriodicEvent("gated", 0.0, 0.1, [&](Simulation&, double) { ++fired; },
                              {.condition = [](Simulation&, double t) { return t >= 0.45; }});
  f.sim.lock();
  f.sim.advanceTimeTo(1.0);
  CHECK(fired == 6);  // 0.5 .. 1.0
}

TEST_CASE("event names are unique, times in the past and bad periods are refused by name") {
  Fixture f;
  const auto nothing = [](Simulation&, double) {};
  f.sim.registerTimedEvent("e", 1.0, nothing);
  CHECK_THROWS_WITH_AS(f.sim.registerEndHopEvent("e", nothing),
                       doctest::Contains("an event named 'e' already exists"), InputError);
  f.sim.lock();
  f.sim.advanceTimeTo(0.5);
  CHECK_THROWS_WITH_AS(f.sim.registerTimedEvent("past", 0.2, nothing),
                       doctest::Contains("event 'past': time 0.20000000000000001 s is before the "
                                         "current time 0.5 s"),
                       InputError);
  CHECK_THROWS_AS(f.sim.registerPeriodicEvent("p", 1.0, 0.0, nothing), InputError);
  CHECK_THROWS_AS(
      f.sim.registerModelEvent("m", "nobody", ModelMethod::StartHop, EventTiming::Before, nothing),
      InputError);
  CHECK(f.sim.listEvents().size() == 1);
  CHECK(f.sim.findEvent("e")->nextTime.value() == 1.0);
  f.sim.clearEvents();
  CHECK(f.sim.listEvents().empty());
}

TEST_CASE("a self-rescheduling event choosing a time not after now is an error") {
  Fixture f;
  f.sim.registerSelfReschedulingEvent(
      "bad", 0.1, [](Simulation&, double t) { return std::optional<double>(t); });
  f.sim.lock();
  CHECK_THROWS_WITH_AS(f.sim.advanceTimeTo(1.0),
                       doctest::Contains("event 'bad' rescheduled itself to t = 0.1"), InputError);
}

TEST_CASE("stop callbacks stop run() and advanceTimeTo(), run() needs one") {
  Fixture f;
  f.sim.lock();
  CHECK_THROWS_AS(f.sim.run(), ModelError);
  f.sim.addStopCallback("at 0.7", [](Simulation&, double t) { return t >= 0.7; });
  f.sim.run();
  CHECK(f.sim.time() == doctest::Approx(0.7));
  f.sim.removeStopCallback("at 0.7");
  f.sim.addStopCallback("at 1.2", [](Simulation&, double t) { return t >= 1.2; });
  f.sim.advanceTimeTo(5.0);
  CHECK(f.sim.time() == doctest::Approx(1.2));
}

TEST_CASE("advancing time from inside an event is refused") {
  Fixture f;
  f.sim.registerTimedEvent("nested", 0.1, [](Simulation& s, double) { s.advanceTimeBy(1.0); });
  f.sim.lock();
  CHECK_THROWS_WITH_AS(f.sim.advanceTimeTo(1.0), doctest::Contains("from inside an event"),
                       ModelError);
}

TEST_CASE("a callback that throws loses no other event and keeps its own schedule") {
  Simulation sim;
  sim.lock();
  std::vector<std::string> fired;
  sim.registerPeriodicEvent("faulty", 0.1, 0.1, [&](Simulation&, double t) {
    fired.push_back("faulty@" + std::to_string(t));
    if (fired.size() == 1) throw std::runtime_error("user error");
  });
  sim.registerTimedEvent(
      "after", 0.1, [&](Simulation&, double t) { fired.push_back("after@" + std::to_string(t)); });
  CHECK_THROWS_WITH(sim.advanceTimeTo(0.1), "user error");
  CHECK(fired == std::vector<std::string>{"faulty@0.100000"});
  // "after" was due with it: it fires at the next hop start; "faulty" keeps its period.
  sim.advanceTimeTo(0.2);
  CHECK(fired == std::vector<std::string>{"faulty@0.100000", "after@0.100000", "faulty@0.200000"});
}

TEST_CASE("a removed or spent event releases what its callback captured") {
  Simulation sim;
  sim.lock();
  auto token = std::make_shared<int>(0);
  sim.registerPeriodicEvent("holder", 0.5, 0.5, [token](Simulation&, double) {});
  sim.registerTimedEvent("once", 0.1, [token](Simulation&, double) {});
  CHECK(token.use_count() == 3);
  sim.advanceTimeTo(0.2);  // "once" fired and is gone
  CHECK(token.use_count() == 2);
  sim.removeEvent("holder");
  CHECK(token.use_count() == 1);
}

}  // namespace hopsim
