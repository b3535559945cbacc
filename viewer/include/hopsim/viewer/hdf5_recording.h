#pragma once
/// @file
/// HDF5 recordings: what `hopsim run --out F.h5` writes, and reading it back for the viewer.

#include <memory>
#include <string>

#include "hopsim/core/recording_sink.h"
#include "hopsim/viewer/replay_page.h"

namespace hopsim {
class Recorder;
}  // namespace hopsim

namespace hopsim::viewer {

/// Whether `file` names an HDF5 file: it ends in ".h5" or ".hdf5" (any case).
bool isHdf5Path(const std::string& file);

/// A sink that streams a recording into the HDF5 file `file`, created or truncated at begin()
/// (Recorder::streamTo), in the layout docs/scenario-yaml.md "The HDF5 file" documents:
/// - root attributes `hopsim_version`, `hopsim_git_commit`, `scenario` (the file name of
///   `scenarioFile`, when not empty), `viewer_scene` (when `sceneJson` is not empty: the scene
///   a replay page draws, docs/viewer.md) and `status`: "running" until finish(), which sets it
///   (statusName) and adds `reason` (string), `stop_time` (float64, s) and `samples` (int64);
/// - `/time`: float64, one value per sample, attributes `unit` "s" and `description`;
/// - one float64 dataset per logged variable, named by its path with a group per dot
///   (`signals.stop_torque` -> `/signals/stop_torque`): 1-D (samples) for a scalar, 2-D
///   (samples x elements) for a vector; attributes `unit`, `description`, `path`, and
///   `columns` / `elements` (the CSV column names and the variable elements, in the order of
///   the dataset's columns).
/// Strings are variable-length UTF-8 (h5py reads them as str). The datasets are chunked and
/// grow at every write, which ends with a flush; the file is written in SWMR mode (the latest
/// file format), so that after any write a reader, and the file after the process is killed,
/// sees every sample written (h5py.File(file, "r", swmr=True) opens a killed writer's file).
/// /time is written last: a dataset may hold more rows than it while the file is "running".
/// Every failure throws an InputError naming `file`; after a failed write the file takes no
/// more.
std::unique_ptr<RecordingSink> hdf5Sink(const std::string& file, const std::string& scenarioFile,
                                        const std::string& sceneJson);

/// For a program that closes every HDF5 file it opens, as hopsim run does: the HDF5 library
/// then installs no exit handler. That handler crashes HDF5 1.10 on a file a failed write left
/// unflushable, which a file size limit (ulimit -f) can do. Only before any other use of the
/// library; later it does nothing.
void skipHdf5Termination();

/// Writes the samples `recorder` holds to the HDF5 file `file` at once, as hdf5Sink streams
/// them, ended by `end`. @throws InputError naming `file` when it cannot be written.
void writeHdf5(const std::string& file, const Recorder& recorder, const std::string& scenarioFile,
               const std::string& sceneJson, const RecordingEnd& end = {});

}  // namespace hopsim::viewer
