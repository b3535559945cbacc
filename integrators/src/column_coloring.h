#pragma once
// Columns of a difference-quotient Jacobian that can be perturbed together: states in different
// coupling groups never influence each other's derivatives, so one state of every group can be
// perturbed in the same derivative evaluation (Curtis, Powell and Reid, 1974, with the groups as
// the sparsity pattern: the Jacobian is block diagonal in them). Color c holds the c-th state of
// every group, so a Jacobian costs as many evaluations as the largest group has states.

#include <Eigen/Core>
#include <cstddef>
#include <vector>

namespace hopsim::detail {

class ColumnColoring {
 public:
  /// No coloring: every column on its own.
  ColumnColoring() = default;
  /// `groupOfState[i]` is state i's group (any integers; equal means possibly coupled).
  explicit ColumnColoring(const std::vector<Eigen::Index>& groupOfState);

  /// True when the coloring needs fewer evaluations than one per column.
  bool saves() const { return !colors_.empty() && colors_.size() < group_.size(); }
  std::size_t colorCount() const { return colors_.size(); }
  /// The most columns one color has: the number of groups (color 0 holds a state of each).
  Eigen::Index widestColor() const {
    return colors_.empty() ? 0 : static_cast<Eigen::Index>(colors_.front().size());
  }
  /// The columns of color c, in increasing order.
  const std::vector<Eigen::Index>& columns(std::size_t color) const { return colors_[color]; }
  /// Whether row i and column j are in the same group (the entry may be nonzero).
  bool coupled(Eigen::Index i, Eigen::Index j) const {
    return group_[static_cast<std::size_t>(i)] == group_[static_cast<std::size_t>(j)];
  }
  /// True when every entry of `jacobian` between different groups is exactly zero.
  bool matches(const Eigen::Ref<const Eigen::MatrixXd>& jacobian) const;

 private:
  std::vector<Eigen::Index> group_;
  std::vector<std::vector<Eigen::Index>> colors_;
};

}  // namespace hopsim::detail
