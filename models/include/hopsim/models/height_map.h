#pragma once
/// @file
/// HeightMapTerrain: a terrain sampled on a regular grid, read from a height-map file
/// (format in docs/models/TerrainPenetration.md), bilinearly interpolated.

#include <string>
#include <vector>

#include "hopsim/models/terrain.h"

namespace hopsim::models {

/// Heights on the grid x_i = x0 + i dx (i < nx), y_j = y0 + j dy (j < ny), interpolated
/// bilinearly inside each cell; outside the grid the border heights extend flat.
class HeightMapTerrain final : public Terrain {
 public:
  /// `heights[j * nx + i]` is the height at (x_i, y_j).
  /// @throws InputError for nx or ny below 2, a spacing that is not positive and finite, a
  /// height count other than nx ny, or a height that is not finite.
  HeightMapTerrain(Eigen::Vector2d origin, Eigen::Vector2d spacing, int nx, int ny,
                   std::vector<double> heights);

  /// Reads a height-map file. @throws InputError "PATH:LINE: ..." naming the line at fault and
  /// what was expected there.
  static HeightMapTerrain read(const std::string& path);

  double height(double x, double y) const override;
  Eigen::Vector2d gradient(double x, double y) const override;

 private:
  /// The cell holding (x, y) after clamping into the grid, and the point's fractions in it.
  struct Cell {
    int i, j;
    double s, t;  // in [0, 1]
    bool insideX, insideY;
  };
  Cell locate(double x, double y) const;
  double at(int i, int j) const { return heights_[static_cast<std::size_t>(j) * nx_ + i]; }

  Eigen::Vector2d origin_, spacing_;
  int nx_, ny_;
  std::vector<double> heights_;
};

}  // namespace hopsim::models
