// Snapshot: a whole snapshot taken and applied gives back the executive's state bit for bit,
// and the run from it is the run from the moment it was taken. (The hop's part of one, the
// rollback point, is exercised by every zero crossing located inside a hop: test_zero_crossings.)

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/snapshot.h"
#include "hopsim/signals/error.h"
#include "same_bits.h"
#include "test_models.h"

namespace hopsim::test {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::SpatialInertia;
using spatial::Vector3;

/// What the scenario's callbacks did, so runs can be compared beyond the variables.
struct Journal {
  std::vector<double> impacts;
  std::vector<double> kicks;
};

/// Every kind of state a snapshot holds: continuous states (a spring, a bouncing ball with a
/// zero crossing, a pendulum body's Q and U), discrete states (an accumulator on its own rate),
/// signals, a param changed by a periodic event, a one-shot event fired before the snapshot, a
/// list event straddling it, and a body whose mass an event changes.
void buildScenario(Simulation& sim, Journal& journal) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -9.81});
  tree.addBody("arm", kWorldBody,
               SpatialInertia::fromCmInertia(1.0, {0, 0, -1}, 1e-3 * Matrix3::Identity()),
               Hinge::pin(Vector3::UnitX()));
  sim.addSignal("x", ElementType::Double);
  sim.addSignal("sum", ElementType::Double);
  sim.addModel<MassSpring>("spring");
  auto& ball = sim.addModel<Ball>("ball");
  sim.addModel<Accumulator>("acc");
  sim.tie("spring", "position", "x");
  sim.tie("acc", "u", "x");
  sim.tie("acc", "y", "sum");
  sim.setModelRate("acc", 30.0);
  sim.lock();
  sim.multibody().q().setConstant(0.3);
  sim.registerZeroCrossing(
      "impact", [&ball](Simulation&, double) { return ball.height(); }, CrossingDirection::Falling,
      [&ball, &journal](Simulation&, double t) {
        journal.impacts.push_back(t);
        ball.setVelocity(-0.8 * ball.velocity());
      });
  sim.registerPeriodicEvent("stiffen", 0.5, 0.75, [](Simulation& s, double) {
    const double k = std::get<double>(s.get("models.spring.params.k"));
    s.set("models.spring.params.k", k * 1.01);
  });
  sim.registerPeriodicEvent("load", 0.3, 1.1, [](Simulation& s, double t) {
    s.multibody().setMassProperties(
        1, SpatialInertia::fromCmInertia(1.0 + t, {0, 0, -1}, 1e-3 * Matrix3::Identity()));
  });
  sim.registerTimedEvent("early", 1.0,
                         [&journal](Simulation&, double t) { journal.kicks.push_back(t); });
  sim.registerTimedEvent("list", std::vector<double>{2.0, 5.0, 8.0},
                         [&journal](Simulation&, double t) { journal.kicks.push_back(t); });
}

// Beside same_bits.h's overloads, which these would hide.
using hopsim::test::sameBits;

bool sameBits(const Buffer& a, const Buffer& b) {
  if (a.type() != b.type() || a.length() != b.length()) return false;
  switch (a.type()) {
    case ElementType::Double:
      return std::memcmp(a.doubles(), b.doubles(), sizeof(double) * a.length()) == 0;
    case ElementType::Int:
      return std::memcmp(a.ints(), b.ints(), sizeof(std::int64_t) * a.length()) == 0;
    case ElementType::Bool:
      return a.boolean() == b.boolean();
    case ElementType::String:
      return a.string() == b.string();
  }
  return false;
}

bool sameBits(const std::vector<Buffer>& a, const std::vector<Buffer>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!sameBits(a[i], b[i])) return false;
  }
  return true;
}

/// Every member of two whole snapshots, doubles compared bit for bit.
void checkSameBits(const Snapshot& a, const Snapshot& b) {
  CHECK(a.clock.now == b.clock.now);
  CHECK(sameBits(a.clock.stateTime, b.clock.stateTime));
  CHECK(a.clock.hopCount == b.clock.hopCount);
  CHECK(a.clock.lastBeginIoStep == b.clock.lastBeginIoStep);
  CHECK(a.clock.initialUpdatePending == b.clock.initialUpdatePending);
  CHECK(a.clock.chattering == b.clock.chattering);
  CHECK(a.clock.valuesSet == b.clock.valuesSet);
  CHECK(a.integratorName == b.integratorName);
  CHECK(sameBits(a.integratorOptions.relativeTolerance, b.integratorOptions.relativeTolerance));
  CHECK(sameBits(a.integratorOptions.absoluteTolerance, b.integratorOptions.absoluteTolerance));
  CHECK(sameBits(a.integratorOptions.absoluteTolerances, b.integratorOptions.absoluteTolerances));
  CHECK(sameBits(a.continuation.step, b.continuation.step));
  REQUIRE(a.signals.size() == b.signals.size());
  for (std::size_t i = 0; i < a.signals.size(); ++i) {
    CAPTURE(i);
    CHECK(a.signals[i].version == b.signals[i].version);
    CHECK(sameBits(a.signals[i].value, b.signals[i].value));
  }
  REQUIRE(a.models.size() == b.models.size());
  for (std::size_t m = 0; m < a.models.size(); ++m) {
    CAPTURE(m);
    const Snapshot::ModelValues& x = a.models[m];
    const Snapshot::ModelValues& y = b.models[m];
    CHECK(x.active == y.active);
    CHECK(x.ioStart == y.ioStart);
    CHECK(x.ioEnd == y.ioEnd);
    for (FieldRole role : Snapshot::kFieldRoles) CHECK(sameBits(x.fields(role), y.fields(role)));
    CHECK(x.reads == y.reads);
  }
  CHECK(sameBits(Eigen::VectorXd(a.gravity), Eigen::VectorXd(b.gravity)));
  REQUIRE(a.massProperties.size() == b.massProperties.size());
  for (std::size_t i = 0; i < a.massProperties.size(); ++i) {
    CHECK(sameBits(a.massProperties[i].mass(), b.massProperties[i].mass()));
  }
  CHECK(sameBits(a.q, b.q));
  CHECK(sameBits(a.u, b.u));
  REQUIRE(a.events.size() == b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    CAPTURE(a.events[i].name);
    CHECK(a.events[i].name == b.events[i].name);
    CHECK((a.events[i].kind == b.events[i].kind));
    CHECK(a.events[i].next == b.events[i].next);
    CHECK(a.events[i].nextIndex == b.events[i].nextIndex);
    CHECK(a.events[i].periodIndex == b.events[i].periodIndex);
  }
  REQUIRE(a.crossings.size() == b.crossings.size());
  for (std::size_t i = 0; i < a.crossings.size(); ++i) {
    CHECK(a.crossings[i].afterFiring == b.crossings[i].afterFiring);
    CHECK(sameBits(a.crossings[i].firedValue, b.crossings[i].firedValue));
    CHECK(a.crossings[i].crossedSign == b.crossings[i].crossedSign);
  }
}

/// Every variable of two simulations, bit for bit.
void checkSameVariables(const Simulation& a, const Simulation& b) {
  REQUIRE(a.list() == b.list());
  for (const std::string& path : a.list()) {
    CAPTURE(path);
    const Value x = a.get(path);
    const Value y = b.get(path);
    if (const auto* d = std::get_if<double>(&x)) {
      CHECK(sameBits(*d, std::get<double>(y)));
    } else if (const auto* v = std::get_if<std::vector<double>>(&x)) {
      const auto& w = std::get<std::vector<double>>(y);
      CHECK((v->size() == w.size() && std::memcmp(v->data(), w.data(), v->size() * 8) == 0));
    } else {
      CHECK(x == y);
    }
  }
}

}  // namespace

TEST_CASE("snapshot: taken, run on, applied and taken again, it is the same bit for bit") {
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    const SimulationOptions options{
        .ioStepSize = 0.02, .integrationSteps = 3, .integrator = integrator};
    Simulation straight(options);
    Journal straightJournal;
    buildScenario(straight, straightJournal);
    straight.advanceTimeTo(4.0);
    straight.advanceTimeTo(9.0);

    Simulation sim(options);
    Journal journal;
    buildScenario(sim, journal);
    sim.advanceTimeTo(4.0);
    const Snapshot taken = SnapshotAccess::take(sim);
    const Journal atSnapshot = journal;
    sim.set("models.spring.params.k", 123.0);  // a set from outside, then a run over it
    sim.advanceTimeTo(6.5);
    REQUIRE(journal.kicks.size() > atSnapshot.kicks.size());  // the run changed the schedules
    SnapshotAccess::apply(sim, taken);
    journal = atSnapshot;
    checkSameBits(SnapshotAccess::take(sim), taken);
    CHECK(sim.time() == 4.0);

    // The run from the applied snapshot is the run from the moment it was taken.
    sim.advanceTimeTo(9.0);
    CHECK(sim.hopCount() == straight.hopCount());
    CHECK(journal.impacts == straightJournal.impacts);
    CHECK(journal.kicks == straightJournal.kicks);
    checkSameVariables(sim, straight);
    CHECK(straightJournal.impacts.size() >= 2);  // the scenario really exercised crossings
  }
}

TEST_CASE("snapshot: applied only between hops to a locked simulation") {
  Simulation sim;
  Journal journal;
  buildScenario(sim, journal);
  sim.advanceTimeTo(0.1);
  const Snapshot taken = SnapshotAccess::take(sim);
  sim.unlock();
  CHECK_THROWS_AS(SnapshotAccess::apply(sim, taken), ModelError);
  sim.lock();
  sim.registerTimedEvent("inside", 0.2, [&](Simulation& s, double) {
    s.registerModelEvent("probe", "spring", ModelMethod::StartHop, EventTiming::Before,
                         [&](Simulation& inner, double) {
                           CHECK_THROWS_AS(SnapshotAccess::take(inner), ModelError);
                           CHECK_THROWS_AS(SnapshotAccess::apply(inner, taken), ModelError);
                         });
  });
  sim.advanceTimeTo(0.3);
  SnapshotAccess::apply(sim, taken);
  CHECK(sim.time() == 0.1);
}

}  // namespace hopsim::test
