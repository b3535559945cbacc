#pragma once
/// @file
/// The Bekker-Wong-Janosi stresses under a rigid wheel on deformable soil, integrated over the
/// contact angle: the terramechanics of BekkerWheelSoilContact, usable on its own. Equations:
/// docs/models/BekkerWheelSoilContact.md.

#include "hopsim/models/soil_map.h"

namespace hopsim::models {

/// The wheel and the shape of its stress distribution.
struct BekkerWheelShape {
  double radius = 0.0;  ///< r, m
  double width = 0.0;   ///< b, m
  double c1 = 0.4;      ///< max-stress angle coefficients: θm = (c1 + c2 i) θ1
  double c2 = 0.15;
  double exitRatio = 0.0;   ///< λ: the rear (exit) angle θ2 = -λ θ1
  int intervals = 64;       ///< Simpson intervals on each of [θ2, θm] and [θm, θ1] (even)
  double restSpeed = 0.01;  ///< below it the footprint turns static and the shear fades, m/s
};

/// The wheel's motion over the soil: hub velocity along the rolling direction and across it,
/// spin rate about the axle (ω r = vx when rolling without slip).
struct WheelMotion {
  double vx = 0.0;        ///< m/s
  double vy = 0.0;        ///< m/s
  double spinRate = 0.0;  ///< ω, rad/s
};

/// The resultants on the wheel: force components along the surface normal (W), the rolling
/// direction (DP) and the axle direction's lateral (Fy), and the soil's resisting moment T
/// about the axle (the wheel feels -T).
struct WheelSoilForces {
  double normalForce = 0.0;   ///< W, N
  double drawbarPull = 0.0;   ///< DP, N
  double lateralForce = 0.0;  ///< Fy, N
  double torque = 0.0;        ///< T, N m
  double slip = 0.0;          ///< i
  double entryAngle = 0.0;    ///< θ1, rad
};

/// The slip i = (r ω - vx) / max(|r ω|, |vx|): 1 - vx/(r ω) driving, r ω / vx - 1 braking, 0 at
/// rest.
double wheelSlip(double radius, const WheelMotion& motion);

/// The stresses of a wheel sunk `sinkage` metres (capped at r: θ1 <= π/2) into `soil`,
/// integrated; zero for sinkage <= 0. Does not allocate.
WheelSoilForces bekkerWongForces(const BekkerSoil& soil, const BekkerWheelShape& wheel,
                                 double sinkage, const WheelMotion& motion);

}  // namespace hopsim::models
