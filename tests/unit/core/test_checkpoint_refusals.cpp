// A checkpoint that does not fit is refused before anything changes: every refusal names the
// file, the line, the field and the bad value, and the simulation goes on bit for bit as if the
// restore had never been tried. Also: the writer's version in the file, string escapes, and
// saving through a temporary file.

#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/version.h"
#include "hopsim/signals/error.h"
#include "temp_dir.h"
#include "test_models.h"
#include "text_lines.h"

namespace hopsim::test {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::SpatialInertia;
using spatial::Vector3;
using testing::joinLines;
using testing::readText;
using testing::splitLines;

/// Every kind of saved state: continuous states (a spring with a bounded param, a ball with a
/// zero crossing), a discrete state, a string signal, a free body with a quaternion under
/// gravity, and a periodic, a list and a one-shot event still pending at 1 s.
void buildScenario(Simulation& sim) {
  addSpring(sim);
  auto& ball = sim.addModel<Ball>("ball");
  sim.addSignal("sum", ElementType::Double);
  sim.addSignal("label", ElementType::String);
  sim.addModel<Accumulator>("acc");
  sim.tie("acc", "u", "x");
  sim.tie("acc", "y", "sum");
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -9.81});
  tree.addBody("probe", kWorldBody,
               SpatialInertia::fromCmInertia(2.0, Vector3::Zero(), Matrix3::Identity()),
               Hinge::full6Dof());
  sim.lock();
  sim.multibody().u()[0] = 0.3;  // a tumble, so the quaternion moves
  sim.registerZeroCrossing(
      "impact", [&ball](Simulation&, double) { return ball.height(); }, CrossingDirection::Falling,
      [&ball](Simulation&, double) { ball.setVelocity(-0.8 * ball.velocity()); });
  sim.registerPeriodicEvent("stiffen", 0.25, 0.5, [](Simulation& s, double) {
    s.set("models.spring.params.k", std::get<double>(s.get("models.spring.params.k")) * 1.01);
  });
  sim.registerTimedEvent("late", 3.0, [](Simulation&, double) {});
  sim.registerTimedEvent("list", std::vector<double>{0.5, 2.0, 4.0}, [](Simulation&, double) {});
}

/// The checkpoint text of `sim` now: every saved value, bit for bit (hexfloat).
std::string stateText(const Simulation& sim, const testing::TempDir& dir) {
  const std::string file = dir.path() + "/state.ckpt";
  sim.saveCheckpoint(file);
  return readText(file);
}

/// The scenario run to `t` and saved to `file`: the checkpoint's lines.
std::vector<std::string> savedAt(double t, const std::string& file) {
  Simulation source;
  buildScenario(source);
  source.advanceTimeTo(t);
  source.saveCheckpoint(file);
  return splitLines(readText(file));
}

/// The index of the first line starting with `prefix`.
std::size_t lineOf(const std::vector<std::string>& lines, const std::string& prefix) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(prefix, 0) == 0) return i;
  }
  FAIL("no line starts with " << prefix);
  return 0;
}

/// `line` with its space-separated token `index` (0 is the keyword) replaced by `token`.
std::string withToken(const std::string& line, std::size_t index, const std::string& token) {
  std::istringstream in(line);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  REQUIRE(index < tokens.size());
  tokens[index] = token;
  std::string out;
  for (const std::string& t : tokens) out += (out.empty() ? "" : " ") + t;
  return out;
}

/// One damage to a good checkpoint, and what the refusal must say.
struct Damage {
  const char* what;
  std::function<void(std::vector<std::string>&)> apply;
  const char* message;
};

/// Replaces token `index` of the line starting with `prefix`.
std::function<void(std::vector<std::string>&)> token(std::string prefix, std::size_t index,
                                                     std::string text) {
  return [=](std::vector<std::string>& lines) {
    std::string& line = lines[lineOf(lines, prefix)];
    line = withToken(line, index, text);
  };
}

/// Replaces the line starting with `prefix`.
std::function<void(std::vector<std::string>&)> line(std::string prefix, std::string text) {
  return [=](std::vector<std::string>& lines) { lines[lineOf(lines, prefix)] = text; };
}

}  // namespace

TEST_CASE("a refused restore names file, line and value, and leaves the simulation bit for bit") {
  const testing::TempDir dir;
  const std::vector<std::string> lines = savedAt(1.0, dir.path() + "/good.ckpt");
  const std::vector<Damage> damages = {
      {"non-finite gravity", token("gravity", 3, "nan"),
       "a gravity component (m/s^2) is nan; expected a finite number"},
      {"a NaN state time", token("time", 2, "nan"), "the state time is nan"},
      {"a state time far from the clock", token("time", 2, "0x1.dcd65p+29"),
       "the state time 1e+09 s disagrees with the clock, 1000000000 ticks (1 s)"},
      {"ticks that disagree with the state time", token("time", 1, "1000000002"),
       "disagrees with the clock, 1000000002 ticks"},
      {"a clock before the start", token("time", 1, "-5"),
       "the clock is -5e-09 s; expected a time from this simulation's start time, 0 s"},
      {"a NaN coordinate", token("coordinates", 3, "nan"), "a Q element is nan"},
      {"a zero quaternion",
       [](std::vector<std::string>& l) {
         std::string& coordinates = l[lineOf(l, "coordinates")];
         for (std::size_t k = 3; k <= 6; ++k) coordinates = withToken(coordinates, k, "0");
       },
       "cannot be normalized"},
      {"a NaN param", token("field params \"k\"", 4, "nan"),
       "models.spring.params.k is nan; expected a number (a param always has a value)"},
      {"a param out of its bounds", token("field params \"m\"", 4, "-0x1p+0"),
       "models.spring.params.m is -1, below the lower bound 0 kg"},
      {"a NaN continuous state", token("field continuousStates \"h\"", 4, "nan"),
       "models.ball.continuousStates.h is nan; expected a finite continuous state"},
      {"a huge event count", token("events", 1, "4000000000000"),
       "the event count 4000000000000 is more than a file of"},
      {"a negative event count", token("events", 1, "-1"),
       "the event count is '-1'; expected an integer from 0 to 18446744073709551615"},
      {"a huge tolerance count", token("options", 7, "99999999999"),
       "the per-state absolute tolerance count 99999999999 is more than a file of"},
      {"per-state tolerances that do not fit the states",
       [](std::vector<std::string>& l) {
         std::string& options = l[lineOf(l, "options")];
         options = withToken(options, 7, "2") + " 0x1p-20 0x1p-20";
       },
       "the options give 2 per-state absolute tolerances, but the restored simulation "
       "integrates 17 states"},
      {"an unknown integrator", line("integrator", "integrator \"rk5\""),
       "unknown integrator 'rk5'"},
      {"an event off its list", token("event \"list\"", 3, "1000000001"),
       "event 'list' (time list): next firing at tick 1000000001 is not time 1 of its list of 3"},
      {"an event listed twice",
       [](std::vector<std::string>& l) {
         const std::size_t i = lineOf(l, "event \"late\"");
         l.insert(l.begin() + static_cast<std::ptrdiff_t>(i), l[i]);
         l[lineOf(l, "events")] = withToken(l[lineOf(l, "events")], 1, "4");
       },
       "event 'late' is listed twice"},
      {"an event of another kind", token("event \"late\"", 2, "2"),
       "event 'late' is periodic in the checkpoint but timed here"},
      {"a crossed sign of 2", token("crossing \"impact\"", 4, "2"),
       "the crossed sign is '2'; expected an integer from -1 to 1"},
      {"a negative mass", token("body \"probe\"", 2, "-0x1p+1"), "mass"},
      {"an I/O step that starts after the clock", token("model \"acc\"", 4, "2000000000"),
       "model 'acc' is in the I/O step [2000000000, "},
      {"a token after the values", line("reads", "reads 0 7"), "unexpected '7' at the end"},
      {"a name without quotes", token("signal \"sum\"", 1, "sum"),
       "the signal name 'sum' is not quoted"},
      {"a truncated file", [](std::vector<std::string>& l) { l.pop_back(); },
       "expected 'end', found the end of the file"},
      {"text after the end", [](std::vector<std::string>& l) { l.push_back("more"); },
       "unexpected text after 'end'"},
      {"a bool that is neither 0 nor 1", token("model \"spring\"", 3, "2"),
       "the active flag is '2'; expected 0 or 1"},
      {"a newer format", line("hopsim-checkpoint", "hopsim-checkpoint 9"),
       "format version 9, written by hopsim "},
  };
  for (const Damage& damage : damages) {
    CAPTURE(std::string(damage.what));
    std::vector<std::string> broken = lines;
    damage.apply(broken);
    const std::string file = dir.write("broken.ckpt", joinLines(broken));

    Simulation target;
    Simulation twin;
    buildScenario(target);
    buildScenario(twin);
    target.advanceTimeTo(0.5);
    twin.advanceTimeTo(0.5);
    const std::string before = stateText(target, dir);
    stateText(twin, dir);  // saving makes cvode restart at the next hop: the same for both
    try {
      target.restoreCheckpoint(file);
      FAIL("restored");
    } catch (const InputError& e) {
      const std::string message = e.what();
      CAPTURE(message);
      CHECK(message.rfind("checkpoint '" + file + "' line ", 0) == 0);
      CHECK(message.find(damage.message) != std::string::npos);
    }
    CHECK(stateText(target, dir) == before);
    target.advanceTimeTo(1.5);
    twin.advanceTimeTo(1.5);
    CHECK(stateText(target, dir) == stateText(twin, dir));
  }
}

TEST_CASE("the refusal names the line of the damage") {
  const testing::TempDir dir;
  std::vector<std::string> lines = savedAt(1.0, dir.path() + "/lines.ckpt");
  const std::size_t gravity = lineOf(lines, "gravity");
  lines[gravity] = "gravity 0 0 inf";
  const std::string file = dir.write("lines.ckpt", joinLines(lines));
  Simulation target;
  buildScenario(target);
  const std::string where = "line " + std::to_string(gravity + 1) + ": a gravity component";
  CHECK_THROWS_WITH_AS(target.restoreCheckpoint(file), doctest::Contains(where.c_str()),
                       InputError);
}

TEST_CASE("a checkpoint records the hopsim that wrote it, and another build's file restores too") {
  const testing::TempDir dir;
  const std::string file = dir.path() + "/origin.ckpt";
  std::vector<std::string> lines = savedAt(1.0, file);
  REQUIRE(lines.size() > 2);
  CHECK(lines[0] == "hopsim-checkpoint 8");
  CHECK(lines[1] ==
        "written_by \"" + std::string(version()) + "\" \"" + std::string(gitCommit()) + "\"");

  Simulation sim;
  buildScenario(sim);
  const CheckpointOrigin own = sim.restoreCheckpoint(file);
  CHECK(own.formatVersion == 8);
  CHECK(own.hopsimVersion == version());
  CHECK(own.gitCommit == gitCommit());
  const bool identifiable = !gitCommit().empty() && !gitCommit().ends_with("-dirty");
  CHECK(own.sameBuild == identifiable);
  CHECK(own.note.empty() == identifiable);

  lines[1] = "written_by \"0.0.1\" \"0123456789abcdef0123456789abcdef01234567\"";
  dir.write("origin.ckpt", joinLines(lines));
  const CheckpointOrigin other = sim.restoreCheckpoint(file);
  CHECK_FALSE(other.sameBuild);
  CHECK(other.hopsimVersion == "0.0.1");
  CHECK(other.note.find("written by hopsim 0.0.1 (git 0123456789abcdef0123456789abcdef01234567)"
                        ", restored by hopsim " +
                        std::string(version())) == 0);
  CHECK(other.note.find("bit for bit only in the build that wrote it") != std::string::npos);
  CHECK(sim.time() == 1.0);

  // Format 7 had no written_by line: the writer is unknown, and the file restores.
  lines.erase(lines.begin() + 1);
  lines[0] = "hopsim-checkpoint 7";
  dir.write("origin.ckpt", joinLines(lines));
  const CheckpointOrigin old = sim.restoreCheckpoint(file);
  CHECK(old.formatVersion == 7);
  CHECK(old.hopsimVersion.empty());
  CHECK(old.note.find("format 7 does not record the hopsim that wrote it") == 0);
}

TEST_CASE("strings with quotes, backslashes and line breaks round-trip on their line") {
  const testing::TempDir dir;
  const std::string file = dir.path() + "/strings.ckpt";
  const std::string label = "two\nlines, a \"quote\", a \\ and a\r return";
  {
    Simulation sim;
    buildScenario(sim);
    sim.set("signals.label", label);
    sim.advanceTimeTo(0.1);
    sim.saveCheckpoint(file);
  }
  const std::string text = readText(file);
  CHECK(text.find(R"("two\nlines, a \"quote\", a \\ and a\r return")") != std::string::npos);
  Simulation resumed;
  buildScenario(resumed);
  resumed.restoreCheckpoint(file);
  CHECK(std::get<std::string>(resumed.get("signals.label")) == label);
}

TEST_CASE("a save that fails leaves the checkpoint it would have replaced") {
  const testing::TempDir dir;
  const std::string file = dir.path() + "/kept.ckpt";
  Simulation sim;
  buildScenario(sim);
  sim.advanceTimeTo(0.5);
  sim.saveCheckpoint(file);
  const std::string saved = readText(file);
  sim.advanceTimeTo(1.0);
  // The temporary file the save writes first cannot be created: a directory is in its place.
  std::filesystem::create_directory(file + ".part");
  CHECK_THROWS_WITH_AS(sim.saveCheckpoint(file),
                       doctest::Contains(("checkpoint '" + file + "': cannot write it").c_str()),
                       InputError);
  CHECK(readText(file) == saved);
  CHECK_THROWS_WITH_AS(sim.saveCheckpoint(dir.path() + "/no/such/dir.ckpt"),
                       doctest::Contains("cannot write it"), InputError);
}

}  // namespace hopsim::test
