// Checkpoint and restore: 10 s straight equals 5 s + checkpoint + restore into a freshly built
// simulation + 5 s, bit for bit, with every integrator; structural mismatches are refused.

#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/version.h"
#include "hopsim/signals/error.h"
#include "same_bits.h"
#include "test_models.h"

namespace hopsim::test {
namespace {

/// What the scenario's callbacks did, so runs can be compared beyond the variables.
struct Journal {
  std::vector<double> impacts;
  std::vector<double> kicks;
};

/// A scenario with every kind of saved state: continuous states (a spring, a bouncing ball
/// with zero crossings), discrete states (an accumulator fed by the spring), a param changed
/// by a periodic event, a one-shot event that fires before the checkpoint and one after, and
/// a list event straddling it.
void buildScenario(Simulation& sim, Journal& journal) {
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
  sim.registerTimedEvent("early", 2.0,
                         [&journal](Simulation&, double t) { journal.kicks.push_back(t); });
  sim.registerTimedEvent("late", 7.0, [&journal](Simulation& s, double t) {
    journal.kicks.push_back(t);
    s.set("models.spring.continuousStates.v", 0.5);
  });
  sim.registerTimedEvent("list", std::vector<double>{3.0, 6.0, 9.0},
                         [&journal](Simulation&, double t) { journal.kicks.push_back(t); });
}

std::string checkpointPath(const std::string& tag) {
  return (std::filesystem::temp_directory_path() / ("hopsim_test_" + tag + ".ckpt")).string();
}

}  // namespace

TEST_CASE("10 s straight equals 5 s + checkpoint + restore in a fresh simulation + 5 s") {
  for (const char* integrator : {"euler", "rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    const SimulationOptions options{
        .ioStepSize = 0.02, .integrationSteps = 3, .integrator = integrator};
    Simulation straight(options);
    Journal straightJournal;
    buildScenario(straight, straightJournal);
    straight.advanceTimeTo(10.0);

    const std::string file = checkpointPath(integrator);
    Journal firstJournal;
    {
      Simulation first(options);
      buildScenario(first, firstJournal);
      first.advanceTimeTo(5.0);
      first.saveCheckpoint(file);
    }
    Simulation resumed(options);
    Journal resumedJournal = firstJournal;
    buildScenario(resumed, resumedJournal);
    resumed.restoreCheckpoint(file);
    CHECK(resumed.time() == 5.0);
    resumed.advanceTimeTo(10.0);
    std::remove(file.c_str());

    CHECK(resumed.time() == straight.time());
    CHECK(resumed.hopCount() == straight.hopCount());
    CHECK(resumedJournal.impacts == straightJournal.impacts);
    CHECK(resumedJournal.kicks == straightJournal.kicks);
    REQUIRE(resumed.list() == straight.list());
    for (const std::string& path : straight.list()) {
      CAPTURE(path);
      CHECK(sameBits(resumed.get(path), straight.get(path)));
    }
    CHECK(straightJournal.impacts.size() >= 3);  // the scenario really exercised crossings
  }
}

namespace {

/// Keeps a value derived from its param in a C++ member, as processParams allows: a restore
/// must run processParams again, or the member would keep its constructed value.
class CachedGain final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("CachedGain", ModelKind::Flow, "y = k^2 u") {}
    ParamKey<double> k = param<double>("k").defaultValue(3.0);
    InKey<double> u = flowIn<double>("u");
    OutKey<double> y = flowOut<double>("y");
  };
  HOPSIM_TEST_DECLARATION
  explicit CachedGain(std::string name) : FlowModel(std::move(name), declaration()) {}
  void processParams(double) override { kSquared_ = param(d_.k) * param(d_.k); }
  void updateFlowOuts(double) override { out(d_.y) = kSquared_ * in(d_.u); }

 private:
  const Declaration& d_ = declaration();
  double kSquared_ = 0.0;
};

void buildCachedGain(Simulation& sim) {
  addSpring(sim);
  sim.addSignal("y", ElementType::Double);
  sim.addModel<CachedGain>("gain");
  sim.tie("gain", "u", "x");
  sim.tie("gain", "y", "y");
  sim.lock();
}

}  // namespace

TEST_CASE("after a restore processParams runs again, so values derived from params are back") {
  const std::string file = checkpointPath("process_params");
  Simulation straight;
  buildCachedGain(straight);
  straight.advanceTimeTo(2.0);
  {
    Simulation first;
    buildCachedGain(first);
    first.advanceTimeTo(1.0);
    first.saveCheckpoint(file);
  }
  Simulation resumed;
  buildCachedGain(resumed);
  resumed.restoreCheckpoint(file);
  resumed.advanceTimeTo(2.0);
  std::remove(file.c_str());
  CHECK(sameBits(resumed.get("signals.y"), straight.get("signals.y")));
  CHECK(std::get<double>(resumed.get("signals.y")) != 0.0);
}

TEST_CASE("a value set before the checkpoint reaches the outputs after the restore too") {
  // u -> source (y = gain u + x, ENDHOP only) -> y -> reader (reads y in startHop): the hop
  // after a set starts with an update of every output, in the restored simulation as well.
  const std::string file = checkpointPath("values_set");
  for (const bool setBefore : {true, false}) {
    CAPTURE(setBefore);
    {
      Simulation first;
      buildEndHopChain(first);
      first.step(2);
      if (setBefore) first.set("models.source.discreteStates.x", 10.0);
      first.saveCheckpoint(file);
    }
    Simulation resumed;
    buildEndHopChain(resumed);
    resumed.restoreCheckpoint(file);
    resumed.step();
    const auto& reader = dynamic_cast<const StartHopReader&>(resumed.model("reader"));
    const auto& source = dynamic_cast<const EndHopOutput&>(resumed.model("source"));
    CHECK(reader.read.back() == (setBefore ? 11.0 : 1.0));
    CHECK(source.updates == (setBefore ? 2 : 1));  // the restored simulation's own calls
  }
  std::remove(file.c_str());
}

namespace {

/// Three probes: on the default period, on a 0.3 s period, and on the default period but
/// activated off its grid (at 1.5 s, so its first step is its own, [1.5, 2]). Each records
/// the I/O steps it ends.
struct IoStepRun {
  Simulation sim{SimulationOptions{.ioStepSize = 1.0}};
  std::vector<std::pair<double, double>> steps[3];
  IoStepRun() {
    const char* names[] = {"default", "fast", "late"};
    for (int i = 0; i < 3; ++i) {
      auto& probe = sim.addModel<Probe>(names[i]);
      probe.onEndIoStep = [this, i](double start, double end) {
        steps[i].emplace_back(start, end);
      };
    }
    sim.setModelPeriod("fast", 0.3);
    sim.deactivate("late");
    sim.registerTimedEvent("wake", 1.5, [](Simulation& s, double) { s.activate("late"); });
    sim.lock();
  }
};

}  // namespace

TEST_CASE(
    "a checkpoint inside the models' I/O steps: the restored run's steps are the straight "
    "run's") {
  const std::string file = checkpointPath("io_steps");
  for (const double at : {1.7, 2.5, 3.0}) {
    CAPTURE(at);
    IoStepRun straight;
    straight.sim.advanceTimeTo(5.0);
    {
      IoStepRun first;
      first.sim.advanceTimeTo(at);
      first.sim.saveCheckpoint(file);
    }
    IoStepRun resumed;
    resumed.sim.restoreCheckpoint(file);
    resumed.sim.advanceTimeTo(5.0);
    for (int i = 0; i < 3; ++i) {
      CAPTURE(i);
      std::vector<std::pair<double, double>> after;
      for (const auto& step : straight.steps[i]) {
        if (step.second > at) after.push_back(step);
      }
      CHECK(resumed.steps[i] == after);  // the same ticks, so the same seconds, bit for bit
      CHECK(!after.empty());
    }
  }
  std::remove(file.c_str());
}

TEST_CASE("restoring into a differently built simulation names the first mismatch") {
  const std::string file = checkpointPath("mismatch");
  {
    Simulation sim;
    Journal journal;
    buildScenario(sim, journal);
    sim.advanceTimeTo(1.0);
    sim.saveCheckpoint(file);
  }
  Simulation other;
  other.addSignal("x", ElementType::Double);
  other.addSignal("sum", ElementType::Double);
  other.addModel<MassSpring>("spring");
  other.addModel<Ball>("bal");
  other.addModel<Accumulator>("acc");
  other.tie("spring", "position", "x");
  other.tie("acc", "u", "x");
  other.tie("acc", "y", "sum");
  other.lock();
  const double before = std::get<double>(other.get("models.spring.continuousStates.x"));
  CHECK_THROWS_WITH_AS(other.restoreCheckpoint(file),
                       doctest::Contains("the next model is 'ball' in the checkpoint but 'bal'"),
                       InputError);
  CHECK(other.time() == 0.0);  // nothing applied
  CHECK(std::get<double>(other.get("models.spring.continuousStates.x")) == before);

  Simulation unlocked;
  CHECK_THROWS_AS(unlocked.restoreCheckpoint(file), ModelError);
  Simulation missing;
  missing.lock();
  CHECK_THROWS_WITH_AS(missing.restoreCheckpoint(file + ".nope"),
                       doctest::Contains("': No such file or directory"), InputError);
  CHECK_THROWS_WITH_AS(missing.restoreCheckpoint("/dev/zero"),
                       "cannot read '/dev/zero': not a regular file (a character device)",
                       InputError);
  {
    std::ofstream broken(file, std::ios::trunc);
    broken << "hopsim-checkpoint 6\ntime 12 oops\n";
  }
  CHECK_THROWS_WITH_AS(missing.restoreCheckpoint(file), doctest::Contains("line 2"), InputError);
  {
    std::ofstream old(file, std::ios::trunc);
    old << "hopsim-checkpoint 3\ntime 12 0x0p+0 0 0 0 0\n";
  }
  const std::string refusal =
      "format version 3; this hopsim (" + std::string(version()) + ") reads format versions 4 to 8";
  CHECK_THROWS_WITH_AS(missing.restoreCheckpoint(file), doctest::Contains(refusal.c_str()),
                       InputError);
  std::remove(file.c_str());
}

namespace {

/// The lines of a text file.
std::vector<std::string> readLines(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void writeLines(const std::string& file, const std::vector<std::string>& lines) {
  std::ofstream out(file, std::ios::trunc);
  for (const std::string& line : lines) out << line << '\n';
}

/// Builds the scenario in `sim`, runs it to 1 s and saves a checkpoint to `file`: its lines.
std::vector<std::string> savedAtOneSecond(Simulation& sim, Journal& journal,
                                          const std::string& file) {
  buildScenario(sim, journal);
  sim.advanceTimeTo(1.0);
  sim.saveCheckpoint(file);
  return readLines(file);
}

/// Checks that each of `bad` in place of line `index` (0-based) of a checkpoint's `lines` is
/// refused with that line's number, and that the simulation is left as it was.
void checkLineRefused(const std::string& file, const std::vector<std::string>& lines,
                      std::size_t index, std::initializer_list<const char*> bad,
                      const SimulationOptions& options) {
  for (const char* text : bad) {
    CAPTURE(std::string(text));
    std::vector<std::string> broken = lines;
    broken[index] = text;
    writeLines(file, broken);
    Simulation other(options);
    Journal journal;
    buildScenario(other, journal);
    const std::string where = "line " + std::to_string(index + 1);
    CHECK_THROWS_WITH_AS(other.restoreCheckpoint(file), doctest::Contains(where.c_str()),
                         InputError);
    CHECK(other.time() == 0.0);
  }
}

}  // namespace

TEST_CASE("the continuation step: saved, checked, and absent from version 4 files") {
  const std::string file = checkpointPath("continuation");
  const SimulationOptions options{.integrator = "rkf45"};
  Simulation straight(options);
  Journal straightJournal;
  const std::vector<std::string> lines = savedAtOneSecond(straight, straightJournal, file);
  REQUIRE(lines.size() > 7);
  CHECK(lines[0] == "hopsim-checkpoint 8");
  // After the options, cvode's nonlinear solver (version 6) and its continue-across-hops flag
  // (version 7): the step rkf45 proposed at the end of the last hop, which the states still
  // continue.
  CHECK(lines[5] == "nonlinear_solver 0");
  CHECK(lines[6] == "continue_across_hops 0");
  REQUIRE(lines[7].rfind("continuation ", 0) == 0);
  CHECK(std::stod(lines[7].substr(13)) > 0.0);
  straight.advanceTimeTo(2.0);

  // Version 4 had no continuation line (nor the nonlinear solver, continue-across-hops and
  // written_by lines of versions 6, 7 and 8): it restores, and the first hop estimates its
  // step, so the run agrees with the straight one to the integrator's tolerance, not bit for
  // bit.
  std::vector<std::string> v4 = lines;
  v4[0] = "hopsim-checkpoint 4";
  v4.erase(v4.begin() + 5, v4.begin() + 8);
  v4.erase(v4.begin() + 1);
  writeLines(file, v4);
  {
    Simulation resumed(options);
    Journal journal;
    buildScenario(resumed, journal);
    resumed.restoreCheckpoint(file);
    resumed.advanceTimeTo(2.0);
    const double x = std::get<double>(resumed.get("models.spring.continuousStates.x"));
    CHECK(x == doctest::Approx(std::get<double>(straight.get("models.spring.continuousStates.x")))
                   .epsilon(1e-6));
  }

  // A negative or non-numeric step is refused with its line, and nothing is applied.
  checkLineRefused(file, lines, 7, {"continuation -0x1p-4", "continuation nan", "continuation"},
                   options);
  std::remove(file.c_str());
}

TEST_CASE("cvode's nonlinear solver: saved, checked, and Newton's method for version 5 files") {
  const std::string file = checkpointPath("nonlinear_solver");
  SimulationOptions options{.integrator = "cvode"};
  options.integratorOptions.multistep = MultistepMethod::Adams;
  options.integratorOptions.nonlinearSolver = NonlinearSolver::FixedPoint;
  Simulation straight(options);
  Journal straightJournal;
  const std::vector<std::string> lines = savedAtOneSecond(straight, straightJournal, file);
  REQUIRE(lines.size() > 6);
  CHECK(lines[5] == "nonlinear_solver 1");
  straight.advanceTimeTo(2.0);
  const Value x = straight.get("models.spring.continuousStates.x");

  // Restored into a simulation built with the defaults (Newton): the checkpoint's solver is
  // back, and the run continues bit for bit.
  {
    Simulation resumed(SimulationOptions{.integrator = "cvode"});
    Journal journal;
    buildScenario(resumed, journal);
    resumed.restoreCheckpoint(file);
    CHECK(resumed.integrator().options().nonlinearSolver == NonlinearSolver::FixedPoint);
    resumed.advanceTimeTo(2.0);
    CHECK(sameBits(resumed.get("models.spring.continuousStates.x"), x));
  }

  // A version 5 file has no such line and restores with Newton's method.
  std::vector<std::string> v5 = lines;
  v5[0] = "hopsim-checkpoint 5";
  v5.erase(v5.begin() + 5, v5.begin() + 7);
  v5.erase(v5.begin() + 1);
  writeLines(file, v5);
  {
    Simulation resumed(options);
    Journal journal;
    buildScenario(resumed, journal);
    resumed.restoreCheckpoint(file);
    CHECK(resumed.integrator().options().nonlinearSolver == NonlinearSolver::Newton);
  }

  // A value that names no solver is refused with its line, and nothing is applied.
  checkLineRefused(file, lines, 5,
                   {"nonlinear_solver 7", "nonlinear_solver newton", "nonlinear_solver"}, options);
  std::remove(file.c_str());
}

TEST_CASE("cvode across hops: a checkpoint is a restart point, the restored run bit for bit") {
  // CVODE's history cannot be saved: the restored run restarts cvode at its first hop, and so
  // does the run that saved the checkpoint, which then goes on exactly as the restored one.
  const std::string file = checkpointPath("continue_across_hops");
  SimulationOptions options{.ioStepSize = 0.02, .integrator = "cvode"};
  options.integratorOptions.continueAcrossHops = true;
  Simulation first(options);
  Journal firstJournal;
  const std::vector<std::string> lines = savedAtOneSecond(first, firstJournal, file);
  Journal resumedJournal = firstJournal;  // what the callbacks saw up to the checkpoint
  REQUIRE(lines.size() > 7);
  CHECK(lines[6] == "continue_across_hops 1");
  const IntegratorStatistics before = first.integrator().statistics();
  CHECK(before.continuations > 0);
  first.advanceTimeTo(3.0);
  CHECK(first.integrator().statistics().restarts > before.restarts);  // at 1 s, at least

  Simulation resumed(SimulationOptions{.ioStepSize = 0.02, .integrator = "cvode"});
  buildScenario(resumed, resumedJournal);
  resumed.restoreCheckpoint(file);
  CHECK(resumed.integrator().options().continueAcrossHops);
  resumed.advanceTimeTo(3.0);
  CHECK(resumed.integrator().statistics().continuations > 0);
  CHECK(resumedJournal.impacts == firstJournal.impacts);
  REQUIRE(resumed.list() == first.list());
  for (const std::string& path : first.list()) {
    CAPTURE(path);
    CHECK(sameBits(resumed.get(path), first.get(path)));
  }

  // A version 6 file has no such line and restores with the history restarted at every hop.
  std::vector<std::string> v6 = lines;
  v6[0] = "hopsim-checkpoint 6";
  v6.erase(v6.begin() + 6);
  v6.erase(v6.begin() + 1);
  writeLines(file, v6);
  {
    Simulation old(options);
    Journal journal;
    buildScenario(old, journal);
    old.restoreCheckpoint(file);
    CHECK_FALSE(old.integrator().options().continueAcrossHops);
  }
  checkLineRefused(file, lines, 6,
                   {"continue_across_hops 2", "continue_across_hops yes", "continue_across_hops"},
                   options);
  std::remove(file.c_str());
}

}  // namespace hopsim::test
