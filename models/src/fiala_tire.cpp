#include "hopsim/models/fiala_tire.h"

#include <algorithm>
#include <cmath>

namespace hopsim::models {

Eigen::Vector2d fialaForces(double fz, double kappa, double alpha, double cKappa, double cAlpha,
                            double muMax, double muMin) {
  // The friction falls from μ_max to μ_min as the combined slip grows to 1.
  const double combined = std::min(1.0, std::hypot(kappa, std::tan(alpha)));
  const double mu = muMax - (muMax - muMin) * combined;
  const double limit = mu * fz;
  double fx = 0.0, fy = 0.0;
  if (limit > 0.0) {
    // Longitudinal: elastic up to the critical slip, then sliding over part of the patch.
    if (std::abs(kappa) < limit / (2.0 * cKappa)) {
      fx = cKappa * kappa;
    } else {
      fx = std::copysign(limit - limit * limit / (4.0 * std::abs(kappa) * cKappa), kappa);
    }
    // Lateral: the cubic of the brush model up to full sliding at tan α = 3 μ Fz / C_α.
    const double h = 1.0 - cAlpha * std::abs(std::tan(alpha)) / (3.0 * limit);
    fy = h > 0.0 ? -std::copysign(limit * (1.0 - h * h * h), alpha) : -std::copysign(limit, alpha);
  }
  return {fx, fy};
}

FialaTire::Declaration::Declaration()
    : TyreDeclaration("FialaTire",
                      "Tyre on hard ground (hub at the node, axle along its y axis): radial spring "
                      "Fz = kt δt + ct δ̇ with deflection δt = r + δ, and Fiala's brush-model "
                      "longitudinal force Fx(κ) and lateral force Fy(α) limited by a friction "
                      "falling from μ_max to μ_min with the combined slip; applied at the contact "
                      "point, with the rolling resistance couple.") {}

const FialaTire::Declaration& FialaTire::declaration() {
  static const Declaration declaration;
  return declaration;
}

Eigen::Vector2d FialaTire::forces(const TyreState& s) const {
  const auto mu = param(d_.frictionLimits);
  return fialaForces(s.normalForce, s.slipRatio, s.slipAngle, param(d_.longitudinalStiffness),
                     param(d_.lateralStiffness), mu[0], mu[1]);
}

double FialaTire::axleCouple(const TyreState& s) const {
  const double spin = s.frame.spinRate;
  return spin == 0.0 ? 0.0 : -std::copysign(param(d_.rollingResistance) * s.normalForce, spin);
}

}  // namespace hopsim::models
