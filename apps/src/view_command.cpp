// hopsim view: the replay page of a recorded run.

#include <filesystem>

#include "commands.h"
#include "hopsim/viewer/replay_page.h"

namespace hopsim::apps {

int viewRun(const ViewOptions& options, std::ostream& err) {
  const viewer::RecordedRun run = viewer::readRecordedRun(options.file);
  const std::string page = options.output.value_or(
      std::filesystem::path(options.file).replace_extension(".html").string());
  viewer::writeReplayPage(page, run.sceneJson, run.recording);
  err << "wrote " << page << ": " << run.recording.time.size()
      << " frames, t = " << run.recording.time.front() << " to " << run.recording.time.back()
      << " s\n";
  return 0;
}

}  // namespace hopsim::apps
