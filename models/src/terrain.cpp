#include "hopsim/models/terrain.h"

#include <cmath>
#include <numbers>

#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {

spatial::Vector3 Terrain::normal(double x, double y) const {
  const Eigen::Vector2d g = gradient(x, y);
  return spatial::Vector3(-g.x(), -g.y(), 1.0).normalized();
}

InclinedPlaneTerrain::InclinedPlaneTerrain(double h0, double slope, double heading)
    : h0_(h0), gradient_(std::tan(slope) * Eigen::Vector2d(std::cos(heading), std::sin(heading))) {}

double InclinedPlaneTerrain::height(double x, double y) const {
  return h0_ + gradient_.dot(Eigen::Vector2d(x, y));
}

Eigen::Vector2d InclinedPlaneTerrain::gradient(double /*x*/, double /*y*/) const {
  return gradient_;
}

SinusoidTerrain::SinusoidTerrain(double h0, const Eigen::Vector2d& amplitude,
                                 const Eigen::Vector2d& wavelength)
    : h0_(h0), amplitude_(amplitude) {
  for (int k = 0; k < 2; ++k) {
    if (!(wavelength[k] > 0.0) || !std::isfinite(wavelength[k])) {
      throw InputError("wavelength: value [" + formatNumber(wavelength[0]) + ", " +
                       formatNumber(wavelength[1]) +
                       "] must be finite and positive in both directions");
    }
  }
  waveNumber_ = (2.0 * std::numbers::pi) * wavelength.cwiseInverse();
}

double SinusoidTerrain::height(double x, double y) const {
  return h0_ + amplitude_.x() * std::sin(waveNumber_.x() * x) +
         amplitude_.y() * std::sin(waveNumber_.y() * y);
}

Eigen::Vector2d SinusoidTerrain::gradient(double x, double y) const {
  return {amplitude_.x() * waveNumber_.x() * std::cos(waveNumber_.x() * x),
          amplitude_.y() * waveNumber_.y() * std::cos(waveNumber_.y() * y)};
}

}  // namespace hopsim::models
