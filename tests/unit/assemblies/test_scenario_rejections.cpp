// Every kind of rejection of a scenario file names the file and line it comes from: one broken
// file per kind, loaded as `hopsim run` loads it. The line a message must name is marked in the
// file with the comment `#<`; the message must start with "FILE:LINE:".

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "chrono_yaml_test_util.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/signals/error.h"
#include "temp_dir.h"

namespace hopsim {
namespace {

using testing::TempDir;

/// A file of a rejection case: its name and its text.
struct File {
  std::string name;
  std::string text;
};

/// One kind of rejection: the scenario `main.yaml` (and the files it includes); the marked
/// line (in whichever file holds the marker) is where the message must point, and `says` a part
/// of what it must say.
struct Rejection {
  const char* kind;
  std::string main;
  std::string says;
  std::vector<File> others = {};
};

constexpr std::string_view kMarker = "#<";

/// "FILE:LINE:" of the marked line of the first file that has one.
std::string markedLocation(const TempDir& dir, const std::vector<File>& files) {
  for (const File& file : files) {
    const std::size_t marker = file.text.find(kMarker);
    if (marker == std::string::npos) continue;
    const auto line = 1 + std::count(file.text.begin(), file.text.begin() + marker, '\n');
    return dir.path() + "/" + file.name + ":" + std::to_string(line) + ":";
  }
  return "(no marker)";
}

/// The message of the hopsim::Error loading `main` throws ("" when it loads).
std::string rejection(const TempDir& dir, const std::vector<File>& files) {
  for (const File& file : files) dir.write(file.name, file.text);
  try {
    (void)Scenario::load(dir.path() + "/" + files.front().name);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const std::string kHead = "hopsim: 1\nsimulation: {end_time: 1 s}\n";

/// A PIN body `arm` under the root, for models that attach to hinges and nodes.
const std::string kArm = R"(assemblies:
  arm:
    class: BodyAssembly
    params:
      mass: 1 kg
      inertia: [0.1, 0.1, 0.1]
      hinge: {type: PIN, axes: [0, 1, 0]}
      nodes: {tip: {position: [0, 0, 1]}}
)";

/// The joints of a Chrono model file (chrono_test::kHead): one on a body that does not exist.
const std::string kChronoJoint = R"(  joints:
    - name: j
      type: REVOLUTE
      body1: ground
      body2: nobody #<
      location: [0, 0, 0]
      axis: [0, 0, 1]
)";

std::vector<Rejection> rejections() {
  return {
      // ---- the document ---------------------------------------------------------------------
      {"YAML syntax", kHead + "signals: {a: [1, 2} #<\n", "YAML syntax error"},
      {"duplicate key", kHead + "signals: {}\nsignals: {} #<\n", "duplicate key 'signals'"},
      {"not a mapping", "- hopsim #<\n- 1\n", "is not a file hopsim reads"},
      {"no hopsim key", "simulation: {end_time: 1} #<\n", "is not a file hopsim reads"},
      {"unsupported version", "hopsim: 2 #<\nsimulation: {end_time: 1}\n", "version"},
      // ---- simulation -----------------------------------------------------------------------
      {"no simulation section", "hopsim: 1 #<\n", "end_time"},
      {"no end time", "hopsim: 1\nsimulation:\n  io_step: 1 ms #<\n", "end_time"},
      {"bad integrator", "hopsim: 1\nsimulation: {end_time: 1, integrator: rk5} #<\n",
       "integrator"},
      {"integration steps out of range", R"(hopsim: 1
simulation:
  end_time: 1
  integration_steps: 2147483648 #<
)",
       "integration_steps"},
      {"time step too small", R"(hopsim: 1
simulation:
  end_time: 1
  time_step: 1e-12 #<
)",
       "time_step"},
      // ---- signals --------------------------------------------------------------------------
      {"signal type", kHead + "signals:\n  a: {type: complex} #<\n", "complex"},
      {"signal length", kHead + "signals:\n  a: {length: 0} #<\n", "length"},
      {"signal value", kHead + "signals:\n  a: {value: abc} #<\n", "abc"},
      {"signal name", kHead + "signals:\n  a b: {} #<\n", "a b"},
      // ---- assemblies -----------------------------------------------------------------------
      {"assembly class", kHead + "assemblies:\n  a: {class: NoSuchAssembly} #<\n",
       "NoSuchAssembly"},
      {"assembly param", kHead + R"(assemblies:
  a:
    class: BodyAssembly
    params: {mass: 1 kg, inertia: [1, 1, 1], wings: 2} #<
)",
       "wings"},
      {"assembly param unit", kHead + R"(assemblies:
  a:
    class: BodyAssembly
    params: {mass: 1 m, inertia: [1, 1, 1]} #<
)",
       "mass"},
      {"assembly name", kHead + "assemblies:\n  a.b: {} #<\n", "a.b"},
      {"tie to an unknown signal", kHead + R"(assemblies:
  a:
    signal_ties: {x: nothing} #<
)",
       "nothing"},
      {"unconsumed tie", kHead + R"(signals: {s: {}}
assemblies:
  a:
    signal_ties: {x: s} #<
)",
       "never consumed"},
      {"body parent", kHead + R"(assemblies:
  a:
    class: BodyAssembly #<
    context: {parentBody: nowhere}
    params: {mass: 1 kg, inertia: [1, 1, 1]}
)",
       "nowhere"},
      // ---- models ---------------------------------------------------------------------------
      {"model class", kHead + "models:\n  m: {class: NoSuchModel} #<\n", "NoSuchModel"},
      {"model param", kHead + R"(signals: {a: {}, b: {}}
models:
  m:
    class: Gain
    params: {kk: 2} #<
    ties: {u: a, y: b}
)",
       "kk"},
      {"tie of an unknown port", kHead + R"(signals: {a: {}, b: {}}
models:
  m:
    class: Gain
    ties: {u: a, y: b, z: a} #<
)",
       "'z'"},
      {"tie to an unknown signal of a model", kHead + R"(signals: {a: {}}
models:
  m:
    class: Gain
    ties: {u: a, y: nothing} #<
)",
       "nothing"},
      {"tie of the wrong type", kHead + R"(signals: {a: {}, b: {type: bool}}
models:
  m:
    class: Gain
    ties: {u: a, y: b} #<
)",
       "bool"},
      {"untied port", kHead + R"(signals: {q: {}, u: {}}
models:
  pd:
    class: PdController #<
    ties: {qdot: q, u: u}
)",
       "flowIn 'q' is not tied to a signal"},
      {"unattached hinge model", kHead + kArm + R"(signals: {q: {}, u: {}}
models:
  enc:
    class: HingeEncoder #<
    ties: {q: q, u: u}
)",
       "attached to no hinge"},
      {"attachment to an unknown body", kHead + kArm + R"(signals: {q: {}, u: {}}
models:
  enc:
    class: HingeEncoder #<
    body: nobody
    ties: {q: q, u: u}
)",
       "nobody"},
      {"attachment to an unknown node", kHead + kArm + R"(signals: {f: {length: 3}, t: {length: 3}}
models:
  push:
    class: ExternalForceTorque #<
    node: nonode
    ties: {force: f, torque: t}
)",
       "nonode"},
      {"attachment of a flow model", kHead + R"(signals: {a: {}, b: {}}
models:
  m:
    class: Gain #<
    body: arm
    ties: {u: a, y: b}
)",
       "does not attach"},
      {"model rate", kHead + R"(signals: {a: {}, b: {}}
models:
  m:
    class: Gain
    rate: -1 #<
    ties: {u: a, y: b}
)",
       "rate"},
      {"port lengths disagree", kHead + R"(signals: {q: {length: 2}, qd: {length: 2}, u: {}}
models:
  pd:
    class: PdController #<
    ties: {q: q, qdot: qd, u: u}
)",
       "length"},
      // The second writer is the one located.
      {"two writers", kHead + R"(signals: {a: {}, b: {}}
models:
  m1:
    class: Gain
    ties: {u: a, y: b}
  m2:
    class: Gain #<
    ties: {u: a, y: b}
)",
       "two writers"},
      {"algebraic loop", kHead + R"(signals: {a: {}, b: {}}
models:
  first:
    class: Gain #<
    ties: {u: a, y: b}
  second:
    class: Gain
    ties: {u: b, y: a}
)",
       "algebraic loop"},
      // ---- breaks, events, logging ----------------------------------------------------------
      {"break format", kHead + "breaks: [nodot] #<\n", "model.flowIn"},
      {"break of an unknown model", kHead + "breaks: [nomodel.u] #<\n", "nomodel"},
      {"event without a trigger", kHead + "events:\n  e: {stop: true} #<\n", "trigger"},
      {"event setting an unknown variable", kHead + R"(events:
  e:
    at: 0.5
    set: {signals.nothing: 1} #<
)",
       "nothing"},
      {"event on an unknown variable", kHead + R"(events:
  e:
    when: {variable: signals.nothing} #<
)",
       "nothing"},
      {"logging an unknown variable", kHead + "logging:\n  variables: [signals.nothing] #<\n",
       "nothing"},
      {"logging column", kHead + "logging:\n  columns: {x: \"signals.a[x]\"} #<\n", "columns"},
      // ---- includes -------------------------------------------------------------------------
      {"missing include", kHead + "include: [missing.yaml] #<\n", "missing.yaml"},
      {"include cycle", kHead + "include: [main.yaml] #<\n", "includes itself"},
      {"include of a file that is not a scenario",
       kHead + "include: [other.yaml]\n",
       "is not a file hopsim reads",
       {{"other.yaml", "signals: {} #<\n"}}},
      {"a name defined in two files",
       kHead + "signals: {a: {}}\ninclude: [other.yaml]\n",
       "defined twice",
       {{"other.yaml", "hopsim: 1\nsignals:\n  a: {} #<\n"}}},
      {"an untied port of an included file",
       kHead + "include: [other.yaml]\n",
       "not tied",
       {{"other.yaml", R"(hopsim: 1
signals: {a: {}}
models:
  pd:
    class: PdController #<
    ties: {q: a}
)"}}},
      // ---- Chrono and MBSE files, run and included ------------------------------------------
      {"a Chrono joint on an unknown body", std::string(chrono_test::kHead) + kChronoJoint,
       "nobody"},
      {"an MBSE body on a point that does not exist", R"(points:
  - {x: 0, y: 0, fixed: true}
  - {x: 1, y: 0}
planar_bodies:
  - points: [0, 9] #<
    length: 1
    mass: 1
    I0: 1
    cog: [0.5, 0]
)",
       "9"},
      {"an included Chrono file's error",
       kHead + "include: [model.yaml]\n",
       "nobody",
       {{"model.yaml", std::string(chrono_test::kHead) + kChronoJoint}}},
      // ---- contact --------------------------------------------------------------------------
      {"contact shape on an unknown body", kHead + R"(contact:
  materials: [{name: m}]
  shapes:
    - {type: SPHERE, body: nobody, material: m, radius: 0.1, location: [0, 0, 0]} #<
)",
       "nobody"},
  };
}

}  // namespace

TEST_CASE("scenario rejections: every kind names the file and line it comes from") {
  for (const Rejection& r : rejections()) {
    CAPTURE(r.kind);
    const TempDir dir;
    std::vector<File> files{{"main.yaml", r.main}};
    files.insert(files.end(), r.others.begin(), r.others.end());
    const std::string message = rejection(dir, files);
    CAPTURE(message);
    CHECK(message.starts_with(markedLocation(dir, files)));
    CHECK(message.find(r.says) != std::string::npos);
  }
}

}  // namespace hopsim
