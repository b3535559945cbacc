// hopsim run: load a scenario, run it to its end time, write what it logged.

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/signals/error.h"

namespace hopsim::apps {

int runScenario(const RunOptions& options, std::ostream& out, std::ostream& err) {
  const auto wallStart = std::chrono::steady_clock::now();
  // The options are overrides of the simulation section, validated like the file.
  std::vector<std::string> overrides = options.overrides;
  const auto setting = [&overrides](const char* key, const auto& value) {
    if (!value) return;
    std::ostringstream text;
    text.precision(17);
    text << "simulation." << key << "=" << *value;
    overrides.push_back(text.str());
  };
  setting("end_time", options.end);
  setting("time_step", options.timeStep);
  setting("integrator", options.integrator);
  setting("rtol", options.rtol);
  setting("atol", options.atol);
  std::unique_ptr<Scenario> scenario = Scenario::load(options.file, overrides);
  for (const std::string& warning : scenario->warnings()) err << "hopsim: warning: " << warning << "\n";
  Simulation& sim = scenario->sim();
  sim.advanceTimeTo(scenario->endTime());
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();

  const std::optional<std::string> csv = options.out ? options.out : scenario->logFile();
  if (csv) {
    std::ofstream file(*csv);
    if (!file) throw InputError("cannot write '" + *csv + "'");
    scenario->recorder().writeCsv(file);
  } else if (scenario->recorder().rows() > 0 && options.csvToStdout) {
    scenario->recorder().writeCsv(out);
  }
  if (!options.quiet) {
    for (const EventLogEntry& e : scenario->eventLog()) {
      err << "t = " << e.time << " s  " << e.event << ": " << e.message << "\n";
    }
    err << "simulated " << sim.time() << " s in " << wall << " s wall time; " << sim.hopCount()
        << " hops, " << sim.propagationStatistics().derivativeEvaluations
        << " derivative evaluations";
    if (csv) err << "; wrote " << scenario->recorder().rows() << " samples to " << *csv;
    err << "\n";
  }
  return 0;
}

}  // namespace hopsim::apps
