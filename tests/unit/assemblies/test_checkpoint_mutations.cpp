// Checkpoints of real scenarios damaged in thousands of ways (docs/checkpoints.md, "The
// mutation test"): byte flips, truncations, deleted, duplicated and swapped lines, numbers
// replaced by NaN, inf, huge and negative values, changed names, missing and extra tokens.
// Each damaged file is either refused with an InputError naming the file and a line, the
// simulation left exactly as it was, or restored, and the simulation then advances (or stops
// with a hopsim error, as a run with such values would). The refusals leave no trace: every
// few hundred damages the simulation and an untouched twin advance together and must agree bit
// for bit. HOPSIM_CHECKPOINT_MUTATIONS=<n> damages each checkpoint n times instead of 600 and
// prints the counts, and why the restored runs that stopped did.

#include <doctest/doctest.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/signals/error.h"
#include "temp_dir.h"
#include "text_lines.h"

namespace hopsim {
namespace {

using testing::joinLines;
using testing::readText;
using testing::splitLines;

/// SplitMix64: the same damages on every platform and every run.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = state_ += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n), n > 0 (the modulo bias is irrelevant here).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

std::vector<std::string> splitTokens(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream in(line);
  for (std::string token; in >> token;) tokens.push_back(token);
  return tokens;
}

std::string joinTokens(const std::vector<std::string>& tokens) {
  std::string line;
  for (const std::string& token : tokens) line += (line.empty() ? "" : " ") + token;
  return line;
}

// Numbers that are out of range somewhere: non-finite, huge, negative, off by one, not numbers.
const char* const kReplacements[] = {"nan",
                                     "-nan",
                                     "inf",
                                     "-inf",
                                     "1e308",
                                     "-1e308",
                                     "0x1.fffffffffffffp+1023",
                                     "1e9",
                                     "-1",
                                     "-0x1p+0",
                                     "0",
                                     "1",
                                     "2",
                                     "4000000000000",
                                     "18446744073709551615",
                                     "9223372036854775807",
                                     "-9223372036854775808",
                                     "99999999999999999999",
                                     "0x1.8p+0",
                                     "x",
                                     "\"x\"",
                                     "1e-320"};

/// One damage of `text`, chosen by `random`, and what it was (for the failure message).
std::string damage(const std::string& text, Random& random, std::string& what) {
  std::vector<std::string> lines = splitLines(text);
  const std::size_t l = random.below(lines.size());
  std::vector<std::string> tokens = splitTokens(lines[l]);
  const std::size_t t = random.below(tokens.size());
  const std::string where = " at line " + std::to_string(l + 1);
  switch (random.below(10)) {
    case 0: {
      std::string out = text;
      const std::size_t at = random.below(out.size());
      out[at] = static_cast<char>(out[at] ^ (1 << random.below(8)));
      what = "bit flip at byte " + std::to_string(at);
      return out;
    }
    case 1: {
      std::string out = text;
      const std::size_t at = random.below(out.size());
      out[at] = static_cast<char>(random.below(256));
      what = "byte " + std::to_string(at) + " replaced";
      return out;
    }
    case 2: {
      const std::size_t at = random.below(text.size());
      what = "truncated to " + std::to_string(at) + " bytes";
      return text.substr(0, at);
    }
    case 3:
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(l));
      what = "deleted" + where;
      return joinLines(lines);
    case 4:
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(l), lines[l]);
      what = "duplicated" + where;
      return joinLines(lines);
    case 5:
      if (l + 1 < lines.size()) std::swap(lines[l], lines[l + 1]);
      what = "swapped with the next" + where;
      return joinLines(lines);
    case 6:
    case 7: {
      const char* replacement = kReplacements[random.below(std::size(kReplacements))];
      what = "token " + std::to_string(t) + " '" + tokens[t] + "' -> '" + replacement + "'" + where;
      tokens[t] = replacement;
      lines[l] = joinTokens(tokens);
      return joinLines(lines);
    }
    case 8: {
      std::string& token = tokens[t];
      const std::size_t at = random.below(token.size());
      token[at] = token[at] == 'a' ? 'b' : 'a';
      what = "token " + std::to_string(t) + " renamed to '" + token + "'" + where;
      lines[l] = joinTokens(tokens);
      return joinLines(lines);
    }
    default: {
      if (random.below(2) == 0 && tokens.size() > 1) {
        what = "token " + std::to_string(t) + " '" + tokens[t] + "' deleted" + where;
        tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(t));
      } else {
        const char* extra = kReplacements[random.below(std::size(kReplacements))];
        what = "'" + std::string(extra) + "' inserted before token " + std::to_string(t) + where;
        tokens.insert(tokens.begin() + static_cast<std::ptrdiff_t>(t), extra);
      }
      lines[l] = joinTokens(tokens);
      return joinLines(lines);
    }
  }
}

/// A scenario loaded for the test, and how far to run it.
struct Case {
  const char* file;
  std::vector<std::string> overrides;
  double checkpointTime;  // the damaged checkpoints are taken here
  double targetTime;      // the simulation they are restored into stands here
};

/// How many damages per checkpoint: HOPSIM_CHECKPOINT_MUTATIONS, or 600.
int damageCount() {
  const char* text = std::getenv("HOPSIM_CHECKPOINT_MUTATIONS");
  return text != nullptr ? std::atoi(text) : 600;
}

struct Counts {
  int refused = 0;
  int restored = 0;
  int stoppedAfterRestore = 0;  // restored, then advancing threw a hopsim::Error
  // Why those stopped: each message with its numbers masked, and how often.
  std::map<std::string, int> stops;
};

/// `message` with every run of digits replaced by '#' and cut to 100 characters, so that
/// messages that differ only in their numbers count as one.
std::string maskedNumbers(const std::string& message) {
  std::string out;
  for (std::size_t i = 0; i < message.size() && out.size() < 100; ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(message[i])) != 0;
    if (!digit) out += message[i];
    if (digit && (out.empty() || out.back() != '#')) out += '#';
  }
  return out;
}

/// Damages `c`'s checkpoint `damages` times; returns false at the first violation (reported).
bool mutate(const Case& c, int damages, Counts& counts) {
  const testing::TempDir dir;
  const std::string scenario = std::string(HOPSIM_SOURCE_DIR) + "/" + c.file;
  const auto load = [&] { return Scenario::load(scenario, c.overrides); };
  const auto save = [&](const Simulation& sim, const std::string& name) {
    const std::string file = dir.path() + "/" + name;
    sim.saveCheckpoint(file);
    return readText(file);
  };
  std::string pristine;
  {
    const std::unique_ptr<Scenario> source = load();
    source->sim().advanceTimeTo(c.checkpointTime);
    pristine = save(source->sim(), "pristine.ckpt");
  }
  const std::unique_ptr<Scenario> target = load();
  const std::unique_ptr<Scenario> twin = load();
  target->sim().advanceTimeTo(c.targetTime);
  twin->sim().advanceTimeTo(c.targetTime);
  std::string baseline = save(twin->sim(), "baseline.ckpt");
  REQUIRE(save(target->sim(), "state.ckpt") == baseline);
  const std::string file = dir.path() + "/damaged.ckpt";
  Random random(0x5EED0000u + static_cast<std::uint64_t>(pristine.size()));
  for (int k = 0; k < damages; ++k) {
    std::string what;
    {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << damage(pristine, random, what);
    }
    CAPTURE(c.file);
    CAPTURE(k);
    CAPTURE(what);
    try {
      target->sim().restoreCheckpoint(file);
    } catch (const InputError& e) {
      ++counts.refused;
      const std::string message = e.what();
      CAPTURE(message);
      if (message.rfind("checkpoint '" + file + "' line ", 0) != 0 ||
          save(target->sim(), "state.ckpt") != baseline) {
        FAIL_CHECK("a refusal without the file and line, or one that changed the simulation");
        return false;
      }
      continue;
    } catch (const std::exception& e) {
      FAIL_CHECK("the restore threw something other than an InputError: " << e.what());
      return false;
    }
    ++counts.restored;
    try {
      target->sim().advanceTimeBy(0.05);
    } catch (const Error& e) {
      ++counts.stoppedAfterRestore;  // a damaged but valid value, such as a huge param
      ++counts.stops[maskedNumbers(e.what())];
    } catch (const std::exception& e) {
      FAIL_CHECK("advancing after the restore threw " << e.what());
      return false;
    }
    // Back to where the twin stands, through a restore of its checkpoint.
    target->sim().restoreCheckpoint(dir.path() + "/baseline.ckpt");
    if (save(target->sim(), "state.ckpt") != baseline) {
      FAIL_CHECK("restoring the twin's checkpoint does not give back its state");
      return false;
    }
    if (k % 200 == 199 || k == damages - 1) {
      // Whatever the refusals and restores did, both go on alike.
      target->sim().advanceTimeBy(0.1);
      twin->sim().advanceTimeBy(0.1);
      baseline = save(twin->sim(), "baseline.ckpt");
      if (save(target->sim(), "state.ckpt") != baseline) {
        FAIL_CHECK("the simulation and its twin went apart");
        return false;
      }
    }
  }
  return true;
}

}  // namespace

TEST_CASE("checkpoint mutations: every damaged file is refused cleanly or restores and runs") {
  const std::vector<Case> cases = {
      // Quaternion coordinates, random streams, list, periodic and zero-crossing events.
      {"tests/data/checkpoint_mutations.yaml", {}, 0.4, 0.2},
      // A model's own zero crossings, euler.
      {"examples/rotor_soft_stop.yaml",
       {"simulation.integrator=euler", "simulation.integration_steps=4"},
       0.3,
       0.1},
      // Mass properties changing at run time (the fuel tank), a stop event, cvode.
      {"examples/lander.yaml",
       {"simulation.integrator=cvode", "simulation.rtol=1e-6", "simulation.atol=1e-6"},
       1.0,
       0.5},
      // Three wheels on a FULL6DOF bus, LuGre friction states, rkf45's continuation step.
      {"examples/spacecraft_wheels.yaml",
       {"simulation.rtol=1e-6", "simulation.atol=1e-9"},
       0.2,
       0.1},
  };
  const int damages = damageCount();
  Counts total;
  for (const Case& c : cases) {
    Counts counts;
    if (!mutate(c, damages, counts)) break;
    CAPTURE(c.file);
    // Both outcomes are exercised, so neither path passes by never being taken.
    CHECK(counts.refused > damages / 4);
    CHECK(counts.restored > damages / 50);
    total.refused += counts.refused;
    total.restored += counts.restored;
    total.stoppedAfterRestore += counts.stoppedAfterRestore;
    for (const auto& [message, n] : counts.stops) total.stops[message] += n;
  }
  if (std::getenv("HOPSIM_CHECKPOINT_MUTATIONS") != nullptr) {
    std::cout << "checkpoint mutations: " << total.refused + total.restored << " damaged files, "
              << total.refused << " refused, " << total.restored << " restored ("
              << total.stoppedAfterRestore << " of them then stopped with a hopsim error)\n";
    for (const auto& [message, n] : total.stops) std::cout << n << "  " << message << "\n";
  }
}

}  // namespace hopsim
