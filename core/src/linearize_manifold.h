#pragma once
// Private to core/src: linearization of a constrained multibody system on its constraint
// manifold (docs/linearization.md, "Constraints"). Of the joint coordinates, those whose columns
// of the constraint Jacobian G are independent are dependent: they follow from the others, the
// independent coordinates, through φ(Q) = 0 and G U = 0.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "hopsim/core/multibody/constraints.h"
#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody_system.h"

namespace hopsim {

class ConstraintManifold {
 public:
  /// The manifold of `system`'s constraints, whose Q and U entries are named in X's `xNames`,
  /// with the dependent coordinates chosen at X = `x0` (where G has full rank on them).
  /// @throws InputError for a system this does not handle: quaternions or masked coordinates.
  ConstraintManifold(const MultibodySystem& system, const std::vector<std::string>& xNames,
                     const Eigen::VectorXd& x0);

  /// The X entries of the dependent Q and U entries.
  const std::vector<Eigen::Index>& dependentX() const { return dependentX_; }
  /// Solves x's dependent entries from its independent ones: Q by Newton on φ(Q) = 0 (to
  /// 1e-13), then U from G U = 0. @throws NumericalError when Newton does not converge.
  void complete(Eigen::VectorXd& x) const;

 private:
  /// φ and G at q (into cdata_).
  void evaluate(const Eigen::VectorXd& q) const;

  const multibody::MultibodyModel& model_;
  const multibody::ConstraintSet& set_;
  std::vector<Eigen::Index> qX_, uX_;                  // per system Q and U entry, its X entry
  std::vector<Eigen::Index> dependent_, independent_;  // U entries (= Q entries here)
  std::vector<Eigen::Index> dependentX_;
  mutable multibody::MultibodyData data_;
  mutable multibody::ConstraintData cdata_;
  mutable Eigen::VectorXd q_, u_;
};

}  // namespace hopsim
