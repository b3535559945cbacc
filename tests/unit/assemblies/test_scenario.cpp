// The native scenario loader (Scenario, docs/scenario-yaml.md): the acceptance errors,
// format checks, includes, overrides, events, logging, transactions, anchors and breaks.

#include <doctest/doctest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numbers>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/body_assembly.h"
#include "hopsim/assemblies/model_assembly.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"
#include "temp_dir.h"

namespace hopsim {
namespace {

using Overrides = std::vector<std::string>;

std::unique_ptr<Scenario> build(std::string_view text, const Overrides& overrides = {}) {
  return Scenario::build(parseYaml(text, "test.yaml"), "test.yaml", overrides);
}

/// The message of the hopsim::Error that building `text` throws ("" if none).
std::string errorOf(std::string_view text, const Overrides& overrides = {}) {
  try {
    (void)build(text, overrides);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& message, std::string_view part) {
  return message.find(part) != std::string::npos;
}

double number(const Scenario& s, std::string_view path) {
  return std::get<double>(s.sim().get(path));
}

double bodyMass(const Scenario& s, std::string_view body) {
  const auto& tree = s.sim().multibody().model();
  return tree.massProperties(tree.bodyIndex(body)).mass();
}

using testing::TempDir;

/// A point body `p` (BodyAssembly) with the params given (YAML flow text).
std::string bodyScenario(std::string_view params) {
  return "hopsim: 1\n"
         "simulation: {end_time: 1}\n"
         "assemblies:\n"
         "  p:\n"
         "    class: BodyAssembly\n"
         "    params: " +
         std::string(params) + "\n";
}

// ---- acceptance errors -----------------------------------------------------------------------

TEST_CASE("scenario: a tie with a typo on the giving side names the tie and did-you-mean") {
  const std::string m = errorOf(R"(hopsim: 1
simulation: {end_time: 1}
assemblies:
  parent:
    signals: {a: {}}
    assemblies:
      src:
        class: ModelAssembly
        model: SineWave
        signal_ties: {y: aa}
)");
  CHECK(has(m, "test.yaml:10:26"));
  CHECK(has(m, "signal tie 'y' -> 'aa' given by assembly 'parent' to assembly 'parent.src'"));
  CHECK(has(m, "has no signal 'aa'"));
  CHECK(has(m, "did you mean 'a'"));
}

TEST_CASE("scenario: a tie with a typo on the receiving side fails at lock with did-you-mean") {
  const std::string m = errorOf(R"(hopsim: 1
simulation: {end_time: 1}
assemblies:
  parent:
    signals: {a: {}}
    assemblies:
      src:
        class: ModelAssembly
        model: SineWave
        signal_ties: {yy: a}
)");
  CHECK(has(m, "test.yaml:10:27"));
  // The giving and the receiving assembly.
  CHECK(has(m, "signal tie 'yy' -> 'a' given by assembly 'parent' to assembly 'parent.src'"));
  CHECK(has(m, "never consumed"));
  CHECK(has(m, "did you mean 'y'"));
}

TEST_CASE("scenario: an unknown param field fails with a suggestion and file:line:col") {
  const std::string m = errorOf(bodyScenario("{masss: 2}"));
  CHECK(has(m, "test.yaml:6:21: assemblies.p.params: unknown field 'masss'"));
  CHECK(has(m, "did you mean 'mass'"));
}

TEST_CASE("scenario: an out-of-range value names the path, the value and the check") {
  const std::string m = errorOf(bodyScenario("{mass: -2.5}"));
  CHECK(has(m, "test.yaml:6:20: assemblies.p.params.mass: value -2.5 failed check: must be > 0"));
}

TEST_CASE("scenario: a unit of the wrong dimension is rejected") {
  const std::string m = errorOf(bodyScenario("{mass: 1, cm: [0, 0, 3 kg]}"));
  CHECK(has(m, "test.yaml:6:"));
  CHECK(has(m, "assemblies.p.params.cm"));
  CHECK(has(m, "wrong dimension"));
  CHECK(has(m, "is a mass, expected a length (m)"));
  // The same value in a length unit is accepted and converted.
  const auto s = build(bodyScenario("{mass: 1, cm: [0, 0, 30 cm], inertia: [1, 1, 1]}"));
  const auto& tree = s->sim().multibody().model();
  CHECK(tree.massProperties(tree.bodyIndex("p")).comPosition()[2] == doctest::Approx(0.3));
}

// ---- the format ------------------------------------------------------------------------------

TEST_CASE("scenario: version, Chrono files, end_time and unknown keys") {
  std::string m = errorOf("simulation: {end_time: 1}\n");
  CHECK(has(m, "test.yaml"));
  CHECK(has(m, "expected `hopsim: 1`"));
  m = errorOf("hopsim: 2\nsimulation: {end_time: 1}\n");
  CHECK(has(m, "test.yaml:1:9"));
  CHECK(has(m, "hopsim: format version"));
  CHECK(has(m, "2\" is not supported"));
  m = errorOf("chrono-version: 9.0\nmodel: {name: x}\n");
  CHECK(has(m, "Chrono model file"));
  CHECK(has(m, "not a native scenario"));
  m = errorOf("hopsim: 1\nsimulation: {io_step: 0.1}\n");
  CHECK(has(m, "test.yaml:2:13: simulation.end_time"));
  CHECK(has(m, "missing"));
  // A missing section is located where the document starts.
  m = errorOf("hopsim: 1\n");
  CHECK(has(m, "test.yaml:1:1: simulation.end_time"));
  m = errorOf("hopsim: 1\nsimulation: {end_time: 1 kg}\n");
  CHECK(has(m, "test.yaml:2:24"));
  CHECK(has(m, "simulation.end_time"));
  // An unknown top-level or section key is a warning with location and suggestion.
  const auto s = build("hopsim: 1\nsimulation: {end_time: 2, io_stp: 0.1}\nevnets: {}\n");
  CHECK(s->endTime() == 2.0);
  REQUIRE(s->warnings().size() == 2);
  CHECK(has(s->warnings()[0], "test.yaml:3:9"));
  CHECK(has(s->warnings()[0], "'evnets'"));
  CHECK(has(s->warnings()[0], "did you mean 'events'"));
  CHECK(has(s->warnings()[1], "test.yaml:2:35"));
  CHECK(has(s->warnings()[1], "'simulation.io_stp'"));
  CHECK(has(s->warnings()[1], "did you mean 'io_step'"));
}

TEST_CASE("scenario: simulation settings reach the simulation") {
  const auto s = build(R"(hopsim: 1
simulation:
  start_time: 1 s
  end_time: 2500 ms
  io_step: 50 ms
  integrator: euler
  gravity: [0, 0, -9.81]
)");
  CHECK(s->sim().time() == 1.0);
  CHECK(s->endTime() == 2.5);
  CHECK(s->sim().multibody().model().gravity()[2] == -9.81);
  s->run();
  CHECK(s->sim().time() == 2.5);
  const std::string m = errorOf("hopsim: 1\nsimulation: {end_time: 1, integrator: rk5}\n");
  CHECK(has(m, "simulation.integrator"));
  CHECK(has(m, "rk4"));
}

TEST_CASE("scenario: cvode's method and nonlinear solver reach the integrator") {
  const auto s = build(R"(hopsim: 1
simulation:
  end_time: 1
  integrator: cvode
  method: adams
  nonlinear_solver: fixed_point
)");
  const IntegratorOptions& o = s->sim().integrator().options();
  CHECK(o.multistep == MultistepMethod::Adams);
  CHECK(o.nonlinearSolver == NonlinearSolver::FixedPoint);
  const auto defaults = build("hopsim: 1\nsimulation: {end_time: 1, integrator: cvode}\n");
  CHECK(defaults->sim().integrator().options().nonlinearSolver == NonlinearSolver::Newton);
  const std::string m = errorOf(
      "hopsim: 1\nsimulation: {end_time: 1, integrator: cvode, nonlinear_solver: fixedpoint}\n");
  CHECK(has(m, "test.yaml:2:"));
  CHECK(has(m, "simulation.nonlinear_solver"));
  CHECK(has(m, "fixedpoint"));
  CHECK(has(m, "fixed_point"));
}

TEST_CASE("scenario: continue_across_hops reaches cvode, and is a boolean") {
  const auto s = build(R"(hopsim: 1
simulation:
  end_time: 1
  integrator: cvode
  continue_across_hops: true
)");
  CHECK(s->sim().integrator().options().continueAcrossHops);
  const auto defaults = build("hopsim: 1\nsimulation: {end_time: 1, integrator: cvode}\n");
  CHECK_FALSE(defaults->sim().integrator().options().continueAcrossHops);
  const std::string m = errorOf(
      "hopsim: 1\nsimulation: {end_time: 1, integrator: cvode, continue_across_hops: sometimes}\n");
  CHECK(has(m, "test.yaml:2:"));
  CHECK(has(m, "simulation.continue_across_hops"));
  CHECK(has(m, "sometimes"));
}

// ---- includes --------------------------------------------------------------------------------

TEST_CASE("scenario: includes add definitions, the including file's simulation keys win") {
  TempDir dir;
  dir.write("lib.yaml", R"(hopsim: 1
simulation: {end_time: 9, io_step: 0.02}
signals:
  x: {}
assemblies:
  q:
    class: BodyAssembly
    params: {mass: 4, inertia: [1, 1, 1]}
models:
  g:
    class: Gain
    params: {k: 2}
    ties: {u: x, y: y}
events:
  e: {at: 0.1, log: from lib}
)");
  const std::string main = dir.write("main.yaml", R"(hopsim: 1
include: lib.yaml
simulation: {end_time: 0.2}
signals:
  y: {}
assemblies:
  p:
    class: BodyAssembly
    params: {mass: 3, inertia: [1, 1, 1]}
)");
  const auto s = Scenario::load(main, {"signals.x=1"});
  CHECK(s->endTime() == 0.2);
  CHECK(s->sim().ioStepSize() == 0.02);
  CHECK(bodyMass(*s, "p") == 3.0);
  CHECK(bodyMass(*s, "q") == 4.0);
  CHECK(number(*s, "models.g.params.k") == 2.0);
  s->run();
  REQUIRE(s->eventLog().size() == 1);
  CHECK(s->eventLog()[0].message == "from lib");
  CHECK(s->eventLog()[0].time == doctest::Approx(0.1));
}

TEST_CASE("scenario: an include defining a name twice, a cycle, a missing file") {
  TempDir dir;
  dir.write("lib.yaml", "hopsim: 1\nassemblies:\n  p: {class: BodyAssembly}\n");
  std::string file = dir.write("main.yaml",
                               "hopsim: 1\ninclude: [lib.yaml]\nsimulation: {end_time: 1}\n"
                               "assemblies:\n  p: {class: BodyAssembly}\n");
  std::string m;
  try {
    (void)Scenario::load(file);
  } catch (const InputError& e) {
    m = e.what();
  }
  CHECK(has(m, "assemblies.p: defined twice"));
  CHECK(has(m, "lib.yaml:3:"));
  CHECK(has(m, "main.yaml:5:"));

  dir.write("a.yaml", "hopsim: 1\ninclude: b.yaml\n");
  dir.write("b.yaml", "hopsim: 1\ninclude: a.yaml\n");
  file = dir.write("top.yaml", "hopsim: 1\ninclude: a.yaml\nsimulation: {end_time: 1}\n");
  m = "";
  try {
    (void)Scenario::load(file);
  } catch (const InputError& e) {
    m = e.what();
  }
  CHECK(has(m, "b.yaml:2:10"));
  CHECK(has(m, "includes itself"));

  file = dir.write("self.yaml", "hopsim: 1\ninclude: self.yaml\nsimulation: {end_time: 1}\n");
  m = "";
  try {
    (void)Scenario::load(file);
  } catch (const InputError& e) {
    m = e.what();
  }
  CHECK(has(m, "includes itself"));

  file = dir.write("missing.yaml", "hopsim: 1\ninclude: nothere.yaml\nsimulation: {end_time: 1}\n");
  m = "";
  try {
    (void)Scenario::load(file);
  } catch (const InputError& e) {
    m = e.what();
  }
  CHECK(has(m, "missing.yaml:2:10"));
  CHECK(has(m, "nothere.yaml"));

  dir.write("notscenario.yaml", "simulation: {end_time: 1}\n");
  file = dir.write("inc.yaml", "hopsim: 1\ninclude: notscenario.yaml\nsimulation: {end_time: 1}\n");
  m = "";
  try {
    (void)Scenario::load(file);
  } catch (const InputError& e) {
    m = e.what();
  }
  CHECK(has(m, "notscenario.yaml"));
  CHECK(has(m, "hopsim: 1"));
}

// ---- overrides -------------------------------------------------------------------------------

constexpr std::string_view kOverridable = R"(hopsim: 1
simulation: {end_time: 1}
signals:
  x: {unit: m}
  y: {unit: m}
assemblies:
  p:
    class: BodyAssembly
    params: {mass: 1 kg, inertia: [1, 1, 1]}
models:
  g:
    class: Gain
    params: {k: 3}
    ties: {u: x, y: y}
)";

TEST_CASE("scenario: overrides of the document, and of variables after binding") {
  const auto plain = build(kOverridable, {"signals.x=0"});
  CHECK(bodyMass(*plain, "p") == 1.0);
  CHECK(plain->endTime() == 1.0);
  CHECK(number(*plain, "models.g.params.k") == 3.0);

  const auto s = build(kOverridable, {"assemblies.p.params.mass=2 kg", "simulation.end_time=3",
                                      "models.g.params.k=7", "signals.x=5 cm"});
  CHECK(bodyMass(*s, "p") == 2.0);
  CHECK(s->endTime() == 3.0);
  CHECK(number(*s, "models.g.params.k") == 7.0);
  CHECK(number(*s, "signals.x") == doctest::Approx(0.05));
  s->sim().advanceTimeTo(0.1);
  CHECK(number(*s, "signals.y") == doctest::Approx(0.35));
}

TEST_CASE("scenario: bad override paths suggest, bad override values name the override") {
  std::string m = errorOf(kOverridable, {"assemblies.p.params.mas=2"});
  CHECK(has(m, "override assemblies.p.params.mas=2"));
  CHECK(has(m, "did you mean 'mass'"));
  m = errorOf(kOverridable, {"signals.xx=5"});
  CHECK(has(m, "signals.xx"));
  CHECK(has(m, "did you mean 'signals.x'"));
  m = errorOf(kOverridable, {"assemblies.p.params.mass=-2"});
  CHECK(has(m, "override assemblies.p.params.mass=-2:1:1"));
  CHECK(has(m, "assemblies.p.params.mass"));
  CHECK(has(m, "-2"));
  m = errorOf(kOverridable, {"signals.x=3 kg"});
  CHECK(has(m, "override signals.x=3 kg"));
  m = errorOf(kOverridable, {"simulation.end_time=soon"});
  CHECK(has(m, "override simulation.end_time=soon"));
  CHECK(has(m, "simulation.end_time"));
  m = errorOf(kOverridable, {"no equals sign"});
  CHECK(has(m, "PATH=VALUE"));
}

// ---- events ----------------------------------------------------------------------------------

TEST_CASE("scenario: timed and periodic events set variables and log") {
  const auto s = build(R"(hopsim: 1
simulation: {end_time: 0.35, io_step: 0.05}
signals:
  x: {unit: m}
events:
  once:
    at: 0.2 s
    set: {signals.x: 40 cm}
    log: set x
  twice:
    at: [50, 150 ms]            # the unit applies to both
    log: tick
  periodic:
    every: 0.1
    start: 0.1
    log: every
)",
                       {"signals.x=0"});
  s->sim().advanceTimeTo(0.15);
  CHECK(number(*s, "signals.x") == 0.0);
  s->run();
  CHECK(number(*s, "signals.x") == doctest::Approx(0.4));
  std::vector<std::string> names;
  std::vector<double> times;
  for (const EventLogEntry& e : s->eventLog()) {
    names.push_back(e.event + ":" + e.message);
    times.push_back(e.time);
  }
  CHECK(names == std::vector<std::string>{"twice:tick", "periodic:every", "twice:tick",
                                          "once:set x", "periodic:every", "periodic:every"});
  CHECK(s->eventsFired() == 6);
  REQUIRE(times.size() == 6);
  const double expected[] = {0.05, 0.1, 0.15, 0.2, 0.2, 0.3};
  for (std::size_t i = 0; i < times.size(); ++i) {
    CHECK(times[i] == doctest::Approx(expected[i]).epsilon(1e-12));
  }
}

/// A mass-spring x = x0 cos t (m = k = 1) with x0 = 1 m, its position tied to `pos`.
constexpr std::string_view kSpring = R"(hopsim: 1
simulation: {end_time: 5, io_step: 0.01, integrator: rkf45, rtol: 1e-10, atol: 1e-12}
signals:
  pos: {unit: m}
  vel: {unit: m/s}
  force: {unit: N}
models:
  msd:
    class: MassSpringDamper
    ties: {x: pos, v: vel, F: force}
)";

TEST_CASE("scenario: a zero crossing on a scalar state stops the run at the analytic time") {
  const auto s = build(std::string(kSpring) + R"(events:
  zero:
    when: {variable: models.msd.continuousStates.x, direction: falling}
    log: crossed
    stop: true
)",
                       {"models.msd.continuousStates.x=1", "signals.force=0"});
  s->run();
  CHECK(s->sim().stateTime() == doctest::Approx(std::numbers::pi / 2).epsilon(1e-8));
  CHECK(s->sim().time() < 1.6);
  REQUIRE(s->eventLog().size() == 1);
  CHECK(s->eventLog()[0].time == doctest::Approx(std::numbers::pi / 2).epsilon(1e-8));
}

TEST_CASE("scenario: when.value takes a unit, a crossing on a model output") {
  // x = cos t reaches 500 mm at t = π/3.
  auto s = build(std::string(kSpring) + R"(events:
  half:
    when: {variable: models.msd.continuousStates.x, value: 500 mm, direction: falling}
    stop: true
)",
                 {"models.msd.continuousStates.x=1", "signals.force=0"});
  s->run();
  CHECK(s->sim().stateTime() == doctest::Approx(std::numbers::pi / 3).epsilon(1e-8));
  std::string m = errorOf(std::string(kSpring) + R"(events:
  half:
    when: {variable: models.msd.continuousStates.x, value: 2 kg}
)");
  CHECK(has(m, "test.yaml:13:"));
  CHECK(has(m, "events.half.when"));
  CHECK(has(m, "kg"));
  // The model's output (no feed-through) crosses where its state does.
  s = build(std::string(kSpring) + R"(events:
  out:
    when: {variable: signals.pos, value: 0.5, direction: falling}
    stop: true
)",
            {"models.msd.continuousStates.x=1", "signals.force=0"});
  s->run();
  CHECK(s->sim().stateTime() == doctest::Approx(std::numbers::pi / 3).epsilon(1e-6));
}

TEST_CASE("scenario: a zero crossing on an element of a vector state") {
  // y' = [1, 2]: y[1] = 2 t reaches 0.5 at t = 0.25.
  const auto s = build(R"(hopsim: 1
simulation: {end_time: 2, io_step: 0.1}
signals:
  rate: {length: 2}
  y: {length: 2}
models:
  integ:
    class: ContinuousIntegrator
    ties: {u: rate, y: y}
events:
  reached:
    when: {variable: models.integ.continuousStates.y, element: 1, value: 0.5, direction: rising}
    stop: true
)",
                       {"signals.rate=[1, 2]"});
  s->run();
  CHECK(s->sim().stateTime() == doctest::Approx(0.25).epsilon(1e-9));
  std::string m = errorOf(R"(hopsim: 1
simulation: {end_time: 2}
signals:
  y: {length: 2}
events:
  reached:
    when: {variable: signals.y, element: 2}
)");
  CHECK(has(m, "events.reached.when.element"));
  CHECK(has(m, "element 2 does not exist"));
  m = errorOf(R"(hopsim: 1
simulation: {end_time: 2}
signals:
  y: {length: 2}
events:
  reached:
    when: {variable: signals.yy}
)");
  CHECK(has(m, "did you mean 'signals.y'"));
}

TEST_CASE("scenario: an event needs exactly one trigger") {
  std::string m = errorOf(R"(hopsim: 1
simulation: {end_time: 1}
events:
  e: {at: 0.5, every: 0.1}
)");
  CHECK(has(m, "test.yaml:4:"));
  CHECK(has(m, "events.e.every"));  // the second trigger, which is there
  CHECK(has(m, "exactly one trigger"));
  m = errorOf(R"(hopsim: 1
simulation: {end_time: 1}
events:
  e: {every: 0.5, when: {variable: signals.x}}
)");
  CHECK(has(m, "events.e.when"));
  CHECK(has(m, "exactly one trigger"));
  m = errorOf(R"(hopsim: 1
simulation: {end_time: 1}
events:
  e: {log: nothing}
)");
  CHECK(has(m, "test.yaml:4:"));
  CHECK(has(m, "events.e"));
  CHECK(has(m, "exactly one trigger"));
  m = errorOf(R"(hopsim: 1
simulation: {end_time: 1}
events:
  e: {at: 0.5, set: {signals.nothere: 1}}
)");
  CHECK(has(m, "test.yaml:4:"));
  CHECK(has(m, "events.e.set.signals.nothere"));
}

// ---- logging ---------------------------------------------------------------------------------

constexpr std::string_view kLogged = R"(hopsim: 1
simulation: {end_time: 0.2, io_step: 0.05}
signals:
  a: {unit: m}
  b: {length: 2}
  label: {type: string}
assemblies:
  p:
    signals:
      s: {}
models:
  w:
    class: SineWave
    params: {amplitude: 1, frequency: 1.3 Hz}
    ties: {y: a}
)";

std::unique_ptr<Scenario> logged(std::string_view logging) {
  return build(std::string(kLogged) + "logging: " + std::string(logging) + "\n");
}

TEST_CASE("scenario: logging globs, exact paths and misses") {
  auto s = logged(R"({variables: ["signals.*"]})");
  CHECK(s->recorder().columns() ==
        std::vector<std::string>{"time", "signals.a", "signals.b[0]", "signals.b[1]"});
  s = logged(R"({variables: ["signals.**"]})");
  CHECK(s->recorder().columns() == std::vector<std::string>{"time", "signals.a", "signals.b[0]",
                                                            "signals.b[1]", "signals.p.s"});
  s = logged(R"({variables: [models.w.params.frequency, "models.*.params.amplitude"]})");
  CHECK(s->recorder().columns() ==
        std::vector<std::string>{"time", "models.w.params.frequency", "models.w.params.amplitude"});
  CHECK(s->recorder().units()[1] == "Hz");
  const std::string m = errorOf(std::string(kLogged) + "logging: {variables: [signals.aa]}\n");
  CHECK(has(m, "test.yaml:16:"));
  CHECK(has(m, "signals.aa"));
  CHECK(has(m, "did you mean 'signals.a'"));
  // No logging section: an empty recorder.
  CHECK(build(kLogged)->recorder().columns().empty());
}

TEST_CASE("scenario: logging rate vs the default I/O step, CSV round trip") {
  auto s = logged("{variables: [signals.a], rate: 40}");
  s->run();
  REQUIRE(s->recorder().rows() == 9);
  for (std::size_t k = 0; k < s->recorder().rows(); ++k) {
    CHECK(s->recorder().times()[k] == static_cast<double>(k) / 40.0);
  }
  s = logged("{variables: [signals.a]}");
  s->run();
  REQUIRE(s->recorder().rows() == 5);
  for (std::size_t k = 0; k < s->recorder().rows(); ++k) {
    CHECK(s->recorder().times()[k] == doctest::Approx(static_cast<double>(k) * 0.05));
  }
  const std::vector<double>& a = s->recorder().values(1);
  CHECK(a.back() == doctest::Approx(std::sin(2 * std::numbers::pi * 1.3 * 0.2)));
  std::ostringstream out;
  s->recorder().writeCsv(out);
  std::istringstream in(out.str());
  std::string line;
  std::getline(in, line);
  CHECK(line == "time,signals.a");
  for (std::size_t r = 0; std::getline(in, line); ++r) {
    const std::size_t comma = line.find(',');
    REQUIRE(comma != std::string::npos);
    // The sample at t = 0 precedes the first write of the signal: NaN, written "nan".
    const double x = std::strtod(line.substr(comma + 1).c_str(), nullptr);
    CHECK((x == a[r] || (std::isnan(x) && std::isnan(a[r]) && r == 0)));
  }
  s = logged("{variables: [signals.a], file: out/log.csv}");
  REQUIRE(s->logFile());
  CHECK(*s->logFile() == "out/log.csv");
}

TEST_CASE("scenario: logging overrides replace the file's keys, or make a logging section") {
  // hopsim run --log and --log-rate are these overrides.
  auto s = build(std::string(kLogged) + "logging: {variables: [signals.a]}\n",
                 {"logging.variables=[\"signals.b\"]", "logging.rate=40"});
  CHECK(s->recorder().columns() ==
        std::vector<std::string>{"time", "signals.b[0]", "signals.b[1]"});
  CHECK(s->recorder().path(2) == "signals.b");
  CHECK(s->recorder().element(2) == 1);
  s->run();
  CHECK(s->recorder().rows() == 9);
  s = build(kLogged, {"logging.variables=[signals.a]"});
  CHECK(s->recorder().columns() == std::vector<std::string>{"time", "signals.a"});
  const std::string m = errorOf(kLogged, {"logging.variables=[signals.aa]"});
  CHECK(has(m, "did you mean 'signals.a'"));
}

// ---- transactions ----------------------------------------------------------------------------

TEST_CASE("scenario: a failing last assembly fails the whole load, the valid part alone builds") {
  const std::string good = bodyScenario("{mass: 1, inertia: [1, 1, 1]}");
  const std::string bad = good + "  q:\n    class: BodyAssembly\n    params: {mass: 0}\n";
  const std::string m = errorOf(bad);
  CHECK(has(m, "test.yaml:9:"));
  CHECK(has(m, "assemblies.q.params.mass"));
  const auto s = build(good);
  CHECK(bodyMass(*s, "p") == 1.0);
}

TEST_CASE("addAssembly failing deep in a subtree leaves no signals, models or bodies") {
  Simulation sim;
  SimulationAssembly top(sim);
  AssemblyInputs in;
  SignalDefinition signal;
  signal.name = "s";
  in.signals.push_back(signal);
  AssemblyInputs::Child body;
  body.className = "BodyAssembly";
  body.name = "body";
  body.inputs.params = InputNode::mapping({{"mass", 1.0}, {"inertia", {1.0, 1.0, 1.0}}});
  in.assemblies.push_back(body);
  AssemblyInputs::Child gain;
  gain.className = "ModelAssembly";
  gain.name = "gain";
  gain.inputs.config =
      InputNode::mapping({{"model", "Gain"}, {"lengths", InputNode::mapping({{"n", "1"}})}});
  in.assemblies.push_back(gain);
  AssemblyInputs::Child broken = body;
  broken.name = "broken";
  broken.inputs.params = InputNode::mapping({{"mass", -1.0}});
  in.assemblies.push_back(broken);
  CHECK_THROWS_AS(top.addAssembly<Assembly>("parent", in), InputError);
  CHECK(sim.signalNames().empty());
  CHECK(sim.modelNames().empty());
  CHECK_FALSE(sim.multibody().hasBodies());
  CHECK(top.children().empty());
  // The same subtree without the broken child builds.
  in.assemblies.pop_back();
  top.addAssembly<Assembly>("parent", in);
  CHECK(sim.modelNames() == std::vector<std::string>{"parent.gain"});
  CHECK(sim.multibody().hasBodies());
}

// ---- anchors, breaks -------------------------------------------------------------------------

TEST_CASE("scenario: anchors and merge keys share params") {
  const auto s = build(R"(hopsim: 1
simulation: {end_time: 1}
library:
  body: &body {mass: 2 kg, inertia: [1, 1, 1]}
assemblies:
  p:
    class: BodyAssembly
    params: {<<: *body, mass: 3 kg}
  q:
    class: BodyAssembly
    params:
      <<: *body
)");
  CHECK(bodyMass(*s, "p") == 3.0);
  CHECK(bodyMass(*s, "q") == 2.0);
  CHECK(s->warnings().empty());
  // A merged value that fails is located where it was written.
  const std::string m = errorOf(R"(hopsim: 1
simulation: {end_time: 1}
library:
  body: &body {mass: -2 kg, inertia: [1, 1, 1]}
assemblies:
  q:
    class: BodyAssembly
    params: {<<: *body}
)");
  CHECK(has(m, "test.yaml:4:"));
  CHECK(has(m, "assemblies.q.params.mass"));
}

constexpr std::string_view kLoop = R"(hopsim: 1
simulation: {end_time: 0.1}
signals:
  a: {}
  b: {}
models:
  g1: {class: Gain, ties: {u: a, y: b}}
  g2: {class: Gain, ties: {u: b, y: a}}
)";

TEST_CASE("scenario: breaks close a feed-through loop, bad forms fail") {
  CHECK(has(errorOf(kLoop), "g1"));  // an algebraic loop without a break
  const auto s = build(std::string(kLoop) + "breaks: [g1.u]\n", {"signals.a=1"});
  s->run();
  std::string m = errorOf(std::string(kLoop) + "breaks: [g1u]\n");
  CHECK(has(m, "test.yaml:9:10"));
  CHECK(has(m, "breaks: expected \"model.flowIn\""));
  m = errorOf(std::string(kLoop) + "breaks: g1.u\n");
  CHECK(has(m, "test.yaml:9:"));
  CHECK(has(m, "expected a sequence"));
  m = errorOf(std::string(kLoop) + "breaks: [g3.u]\n");
  CHECK(has(m, "test.yaml:9:10"));
  CHECK(has(m, "g3"));
  m = errorOf(std::string(kLoop) + "breaks: [g1.uu]\n");
  CHECK(has(m, "test.yaml:9:10"));
  CHECK(has(m, "uu"));
}

TEST_CASE("scenario: a signal's `value` is written before the first hop, so a break can read it") {
  // A Gain feeding itself through a break reads its own previous output: without an initial
  // value the first read finds the signal never written.
  const std::string loop =
      "hopsim: 1\nsimulation: {end_time: 0.05, io_step: 0.01}\n"
      "models:\n  g: {class: Gain, params: {k: 0.5}, ties: {u: a, y: a}}\n"
      "breaks: [g.u]\n";
  const auto unset = build(loop + "signals: {a: {}}\n");
  std::string m;
  try {
    unset->run();
  } catch (const Error& e) {
    m = e.what();
  }
  CHECK(has(m, "g"));
  const auto s = build(loop + "signals: {a: {value: 1}, b: {value: 2 km, unit: m}}\n");
  CHECK(s->sim().get("signals.a") == Value(1.0));
  CHECK(s->sim().get("signals.b") == Value(2000.0));
  s->run();
  const double a = std::get<double>(s->sim().get("signals.a"));
  CHECK(a > 0.0);
  CHECK(a < 0.5);  // halved at least once per hop
  m = errorOf(loop + "signals: {a: {value: 3 kg, unit: m}}\n");
  CHECK(has(m, "test.yaml:"));
  CHECK(has(m, "signals.a.value"));
  CHECK(has(m, "mass"));
}

}  // namespace
}  // namespace hopsim
