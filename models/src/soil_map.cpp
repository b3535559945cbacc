#include "hopsim/models/soil_map.h"

#include <cmath>
#include <numbers>
#include <string>

#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {

namespace {

void checkSoil(const BekkerSoil& s, std::size_t k) {
  const std::string where = "soils: soil " + std::to_string(k) + " ";
  if (!(s.kc >= 0.0) || !(s.kphi >= 0.0) || !(s.kc + s.kphi > 0.0)) {
    throw InputError(where + "has kc " + formatNumber(s.kc) + " and kphi " + formatNumber(s.kphi) +
                     ": both must be >= 0 and one > 0");
  }
  if (!(s.n > 0.0)) throw InputError(where + "has n " + formatNumber(s.n) + ": it must be > 0");
  if (!(s.cohesion >= 0.0)) {
    throw InputError(where + "has cohesion " + formatNumber(s.cohesion) + ": it must be >= 0");
  }
  if (!(s.phi >= 0.0 && s.phi < std::numbers::pi / 2)) {
    throw InputError(where + "has phi " + formatNumber(s.phi) + ": it must be in [0, pi/2) rad");
  }
  if (!(s.shearModulus > 0.0)) {
    throw InputError(where + "has K " + formatNumber(s.shearModulus) + ": it must be > 0 m");
  }
}

}  // namespace

SoilMap::SoilMap(const Eigen::VectorXd& table, const Eigen::VectorXd& regions) {
  if (table.size() == 0 || table.size() % BekkerSoil::kSize != 0 || !table.allFinite()) {
    throw InputError("soils: " + std::to_string(table.size()) +
                     " values; expected finite [kc, kphi, n, cohesion, phi, K] per soil, a "
                     "multiple of 6");
  }
  for (Eigen::Index k = 0; k < table.size(); k += BekkerSoil::kSize) {
    soils_.push_back(BekkerSoil::fromValues(table.data() + k));
    checkSoil(soils_.back(), soils_.size() - 1);
  }
  if (regions.size() % 5 != 0 || !regions.allFinite()) {
    throw InputError("soil_regions: " + std::to_string(regions.size()) +
                     " values; expected finite [xmin, xmax, ymin, ymax, soil] per region, a "
                     "multiple of 5");
  }
  for (Eigen::Index k = 0; k < regions.size(); k += 5) {
    const std::string where = "soil_regions: region " + std::to_string(k / 5) + " ";
    const Eigen::Vector2d min(regions[k], regions[k + 2]), max(regions[k + 1], regions[k + 3]);
    if ((min.array() > max.array()).any()) {
      throw InputError(where + "has a minimum above its maximum");
    }
    const double soil = regions[k + 4];
    if (soil != std::floor(soil) || soil < 0.0 || soil >= static_cast<double>(soils_.size())) {
      throw InputError(where + "names soil " + formatNumber(soil) +
                       "; expected a whole number from 0 to " + std::to_string(soils_.size() - 1));
    }
    regions_.push_back({min, max, static_cast<std::size_t>(soil)});
  }
}

const BekkerSoil& SoilMap::at(double x, double y) const {
  for (auto region = regions_.rbegin(); region != regions_.rend(); ++region) {
    if (x >= region->min.x() && x <= region->max.x() && y >= region->min.y() &&
        y <= region->max.y()) {
      return soils_[region->soil];
    }
  }
  return soils_.front();
}

}  // namespace hopsim::models
