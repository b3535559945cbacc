#pragma once
/// @file
/// The replay page: one self-contained HTML file (three.js and the viewer inlined, the data
/// embedded) that replays a recorded run in a browser, offline (docs/viewer.md).

#include <memory>
#include <string>
#include <vector>

#include "hopsim/core/recording_sink.h"
#include "hopsim/viewer/scene.h"

namespace hopsim {
class Recorder;
class Simulation;
}  // namespace hopsim

namespace hopsim::viewer {

/// A recording as the page replays it: the sample times and named columns of values.
struct RecordingTable {
  std::vector<double> time;
  std::vector<std::string> names;            ///< without "time"
  std::vector<std::vector<double>> columns;  ///< one per name, each as long as time
  std::vector<std::string> units;            ///< one per name, "" when unknown
};

/// What `recorder` has recorded.
RecordingTable recordingOf(const Recorder& recorder);

/// Reads a CSV file as Recorder::writeCsv writes it (a header starting with "time", then rows
/// of numbers), with the units of its sidecar ("run.csv" -> "run.units.json") when there is
/// one. @throws InputError naming the file and line for a file that cannot be read, a row of
/// the wrong length or a value that is not a number.
RecordingTable readCsvRecording(const std::string& path);

/// The file beside a recording that holds its scene: "run.csv" -> "run.scene.json".
std::string sceneSidecarPath(const std::string& recording);

/// The scene as a JSON object (the page's data without the recording).
std::string sceneJson(const Scene& scene);

/// A recorder of what a replay page needs, at `rate` Hz: every body's pose, the contact
/// points and forces of the SmoothContact models, and the columns `logged` records (for the
/// plots) under their own names; `logged` may be null. Call after lock().
std::unique_ptr<Recorder> replayRecorder(Simulation& sim, const Recorder* logged, double rate);

/// Writes the page to `path`: the template with the data (`sceneJson` and the recording)
/// embedded. @throws InputError when the recording has no sample, a moving body of the scene
/// has no pose columns, a column the scene names is not recorded (naming them and what to
/// record), or the file cannot be written.
void writeReplayPage(const std::string& path, const std::string& sceneJson,
                     const RecordingTable& recording);

/// The sink of the recording file `file` as hopsim run writes it (Recorder::streamTo): HDF5
/// for a name ending in .h5 or .hdf5 (hdf5Sink, the scene in its `viewer_scene` attribute),
/// else CSV with its sidecars (CsvSink) and the scene sidecar (sceneSidecarPath) holding
/// `sceneJson`; without a scene, an earlier run's scene sidecar is removed, so that it is never
/// paired with this recording. `scenarioFile` is the run's file ("" for none).
std::unique_ptr<RecordingSink> recordingSink(const std::string& file,
                                             const std::string& scenarioFile,
                                             const std::string& sceneJson);

/// A run as hopsim run writes it: its recording and the scene stored with it.
struct RecordedRun {
  RecordingTable recording;
  std::string sceneJson;
};

/// Reads a recording written by hopsim run: a CSV file with its units and scene sidecars
/// ("run.csv", "run.units.json", "run.scene.json"), or an HDF5 file (.h5, .hdf5) with its
/// `viewer_scene` attribute. @throws InputError naming the file for one that cannot be read
/// and when the scene is missing (a recording not written by hopsim run).
RecordedRun readRecordedRun(const std::string& path);

/// Reads the datasets of an HDF5 file written by hopsim run (docs/scenario-yaml.md, "The HDF5
/// file") as a table, and its `viewer_scene` attribute into `sceneJson` ("" without one).
/// @throws InputError naming the file for one that cannot be read.
RecordingTable readHdf5Recording(const std::string& path, std::string& sceneJson);

}  // namespace hopsim::viewer
