// The recording file of hopsim run: HDF5, or CSV with its sidecars and the scene beside it.

#include <cerrno>
#include <cstdio>

#include "hopsim/core/csv_sink.h"
#include "hopsim/core/output_file.h"
#include "hopsim/signals/error.h"
#include "hopsim/viewer/hdf5_recording.h"
#include "hopsim/viewer/replay_page.h"

namespace hopsim::viewer {

namespace {

/// A CsvSink that also stores the scene beside its file once it has begun.
class CsvWithScene final : public RecordingSink {
 public:
  CsvWithScene(const std::string& file, const std::string& scenarioFile, std::string sceneJson)
      : csv_(file, scenarioFile),
        scenePath_(sceneSidecarPath(file)),
        scene_(std::move(sceneJson)) {}

  void begin(const Recorder& recorder) override {
    csv_.begin(recorder);
    if (!scene_.empty()) {
      OutputFile::replace(scenePath_, scene_ + "\n");
    } else if (std::remove(scenePath_.c_str()) != 0 && errno != ENOENT) {
      // No scene: none of an earlier run may stay to be paired with this recording.
      throw InputError("cannot remove '" + scenePath_ + "', the scene of an earlier run");
    }
  }
  void write(const Recorder& recorder, std::size_t first, std::size_t end) override {
    csv_.write(recorder, first, end);
  }
  void finish(const Recorder& recorder, const RecordingEnd& end) override {
    csv_.finish(recorder, end);
  }
  std::string name() const override { return csv_.name(); }

 private:
  CsvSink csv_;
  std::string scenePath_;
  std::string scene_;
};

}  // namespace

std::unique_ptr<RecordingSink> recordingSink(const std::string& file,
                                             const std::string& scenarioFile,
                                             const std::string& sceneJson) {
  if (isHdf5Path(file)) return hdf5Sink(file, scenarioFile, sceneJson);
  return std::make_unique<CsvWithScene>(file, scenarioFile, sceneJson);
}

}  // namespace hopsim::viewer
