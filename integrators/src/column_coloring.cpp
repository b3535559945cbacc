// Coloring of a difference-quotient Jacobian's columns by coupling groups (column_coloring.h).

#include "column_coloring.h"

#include <map>

namespace hopsim::detail {

ColumnColoring::ColumnColoring(const std::vector<Eigen::Index>& groupOfState)
    : group_(groupOfState) {
  std::map<Eigen::Index, std::size_t> sizeOfGroup;
  for (std::size_t j = 0; j < group_.size(); ++j) {
    const std::size_t color = sizeOfGroup[group_[j]]++;
    if (color == colors_.size()) colors_.emplace_back();
    colors_[color].push_back(static_cast<Eigen::Index>(j));
  }
}

bool ColumnColoring::matches(const Eigen::Ref<const Eigen::MatrixXd>& jacobian) const {
  for (Eigen::Index j = 0; j < jacobian.cols(); ++j) {
    for (Eigen::Index i = 0; i < jacobian.rows(); ++i) {
      if (!coupled(i, j) && jacobian(i, j) != 0.0) return false;
    }
  }
  return true;
}

}  // namespace hopsim::detail
