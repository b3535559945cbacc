#include "hopsim/models/contact_law.h"

#include <algorithm>
#include <cmath>

namespace hopsim::models {
namespace {

using spatial::Vector3;

}  // namespace

ContactCoefficients contactCoefficients(const ContactLawOptions& options,
                                        const CompositeMaterial& material, double effectiveMass,
                                        double effectiveRadius, double penetration) {
  const double m = effectiveMass;
  const double zeta = material.dampingRatio;
  const double delta = std::max(penetration, 0.0);
  if (options.useMaterialProperties) {
    if (options.law == NormalLaw::Hertz) {
      const double sqrtRd = std::sqrt(effectiveRadius * delta);
      const double Sn = 2.0 * material.effectiveYoung * sqrtRd;
      const double St = 8.0 * material.effectiveShear * sqrtRd;
      const double factor = 2.0 * std::sqrt(5.0 / 6.0) * zeta;
      return {.kn = 2.0 / 3.0 * Sn,
              .gn = factor * std::sqrt(Sn * m),
              .kt = St,
              .gt = factor * std::sqrt(St * m)};
    }
    const double k = 16.0 / 15.0 * std::sqrt(effectiveRadius) * material.effectiveYoung;
    const double v2 = options.characteristicVelocity * options.characteristicVelocity;
    const double kn = k * std::pow(m * v2 / k, 0.2);
    const double gn = 2.0 * zeta * std::sqrt(m * kn);
    return {.kn = kn, .gn = gn, .kt = kn, .gt = gn};
  }
  const double scale = options.law == NormalLaw::Hertz ? effectiveRadius * std::sqrt(delta) : 1.0;
  return {.kn = scale * material.normalStiffness,
          .gn = scale * m * material.normalDamping,
          .kt = scale * material.tangentialStiffness,
          .gt = scale * m * material.tangentialDamping};
}

double normalForce(const ContactCoefficients& c, double penetration, double separationSpeed) {
  return std::max(c.kn * penetration - c.gn * separationSpeed, 0.0);
}

Vector3 frictionForce(const ContactCoefficients& c, double friction, double normalForce,
                      const Vector3& slip, const Vector3& tangentialVelocity) {
  const Vector3 force = -(c.kt * slip + c.gt * tangentialVelocity);
  const double limit = friction * normalForce;
  const double magnitude = force.norm();
  return magnitude > limit ? Vector3(force * (limit / magnitude)) : force;
}

Vector3 advanceSlip(const ContactCoefficients& c, double friction, double normalForce,
                    const Vector3& slip, const Vector3& tangentialVelocity, const Vector3& normal,
                    double h) {
  // The previous stretch turned into the current tangent plane, keeping its length.
  const double length = slip.norm();
  Vector3 inPlane = slip - slip.dot(normal) * normal;
  const double planeLength = inPlane.norm();
  if (planeLength > 0.0) inPlane *= length / planeLength;
  Vector3 next = inPlane + h * tangentialVelocity;
  const double limit = c.kt > 0.0 ? friction * normalForce / c.kt : 0.0;
  const double stretch = next.norm();
  if (stretch > limit) next *= stretch > 0.0 ? limit / stretch : 0.0;
  return next;
}

}  // namespace hopsim::models
