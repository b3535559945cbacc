// The replay page's recordings: the page recorder, CSV and HDF5 files read back exactly, the
// page's data, and the errors a recording the page cannot replay gives.

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "hopsim/viewer/hdf5_recording.h"
#include "hopsim/viewer/replay_page.h"
#include "temp_dir.h"

using namespace hopsim;

namespace {

const std::string kExamples = HOPSIM_SOURCE_DIR "/examples/";

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The slider-crank example run for 1 s with a page recorder at 20 Hz.
struct RecordedSliderCrank {
  std::unique_ptr<Scenario> scenario =
      Scenario::load(kExamples + "slider_crank.yaml", {"simulation.end_time=1"});
  std::unique_ptr<Recorder> page =
      viewer::replayRecorder(scenario->sim(), &scenario->recorder(), 20.0);
  RecordedSliderCrank() { scenario->run(); }
};

/// Every value of two tables, bit for bit.
void checkSameTable(const viewer::RecordingTable& a, const viewer::RecordingTable& b) {
  REQUIRE(a.time.size() == b.time.size());
  CHECK(std::memcmp(a.time.data(), b.time.data(), a.time.size() * sizeof(double)) == 0);
  REQUIRE(a.names.size() == b.names.size());
  for (std::size_t c = 0; c < a.names.size(); ++c) {
    const auto other = std::find(b.names.begin(), b.names.end(), a.names[c]);
    REQUIRE(other != b.names.end());
    const std::size_t k = static_cast<std::size_t>(other - b.names.begin());
    CAPTURE(a.names[c]);
    CHECK(a.units[c] == b.units[k]);
    CHECK(std::memcmp(a.columns[c].data(), b.columns[k].data(),
                      a.columns[c].size() * sizeof(double)) == 0);
  }
}

}  // namespace

TEST_CASE("the page recorder takes every body's pose and the logged columns, at its rate") {
  RecordedSliderCrank run;
  const viewer::RecordingTable table = viewer::recordingOf(*run.page);
  CHECK(table.time.size() == 21);  // 0, 0.05, ..., 1 s
  CHECK(table.time.back() == 1.0);
  const viewer::PoseColumns rod = viewer::multibodyPoseColumns("rod");
  for (const std::string& column :
       {rod.position[0], rod.orientation[3], std::string("bodies.rod.position.x")}) {
    CHECK(std::find(table.names.begin(), table.names.end(), column) != table.names.end());
  }
  // Its pose columns hold what the file's Chrono outputs hold (the same frame), at the times
  // both sampled: the file logs at 20 Hz too.
  const Recorder& logged = run.scenario->recorder();
  const auto x = [&](const Recorder& r, const std::string& c) { return r.values(r.column(c)); };
  CHECK(x(*run.page, rod.position[0]) == x(logged, "bodies.rod.position.x"));
}

TEST_CASE("recording a page does not change the run, bit for bit") {
  RecordedSliderCrank withPage;
  const auto alone = Scenario::load(kExamples + "slider_crank.yaml", {"simulation.end_time=1"});
  alone->run();
  for (const char* path : {"multibody.Q", "multibody.U"}) {
    CAPTURE(path);
    const auto a = std::get<std::vector<double>>(withPage.scenario->sim().variables().get(path));
    const auto b = std::get<std::vector<double>>(alone->sim().variables().get(path));
    REQUIRE(a.size() == b.size());
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
  }
  CHECK(withPage.scenario->sim().propagationStatistics().derivativeEvaluations ==
        alone->sim().propagationStatistics().derivativeEvaluations);
}

TEST_CASE("a CSV recording reads back exactly, with the units of its sidecar") {
  RecordedSliderCrank run;
  testing::TempDir dir;
  const std::string csv = dir.path() + "/run.csv";
  {
    std::ofstream out(csv);
    run.page->writeCsv(out);
  }
  std::string units = "{\n  \"time\": {\"unit\": \"s\"}";
  for (std::size_t c = 1; c < run.page->columns().size(); ++c) {
    units +=
        ",\n  \"" + run.page->columns()[c] + "\": {\"unit\": \"" + run.page->units()[c] + "\"}";
  }
  dir.write("run.units.json", units + "\n}\n");
  checkSameTable(viewer::readCsvRecording(csv), viewer::recordingOf(*run.page));
}

TEST_CASE("a CSV recording that is not one names the file, line and column") {
  testing::TempDir dir;
  CHECK_THROWS_WITH_AS(viewer::readCsvRecording(dir.write("a.csv", "t,x\n0,1\n")),
                       doctest::Contains("a.csv:1: the first column is 't'; expected 'time'"),
                       InputError);
  CHECK_THROWS_WITH_AS(viewer::readCsvRecording(dir.write("b.csv", "time,x\n0,1\n0.1,abc\n")),
                       doctest::Contains("b.csv:3: column 'x': 'abc' is not a number"), InputError);
  CHECK_THROWS_WITH_AS(viewer::readCsvRecording(dir.write("c.csv", "time,x\n0,1,2\n")),
                       doctest::Contains("c.csv:2: 3 values; expected 2"), InputError);
  CHECK_THROWS_WITH_AS(viewer::readCsvRecording(dir.path() + "/none.csv"),
                       doctest::Contains("none.csv': No such file or directory"), InputError);
  CHECK_THROWS_WITH_AS(viewer::readCsvRecording("/dev/zero"),
                       "cannot read '/dev/zero': not a regular file (a character device)",
                       InputError);
}

TEST_CASE("an HDF5 recording reads back exactly, with its units and its scene") {
  RecordedSliderCrank run;
  testing::TempDir dir;
  const std::string h5 = dir.path() + "/run.h5";
  viewer::writeHdf5(h5, *run.page, "slider_crank.yaml", "{\"title\":\"x\"}");
  std::string scene;
  checkSameTable(viewer::readHdf5Recording(h5, scene), viewer::recordingOf(*run.page));
  CHECK(scene == "{\"title\":\"x\"}");
  const viewer::RecordedRun recorded = viewer::readRecordedRun(h5);
  CHECK(recorded.sceneJson == scene);
  // Without a scene, it is not a run hopsim run wrote for the viewer.
  viewer::writeHdf5(h5, *run.page, "slider_crank.yaml", "");
  CHECK_THROWS_WITH_AS(viewer::readRecordedRun(h5), doctest::Contains("no viewer_scene attribute"),
                       InputError);
  CHECK_THROWS_WITH_AS(viewer::readHdf5Recording(dir.write("not.h5", "text"), scene),
                       doctest::Contains("not.h5"), InputError);
}

TEST_CASE("the page embeds the scene and every recorded value with 17 digits") {
  RecordedSliderCrank run;
  const viewer::Scene scene = viewer::sceneOf(
      run.scenario->sim(), &run.scenario->assemblies(),
      {kExamples + "slider_crank.yaml", run.page->columns(), {"bodies.slider.position.x"}});
  testing::TempDir dir;
  const std::string page = dir.path() + "/page.html";
  viewer::writeReplayPage(page, viewer::sceneJson(scene), viewer::recordingOf(*run.page));
  const std::string html = readText(page);
  CHECK(html.find("<!--HOPSIM_REPLAY_DATA-->") == std::string::npos);
  const std::size_t data = html.find("<script type=\"application/json\" id=\"hopsim-replay\">");
  REQUIRE(data != std::string::npos);
  CHECK(html.find("\"format\":\"hopsim-replay\",\"version\":1,\"title\":\"slider_crank.yaml\"",
                  data) != std::string::npos);
  // 0.05 s, the second sample, is not a binary fraction: 17 digits round-trip it.
  CHECK(html.find("\"time\":[0,0.050000000000000003,0.10000000000000001", data) !=
        std::string::npos);
  CHECK(html.find("\"plots\":[\"bodies.slider.position.x\"]", data) != std::string::npos);
  // The data ends before its </script>: no '<' inside it.
  const std::size_t end = html.find("</script>", data);
  CHECK(html.substr(data + 1, end - data - 1).find('<') == std::string::npos);
}

TEST_CASE("a page whose recording lacks what the scene needs is refused, saying what to record") {
  RecordedSliderCrank run;
  testing::TempDir dir;
  const std::string page = dir.path() + "/page.html";
  const auto sceneWith = [&](const std::vector<std::string>& columns,
                             const std::vector<std::string>& plots) {
    return viewer::sceneJson(
        viewer::sceneOf(run.scenario->sim(), &run.scenario->assemblies(), {"", columns, plots}));
  };
  const viewer::RecordingTable table = viewer::recordingOf(*run.page);
  CHECK_THROWS_WITH_AS(viewer::writeReplayPage(page, sceneWith({}, {}), table),
                       doctest::Contains("no pose of the bodies 'crank', 'slider', 'rod': record "
                                         "multibody.bodies.<body>.position"),
                       InputError);
  CHECK_THROWS_WITH_AS(
      viewer::writeReplayPage(page, sceneWith(run.page->columns(), {"signals.nothing"}), table),
      doctest::Contains("no column 'signals.nothing' (a plot)"), InputError);
  viewer::RecordingTable empty = table;
  empty.time.clear();
  CHECK_THROWS_WITH_AS(viewer::writeReplayPage(page, sceneWith(run.page->columns(), {}), empty),
                       doctest::Contains("no sample"), InputError);
  const std::string unwritable =
      "cannot write '" + dir.path() + "/no/such/dir/page.html': No such file or directory";
  CHECK_THROWS_WITH_AS(viewer::writeReplayPage(dir.path() + "/no/such/dir/page.html",
                                               sceneWith(run.page->columns(), {}), table),
                       unwritable.c_str(), InputError);
}

TEST_CASE("a recorded run is a CSV with its scene sidecar, or an HDF5 file, never a YAML file") {
  testing::TempDir dir;
  CHECK_THROWS_WITH_AS(viewer::readRecordedRun(kExamples + "slider_crank.yaml"),
                       doctest::Contains("--view page.html"), InputError);
  const std::string csv = dir.write("run.csv", "time,x\n0,1\n");
  CHECK_THROWS_WITH_AS(viewer::readRecordedRun(csv), doctest::Contains("run.scene.json"),
                       InputError);
  dir.write("run.scene.json", "{\"bodies\":[]}\n");
  const viewer::RecordedRun run = viewer::readRecordedRun(csv);
  CHECK(run.sceneJson == "{\"bodies\":[]}");
  CHECK(run.recording.names == std::vector<std::string>{"x"});
}
