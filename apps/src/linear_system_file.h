#pragma once
// Writing a LinearSystem to a file for `hopsim linearize`: NumPy's .npz, CSV or JSON, chosen by
// the file's extension (docs/linearization.md, "From the command line").

#include <string>

#include "hopsim/core/linearization.h"

namespace hopsim::apps {

/// @throws InputError unless `file` ends in .npz, .csv or .json.
void checkLinearSystemFile(const std::string& file);

/// Writes `system` to `file` (.npz, .csv or .json).
/// @throws InputError for another extension or a file that cannot be written.
void writeLinearSystem(const LinearSystem& system, const std::string& file);

}  // namespace hopsim::apps
