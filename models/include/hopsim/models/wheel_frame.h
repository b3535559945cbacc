#pragma once
// The contact frame and slip kinematics of a wheel on a surface, shared by the wheel-soil and
// tyre models (docs/models/BekkerWheelSoilContact.md, FialaTire.md, MagicFormulaTire.md): the
// wheel's node sits at the hub with its y axis along the axle.

#include <optional>

#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::models {

struct WheelFrame {
  spatial::Vector3 axle;          ///< a, the node's y axis (world)
  spatial::Vector3 longitudinal;  ///< e_x = a × n̂ / |a × n̂|, the rolling direction
  spatial::Vector3 lateral;       ///< e_y = n̂ × e_x
  spatial::Vector3 normal;        ///< n̂
  double vx = 0.0;                ///< hub velocity along e_x, m/s
  double vy = 0.0;                ///< hub velocity along e_y, m/s
  double spinRate = 0.0;          ///< ω, the wheel's angular velocity about a, rad/s
};

/// The frame of a wheel whose hub node has pose X_WN and velocity V (world), on a surface of
/// unit normal n̂; none when the axle is within 1e-9 rad of the normal (a wheel on its side has
/// no rolling direction).
inline std::optional<WheelFrame> wheelFrame(const spatial::RigidTransform& X_WN,
                                            const spatial::SpatialMotion& V,
                                            const spatial::Vector3& n) {
  WheelFrame f;
  f.axle = X_WN.rotation().col(1);
  const spatial::Vector3 forward = f.axle.cross(n);
  if (!(forward.norm() > 1e-9)) return std::nullopt;
  f.normal = n;
  f.longitudinal = forward.normalized();
  f.lateral = n.cross(f.longitudinal);
  f.vx = V.translational().dot(f.longitudinal);
  f.vy = V.translational().dot(f.lateral);
  f.spinRate = V.rotational().dot(f.axle);
  return f;
}

}  // namespace hopsim::models
