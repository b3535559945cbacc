// FialaTire against Fiala's closed forms written out in the test: lateral force against slip
// angle, the cubic Fy = -(C_α tan α - C_α² tan² α / (3 μ Fz) + C_α³ tan³ α / (27 μ² Fz²))
// (the expanded brush-model polynomial; the model writes it as μ Fz (1 - H³)) below the
// sliding angle atan(3 μ Fz / C_α) and -μ Fz beyond; longitudinal force C_κ κ below the
// critical slip μ Fz / (2 C_κ) and μ Fz - (μ Fz)² / (4 |κ| C_κ) beyond. The tyre's state is set
// exactly (heavy rig, 0.1 ms hop): 1e-9 relative.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "hopsim/models/fiala_tire.h"
#include "hopsim/signals/error.h"
#include "tyre_outputs.h"

namespace hopsim {
namespace {

using spatial::Vector3;

constexpr double kRadius = 0.47, kStiffness = 4.0e5, kDeflection = 0.02;
constexpr double kCKappa = 5.0e4, kCAlpha = 6.0e4;

/// The tyre at slip angle α and slip ratio κ, forward speed 10 m/s.
test::TyreOutputs fiala(double alpha, double kappa, double muMax, double muMin) {
  Simulation sim({.ioStepSize = 1e-4});
  const double vx = 10.0;
  test::HubRig rig(sim, 1e12, 1e12, Vector3(0, 0, kRadius - kDeflection),
                   Vector3(vx, vx * std::tan(alpha), 0), (1 + kappa) * vx / kRadius);
  auto& tyre = sim.addModel<models::FialaTire>("tyre");
  tyre.setParam("radius", kRadius);
  tyre.setParam("normal_stiffness", kStiffness);
  tyre.setParam("longitudinal_tire_stiffness", kCKappa);
  tyre.setParam("lateral_tire_stiffness", kCAlpha);
  tyre.setParam("friction_limits", std::vector<double>{muMax, muMin});
  return test::runTyre(sim, tyre);
}

}  // namespace

TEST_CASE("FialaTire: lateral force against slip angle is Fiala's cubic, then sliding") {
  const double fz = kStiffness * kDeflection, mu = 0.9;
  const double sliding = std::atan(3 * mu * fz / kCAlpha);
  for (const double deg : {0.5, 2.0, 5.0, 8.0, 12.0, 20.0}) {
    const double alpha = deg * std::numbers::pi / 180;
    CAPTURE(deg);
    const auto out = fiala(alpha, 0.0, mu, mu);
    const double t = std::tan(alpha);
    const double expected = alpha < sliding
                                ? -(kCAlpha * t - kCAlpha * kCAlpha * t * t / (3 * mu * fz) +
                                    std::pow(kCAlpha * t, 3) / (27 * mu * mu * fz * fz))
                                : -mu * fz;
    CHECK(out.fz == doctest::Approx(fz).epsilon(1e-9));
    CHECK(out.slipAngle == doctest::Approx(alpha).epsilon(1e-9));
    CHECK(out.fy == doctest::Approx(expected).epsilon(1e-9));
    CHECK(std::abs(out.fx) < 1e-6);
  }
  // Symmetric in α; the friction falls from μ_max to μ_min with |tan α| (κ = 0).
  CHECK(fiala(-0.05, 0.0, mu, mu).fy == doctest::Approx(-fiala(0.05, 0.0, mu, mu).fy));
  const double alpha = 0.45, muMax = 1.0, muMin = 0.7;  // beyond the sliding angle
  const double falling = muMax - (muMax - muMin) * std::tan(alpha);
  CHECK(fiala(alpha, 0.0, muMax, muMin).fy == doctest::Approx(-falling * fz).epsilon(1e-9));
}

TEST_CASE("FialaTire: longitudinal force against slip ratio") {
  const double fz = kStiffness * kDeflection, mu = 0.9;
  const double critical = mu * fz / (2 * kCKappa);
  for (const double kappa : {0.01, 0.05, 0.2, -0.2}) {
    CAPTURE(kappa);
    const auto out = fiala(0.0, kappa, mu, mu);
    const double expected =
        std::abs(kappa) < critical
            ? kCKappa * kappa
            : std::copysign(mu * fz - std::pow(mu * fz, 2) / (4 * std::abs(kappa) * kCKappa),
                            kappa);
    CHECK(out.slipRatio == doctest::Approx(kappa).epsilon(1e-9));
    CHECK(out.fx == doctest::Approx(expected).epsilon(1e-9));
  }
}

TEST_CASE("FialaTire: off the ground it applies and reports nothing") {
  Simulation sim({.ioStepSize = 1e-4});
  test::HubRig rig(sim, 1.0, 1.0, Vector3(0, 0, 2 * kRadius), Vector3(1, 0, 0), 0.0);
  auto& tyre = sim.addModel<models::FialaTire>("tyre");
  tyre.setParam("radius", kRadius);
  tyre.setParam("normal_stiffness", kStiffness);
  tyre.setParam("longitudinal_tire_stiffness", kCKappa);
  tyre.setParam("lateral_tire_stiffness", kCAlpha);
  const auto out = test::runTyre(sim, tyre);
  CHECK(out.fz == 0.0);
  CHECK(out.fx == 0.0);
  CHECK(sim.multibody().u(rig.carriage)[0] == 1.0);
}

}  // namespace hopsim
