// hopsim check: load, validate and lock a YAML file without running it.

#include <ostream>

#include "commands.h"
#include "explain.h"
#include "hopsim/assemblies/scenario.h"

namespace hopsim::apps {

int checkScenario(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  // Scenario::load locks the simulation, so every structural check (ties, lengths, params,
  // algebraic loops, attachments, constraints) has run once it returns.
  std::unique_ptr<Scenario> scenario = Scenario::load(options.file, options.overrides);
  for (const std::string& warning : scenario->warnings()) {
    err << "hopsim: warning: " << warning << "\n";
  }
  if (options.explain) {
    explainScenario(*scenario, out);
    out << "\n";
  }
  out << options.file << ": ok (" << scenarioCounts(*scenario) << ")\n";
  return 0;
}

}  // namespace hopsim::apps
