#pragma once
// The dense-output history of a one-step method (internal: not installed): the continuous
// extension of every step since a restart, a fixed number of coefficient vectors per step.

#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "integrator_support.h"

namespace hopsim::detail {

/// Each recorded step keeps its start time, its size and `columnsPerStep` coefficient vectors of
/// the state's length, whose meaning is the method's. Storage grows only when an interval needs
/// more steps than any before (then stays), so a simulation's hops stop allocating once the
/// longest has been seen.
class DenseHistory {
 public:
  explicit DenseHistory(Eigen::Index columnsPerStep) : columnsPerStep_(columnsPerStep) {}

  /// Re-shapes the storage for `stateCount` states, keeping its step capacity; forgets the steps
  /// (nothing can be interpolated before the next clear()).
  void resize(Eigen::Index stateCount) {
    coefficients_.setZero(stateCount, coefficients_.cols());
    steps_ = 0;
    complete_ = false;
  }
  /// Forgets the steps (a restart): the history is empty and complete.
  void clear() {
    steps_ = 0;
    complete_ = true;
  }
  /// A step was taken without being recorded: interpolation is refused until the next clear().
  void markIncomplete() { complete_ = false; }

  /// The coefficient columns of the next step, which starts at `start` and has size `h`, to be
  /// filled and then committed; nothing is recorded until commit(), so a step that throws
  /// midway leaves the history as it was.
  Eigen::MatrixXd::ColsBlockXpr next(double start, double h) {
    if (steps_ == start_.size()) {
      const std::size_t capacity = std::max<std::size_t>(16, 2 * start_.size());
      start_.resize(capacity);
      h_.resize(capacity);
      coefficients_.conservativeResize(coefficients_.rows(),
                                       columnsPerStep_ * static_cast<Eigen::Index>(capacity));
    }
    start_[steps_] = start;
    h_[steps_] = h;
    return slot(steps_);
  }
  /// Records the step that next() handed out.
  void commit() { ++steps_; }

  /// A recorded step's coefficient columns and t's position in it, theta = (t - start) / h.
  struct Piece {
    Eigen::MatrixXd::ConstColsBlockXpr columns;
    double theta;
  };
  /// interpolate()'s common part for the interval [t0, tEnd] of `method`: checks its
  /// preconditions (checkInterpolation, naming the method) and returns the recorded step that
  /// contains t (at a boundary between two steps, the one that starts there), or nothing when t
  /// is the interval end or there are no states: the caller then returns its end state, exactly
  /// as advance() did.
  std::optional<Piece> find(std::string_view method, double t0, double tEnd,
                            Eigen::Index stateCount, double t, Eigen::Index xSize) const {
    checkInterpolation(method, complete_, t0, tEnd, stateCount, t, xSize);
    if (t == tEnd || stateCount == 0) return std::nullopt;
    const auto first = start_.begin();
    const auto after = std::upper_bound(first, first + static_cast<std::ptrdiff_t>(steps_), t);
    const auto step = static_cast<std::size_t>(std::max<std::ptrdiff_t>(after - first - 1, 0));
    return Piece{coefficients_.middleCols(columnsPerStep_ * static_cast<Eigen::Index>(step),
                                          columnsPerStep_),
                 (t - start_[step]) / h_[step]};
  }

 private:
  Eigen::MatrixXd::ColsBlockXpr slot(std::size_t i) {
    return coefficients_.middleCols(columnsPerStep_ * static_cast<Eigen::Index>(i),
                                    columnsPerStep_);
  }

  Eigen::Index columnsPerStep_;
  std::size_t steps_ = 0;
  bool complete_ = false;
  std::vector<double> start_, h_;
  Eigen::MatrixXd coefficients_;
};

}  // namespace hopsim::detail
