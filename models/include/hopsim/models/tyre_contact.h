#pragma once
// The part the tyre models share (docs/models/FialaTire.md, MagicFormulaTire.md): the tyre's
// deflection and normal force, its slip ratio and slip angle, and the wrench on the hub of
// forces acting at the contact point.

#include <algorithm>
#include <cmath>
#include <optional>

#include "hopsim/models/wheel_frame.h"

namespace hopsim::models {

struct TyreState {
  WheelFrame frame;
  double deflection = 0.0;   ///< δt = r + δ, m
  double normalForce = 0.0;  ///< Fz = max(kt δt + ct δ̇, 0), N
  double slipRatio = 0.0;    ///< κ = (r ω - vx) / max(|vx|, v_min)
  double slipAngle = 0.0;    ///< α = atan2(vy, max(|vx|, v_min)), rad
};

/// The tyre's state; none when it does not touch (δt <= 0) or lies on its side.
inline std::optional<TyreState> tyreState(const spatial::RigidTransform& X_WN,
                                          const spatial::SpatialMotion& V,
                                          const spatial::Vector3& n, double radius,
                                          double penetration, double penetrationRate,
                                          double stiffness, double damping, double minSpeed) {
  const double deflection = radius + penetration;
  if (!(deflection > 0.0)) return std::nullopt;
  const auto frame = wheelFrame(X_WN, V, n);
  if (!frame) return std::nullopt;
  TyreState s{.frame = *frame, .deflection = deflection};
  s.normalForce = std::max(stiffness * deflection + damping * penetrationRate, 0.0);
  const double speed = std::max(std::abs(frame->vx), minSpeed);
  s.slipRatio = (radius * frame->spinRate - frame->vx) / speed;
  s.slipAngle = std::atan2(frame->vy, speed);
  return s;
}

/// The force [Fx e_x + Fy e_y + Fz n̂] acting at the contact point, r - δt below the hub, as a
/// force at the hub and its moment, plus a couple `axleCouple` about the axle.
struct HubWrench {
  spatial::Vector3 force, torque;
};
inline HubWrench hubWrench(const TyreState& s, double radius, double fx, double fy,
                           double axleCouple) {
  const WheelFrame& f = s.frame;
  const spatial::Vector3 force = fx * f.longitudinal + fy * f.lateral + s.normalForce * f.normal;
  const spatial::Vector3 arm = -(radius - s.deflection) * f.normal;
  return {force, arm.cross(force) + axleCouple * f.axle};
}

}  // namespace hopsim::models
