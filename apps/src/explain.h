#pragma once
// The report `hopsim check --explain` prints: what a loaded scenario was lowered into.

#include <ostream>
#include <string>

#include "hopsim/assemblies/scenario.h"

namespace hopsim::apps {

/// "1 body, 3 models, 3 signals, 0 constraint equations": the size of a loaded scenario, for
/// the one-line summary of `hopsim check`.
std::string scenarioCounts(const Scenario& scenario);

/// "node tip", "hinge of crank", "subhinge 1 of arm", or "" for models outside the multibody
/// system (shared by `hopsim check --explain` and `hopsim graph`).
std::string modelAttachment(const Model& model);

/// Writes a readable, deterministic report of a loaded (so locked) scenario to `out`, in
/// sections: the simulation settings, the assembly tree, the bodies as a hinge tree with their
/// nodes, the constraints (cut joints and others) with their equation counts, the models in
/// calling order with their attachments and port ties and the breaks, and the signals.
/// Non-const because the simulation gives access to its models only through a mutable
/// reference; nothing is changed.
void explainScenario(Scenario& scenario, std::ostream& out);

}  // namespace hopsim::apps
