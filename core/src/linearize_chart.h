#pragma once
// Private to core/src: the tangent coordinates linearization measures the continuous state X
// in (docs/linearization.md, "Rotations"). A scalar state is its own coordinate; a unit
// quaternion (BALL, FULL6DOF, FULL6DOF_INERTIAL) is three: the rotation vector δθ of
// q = q₀ ⊗ exp(δθ/2), measured from the operating attitude q₀, so that A has the system's true
// dimension.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "hopsim/core/multibody/multibody_model.h"
#include "linearize_manifold.h"

namespace hopsim {

class StateChart {
 public:
  /// The chart of X, whose entries are named `xNames` (Simulation::stateNames) with units
  /// `xUnits`, with the quaternions of `tree`'s hinges among its multibody coordinates (their
  /// units follow from the subhinge types). With a `manifold`, its dependent coordinates are
  /// left out and follow the others.
  StateChart(const std::vector<std::string>& xNames, std::vector<std::string> xUnits,
             const multibody::MultibodyModel& tree, const ConstraintManifold* manifold);

  Eigen::Index size() const { return static_cast<Eigen::Index>(names_.size()); }
  /// "models.m.continuousStates.x", "multibody.bodies.b.Q[4]" or, for a rotation,
  /// "multibody.bodies.b.rotation[0]".
  const std::vector<std::string>& names() const { return names_; }
  /// Each coordinate's unit (rotation coordinates: "rad").
  const std::vector<std::string>& units() const { return units_; }

  /// Coordinate j's value in x: the X entry of a scalar, 0 for a rotation coordinate (measured
  /// from x itself).
  double value(const Eigen::VectorXd& x, Eigen::Index j) const {
    const Coordinate& c = coordinates_[ofTangent_[static_cast<std::size_t>(j)]];
    return c.rotation ? 0.0 : x[c.x];
  }

  bool isRotation(Eigen::Index j) const {
    return coordinates_[ofTangent_[static_cast<std::size_t>(j)]].rotation;
  }

  /// x = x₀ ⊞ δ: scalars added, quaternions turned by exp(δθ/2) on the right, then the
  /// dependent coordinates of a manifold solved.
  void retract(const Eigen::VectorXd& x0, const Eigen::VectorXd& delta, Eigen::VectorXd& x) const;
  /// δ = x ⊟ x₀, the inverse of retract.
  void local(const Eigen::VectorXd& x0, const Eigen::VectorXd& x, Eigen::VectorXd& delta) const;
  /// δ̇ at x, from Ẋ there: scalars as they are, a rotation's J_r⁻¹(δθ) ω with ω = 2 vec(q⁻¹ ⊗ q̇)
  /// its body rate.
  void tangentRate(const Eigen::VectorXd& x0, const Eigen::VectorXd& x, const Eigen::VectorXd& xdot,
                   Eigen::Ref<Eigen::VectorXd> rate) const;

 private:
  struct Coordinate {
    Eigen::Index x;  // first X entry
    bool rotation;   // four X entries (w, x, y, z) and three tangent ones
  };
  std::vector<Coordinate> coordinates_;  // in X order
  std::vector<std::size_t> ofTangent_;   // per tangent coordinate, its Coordinate
  std::vector<std::string> names_;
  std::vector<std::string> units_;
  const ConstraintManifold* manifold_;
};

}  // namespace hopsim
