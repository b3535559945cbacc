#include "hopsim/models/contact_material.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {

double dashpotRestitution(double zeta) {
  // x'' + 2ζx' + x = 0 from x = 0, x' = 1 (unit frequency and speed), until the force x + 2ζx'
  // reaches zero; e = -x' then.
  if (zeta <= 0.0) return 1.0;
  if (std::abs(zeta - 1.0) < 1e-9) return std::exp(-2.0);  // critical: x = t e^-t, ends at t = 2
  if (zeta < 1.0) {
    const double w = std::sqrt(1.0 - zeta * zeta);
    return std::exp(-(zeta / w) *
                    (std::numbers::pi - std::atan2(2.0 * zeta * w, 1.0 - 2.0 * zeta * zeta)));
  }
  const double s = std::sqrt(zeta * zeta - 1.0);
  const double l1 = -zeta + s, l2 = -zeta - s;
  const double t = std::log((1.0 + 2.0 * zeta * l2) / (1.0 + 2.0 * zeta * l1)) / (l1 - l2);
  return -(l1 * std::exp(l1 * t) - l2 * std::exp(l2 * t)) / (l1 - l2);
}

double restitutionDampingRatio(double restitution) {
  constexpr double kSmallest = 1e-7;
  if (restitution >= 1.0) return 0.0;
  const double e = std::max(restitution, kSmallest);
  // e(ζ) falls monotonically from 1 at ζ = 0; e(2000) < 1e-7.
  double low = 0.0, high = 2000.0;
  for (int i = 0; i < 100; ++i) {
    const double middle = 0.5 * (low + high);
    (dashpotRestitution(middle) > e ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

CompositeMaterial combine(const ContactMaterial& a, const ContactMaterial& b) {
  const auto compliance = [](const ContactMaterial& m) {
    return (1.0 - m.poissonRatio * m.poissonRatio) / m.youngModulus;
  };
  const auto shearCompliance = [](const ContactMaterial& m) {
    return 2.0 * (2.0 - m.poissonRatio) * (1.0 + m.poissonRatio) / m.youngModulus;
  };
  return {.friction = std::min(a.friction, b.friction),
          .restitution = std::min(a.restitution, b.restitution),
          .dampingRatio = restitutionDampingRatio(std::min(a.restitution, b.restitution)),
          .effectiveYoung = 1.0 / (compliance(a) + compliance(b)),
          .effectiveShear = 1.0 / (shearCompliance(a) + shearCompliance(b)),
          .normalStiffness = 0.5 * (a.normalStiffness + b.normalStiffness),
          .normalDamping = 0.5 * (a.normalDamping + b.normalDamping),
          .tangentialStiffness = 0.5 * (a.tangentialStiffness + b.tangentialStiffness),
          .tangentialDamping = 0.5 * (a.tangentialDamping + b.tangentialDamping)};
}

void checkContactMaterial(const ContactMaterial& material, std::string_view where) {
  const auto check = [&](const char* field, double value, bool ok, const char* expected) {
    if (std::isfinite(value) && ok) return;
    throw InputError(std::string(where) + ": " + field + " = " + describeValue(Value(value)) +
                     ", expected " + expected);
  };
  check("coefficient_of_friction", material.friction, material.friction >= 0.0, "a value >= 0");
  check("coefficient_of_restitution", material.restitution,
        material.restitution >= 0.0 && material.restitution <= 1.0, "a value in [0, 1]");
  check("Young_modulus", material.youngModulus, material.youngModulus > 0.0, "a value > 0");
  check("Poisson_ratio", material.poissonRatio,
        material.poissonRatio > -1.0 && material.poissonRatio < 0.5, "a value in (-1, 0.5)");
  check("normal_stiffness", material.normalStiffness, material.normalStiffness >= 0.0,
        "a value >= 0");
  check("normal_damping", material.normalDamping, material.normalDamping >= 0.0, "a value >= 0");
  check("tangential_stiffness", material.tangentialStiffness, material.tangentialStiffness >= 0.0,
        "a value >= 0");
  check("tangential_damping", material.tangentialDamping, material.tangentialDamping >= 0.0,
        "a value >= 0");
}

}  // namespace hopsim::models
