// Recorder streaming: the file holds what an in-memory recorder holds, written by count and by
// wall time, with memory bounded; the sidecars; failed writes (a full device, a file size
// limit, a sink that fails) and how a recording ends. OutputFile's checked writes.

#include <doctest/doctest.h>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/csv_sink.h"
#include "hopsim/core/output_file.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/version.h"
#include "hopsim/signals/error.h"
#include "temp_dir.h"

namespace hopsim {
namespace {

/// A locked simulation of MassSpring "ms" (x = cos t, its position on signal x), 10 ms I/O
/// steps.
std::unique_ptr<Simulation> makeSim() {
  auto sim = std::make_unique<Simulation>(SimulationOptions{.ioStepSize = 0.01});
  sim->addModel<test::MassSpring>("ms");
  sim->addSignal("x", ElementType::Double, 1, "m");
  sim->tie("ms", "position", "x");
  sim->lock();
  return sim;
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// What a MemorySink was given, kept by the test: the sink goes with finishStream.
struct MemoryLog {
  std::vector<double> times;
  bool failing = false;  ///< the sink's writes fail
  std::optional<RecordingEnd> end;
};

/// A sink that keeps what it is given in a MemoryLog, and fails its writes when told to.
struct MemorySink final : RecordingSink {
  explicit MemorySink(MemoryLog& into) : log(into) {}
  MemoryLog& log;
  void begin(const Recorder&) override {}
  void write(const Recorder& r, std::size_t first, std::size_t last) override {
    if (log.failing) throw InputError("cannot write 'memory': the disk is full");
    log.times.insert(log.times.end(), r.times().begin() + static_cast<std::ptrdiff_t>(first),
                     r.times().begin() + static_cast<std::ptrdiff_t>(last));
  }
  void finish(const Recorder&, const RecordingEnd& e) override { log.end = e; }
  std::string name() const override { return "'memory'"; }
};

const std::vector<std::string> kLogged{"models.ms.continuousStates.**"};

TEST_CASE("a streamed CSV is the CSV of a recorder that keeps its samples, in bounded memory") {
  auto sim = makeSim();
  testing::TempDir dir;
  const std::string csv = dir.path() + "/run.csv";
  Recorder kept(*sim, kLogged, 1000.0);
  Recorder streamed(*sim, kLogged, 1000.0);
  streamed.streamTo(std::make_unique<CsvSink>(csv, "mass_spring.yaml"), {.flushSamples = 7});
  std::size_t mostHeld = 0;
  sim->addSampler(
      1e-3, [&](Simulation&, double) { mostHeld = std::max(mostHeld, streamed.times().size()); });
  sim->advanceTimeTo(0.5);
  streamed.finishStream();
  CHECK(streamed.rows() == 501);
  CHECK(kept.rows() == 501);
  CHECK(mostHeld <= 7);
  CHECK(streamed.times().size() < 7);  // what the last write left: nothing is dropped unwritten
  std::ostringstream expected;
  kept.writeCsv(expected);
  CHECK(readText(csv) == expected.str());
  // Closed: no more samples.
  sim->advanceTimeTo(0.6);
  CHECK(streamed.rows() == 501);
}

TEST_CASE(
    "a streaming recorder writes what it holds at the end of a hop once the wall time passed") {
  auto sim = makeSim();
  Recorder r(*sim, kLogged, 1000.0);
  MemoryLog handed;
  r.streamTo(std::make_unique<MemorySink>(handed), {.flushSamples = 1000000, .flushSeconds = 0.0});
  sim->advanceTimeTo(0.1);
  // Before finishStream, every sample of every hop has gone to the sink (a CsvSink's own
  // thread writes them while the run goes on, so the file is checked after finishStream, in
  // the tests above).
  CHECK(handed.times.size() == 101);
  CHECK(r.times().empty());
  // Not before the time: a second hop's samples wait.
  Recorder slow(*sim, kLogged, 1000.0);
  MemoryLog log;
  slow.streamTo(std::make_unique<MemorySink>(log),
                {.flushSamples = 1000000, .flushSeconds = 3600.0});
  sim->advanceTimeTo(0.2);
  CHECK(log.times.empty());
  CHECK(slow.times().size() == 101);  // 0.1 s to 0.2 s
  slow.flush();
  CHECK(log.times.size() == 101);
  slow.finishStream();
}

TEST_CASE(
    "the CSV's sidecars: units with hopsim's version, and the status from running to its end") {
  auto sim = makeSim();
  testing::TempDir dir;
  const std::string csv = dir.path() + "/run.csv";
  Recorder r(*sim, kLogged, 100.0);
  r.streamTo(std::make_unique<CsvSink>(csv, "examples/mass_spring.yaml"));
  const std::string units = readText(dir.path() + "/run.units.json");
  CHECK(units.find("\"time\": {\"unit\": \"s\", \"description\": \"simulation time of the "
                   "sample\", \"hopsim_version\": \"" +
                   std::string(version()) + "\", \"hopsim_git_commit\": \"" +
                   std::string(gitCommit()) + "\"}") != std::string::npos);
  CHECK(units.find("\"models.ms.continuousStates.x\": {\"unit\": \"m\"") != std::string::npos);
  const std::string status = dir.path() + "/run.status.json";
  CHECK(readText(status).find("\"status\": \"running\",\n  \"samples\": 0,\n  \"scenario\": "
                              "\"mass_spring.yaml\"") != std::string::npos);
  sim->advanceTimeTo(0.25);
  r.finishStream(RecordingEnd::Status::Interrupted, "SIGINT");
  CHECK(readText(status).find("\"status\": \"interrupted\",\n  \"reason\": \"SIGINT\",\n  "
                              "\"stop_time\": 0.25,\n  \"samples\": 26,") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(status + ".tmp" + std::to_string(::getpid())));
}

TEST_CASE("a CSV that cannot be written is an error naming it, and nothing streams") {
  auto sim = makeSim();
  Recorder r(*sim, kLogged, 100.0);
  // A real full device: the open succeeds, the header's write does not.
  CHECK_THROWS_WITH_AS(r.streamTo(std::make_unique<CsvSink>("/dev/full", "")),
                       "cannot write '/dev/full': No space left on device", InputError);
  CHECK_FALSE(r.streaming());
  CHECK_THROWS_WITH_AS(r.streamTo(std::make_unique<CsvSink>("/nonexistent-dir/run.csv", "")),
                       "cannot write '/nonexistent-dir/run.csv': No such file or directory",
                       InputError);
  // A sidecar that cannot be written is the same error, naming it.
  testing::TempDir dir;
  std::filesystem::create_directory(dir.path() + "/run.units.json");
  const std::string sidecarError =
      "cannot write '" + dir.path() + "/run.units.json': Is a directory";
  CHECK_THROWS_WITH_AS(r.streamTo(std::make_unique<CsvSink>(dir.path() + "/run.csv", "")),
                       sidecarError.c_str(), InputError);
}

TEST_CASE("a failed write keeps the samples held, and the recording ends failed with its reason") {
  auto sim = makeSim();
  Recorder r(*sim, kLogged, 1000.0);
  MemoryLog log;
  r.streamTo(std::make_unique<MemorySink>(log), {.flushSamples = 10});
  sim->advanceTimeTo(0.0095);  // 10 samples: written
  CHECK(log.times.size() == 10);
  log.failing = true;
  CHECK_THROWS_WITH_AS(sim->advanceTimeTo(0.02), "cannot write 'memory': the disk is full",
                       InputError);
  CHECK(r.streamFailed());
  CHECK(r.times().size() == 10);  // held, not dropped
  // The cause gone, the samples held are written at the end.
  log.failing = false;
  r.finishStream(RecordingEnd::Status::Failed, "the disk was full");
  CHECK(log.times.size() == 20);
  REQUIRE(log.end);
  CHECK(log.end->status == RecordingEnd::Status::Failed);
  CHECK(log.end->reason == "the disk was full");
  // A write that fails at the end makes the end failed, with the write's message.
  Recorder again(*sim, kLogged, 1000.0);
  MemoryLog second;
  again.streamTo(std::make_unique<MemorySink>(second));
  sim->advanceTimeTo(0.03);
  second.failing = true;
  CHECK_THROWS_WITH_AS(again.finishStream(), "cannot write 'memory': the disk is full", InputError);
  REQUIRE(second.end);
  CHECK(second.end->status == RecordingEnd::Status::Failed);
  CHECK(second.end->reason == "cannot write 'memory': the disk is full");
  CHECK(second.end->time == doctest::Approx(0.03));
  CHECK_FALSE(again.streaming());
}

TEST_CASE("streamTo and finishStream refuse what they cannot do, and stop() stops") {
  auto sim = makeSim();
  Recorder r(*sim, kLogged, 100.0);
  MemoryLog log;
  CHECK_THROWS_AS(r.finishStream(), ModelError);
  r.streamTo(std::make_unique<MemorySink>(log));
  CHECK_THROWS_WITH_AS(r.streamTo(std::make_unique<MemorySink>(log)),
                       "streamTo: the recorder streams to 'memory' already", ModelError);
  r.finishStream();
  CHECK_THROWS_WITH_AS(r.streamTo(std::make_unique<MemorySink>(log)),
                       "streamTo: the recorder has stopped recording", ModelError);
  // stop() alone: no more samples, those held stay.
  Recorder stopped(*sim, kLogged, 100.0);
  sim->advanceTimeBy(0.02);
  stopped.stop();
  sim->advanceTimeBy(0.05);
  CHECK(stopped.rows() == 3);
  CHECK_THROWS_AS(stopped.streamTo(std::make_unique<MemorySink>(log)), ModelError);
}

TEST_CASE("sampleOnEvents adds samples at events to the periodic ones") {
  auto sim = makeSim();
  sim->registerTimedEvent("kick", 0.0255, [](Simulation&, double) {});
  Recorder r(*sim, kLogged, 100.0);
  r.sampleOnEvents({"ki*"});
  sim->advanceTimeTo(0.05);
  CHECK(r.times() == std::vector<double>{0, 0.01, 0.02, 0.0255, 0.03, 0.04, 0.05});
  CHECK_THROWS_WITH_AS(r.sampleOnEvents({"kik"}), doctest::Contains("'kik' matches no event"),
                       InputError);
  Recorder empty;
  CHECK_THROWS_AS(empty.sampleOnEvents({"kick"}), ModelError);
}

TEST_CASE("OutputFile: a write cut by a file size limit leaves the file as it was") {
  testing::TempDir dir;
  const std::string path = dir.path() + "/limited.txt";
  OutputFile file = OutputFile::create(path);
  // A real size limit (ulimit -f) of 100 bytes, with SIGXFSZ ignored so that the write fails.
  rlimit before{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &before) == 0);
  const auto previous = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = before;
  limited.rlim_cur = 100;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &limited) == 0);
  std::string error;
  file.write(std::string(60, 'a'));
  try {
    file.write(std::string(60, 'b'));  // 40 bytes fit, then EFBIG
  } catch (const InputError& e) {
    error = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, previous);
  CHECK(error == "cannot write '" + path + "': File too large (the file size limit, ulimit -f)");
  CHECK(std::filesystem::file_size(path) == 60);
  CHECK(file.size() == 60);
  // The next write goes on where the last whole one ended.
  file.write("c");
  file.close();
  CHECK(readText(path) == std::string(60, 'a') + "c");
}

TEST_CASE("OutputFile::replace swaps the whole file, or leaves the old one") {
  testing::TempDir dir;
  const std::string path = dir.write("status.json", "old\n");
  OutputFile::replace(path, "new\n");
  CHECK(readText(path) == "new\n");
  const std::string missing =
      "cannot write '" + dir.path() + "/missing/status.json': No such file or directory";
  CHECK_THROWS_WITH_AS(OutputFile::replace(dir.path() + "/missing/status.json", "x"),
                       missing.c_str(), InputError);
  std::filesystem::create_directory(dir.path() + "/taken");
  const std::string taken = "cannot write '" + dir.path() + "/taken': Is a directory";
  CHECK_THROWS_WITH_AS(OutputFile::replace(dir.path() + "/taken", "x"), taken.c_str(), InputError);
  // Nothing left behind by the failures.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++files;
  }
  CHECK(files == 2);
}

TEST_CASE("sidecarPath replaces a recording's extension") {
  CHECK(sidecarPath("run.csv", ".units.json") == "run.units.json");
  CHECK(sidecarPath("d/run.h5", ".scene.json") == "d/run.scene.json");
  CHECK(sidecarPath("run", ".status.json") == "run.status.json");
  CHECK(sidecarPath(".csv", ".units.json") == ".csv.units.json");
}

}  // namespace
}  // namespace hopsim
