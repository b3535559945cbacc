#pragma once
/// @file
/// Recorder: samples numeric variables of the variable tree during a run, into memory and, as
/// it goes, into a file (a scenario's `logging`; CSV and HDF5 files, plots and tests).
#include <chrono>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/recording_sink.h"
#include "hopsim/core/simulation.h"

namespace hopsim {

/// Records numeric variables (bool, int and double scalars and vectors; a vector gives one
/// column per element, "path[i]") at fixed times.
///
/// Samples are taken at start + k / rate, exact to the tick, where start is the time recording
/// starts; without a rate, the rate is that of the default I/O step then, so that samples fall
/// at the end of every I/O step. Samples can also be taken right after chosen events fire, or
/// at the end of every hop (Triggers). A sampler takes them (Simulation::addSampler): those times
/// do not become barriers, so recording changes no result bit, a sample inside a hop sees the
/// interpolated state and what a derivative evaluation computes from it, and one at a barrier
/// sees the values after its events. The first sample is taken at the start of the next hop,
/// once every output has been computed. Samples read elements (Variable::element);
/// column buffers grow by amortized doubling, the only allocation a sample can make, and none
/// once reserve() has made room for the run. If variables are removed while unlocked, the next
/// sample takes them again by path (a removed one is an error).
///
/// Streaming (streamTo): the samples also go to a file while the run goes on, written whenever
/// a number of them is held or a wall time has passed; a recorder that does not keep them drops
/// them once written, so its memory does not grow with the run (docs/recording.md).
class Recorder {
 public:
  /// A column with a name of its own: element `element` of the variable at `path`.
  struct NamedColumn {
    std::string name;     ///< the column's name in the header ("bodies.crank.position.x")
    std::string path;     ///< a numeric variable's exact path
    std::size_t element;  ///< which element of it
  };

  /// When samples are taken. With none of the three, at the rate of the default I/O step.
  struct Triggers {
    std::optional<double> rate;       ///< Hz: at start + k / rate
    std::vector<std::string> events;  ///< event names or globs: right after each firing
    bool everyHop = false;            ///< at the start, then at the end of every hop

    /// Whether samples are taken at a fixed rate: with a rate, or with no trigger at all.
    bool periodic() const { return rate || (events.empty() && !everyHop); }
    /// The time between fixed-rate samples (s): 1 / rate, or without a rate the default I/O
    /// step of `sim` now. The one place of that rule, for the recorder's sampler and for
    /// whoever sizes a run's recording in advance (Scenario reserves its rows with it).
    double samplePeriod(const Simulation& sim) const;
  };

  /// An empty recorder (no columns, never samples).
  Recorder() = default;
  /// Records the variables matching `patterns` in `sim`: exact paths, or globs where `*`
  /// matches within one path segment and `**` across segments ("multibody.bodies.*.Q",
  /// "signals.**"). Call after lock(), so every variable exists.
  /// @throws InputError for a pattern that matches nothing (with suggestions), a non-numeric
  /// variable given by exact path, or a rate that is not finite and positive.
  Recorder(Simulation& sim, const std::vector<std::string>& patterns,
           std::optional<double> rate = std::nullopt);
  /// Records the `patterns` as above, then the `named` columns (after them, in order).
  /// @throws InputError as above, and for a named column whose variable does not exist, is not
  /// numeric, has no such element, or whose name is taken.
  Recorder(Simulation& sim, const std::vector<std::string>& patterns,
           const std::vector<NamedColumn>& named, std::optional<double> rate = std::nullopt);
  /// Records as above, sampling on `triggers` (they may be combined; rows stay in time order).
  /// @throws InputError as above, and for an event pattern that matches no event of `sim`
  /// (with suggestions): register the events before the recorder.
  Recorder(Simulation& sim, const std::vector<std::string>& patterns,
           const std::vector<NamedColumn>& named, const Triggers& triggers);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// How a recorder streams (streamTo).
  struct StreamOptions {
    /// Samples held before they are written; 0: as many as make kStreamValues values.
    std::size_t flushSamples = 0;
    /// Wall time, s, after which the samples held are written at the end of the next hop.
    double flushSeconds = 1.0;
    /// Keep every sample in memory too (times(), values()), as without streaming.
    bool keepSamples = false;
  };
  /// The values (samples x columns, time included) a streaming recorder holds by default
  /// before it writes them: 64 Ki, 512 KiB.
  static constexpr std::size_t kStreamValues = std::size_t{1} << 16;

  /// "time", then one name per column ("signals.x", "multibody.Q[3]").
  const std::vector<std::string>& columns() const { return columns_; }
  /// Units per column ("s" for time; "" when unknown).
  const std::vector<std::string>& units() const { return units_; }
  /// Samples taken since recording began.
  std::size_t rows() const { return dropped_ + times_.size(); }
  /// The times, s, of the samples held in memory: every sample taken, except for a recorder
  /// that streams without keeping them, which holds those not yet written (sample k of those
  /// is sample rows() - times().size() + k of the recording).
  const std::vector<double>& times() const { return times_; }
  /// Column `column` (1 = the first variable column), one value per sample held.
  const std::vector<double>& values(std::size_t column) const { return data_[column - 1]; }
  /// The variable path column `column` (1 = the first variable column) reads.
  const std::string& path(std::size_t column) const { return paths_[sources_[column - 1].path]; }
  /// The element of that variable it reads.
  std::size_t element(std::size_t column) const { return sources_[column - 1].element; }
  /// The variable column `column` (1 = the first variable column) reads, as it is now.
  const Variable& variable(std::size_t column) const;
  /// Makes room for `rows` samples in all, so that taking them allocates nothing.
  void reserve(std::size_t rows);
  /// The column of `name`. @throws InputError with suggestions.
  std::size_t column(std::string_view name) const;
  /// Writes a CSV file: a header of column names, then one row per sample held, numbers with
  /// 17 significant digits (round trips exactly).
  void writeCsv(std::ostream& out) const;
  /// Writes the CSV file `path` (created or truncated), every write checked.
  /// @throws InputError naming it when it cannot be written.
  void writeCsv(const std::string& path) const;

  /// Also samples right after the events matching `patterns` fire, besides the triggers it
  /// was made with. @throws InputError for a pattern that matches no event of the simulation
  /// (with suggestions); ModelError for a recorder made without a simulation.
  void sampleOnEvents(const std::vector<std::string>& patterns);

  /// Streams the samples to `sink` from now on: begins it (the held samples are written at
  /// once), then writes the samples held whenever options.flushSamples of them are, and at the
  /// end of the first hop after options.flushSeconds of wall time since the last write. Without
  /// options.keepSamples, written samples are dropped from memory, which then holds at most
  /// options.flushSamples. Writing allocates nothing once a write of that size has been made.
  /// @throws InputError when the sink cannot begin (nothing changes then), ModelError when the
  /// recorder streams already or has finished streaming.
  void streamTo(std::unique_ptr<RecordingSink> sink, const StreamOptions& options);
  /// Streams to `sink` with the default StreamOptions.
  void streamTo(std::unique_ptr<RecordingSink> sink);
  /// Writes the samples held and not yet written now. @throws InputError naming the file when
  /// the write fails (the samples stay held; streamFailed() is true).
  void flush();
  /// Ends streaming: writes the samples held, records how the recording ended (`status` and
  /// `reason` at the simulation's time) and closes the file; the recorder takes no more
  /// samples. A write that fails here makes the end "failed" with the write's message; the
  /// sink is finished all the same. @throws InputError naming the file for the first write
  /// that failed; ModelError when the recorder does not stream.
  void finishStream(RecordingEnd::Status status = RecordingEnd::Status::Completed,
                    std::string reason = "");
  /// Whether the recorder streams to a sink (from streamTo to finishStream).
  bool streaming() const { return sink_ != nullptr; }
  /// Whether a write to the sink has failed.
  bool streamFailed() const { return streamFailed_; }

 private:
  using Clock = std::chrono::steady_clock;
  void sample(double t);
  void dropWritten();
  void removeSamplers();
  void observeEvents();
  void resolveSources();
  void checkEventPatterns(const std::vector<std::string>& patterns) const;
  void addColumn(std::string name, const std::string& path, const Variable& v, std::size_t element);
  /// Where a column's values come from: element `element` of variable `paths_[path]`.
  /// Variables stay put while the structure is locked, which recording requires.
  struct Source {
    const Variable* variable;
    std::size_t path;
    std::size_t element;
  };
  Simulation* sim_ = nullptr;
  std::vector<SamplerId> samplers_;  // samplers and event observers; none for an empty recorder
  std::vector<std::string> eventPatterns_;
  bool observing_ = false;          // an event observer is among samplers_
  std::vector<std::string> paths_;  // each variable read once, to skip one matched twice
  std::vector<Source> sources_;     // one per column after time
  std::uint64_t revision_ = 0;      // of the variable tree when sources_ were taken
  std::vector<std::string> columns_;
  std::vector<std::string> units_;
  std::vector<double> times_;
  std::vector<std::vector<double>> data_;
  // Streaming: the sink, the samples held that it has (times_[0, written_)), the samples
  // written and dropped from memory, and when it was last written to.
  std::unique_ptr<RecordingSink> sink_;
  StreamOptions stream_;
  std::size_t written_ = 0;
  std::size_t dropped_ = 0;
  Clock::time_point lastWrite_;
  bool streamFailed_ = false;
  bool finished_ = false;
};

}  // namespace hopsim
