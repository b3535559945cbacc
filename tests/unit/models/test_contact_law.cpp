// The smooth-contact law (contact_law.h, contact_material.h) against its defining formulas
// (Chrono's ChContactSMC and composition strategy, reference/chrono-yaml-semantics.md A14) and
// against independent integrations of the contact ODE: the restitution a damping ratio gives is
// checked by RK4 on the force law itself, not by the closed form under test.

#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "hopsim/models/contact_law.h"
#include "hopsim/models/contact_material.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using models::CompositeMaterial;
using models::ContactLawOptions;
using models::ContactMaterial;
using models::NormalLaw;
using spatial::Vector3;

/// The rebound speed of a unit-speed impact on the force law f(δ, δ̇) ≥ 0 for a unit mass,
/// by RK4 at step h until the force vanishes (no gravity): the restitution.
double reboundSpeed(const std::function<double(double, double)>& force, double h) {
  double x = 0.0, v = 1.0;
  const auto acceleration = [&](double xi, double vi) {
    return xi > 0.0 ? -std::max(force(xi, vi), 0.0) : 0.0;
  };
  for (int step = 0; step < 100000000; ++step) {
    const double a1 = acceleration(x, v);
    const double x2 = x + 0.5 * h * v, v2 = v + 0.5 * h * a1, a2 = acceleration(x2, v2);
    const double x3 = x + 0.5 * h * v2, v3 = v + 0.5 * h * a2, a3 = acceleration(x3, v3);
    const double x4 = x + h * v3, v4 = v + h * a3, a4 = acceleration(x4, v4);
    x += h * (v + 2 * v2 + 2 * v3 + v4) / 6;
    v += h * (a1 + 2 * a2 + 2 * a3 + a4) / 6;
    if (step > 10 && (x <= 0.0 || force(x, v) <= 0.0)) return -v;
  }
  return NAN;
}

TEST_CASE("contact materials combine as Chrono's composition strategy") {
  const ContactMaterial a{.friction = 0.3,
                          .restitution = 0.6,
                          .youngModulus = 2e9,
                          .poissonRatio = 0.25,
                          .normalStiffness = 1e5,
                          .normalDamping = 10,
                          .tangentialStiffness = 3e5,
                          .tangentialDamping = 30};
  const ContactMaterial b{};  // the spec's defaults
  CHECK(b.friction == 0.8);
  CHECK(b.restitution == 0.01);
  CHECK(b.youngModulus == 2e7);
  CHECK(b.poissonRatio == 0.3);
  CHECK(b.normalStiffness == 2e5);
  CHECK(b.normalDamping == 40);
  CHECK(b.tangentialStiffness == 2e5);
  CHECK(b.tangentialDamping == 20);
  const CompositeMaterial ab = models::combine(a, b);
  const CompositeMaterial ba = models::combine(b, a);
  CHECK(ab.friction == 0.3);
  CHECK(ab.restitution == 0.01);
  const double young = 1.0 / ((1 - 0.25 * 0.25) / 2e9 + (1 - 0.09) / 2e7);
  const double shear = 1.0 / (2 * (2 - 0.25) * 1.25 / 2e9 + 2 * (2 - 0.3) * 1.3 / 2e7);
  CHECK(ab.effectiveYoung == doctest::Approx(young).epsilon(1e-14));
  CHECK(ab.effectiveShear == doctest::Approx(shear).epsilon(1e-14));
  CHECK(ab.normalStiffness == 1.5e5);
  CHECK(ab.normalDamping == 25);
  CHECK(ab.tangentialStiffness == 2.5e5);
  CHECK(ab.tangentialDamping == 25);
  CHECK(ba.effectiveYoung == ab.effectiveYoung);
  CHECK(ba.dampingRatio == ab.dampingRatio);
}

TEST_CASE("contact materials out of range are errors naming the field and the value") {
  ContactMaterial m;
  m.restitution = 1.5;
  CHECK_THROWS_WITH_AS(models::checkContactMaterial(m, "ball"),
                       "ball: coefficient_of_restitution = 1.5, expected a value in [0, 1]",
                       InputError);
  m = {};
  m.poissonRatio = 0.5;
  CHECK_THROWS_AS(models::checkContactMaterial(m, "ball"), InputError);
  m = {};
  m.youngModulus = NAN;
  CHECK_THROWS_AS(models::checkContactMaterial(m, "ball"), InputError);
  m = {};
  m.friction = -0.1;
  CHECK_THROWS_AS(models::checkContactMaterial(m, "ball"), InputError);
  CHECK_NOTHROW(models::checkContactMaterial(ContactMaterial{}, "ball"));
}

TEST_CASE("the damping ratio of a restitution makes a pushing-only dashpot rebound with it") {
  // RK4 on x'' = -max(x + 2ζx', 0) at 1e-5 of the unit period: the error of the integration is
  // far below the 1e-6 asked.
  for (double e : {0.01, 0.1, 0.135, 0.3, 0.5, 0.8, 0.95}) {
    const double zeta = models::restitutionDampingRatio(e);
    CHECK(models::dashpotRestitution(zeta) == doctest::Approx(e).epsilon(1e-9));
    const double rebound = reboundSpeed([&](double x, double v) { return x + 2 * zeta * v; }, 1e-5);
    CHECK(rebound == doctest::Approx(e).epsilon(1e-6));
  }
  CHECK(models::restitutionDampingRatio(1.0) == 0.0);
  CHECK(models::dashpotRestitution(1.0) == doctest::Approx(std::exp(-2.0)).epsilon(1e-12));
  // Chrono's damping ratio -β = -ln e / √(ln²e + π²) rebounds faster than asked.
  const double beta = std::log(0.5) / std::sqrt(std::log(0.5) * std::log(0.5) + M_PI * M_PI);
  CHECK(models::dashpotRestitution(-beta) == doctest::Approx(0.5503).epsilon(1e-3));
}

TEST_CASE("Hertz and Hooke coefficients follow ChContactSMC's formulas") {
  const ContactMaterial steel{
      .friction = 0.4, .restitution = 0.5, .youngModulus = 2e9, .poissonRatio = 0.3};
  const CompositeMaterial pair = models::combine(steel, steel);
  const double m = 2.0, R = 0.05, delta = 1e-4;
  const double zeta = models::restitutionDampingRatio(0.5);
  SUBCASE("Hertz with material properties") {
    const auto c = models::contactCoefficients({.law = NormalLaw::Hertz}, pair, m, R, delta);
    const double Sn = 2 * pair.effectiveYoung * std::sqrt(R * delta);
    const double St = 8 * pair.effectiveShear * std::sqrt(R * delta);
    CHECK(c.kn == doctest::Approx(2.0 / 3.0 * Sn).epsilon(1e-14));
    CHECK(c.kt == doctest::Approx(St).epsilon(1e-14));
    CHECK(c.gn ==
          doctest::Approx(2 * std::sqrt(5.0 / 6.0) * zeta * std::sqrt(Sn * m)).epsilon(1e-14));
    CHECK(c.gt ==
          doctest::Approx(2 * std::sqrt(5.0 / 6.0) * zeta * std::sqrt(St * m)).epsilon(1e-14));
  }
  SUBCASE("Hooke with material properties") {
    const auto c = models::contactCoefficients(
        {.law = NormalLaw::Hooke, .characteristicVelocity = 2.0}, pair, m, R, delta);
    const double k = 16.0 / 15.0 * std::sqrt(R) * pair.effectiveYoung;
    const double kn = k * std::pow(m * 4.0 / k, 0.2);
    CHECK(c.kn == doctest::Approx(kn).epsilon(1e-14));
    CHECK(c.kt == c.kn);
    CHECK(c.gn == doctest::Approx(2 * zeta * std::sqrt(m * kn)).epsilon(1e-14));
    CHECK(c.gt == c.gn);
  }
  SUBCASE("Hertz and Hooke with coefficients") {
    const auto hertz = models::contactCoefficients(
        {.law = NormalLaw::Hertz, .useMaterialProperties = false}, pair, m, R, delta);
    const double r = R * std::sqrt(delta);
    CHECK(hertz.kn == doctest::Approx(r * 2e5).epsilon(1e-14));
    CHECK(hertz.gn == doctest::Approx(r * m * 40).epsilon(1e-14));
    CHECK(hertz.kt == doctest::Approx(r * 2e5).epsilon(1e-14));
    CHECK(hertz.gt == doctest::Approx(r * m * 20).epsilon(1e-14));
    const auto hooke = models::contactCoefficients(
        {.law = NormalLaw::Hooke, .useMaterialProperties = false}, pair, m, R, delta);
    CHECK(hooke.kn == 2e5);
    CHECK(hooke.gn == m * 40);
    CHECK(hooke.kt == 2e5);
    CHECK(hooke.gt == m * 20);
  }
}

TEST_CASE("the Hertz law with material properties rebounds with the asked restitution") {
  // Unit-speed impacts of a 1 kg body integrated on Fn(δ, δ̇) itself; the restitution of this
  // damping does not depend on the speed, the mass or the stiffness.
  for (double e : {0.05, 0.3, 0.7, 0.9}) {
    ContactMaterial material;
    material.restitution = e;
    material.youngModulus = 1e7;
    const CompositeMaterial pair = models::combine(material, material);
    const auto force = [&](double x, double v) {
      const auto c = models::contactCoefficients({}, pair, 1.0, 0.1, x);
      return models::normalForce(c, x, -v);
    };
    CHECK(reboundSpeed(force, 2e-8) == doctest::Approx(e).epsilon(1e-4));
  }
}

TEST_CASE("the normal force never pulls, friction is a tangential spring-damper within the cone") {
  const models::ContactCoefficients c{.kn = 1e4, .gn = 100, .kt = 2e4, .gt = 50};
  CHECK(models::normalForce(c, 1e-3, 0.0) == doctest::Approx(10.0));
  CHECK(models::normalForce(c, 1e-3, 0.05) == doctest::Approx(5.0));   // separating
  CHECK(models::normalForce(c, 1e-3, 0.2) == 0.0);                     // would pull
  CHECK(models::normalForce(c, 1e-3, -0.1) == doctest::Approx(20.0));  // approaching
  const Vector3 slip(1e-4, 0, 0), vt(0, 0.01, 0);
  // Within the cone: -(kt ξ + gt v_t).
  const Vector3 stick = models::frictionForce(c, 0.5, 100.0, slip, vt);
  CHECK(stick.x() == doctest::Approx(-2.0));
  CHECK(stick.y() == doctest::Approx(-0.5));
  // Beyond it: the same direction, magnitude μ Fn.
  const Vector3 slipping = models::frictionForce(c, 0.5, 2.0, slip, vt);
  CHECK(slipping.norm() == doctest::Approx(1.0));
  CHECK(slipping.normalized().isApprox(stick.normalized(), 1e-14));
}

TEST_CASE(
    "the tangential stretch grows with the sliding, turns with the plane, stops at the cone") {
  const models::ContactCoefficients c{.kn = 1e4, .gn = 0, .kt = 1e4, .gt = 0};
  const Vector3 n = Vector3::UnitZ();
  const Vector3 grown =
      models::advanceSlip(c, 0.5, 100.0, Vector3(1e-4, 0, 0), Vector3(0, 0.1, 0), n, 1e-3);
  CHECK(grown.isApprox(Vector3(1e-4, 1e-4, 0), 1e-14));
  // A stretch left out of the plane by a turned normal is turned back into it, same length.
  const Vector3 turned =
      models::advanceSlip(c, 0.5, 100.0, Vector3(3e-4, 0, 4e-4), Vector3::Zero(), n, 1e-3);
  CHECK(turned.isApprox(Vector3(5e-4, 0, 0), 1e-14));
  // The limit μ Fn / kt = 0.5 * 10 / 1e4 = 5e-4.
  const Vector3 limited =
      models::advanceSlip(c, 0.5, 10.0, Vector3(4e-4, 0, 0), Vector3(1.0, 0, 0), n, 1e-3);
  CHECK(limited.isApprox(Vector3(5e-4, 0, 0), 1e-14));
}

}  // namespace
}  // namespace hopsim
