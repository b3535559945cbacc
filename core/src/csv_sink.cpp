#include "hopsim/core/csv_sink.h"

#include <exception>
#include <filesystem>

#include "hopsim/core/json_text.h"
#include "hopsim/core/number_text.h"
#include "hopsim/core/output_file.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/version.h"
#include "hopsim/signals/error.h"

namespace hopsim {

namespace {

/// `"key": "value"`, a member of a JSON object.
void appendMember(std::string& out, std::string_view key, std::string_view value) {
  json::appendString(out, key);
  out += ": ";
  json::appendString(out, value);
}

/// The units sidecar: one entry per CSV column, in column order, with its unit ("" when
/// unknown or dimensionless), its description and the variable (element) it reads; the time
/// entry names the program that wrote the file.
std::string unitsJson(const Recorder& recorder) {
  const std::vector<std::string>& columns = recorder.columns();
  if (columns.empty()) return "{}\n";  // nothing logged: an empty CSV, an empty object
  std::string json = "{\n  ";
  json::appendString(json, columns[0]);
  json += ": {";
  appendMember(json, "unit", "s");
  json += ", ";
  appendMember(json, "description", "simulation time of the sample");
  json += ", ";
  appendMember(json, "hopsim_version", version());
  json += ", ";
  appendMember(json, "hopsim_git_commit", gitCommit());
  json += "}";
  for (std::size_t c = 1; c < columns.size(); ++c) {
    const Variable& v = recorder.variable(c);
    std::string variable = recorder.path(c);
    if (v.length() > 1) variable += "[" + std::to_string(recorder.element(c)) + "]";
    json += ",\n  ";
    json::appendString(json, columns[c]);
    json += ": {";
    appendMember(json, "unit", recorder.units()[c]);
    json += ", ";
    appendMember(json, "description", v.description());
    json += ", ";
    appendMember(json, "variable", variable);
    json += "}";
  }
  return json + "\n}\n";
}

/// The CSV lines of `count` samples of `width` columns appended to `out`, one line each:
/// `column(c)` points at the first of the lines' values of column c (0 the time). The numbers
/// are written in place, in room made for the longest, which `out` keeps (its size is the
/// text's, its capacity grows to the largest block's room once).
template <class Column>
void appendLines(std::string& out, std::size_t count, std::size_t width, const Column& column) {
  const std::size_t start = out.size();
  out.resize(start + count * width * (kNumberTextMax + 1) + kNumberTextRoom);
  char* const first = out.data() + start;
  char* end = first;
  for (std::size_t r = 0; r < count; ++r) {
    for (std::size_t c = 0; c < width; ++c) {
      end = writeNumber(end, column(c)[r]);
      *end++ = ',';
    }
    end[-1] = '\n';  // the last comma
  }
  out.resize(start + static_cast<std::size_t>(end - first));
}

}  // namespace

std::string_view statusName(RecordingEnd::Status status) {
  switch (status) {
    case RecordingEnd::Status::Completed:
      return "completed";
    case RecordingEnd::Status::Interrupted:
      return "interrupted";
    case RecordingEnd::Status::Failed:
      return "failed";
  }
  return "failed";
}

std::string sidecarPath(const std::string& file, std::string_view suffix) {
  for (const std::string_view extension : {".csv", ".h5", ".hdf5"}) {
    if (file.size() > extension.size() && file.ends_with(extension)) {
      return file.substr(0, file.size() - extension.size()) + std::string(suffix);
    }
  }
  return file + std::string(suffix);
}

std::string csvHeader(const Recorder& recorder) {
  std::string header;
  for (const std::string& column : recorder.columns()) {
    if (!header.empty()) header += ',';
    header += column;
  }
  return header + "\n";
}

void appendCsvLines(std::string& out, const Recorder& recorder, std::size_t first,
                    std::size_t end) {
  appendLines(out, end - first, recorder.columns().size(), [&](std::size_t c) {
    return (c == 0 ? recorder.times() : recorder.values(c)).data() + first;
  });
}

CsvSink::CsvSink(std::string path, std::string scenario)
    : path_(std::move(path)), scenario_(std::move(scenario)) {}

CsvSink::~CsvSink() = default;

std::unique_ptr<CsvSink> CsvSink::toStandardOutput() {
  return std::unique_ptr<CsvSink>(new CsvSink());
}

std::string CsvSink::name() const { return path_ ? "'" + *path_ + "'" : "stdout"; }

void CsvSink::begin(const Recorder& recorder) {
  file_ = path_ ? OutputFile::create(*path_) : OutputFile::standardOutput();
  file_->write(csvHeader(recorder));
  if (path_) {
    OutputFile::replace(sidecarPath(*path_, ".units.json"), unitsJson(recorder));
    writeStatus("running", nullptr);
  }
  // One write of the file per block, so that a failed one leaves it as it was: whole lines.
  writer_ = std::make_unique<BlockWriter>(
      [this](const double* columns, std::size_t count, std::size_t width) {
        text_.clear();
        appendLines(text_, count, width, [&](std::size_t c) { return columns + c * count; });
        file_->write(text_);
      },
      true);
}

void CsvSink::write(const Recorder& recorder, std::size_t first, std::size_t end) {
  writer_->write(recorder, first, end);
}

void CsvSink::finish(const Recorder&, const RecordingEnd& end) {
  const std::unique_ptr<BlockWriter> writer = std::move(writer_);
  RecordingEnd ended = end;
  std::exception_ptr failure;
  try {
    writer->close();
    file_->close();
  } catch (const Error& e) {
    failure = std::current_exception();
    ended.status = RecordingEnd::Status::Failed;
    ended.reason = e.what();
  }
  samples_ = writer->samples();
  try {
    if (path_) writeStatus(statusName(ended.status), &ended);
  } catch (const Error&) {
    if (!failure) throw;  // else the write that failed first is the one to report
  }
  if (failure) std::rethrow_exception(failure);
}

void CsvSink::writeStatus(std::string_view status, const RecordingEnd* end) const {
  std::string json = "{\n  ";
  appendMember(json, "status", status);
  if (end != nullptr) {
    json += ",\n  ";
    appendMember(json, "reason", end->reason);
    json += ",\n  \"stop_time\": ";
    json::appendNumber(json, end->time);
  }
  json += ",\n  \"samples\": " + std::to_string(samples_) + ",\n  ";
  appendMember(json, "scenario", std::filesystem::path(scenario_).filename().string());
  json += ",\n  ";
  appendMember(json, "hopsim_version", version());
  json += ",\n  ";
  appendMember(json, "hopsim_git_commit", gitCommit());
  json += "\n}\n";
  OutputFile::replace(sidecarPath(*path_, ".status.json"), json);
}

}  // namespace hopsim
