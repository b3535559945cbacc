#pragma once
/// @file
/// The assembly analysis of a constrained multibody system before its first step, as Chrono's:
/// the initial Q and U moved onto the constraints (docs/multibody.md, "In a simulation").

#include "hopsim/core/multibody_system.h"

namespace hopsim {

/// What assembleOntoConstraints found: the largest constraint violations before it projected.
struct AssemblyCorrection {
  double position{0.0};  ///< largest |φ| at the given Q (m, or dimensionless for a·b rows)
  double velocity{0.0};  ///< largest |G U| at the assembled Q (m/s or rad/s)
  /// Whether either was above its tolerance.
  bool aboveTolerance{false};
};

/// Projects the system's Q onto φ(Q) = 0 (minimum-norm Gauss-Newton, quaternions normalized),
/// then U onto G U = 0 in the mass metric, prescribed entries held, with the drift projection's
/// defaults (MultibodySystem::setProjection). Without constraints nothing changes. Allocates
/// its own workspace (once per call).
/// @throws ModelError unless the simulation was locked since the constraints were added (lock()
/// applies the masks to the tree); NumericalError naming the worst constraint when no pose
/// meets the tolerance, Q and U then left as they were.
AssemblyCorrection assembleOntoConstraints(MultibodySystem& system,
                                           double positionTolerance = 1e-12,
                                           double velocityTolerance = 1e-12,
                                           int maxIterations = 20);

}  // namespace hopsim
