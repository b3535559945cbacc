// The built-in demo: a small multi-rate dataflow of standard models, run for 5 s.

#include <cstdio>
#include <map>
#include <string>

#include "commands.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"

namespace hopsim::apps {
namespace {

std::string format(const char* pattern, double a, double b, double c, double d) {
  char line[160];
  std::snprintf(line, sizeof line, pattern, a, b, c, d);
  return line;
}

}  // namespace

int runDemo(std::ostream& out) {
  const ModelRegistry& registry = models::standardRegistry();
  Simulation sim({.startTime = 0.0, .ioStepSize = 0.01});

  // A 0.2 Hz wave sampled by a 2.5 Hz controller (zero-order hold), amplified by an actuator
  // gain, and logged by a variable-rate recorder whose period cycles 0.1, 0.2, 0.3 s.
  for (const char* name : {"wave", "command", "thrust", "logged"}) {
    sim.addSignal(name, ElementType::Double, 1);
  }
  sim.addModel(registry.create("Gain", "actuator", {{"k", 2.0}}));
  sim.addModel(registry.create("ZeroOrderHold", "recorder"));
  sim.addModel(registry.create("ZeroOrderHold", "controller"));
  sim.addModel(registry.create("SineWave", "sensor", {{"frequency", 0.2}}));
  sim.tie("sensor", "y", "wave");
  sim.tie("controller", "u", "wave");
  sim.tie("controller", "y", "command");
  sim.tie("actuator", "u", "command");
  sim.tie("actuator", "y", "thrust");
  sim.tie("recorder", "u", "thrust");
  sim.tie("recorder", "y", "logged");
  sim.setModelRate("sensor", 100.0);
  sim.setModelRate("controller", 2.5);
  int cycle = 0;
  sim.registerMultiRateModel("recorder", [&cycle](double now) -> std::optional<double> {
    return now + 0.1 * (1 + cycle++ % 3);
  });

  std::map<std::string, int> ioSteps;
  for (const char* name : {"sensor", "controller", "actuator", "recorder"}) {
    sim.registerModelEvent(std::string("count ") + name, name, ModelMethod::EndIoStep,
                           EventTiming::After,
                           [&ioSteps, name](Simulation&, double) { ++ioSteps[name]; });
  }
  sim.lock();

  out << "hopsim demo: a multi-rate dataflow, default I/O period " << sim.ioStepSize() << " s\n\n"
      << sim.modelOrder().toString() << "\n";
  const auto value = [&](const char* signal) { return std::get<double>(sim.get(signal)); };
  sim.registerPeriodicEvent("report", 1.0, 1.0, [&](Simulation&, double t) {
    out << format("t = %4.1f s   wave = %+.4f   command = %+.4f   thrust = %+.4f\n", t,
                  value("signals.wave"), value("signals.command"), value("signals.thrust"));
  });
  sim.advanceTimeTo(5.0);

  out << "\nafter t = " << sim.time() << " s: " << sim.hopCount() << " hops\n"
      << "  sensor     (100 Hz)      " << ioSteps["sensor"] << " I/O steps\n"
      << "  controller (2.5 Hz)      " << ioSteps["controller"] << " I/O steps\n"
      << "  actuator   (default)     " << ioSteps["actuator"] << " I/O steps\n"
      << "  recorder   (0.1/0.2/0.3) " << ioSteps["recorder"] << " I/O steps, "
      << std::get<std::int64_t>(sim.get("models.recorder.discreteStates.samples")) << " samples\n";
  return 0;
}

}  // namespace hopsim::apps
