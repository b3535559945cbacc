// MagicFormulaTire against the Magic Formula written out in the test, Fy = -Fz D sin(C atan(B α
// - E (B α - atan(B α)))), for the published surface sets (the Simscape Driveline Tire-Road
// Interaction (Magic Formula) block's table: dry tarmac B 10, C 1.9, D 1, E 0.97; wet tarmac 12,
// 2.3, 0.82, 1; snow 5, 2, 0.3, 1; ice 4, 2, 0.1, 1) and their published peak: |F| / Fz = D,
// reached where C atan(...) = π/2. The tyre's state is set exactly (heavy rig, 0.1 ms hop):
// 1e-9 relative.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "hopsim/models/magic_formula_tire.h"
#include "hopsim/signals/error.h"
#include "tyre_outputs.h"

namespace hopsim {
namespace {

using spatial::Vector3;

constexpr double kRadius = 0.35, kStiffness = 2.5e5, kDeflection = 0.016;

test::TyreOutputs magic(const std::string& surface, double alpha, double kappa) {
  Simulation sim({.ioStepSize = 1e-4});
  const double vx = 20.0;
  test::HubRig rig(sim, 1e12, 1e12, Vector3(0, 0, kRadius - kDeflection),
                   Vector3(vx, vx * std::tan(alpha), 0), (1 + kappa) * vx / kRadius);
  auto& tyre = sim.addModel<models::MagicFormulaTire>("tyre");
  tyre.setParam("surface", surface);
  tyre.setParam("radius", kRadius);
  tyre.setParam("normal_stiffness", kStiffness);
  return test::runTyre(sim, tyre);
}

struct Set {
  const char* name;
  double b, c, d, e;
};
constexpr Set kSets[] = {{"DRY_TARMAC", 10, 1.9, 1, 0.97},
                         {"wet_tarmac", 12, 2.3, 0.82, 1},
                         {"Snow", 5, 2, 0.3, 1},
                         {"ICE", 4, 2, 0.1, 1}};

double formula(const Set& s, double x) {
  const double bx = s.b * x;
  return s.d * std::sin(s.c * std::atan(bx - s.e * (bx - std::atan(bx))));
}

/// The slip where C atan(B x - E (B x - atan(B x))) = π/2, by bisection (the argument rises
/// with x for E <= 1).
double peakSlip(const Set& s) {
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi), bx = s.b * mid;
    (s.c * std::atan(bx - s.e * (bx - std::atan(bx))) < std::numbers::pi / 2 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

TEST_CASE("MagicFormulaTire: lateral force against slip angle for the published sets") {
  const double fz = kStiffness * kDeflection;
  for (const Set& set : kSets) {
    CAPTURE(set.name);
    for (const double deg : {0.5, 2.0, 5.0, 10.0, 20.0}) {
      CAPTURE(deg);
      const double alpha = deg * std::numbers::pi / 180;
      const auto out = magic(set.name, alpha, 0.0);
      CHECK(out.fz == doctest::Approx(fz).epsilon(1e-9));
      CHECK(out.fy == doctest::Approx(-fz * formula(set, alpha)).epsilon(1e-9));
      CHECK(std::abs(out.fx) < 1e-6 * fz);
    }
    // The published peak friction D at the peak slip angle, and less on either side of it.
    const double peak = peakSlip(set);
    CHECK(-magic(set.name, peak, 0.0).fy == doctest::Approx(set.d * fz).epsilon(1e-9));
    CHECK(-magic(set.name, 0.8 * peak, 0.0).fy < set.d * fz);
    CHECK(-magic(set.name, 1.5 * peak, 0.0).fy < set.d * fz);
  }
}

TEST_CASE("MagicFormulaTire: longitudinal force against slip ratio, and CUSTOM coefficients") {
  const double fz = kStiffness * kDeflection;
  for (const double kappa : {0.02, 0.1, -0.3}) {
    CHECK(magic("DRY_TARMAC", 0.0, kappa).fx ==
          doctest::Approx(fz * formula(kSets[0], kappa)).epsilon(1e-9));
  }
  Simulation sim({.ioStepSize = 1e-4});
  test::HubRig rig(sim, 1e12, 1e12, Vector3(0, 0, kRadius - kDeflection), Vector3(20, 2, 0),
                   20 / kRadius);
  auto& tyre = sim.addModel<models::MagicFormulaTire>("tyre");
  tyre.setParam("surface", std::string("CUSTOM"));
  tyre.setParam("lateral_coefficients", std::vector<double>{8.0, 1.3, 0.9, -0.5});
  tyre.setParam("radius", kRadius);
  tyre.setParam("normal_stiffness", kStiffness);
  const auto out = test::runTyre(sim, tyre);
  CHECK(out.fy ==
        doctest::Approx(-fz * formula({"", 8.0, 1.3, 0.9, -0.5}, std::atan(0.1))).epsilon(1e-9));
}

TEST_CASE("MagicFormulaTire: an unknown surface is refused naming the param and value") {
  Simulation sim({.ioStepSize = 1e-4});
  test::HubRig rig(sim, 1.0, 1.0, Vector3(0, 0, 1), Vector3::Zero(), 0.0);
  auto& tyre = sim.addModel<models::MagicFormulaTire>("tyre");
  tyre.setParam("surface", std::string("GRAVEL"));
  tyre.setParam("radius", kRadius);
  tyre.setParam("normal_stiffness", kStiffness);
  CHECK_THROWS_WITH_AS(test::runTyre(sim, tyre),
                       "models.tyre.params.surface: value 'GRAVEL' is not DRY_TARMAC, "
                       "WET_TARMAC, SNOW, ICE or CUSTOM",
                       InputError);
}

}  // namespace hopsim
