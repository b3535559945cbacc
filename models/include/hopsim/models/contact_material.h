#pragma once
/// @file
/// ContactMaterial: the smooth-contact (SMC) material of Chrono's YAML model spec, and how two
/// materials combine into the properties of one contact pair.

#include <string_view>

namespace hopsim::models {

/// A contact material with the defaults of Chrono's MBS YAML spec
/// (seeds/chrono-yaml-mbs-model-spec.md, "Contact Material"). The physical properties drive
/// the laws with material properties; the four coefficients drive the laws without them.
struct ContactMaterial {
  double friction = 0.8;             ///< Coulomb coefficient μ (-)
  double restitution = 0.01;         ///< coefficient of restitution e, in [0, 1] (-)
  double youngModulus = 2e7;         ///< E (Pa)
  double poissonRatio = 0.3;         ///< ν, in [0, 0.5) (-)
  double normalStiffness = 2e5;      ///< kn (N/m; Hertz without material properties: N/m^2)
  double normalDamping = 40.0;       ///< gn (1/s: it is multiplied by the effective mass)
  double tangentialStiffness = 2e5;  ///< kt (as kn)
  double tangentialDamping = 20.0;   ///< gt (as gn)
};

/// The properties of one contact pair, combined from its two materials as Chrono's default
/// composition strategy (ChContactMaterialCompositionStrategy) and ChContactMaterialSMC do:
/// μ and e are the minima, E* = 1 / Σ (1 - νᵢ²) / Eᵢ, G* = 1 / Σ 2 (2 - νᵢ)(1 + νᵢ) / Eᵢ, and
/// the four coefficients are the averages.
struct CompositeMaterial {
  double friction;
  double restitution;
  double dampingRatio;    ///< ζ of restitutionDampingRatio(restitution)
  double effectiveYoung;  ///< E* (Pa)
  double effectiveShear;  ///< G* (Pa)
  double normalStiffness;
  double normalDamping;
  double tangentialStiffness;
  double tangentialDamping;
};

/// The damping ratio ζ = g / (2√(k m)) of a linear spring-dashpot that, pressed only while it
/// pushes (the force kδ + g δ̇ never pulls), rebounds with restitution e: the inverse of
/// Schwager and Pöschel's e(ζ) (Granular Matter 9, 2007) extended past critical damping. The
/// damping of the Hertz law with ζ in place of Chrono's -β gives the same e (checked in
/// test_contact_law.cpp). e = 1 gives 0; e below 1e-7 is treated as 1e-7.
double restitutionDampingRatio(double restitution);

/// The restitution e(ζ) of that spring-dashpot (its inverse above).
double dashpotRestitution(double dampingRatio);

/// The composite of `a` and `b` (symmetric in its arguments).
CompositeMaterial combine(const ContactMaterial& a, const ContactMaterial& b);

/// Checks a material's ranges: μ >= 0, 0 <= e <= 1, E > 0, -1 < ν < 0.5, coefficients >= 0,
/// all finite.
/// @throws InputError prefixed by `where` naming the field, the value and the range.
void checkContactMaterial(const ContactMaterial& material, std::string_view where);

}  // namespace hopsim::models
