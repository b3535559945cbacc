// hopsim linearize: loads a scenario, runs it to the operating time, and writes the linear model
// there (docs/linearization.md, "From the command line").

#include <algorithm>
#include <ostream>

#include "commands.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/signals/error.h"
#include "linear_system_file.h"

namespace hopsim::apps {

int linearizeScenario(const LinearizeOptions& options, std::ostream& out, std::ostream& err) {
  checkLinearSystemFile(options.output);
  const LinearizationOptions how{differenceSchemeFromString(options.scheme), 1e-8, 0.0, 0.0,
                                 options.sampled ? DiscreteRule::SampledData : DiscreteRule::Hold};
  std::unique_ptr<Scenario> scenario = Scenario::load(options.file, options.overrides);
  for (const std::string& warning : scenario->warnings()) {
    err << "hopsim: warning: " << warning << "\n";
  }
  Simulation& sim = scenario->sim();
  if (options.at) sim.advanceTimeTo(*options.at);
  const LinearSystem system = sim.linearize({options.states, options.inputs, options.outputs, how});
  writeLinearSystem(system, options.output);
  const auto largest = [](const Eigen::VectorXd& v) { return v.size() > 0 ? v.maxCoeff() : 0.0; };
  out << "wrote " << options.output << ": " << system.A.rows() << " states, " << system.B.cols()
      << " inputs, " << system.C.rows() << " outputs at t = " << formatNumber(system.time) << " s ("
      << toString(system.scheme) << "; largest estimated column error "
      << formatNumber(std::max(largest(system.stateColumnError), largest(system.inputColumnError)))
      << ")\n";
  return 0;
}

}  // namespace hopsim::apps
