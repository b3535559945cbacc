#pragma once
/// @file
/// Bekker-Wong-Janosi soil parameters, and a map of them over the terrain (rectangular regions
/// of a soil table). Meanings and units: docs/models/TerrainPenetration.md.

#include <Eigen/Core>
#include <array>
#include <vector>

namespace hopsim::models {

/// One soil: pressure-sinkage (kc, kphi, n), Mohr-Coulomb strength (cohesion, phi) and the
/// Janosi-Hanamoto shear deformation modulus K, in SI units.
struct BekkerSoil {
  double kc = 0.0;          ///< cohesive modulus, N/m^(n+1)
  double kphi = 0.0;        ///< frictional modulus, N/m^(n+2)
  double n = 1.0;           ///< sinkage exponent
  double cohesion = 0.0;    ///< c, Pa
  double phi = 0.0;         ///< internal friction angle, rad
  double shearModulus = 0;  ///< K, m

  /// The six numbers in the order above, as the models' `soil` ports carry them.
  static constexpr int kSize = 6;
  std::array<double, kSize> values() const { return {kc, kphi, n, cohesion, phi, shearModulus}; }
  static BekkerSoil fromValues(const double* v) { return {v[0], v[1], v[2], v[3], v[4], v[5]}; }
};

/// Soils over the x-y plane: each region [xmin, xmax] x [ymin, ymax] names a soil of the table;
/// at a point in several regions the last one listed wins, at a point in none soil 0 applies.
class SoilMap {
 public:
  /// `table` is kSize numbers per soil; `regions` five per region: xmin, xmax, ymin, ymax and
  /// the soil's index in the table.
  /// @throws InputError naming the param ("soils" or "soil_regions"), the soil or region and the
  /// bad value: a table whose length is not a multiple of 6, a soil with a non-positive n or K,
  /// a negative modulus or cohesion, phi outside [0, pi/2); a region whose length is not a
  /// multiple of 5, with min > max or an index that is not a whole number naming a soil.
  SoilMap(const Eigen::VectorXd& table, const Eigen::VectorXd& regions);

  const BekkerSoil& at(double x, double y) const;

 private:
  struct Region {
    Eigen::Vector2d min, max;
    std::size_t soil;
  };
  std::vector<BekkerSoil> soils_;
  std::vector<Region> regions_;
};

}  // namespace hopsim::models
