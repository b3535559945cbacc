#pragma once
/// @file
/// Terrain: the ground surface z = h(x, y) that contact models query for the height, the
/// outward normal and the soil at a point, and its analytic surfaces. The equations, the
/// height-map file format and the choices are in docs/models/TerrainPenetration.md.

#include <Eigen/Core>

#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::models {

/// A height field over the world's x-y plane, z up.
class Terrain {
 public:
  virtual ~Terrain() = default;
  /// The surface height h(x, y), m.
  virtual double height(double x, double y) const = 0;
  /// The gradient [∂h/∂x, ∂h/∂y] of the same surface (of the interpolant for a height map).
  virtual Eigen::Vector2d gradient(double x, double y) const = 0;
  /// The unit outward (upward) normal: [-∂h/∂x, -∂h/∂y, 1] normalized.
  spatial::Vector3 normal(double x, double y) const;
};

/// A plane through (0, 0, h0) rising at `slope` radians along the horizontal direction
/// `heading` (radians from +x toward +y); slope 0 is the horizontal plane z = h0.
class InclinedPlaneTerrain final : public Terrain {
 public:
  InclinedPlaneTerrain(double h0, double slope, double heading);
  double height(double x, double y) const override;
  Eigen::Vector2d gradient(double x, double y) const override;

 private:
  double h0_;
  Eigen::Vector2d gradient_;  // tan(slope) [cos heading, sin heading]
};

/// Crossed sine waves h0 + A_x sin(2π x / λ_x) + A_y sin(2π y / λ_y).
class SinusoidTerrain final : public Terrain {
 public:
  /// @throws InputError unless both wavelengths are finite and positive.
  SinusoidTerrain(double h0, const Eigen::Vector2d& amplitude, const Eigen::Vector2d& wavelength);
  double height(double x, double y) const override;
  Eigen::Vector2d gradient(double x, double y) const override;

 private:
  double h0_;
  Eigen::Vector2d amplitude_;
  Eigen::Vector2d waveNumber_;  // 2π / λ
};

}  // namespace hopsim::models
