#pragma once
/// @file
/// CsvSink: a recording streamed as CSV, to a file with its sidecars or to the standard output
/// (docs/scenario-yaml.md, "The CSV file"; docs/recording.md, "Streaming").
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "hopsim/core/recording_sink.h"

namespace hopsim {

/// Writes a recorder's samples as CSV while it records: a header of column names, then one
/// line per sample, numbers with 17 significant digits (they read back exactly). write()
/// copies the samples and hands them to a thread of the sink's own, which turns them into
/// text and writes them while the run goes on; the next write() waits for it. Every write of
/// the file holds whole lines and is checked; one that fails leaves the file as it was, and
/// its error is thrown by the next write() or by finish().
///
/// A file `F.csv` gets two sidecars beside it (sidecarPath):
/// - `F.units.json`, written at begin(): one entry per column, {unit, description, variable};
///   the `time` entry also holds `hopsim_version` and `hopsim_git_commit`;
/// - `F.status.json`, replaced whole at begin() and at finish(): the recording's `status`
///   ("running" until finish(), then statusName()), `reason`, `stop_time` (s), `samples`,
///   `scenario`, `hopsim_version` and `hopsim_git_commit`.
/// The standard output gets the CSV alone.
class CsvSink final : public RecordingSink {
 public:
  /// To the file `path`, created or truncated at begin(); `scenario` names the run's file in
  /// the status sidecar ("" when there is none).
  CsvSink(std::string path, std::string scenario);
  /// To the standard output, the CSV alone.
  static std::unique_ptr<CsvSink> toStandardOutput();
  ~CsvSink() override;

  void begin(const Recorder& recorder) override;
  void write(const Recorder& recorder, std::size_t first, std::size_t end) override;
  void finish(const Recorder& recorder, const RecordingEnd& end) override;
  std::string name() const override;

 private:
  class Writer;
  CsvSink() = default;
  void writeStatus(std::string_view status, const RecordingEnd* end) const;

  std::optional<std::string> path_;  // none: the standard output
  std::string scenario_;
  std::unique_ptr<Writer> writer_;  // from begin() on
  std::size_t samples_ = 0;         // in the file
};

/// The CSV text of samples [first, end) of what `recorder` holds, appended to `out`: one line
/// each, as CsvSink and Recorder::writeCsv write them.
void appendCsvLines(std::string& out, const Recorder& recorder, std::size_t first, std::size_t end);
/// The CSV header line of `recorder`'s columns ("\n" alone when it has none).
std::string csvHeader(const Recorder& recorder);

/// The file beside the recording `file` that ends in `suffix`: ("run.csv", ".units.json") ->
/// "run.units.json". The extension .csv, .h5 or .hdf5 is replaced; any other name is kept
/// whole ("run" -> "run.units.json").
std::string sidecarPath(const std::string& file, std::string_view suffix);

}  // namespace hopsim
