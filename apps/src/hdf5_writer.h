#pragma once
// HDF5 output of `hopsim run --out F.h5`.

#include <string>

namespace hopsim {
class Recorder;
class Simulation;
}  // namespace hopsim

namespace hopsim::apps {

/// Whether `file` names an HDF5 file: it ends in ".h5" or ".hdf5" (any case).
bool isHdf5Path(const std::string& file);

/// Writes what `recorder` logged in `sim` to the HDF5 file `file` (created or truncated), in
/// the layout docs/scenario-yaml.md "The HDF5 file" documents:
/// - root attributes `hopsim_version` and `scenario` (the file name of `scenarioFile`);
/// - `/time`: float64, one value per sample, attributes `unit` "s" and `description`;
/// - one float64 dataset per logged variable, named by its path with a group per dot
///   (`signals.stop_torque` -> `/signals/stop_torque`): 1-D (samples) for a scalar, 2-D
///   (samples x elements) for a vector; attributes `unit`, `description`, `path`, and
///   `columns` / `elements` (the CSV column names and the variable elements, in the order of
///   the dataset's columns).
/// Strings are variable-length UTF-8 (h5py reads them as str).
/// @throws InputError naming `file` when it cannot be created or written.
void writeHdf5(const std::string& file, const Simulation& sim, const Recorder& recorder,
               const std::string& scenarioFile);

}  // namespace hopsim::apps
