// Writing the replay page, and the recordings it replays.

#include "hopsim/viewer/replay_page.h"

#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>

#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/core/csv_sink.h"
#include "hopsim/core/output_file.h"
#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/input_file.h"
#include "json_writer.h"
#include "replay_template.h"

namespace hopsim::viewer {

namespace {

constexpr std::string_view kDataMarker = "<!--HOPSIM_REPLAY_DATA-->";

/// The comma-separated fields of `line`.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    out.push_back(line.substr(start, comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

/// The units of a units sidecar ({"column": {"unit": "m", ...}, ...}), by column.
void readUnits(const std::string& sidecar, RecordingTable& table) {
  const InputNode units = loadYamlFile(sidecar);
  for (std::size_t c = 0; c < table.names.size(); ++c) {
    const InputNode* entry = units.isMapping() ? units.find(table.names[c]) : nullptr;
    const InputNode* unit = entry != nullptr && entry->isMapping() ? entry->find("unit") : nullptr;
    if (unit != nullptr && unit->isScalar()) {
      if (const auto* text = std::get_if<std::string>(&unit->scalar())) table.units[c] = *text;
    }
  }
}

/// The `status` of a CSV recording's status sidecar ("running", "completed", ...); "" when it
/// has none.
std::string recordingStatus(const std::string& csv) {
  const std::string sidecar = sidecarPath(csv, ".status.json");
  if (!std::filesystem::exists(sidecar)) return "";
  const InputNode status = loadYamlFile(sidecar);
  const InputNode* value = status.isMapping() ? status.find("status") : nullptr;
  const auto* text =
      value != nullptr && value->isScalar() ? std::get_if<std::string>(&value->scalar()) : nullptr;
  return text != nullptr ? *text : "";
}

/// The texts of a sequence of strings (none when `node` is not one).
std::vector<std::string> texts(const InputNode* node) {
  std::vector<std::string> out;
  if (node == nullptr || !node->isSequence()) return out;
  for (const InputNode& item : node->items()) {
    if (const auto* text = item.isScalar() ? std::get_if<std::string>(&item.scalar()) : nullptr)
      out.push_back(*text);
  }
  return out;
}

/// Checks that the scene can be replayed from `recording`: every moving body has pose columns
/// and every column the scene names is recorded.
void checkReplayable(const InputNode& scene, const RecordingTable& recording) {
  const std::set<std::string> recorded(recording.names.begin(), recording.names.end());
  std::string unposed;
  std::vector<std::pair<std::string, std::string>> missing;  // column, what it is for
  const auto require = [&](const InputNode* columns, const std::string& what) {
    for (const std::string& c : texts(columns)) {
      if (!recorded.contains(c)) missing.emplace_back(c, what);
    }
  };
  const InputNode* bodies = scene.find("bodies");
  for (const InputNode& body :
       bodies != nullptr && bodies->isSequence() ? bodies->items() : std::vector<InputNode>{}) {
    const InputNode* name = body.find("name");
    const std::string bodyName =
        name != nullptr && name->isScalar() ? std::get<std::string>(name->scalar()) : "?";
    if (const InputNode* pose = body.find("pose")) {
      require(pose->find("position"), "the position of body '" + bodyName + "'");
      require(pose->find("orientation"), "the orientation of body '" + bodyName + "'");
    } else if (body.find("fixedPose") == nullptr) {
      unposed += (unposed.empty() ? "'" : ", '") + bodyName + "'";
    }
  }
  if (!unposed.empty()) {
    throw InputError("the recording has no pose of the bodies " + unposed +
                     ": record multibody.bodies.<body>.position and .orientation (hopsim run "
                     "--log 'multibody.bodies.**'), or run with --view, which records them");
  }
  if (const InputNode* arrows = scene.find("arrows"); arrows != nullptr && arrows->isSequence()) {
    for (const InputNode& arrow : arrows->items()) {
      require(arrow.find("point"), "a contact point");
      require(arrow.find("vector"), "a contact force");
    }
  }
  require(scene.find("plots"), "a plot");
  if (!missing.empty()) {
    throw InputError("the recording has no column '" + missing.front().first + "' (" +
                     missing.front().second + ")" +
                     (missing.size() > 1
                          ? " and " + std::to_string(missing.size() - 1) + " more the scene names"
                          : std::string()));
  }
}

}  // namespace

std::string replayTemplate() {
  std::string page;
  for (std::size_t i = 0; i < kReplayTemplateChunkCount; ++i) page += kReplayTemplateChunks[i];
  return page;
}

RecordingTable recordingOf(const Recorder& recorder) {
  RecordingTable table;
  table.time = recorder.times();
  const auto& columns = recorder.columns();
  for (std::size_t c = 1; c < columns.size(); ++c) {
    table.names.push_back(columns[c]);
    table.columns.push_back(recorder.values(c));
    table.units.push_back(recorder.units()[c]);
  }
  return table;
}

RecordingTable readCsvRecording(const std::string& path) {
  // A recording may be larger than an input file: it is streamed, but only from a regular file.
  requireRegularFile(path);
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the recording");
  std::string line;
  if (!std::getline(in, line)) throw InputError(path + ": empty file; expected a CSV header");
  const std::string headerLine = line;
  const std::vector<std::string_view> header = fields(headerLine);
  if (header.front() != "time") {
    throw InputError(path + ":1: the first column is '" + std::string(header.front()) +
                     "'; expected 'time' (a CSV written by hopsim run)");
  }
  RecordingTable table;
  table.names.assign(header.begin() + 1, header.end());
  table.columns.resize(table.names.size());
  table.units.assign(table.names.size(), "");
  // A writer that was killed (its status sidecar still says "running") may have left half a
  // line at the end: the samples are the whole lines.
  const bool running = recordingStatus(path) == "running";
  for (std::size_t row = 2; std::getline(in, line); ++row) {
    if (running && in.eof()) break;
    if (line.empty()) continue;
    const std::vector<std::string_view> values = fields(line);
    if (values.size() != header.size()) {
      throw InputError(path + ":" + std::to_string(row) + ": " + std::to_string(values.size()) +
                       " values; expected " + std::to_string(header.size()) + " (the header's)");
    }
    for (std::size_t c = 0; c < values.size(); ++c) {
      double value = 0.0;
      const std::string_view text = values[c];
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || end != text.data() + text.size()) {
        throw InputError(path + ":" + std::to_string(row) + ": column '" + std::string(header[c]) +
                         "': '" + std::string(text) + "' is not a number");
      }
      (c == 0 ? table.time : table.columns[c - 1]).push_back(value);
    }
  }
  const std::string units = sidecarPath(path, ".units.json");
  if (std::filesystem::exists(units)) readUnits(units, table);
  return table;
}

std::string sceneSidecarPath(const std::string& recording) {
  return sidecarPath(recording, ".scene.json");
}

void writeReplayPage(const std::string& path, const std::string& sceneJson,
                     const RecordingTable& recording) {
  if (recording.time.empty()) {
    throw InputError("the recording has no sample: nothing to replay in '" + path + "'");
  }
  if (sceneJson.size() < 2 || sceneJson.front() != '{' || sceneJson.back() != '}') {
    throw InputError("the scene of '" + path + "' is not a JSON object");
  }
  checkReplayable(parseYaml(sceneJson, "the scene"), recording);
  // The data: the scene's members, then the recording.
  std::string data = "{\"format\":\"hopsim-replay\",\"version\":1,";
  data.append(sceneJson, 1, sceneJson.size() - 2);
  data += ",\"recording\":{\"time\":";
  json::appendNumbers(data, recording.time);
  data += ",\"columns\":{";
  for (std::size_t c = 0; c < recording.names.size(); ++c) {
    if (c > 0) data += ',';
    json::appendString(data, recording.names[c]);
    data += ':';
    json::appendNumbers(data, recording.columns[c]);
  }
  data += "},\"units\":{";
  for (std::size_t c = 0; c < recording.names.size(); ++c) {
    if (c > 0) data += ',';
    json::appendString(data, recording.names[c]);
    data += ':';
    json::appendString(data, recording.units[c]);
  }
  data += "}}}";

  std::string page = replayTemplate();
  const std::size_t marker = page.find(kDataMarker);
  page.replace(marker, kDataMarker.size(),
               "<script type=\"application/json\" id=\"hopsim-replay\">" + data + "</script>");
  OutputFile::replace(path, page);
}

RecordedRun readRecordedRun(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".yaml" || extension == ".yml") {
    throw InputError(path +
                     ": a YAML file, not a recording; to run it and view the run: "
                     "hopsim run " +
                     path + " --view page.html");
  }
  RecordedRun run;
  if (extension == ".h5" || extension == ".hdf5") {
    run.recording = readHdf5Recording(path, run.sceneJson);
    if (run.sceneJson.empty()) {
      throw InputError(path +
                       ": no viewer_scene attribute: the recording was not written by "
                       "hopsim run (run its file with --view page.html)");
    }
    return run;
  }
  run.recording = readCsvRecording(path);
  const std::string sidecar = sceneSidecarPath(path);
  std::error_code ignored;
  if (!std::filesystem::exists(sidecar, ignored)) {
    throw InputError(path + ": no scene beside it ('" + sidecar +
                     "'): the recording was not "
                     "written by hopsim run (run its file with --view page.html)");
  }
  run.sceneJson = readInputFile(sidecar);
  while (!run.sceneJson.empty() && std::isspace(static_cast<unsigned char>(run.sceneJson.back())))
    run.sceneJson.pop_back();
  return run;
}

}  // namespace hopsim::viewer
