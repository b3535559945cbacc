#pragma once
/// @file
/// Recorder: samples numeric variables of the variable tree into memory during a run, for CSV
/// output, plots and tests (a scenario's `logging`).
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/simulation.h"

namespace hopsim {

/// Records numeric variables (bool, int and double scalars and vectors; a vector gives one
/// column per element, "path[i]") at fixed times.
///
/// Samples are taken at start + k / rate, exact to the tick, where start is the time recording
/// starts; without a rate, the rate is that of the default I/O step then, so that samples fall
/// at the end of every I/O step. Samples can also be taken right after chosen events fire, or
/// at the end of every hop (Triggers). A sampler takes them (Simulation::addSampler): those times do
/// not become barriers, so recording changes no result bit, a sample inside a hop sees the
/// interpolated state and what a derivative evaluation computes from it, and one at a barrier
/// sees the values after its events. The first sample is taken at the start of the next hop,
/// once every output has been computed. Samples read elements (Variable::element);
/// column buffers grow by amortized doubling, the only allocation a sample can make, and none
/// once reserve() has made room for the run. If variables are removed while unlocked, the next
/// sample takes them again by path (a removed one is an error).
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

  /// "time", then one name per column ("signals.x", "multibody.Q[3]").
  const std::vector<std::string>& columns() const { return columns_; }
  /// Units per column ("s" for time; "" when unknown).
  const std::vector<std::string>& units() const { return units_; }
  /// Samples taken.
  std::size_t rows() const { return times_.size(); }
  /// The sample times, s.
  const std::vector<double>& times() const { return times_; }
  /// Column `column` (1 = the first variable column), one value per row.
  const std::vector<double>& values(std::size_t column) const { return data_[column - 1]; }
  /// The variable path column `column` (1 = the first variable column) reads.
  const std::string& path(std::size_t column) const { return paths_[sources_[column - 1].path]; }
  /// The element of that variable it reads.
  std::size_t element(std::size_t column) const { return sources_[column - 1].element; }
  /// Makes room for `rows` samples in all, so that taking them allocates nothing.
  void reserve(std::size_t rows);
  /// The column of `name`. @throws InputError with suggestions.
  std::size_t column(std::string_view name) const;
  /// Writes a CSV file: a header of column names, then one row per sample, numbers with 17
  /// significant digits (round trips exactly).
  void writeCsv(std::ostream& out) const;

 private:
  void sample(double t);
  void resolveSources();
  void checkEventPatterns(const Simulation& sim) const;
  void addColumn(std::string name, const std::string& path, const Variable& v,
                 std::size_t element);
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
  std::vector<std::string> paths_;  // each variable read once, to skip one matched twice
  std::vector<Source> sources_;     // one per column after time
  std::uint64_t revision_ = 0;      // of the variable tree when sources_ were taken
  std::vector<std::string> columns_;
  std::vector<std::string> units_;
  std::vector<double> times_;
  std::vector<std::vector<double>> data_;
};

}  // namespace hopsim
