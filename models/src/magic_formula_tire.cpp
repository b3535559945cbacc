#include "hopsim/models/magic_formula_tire.h"

#include <array>
#include <cmath>
#include <string_view>

#include "ascii_case.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

namespace {

/// The typical [B, C, D, E] of the Simscape Driveline Tire-Road Interaction (Magic Formula)
/// block's table, for both directions.
struct SurfaceSet {
  std::string_view name;
  Eigen::Vector4d coefficients;
};
const std::array<SurfaceSet, 4>& surfaceSets() {
  static const std::array<SurfaceSet, 4> sets{{
      {"DRY_TARMAC", {10.0, 1.9, 1.0, 0.97}},
      {"WET_TARMAC", {12.0, 2.3, 0.82, 1.0}},
      {"SNOW", {5.0, 2.0, 0.3, 1.0}},
      {"ICE", {4.0, 2.0, 0.1, 1.0}},
  }};
  return sets;
}

}  // namespace

double magicFormula(const Eigen::Vector4d& k, double x) {
  const double bx = k[0] * x;
  return k[2] * std::sin(k[1] * std::atan(bx - k[3] * (bx - std::atan(bx))));
}

MagicFormulaTire::Declaration::Declaration()
    : TyreDeclaration(
          "MagicFormulaTire",
          "Tyre on hard ground (hub at the node, axle along its y axis): radial spring "
          "Fz = kt δt + ct δ̇ with deflection δt = r + δ, and Pacejka's Magic Formula "
          "pure-slip forces Fx = Fz MF(κ) and Fy = -Fz MF(α) with MF(x) = D sin(C atan(B x "
          "- E (B x - atan(B x)))), from a published surface set or CUSTOM coefficients; "
          "applied at the contact point.") {}

const MagicFormulaTire::Declaration& MagicFormulaTire::declaration() {
  static const Declaration declaration;
  return declaration;
}

void MagicFormulaTire::processParams(double /*t*/) {
  const std::string& surface = param(d_.surface);
  if (equalsIgnoringCase(surface, "CUSTOM")) {
    longitudinal_ = param(d_.longitudinalCoefficients);
    lateral_ = param(d_.lateralCoefficients);
    return;
  }
  for (const SurfaceSet& set : surfaceSets()) {
    if (equalsIgnoringCase(surface, set.name)) {
      longitudinal_ = lateral_ = set.coefficients;
      return;
    }
  }
  throw InputError("models." + name() + ".params.surface: value '" + surface +
                   "' is not DRY_TARMAC, WET_TARMAC, SNOW, ICE or CUSTOM");
}

Eigen::Vector2d MagicFormulaTire::forces(const TyreState& s) const {
  return {s.normalForce * magicFormula(longitudinal_, s.slipRatio),
          -s.normalForce * magicFormula(lateral_, s.slipAngle)};
}

}  // namespace hopsim::models
