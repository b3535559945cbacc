#pragma once
/// @file
/// The smooth-contact (SMC) force law of Chrono's ChContactSMC, with a tangential displacement
/// history in place of Chrono's one-step estimate so that friction can hold a body still.

#include <cstdint>

#include "hopsim/core/spatial/spatial_vector.h"
#include "hopsim/models/contact_material.h"

namespace hopsim::models {

/// The normal force law: Hooke (linear in the penetration δ) or Hertz (δ^{3/2}).
enum class NormalLaw : std::uint8_t { Hooke, Hertz };

/// How a pair's stiffness and damping follow from its materials.
struct ContactLawOptions {
  NormalLaw law = NormalLaw::Hertz;
  /// true: from Young's modulus, Poisson's ratio and the restitution (ChSystemSMC's default);
  /// false: from the materials' normal/tangential stiffness and damping coefficients.
  bool useMaterialProperties = true;
  /// v_c (m/s): Hooke with material properties sizes its stiffness for impacts at this speed.
  double characteristicVelocity = 1.0;
};

/// The stiffness and damping of one contact at one penetration.
struct ContactCoefficients {
  double kn = 0.0;  ///< normal stiffness (N/m)
  double gn = 0.0;  ///< normal damping (N s/m)
  double kt = 0.0;  ///< tangential stiffness (N/m)
  double gt = 0.0;  ///< tangential damping (N s/m)
};

/// The coefficients of ChContactSMC for the pair `material` with effective mass m* (kg),
/// effective radius R* (m) at penetration δ >= 0 (m), with ζ = material.dampingRatio:
/// - Hertz, material properties: Sn = 2E*√(R*δ), St = 8G*√(R*δ), kn = ⅔Sn, kt = St,
///   gn = 2√(5/6) ζ √(Sn m*), gt = 2√(5/6) ζ √(St m*);
/// - Hooke, material properties: k = (16/15)√R* E*, kn = kt = k (m* v_c² / k)^{1/5},
///   gn = gt = 2ζ√(m* kn);
/// - Hertz, coefficients: with r = R*√δ, kn = r kn', kt = r kt', gn = r m* gn', gt = r m* gt';
/// - Hooke, coefficients: kn = kn', kt = kt', gn = m* gn', gt = m* gt'.
/// Chrono puts -β = -ln e / √(ln²e + π²) where ζ stands; that is the ζ of a dashpot allowed to
/// pull, so Chrono's contacts rebound faster than asked (e = 0.5 gives 0.55). ζ gives e exactly.
ContactCoefficients contactCoefficients(const ContactLawOptions& options,
                                        const CompositeMaterial& material, double effectiveMass,
                                        double effectiveRadius, double penetration);

/// The normal force magnitude kn δ - gn vₙ (N), where vₙ = (v_b - v_a)·n is the separation
/// speed; 0 when negative (a contact never pulls).
double normalForce(const ContactCoefficients& c, double penetration, double separationSpeed);

/// The friction force on body b (N): -(kt ξ + gt v_t), with ξ the tangential displacement
/// (the stretch of the contact's tangential spring, m) and v_t the tangential velocity of b
/// relative to a (m/s), limited to the Coulomb cone |F_t| <= μ Fₙ.
spatial::Vector3 frictionForce(const ContactCoefficients& c, double friction, double normalForce,
                               const spatial::Vector3& slip,
                               const spatial::Vector3& tangentialVelocity);

/// The tangential displacement after a step of h seconds (Cundall and Strack's shear history):
/// ξ + v_t h, in the tangent plane of normal n, shortened to the Coulomb limit μ Fₙ / kt when
/// the spring would pull harder than friction can hold (the contact slips).
spatial::Vector3 advanceSlip(const ContactCoefficients& c, double friction, double normalForce,
                             const spatial::Vector3& slip,
                             const spatial::Vector3& tangentialVelocity,
                             const spatial::Vector3& normal, double h);

}  // namespace hopsim::models
