#pragma once
/// @file
/// HDF5 recordings: what `hopsim run --out F.h5` writes, and reading it back for the viewer.

#include <string>

#include "hopsim/viewer/replay_page.h"

namespace hopsim {
class Recorder;
class Simulation;
}  // namespace hopsim

namespace hopsim::viewer {

/// Whether `file` names an HDF5 file: it ends in ".h5" or ".hdf5" (any case).
bool isHdf5Path(const std::string& file);

/// Writes what `recorder` logged in `sim` to the HDF5 file `file` (created or truncated), in
/// the layout docs/scenario-yaml.md "The HDF5 file" documents:
/// - root attributes `hopsim_version`, `scenario` (the file name of `scenarioFile`) and, when
///   `sceneJson` is not empty, `viewer_scene` (the scene a replay page draws, docs/viewer.md);
/// - `/time`: float64, one value per sample, attributes `unit` "s" and `description`;
/// - one float64 dataset per logged variable, named by its path with a group per dot
///   (`signals.stop_torque` -> `/signals/stop_torque`): 1-D (samples) for a scalar, 2-D
///   (samples x elements) for a vector; attributes `unit`, `description`, `path`, and
///   `columns` / `elements` (the CSV column names and the variable elements, in the order of
///   the dataset's columns).
/// Strings are variable-length UTF-8 (h5py reads them as str).
/// @throws InputError naming `file` when it cannot be created or written.
void writeHdf5(const std::string& file, const Simulation& sim, const Recorder& recorder,
               const std::string& scenarioFile, const std::string& sceneJson);

}  // namespace hopsim::viewer
