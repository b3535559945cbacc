#pragma once
// Writing model files for the lowering tests and reading what a run produced.

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/variable_tree.h"
#include "temp_dir.h"

namespace hopsim::testing {


/// Element i of the numeric variable at `path`.
inline double element(const Simulation& sim, const std::string& path, std::size_t i) {
  return sim.variables().at(path).element(i);
}

}  // namespace hopsim::testing
