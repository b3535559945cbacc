#pragma once
/// @file
/// RecordingSink: where a Recorder streams its samples while the run goes on (a CSV file in
/// core, an HDF5 file in the viewer library), and RecordingEnd, how a recording ended.
#include <cstddef>
#include <string>
#include <string_view>

namespace hopsim {

class Recorder;

/// How a recording ended, as its file's metadata records it (docs/recording.md).
struct RecordingEnd {
  enum class Status {
    Completed,    ///< the run reached its end, or the recorder was closed
    Interrupted,  ///< a signal (SIGINT, SIGTERM) stopped the run
    Failed,       ///< an error stopped the run
  };
  Status status = Status::Completed;
  double time = 0.0;   ///< the simulation time when it ended, s
  std::string reason;  ///< what ended it early: the signal's name, the error's message
};

/// "completed", "interrupted" or "failed"; a recording not yet ended is "running".
std::string_view statusName(RecordingEnd::Status status);

/// A file a Recorder writes its samples to as it takes them (Recorder::streamTo): begin() once,
/// write() at every flush, finish() once at the end. What a write has put in the file survives
/// the process being killed (SIGKILL). Every call throws an InputError naming the file when it
/// cannot be written.
class RecordingSink {
 public:
  virtual ~RecordingSink() = default;
  /// Creates the file for the recorder's columns (its header, its layout, "running").
  virtual void begin(const Recorder& recorder) = 0;
  /// Appends samples [first, end) of those the recorder holds (Recorder::times(), values()),
  /// which it may change once the call returns. A sink may finish the write in a thread of its
  /// own (BlockWriter; CsvSink does, hdf5Sink when asked): a failure is then thrown by the next
  /// write() or by finish().
  virtual void write(const Recorder& recorder, std::size_t first, std::size_t end) = 0;
  /// Completes every write, records how the recording ended and closes the file. A write that
  /// failed in the background ends it "failed", with the write's message, and is thrown.
  virtual void finish(const Recorder& recorder, const RecordingEnd& end) = 0;
  /// The file as messages name it ("'run.csv'", "stdout").
  virtual std::string name() const = 0;
};

}  // namespace hopsim
