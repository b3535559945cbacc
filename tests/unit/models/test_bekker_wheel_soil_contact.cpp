// BekkerWheelSoilContact against terramechanics computed independently in the test.
//
// At rest: a wheel lowered onto soil settles (soil damping) where the pressure-sinkage integral
// carries its weight; a wheel at rest has the static footprint, front and rear alike. The
// test's reference is that integral written in x along the ground, W(z) = 2 b ∫ k
// (depth(x))^n dx over the front half, depth(x) = sqrt(r² - x²) - (r - z) (Bekker's form; the
// model integrates over the contact angle θ). For n = 1 it is the closed form b k r² (θ1 -
// sin θ1 cos θ1); the sinkage solving W(z) = m g is found by bisection. Tolerance 1e-6
// relative: the settled state is static to 1e-12 after 40 time constants, and the model's
// Simpson rule with 64 intervals is within 1e-8 of the integral on this integrand. Against
// Bekker's small-sinkage closed form (a parabola for the rim) the tolerance is 2 %, that
// approximation's own error at z/D = 0.02.
//
// Rolling with slip: drawbar pull, normal force and torque against Wong's formulation
// evaluated by the test from the slip i (not from velocities, as the model does), j(θ) =
// r [(θ1 - θ) - (1 - i)(sin θ1 - sin θ)], with adaptive Simpson quadrature to 1e-12 relative.
// Tolerance 2e-4 of the normal force: the model's 64 intervals against the n = 1.1 endpoint
// behaviour (σ ~ (θ1 - θ)^1.1); with 1024 intervals the model agrees to 2e-7 (checked too).

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <string>
#include <utility>

#include "hopsim/core/simulation.h"
#include "hopsim/models/bekker_wheel_soil_contact.h"
#include "hopsim/signals/error.h"
#include "hub_rig.h"

namespace hopsim {
namespace {

using spatial::Vector3;

constexpr double kRadius = 0.25, kWidth = 0.2;

/// Adaptive Simpson quadrature of f over [a, b] to `relative` of the integral's magnitude (the
/// tolerance halves with each split, down to 40 levels).
double adaptiveSimpson(const std::function<double(double)>& f, double a, double b,
                       double relative) {
  const std::function<double(double, double, double, double, double, double, double, int)> recurse =
      [&](double lo, double hi, double flo, double fmid, double fhi, double whole, double tol,
          int level) -> double {
    const double mid = 0.5 * (lo + hi), l = 0.5 * (lo + mid), r = 0.5 * (mid + hi);
    const double fl = f(l), fr = f(r);
    const double left = (mid - lo) / 6 * (flo + 4 * fl + fmid);
    const double right = (hi - mid) / 6 * (fmid + 4 * fr + fhi);
    if (level <= 0 || std::abs(left + right - whole) <= 15 * tol) {
      return left + right + (left + right - whole) / 15;
    }
    return recurse(lo, mid, flo, fl, fmid, left, tol / 2, level - 1) +
           recurse(mid, hi, fmid, fr, fhi, right, tol / 2, level - 1);
  };
  const double m = 0.5 * (a + b);
  const double fa = f(a), fb = f(b), fm = f(m);
  const double whole = (b - a) / 6 * (fa + 4 * fm + fb);
  // The scale from a coarse pass, so that the tolerance is relative and never below rounding.
  const double scale =
      std::abs(recurse(a, b, fa, fm, fb, whole, std::abs(whole) * 1e-6, 12)) + 1e-300;
  return recurse(a, b, fa, fm, fb, whole, relative * scale, 40);
}

/// Bekker's pressure-sinkage integral over the front of the footprint, in x along the ground.
double frontLoad(double k, double n, double z) {
  const double x1 = std::sqrt(2 * kRadius * z - z * z);
  return kWidth * adaptiveSimpson(
                      [&](double x) {
                        const double depth = std::sqrt(kRadius * kRadius - x * x) - (kRadius - z);
                        return k * std::pow(std::max(depth, 0.0), n);
                      },
                      0.0, x1, 1e-12);
}

/// The sinkage at which `load(z)` carries `weight`, by bisection on (0, r).
double sinkageFor(double weight, const std::function<double(double)>& load) {
  double lo = 0.0, hi = kRadius;
  for (int k = 0; k < 200 && hi - lo > 1e-15; ++k) {
    const double mid = 0.5 * (lo + hi);
    (load(mid) < weight ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

struct Soil {
  double kc, kphi, n, c, phi, K;
  std::vector<double> values() const { return {kc, kphi, n, c, phi, K}; }
  double k() const { return kc / kWidth + kphi; }
};
const Soil kDrySand{0.99e3, 1528.43e3, 1.1, 1.04e3, 28.0 * std::numbers::pi / 180, 0.025};

/// The wheel "wheel" on the rig's hub (radius kRadius, width kWidth), its inputs tied to the
/// rig and its outputs to the signals sinkage, fn, dp, fy, torque and slip.
models::BekkerWheelSoilContact& addWheel(Simulation& sim) {
  auto& wheel = sim.addModel<models::BekkerWheelSoilContact>("wheel");
  wheel.attachToNode("hub");
  wheel.setParam("radius", kRadius);
  wheel.setParam("width", kWidth);
  test::HubRig::tieInputs(sim, "wheel", true);
  const std::pair<const char*, const char*> outputs[] = {
      {"sinkage", "sinkage"},  {"normal_force", "fn"},         {"drawbar_pull", "dp"},
      {"lateral_force", "fy"}, {"resistive_torque", "torque"}, {"slip", "slip"}};
  for (const auto& [port, signal] : outputs) {
    sim.addSignal(signal, ElementType::Double, 1);
    sim.tie("wheel", port, signal);
  }
  return wheel;
}

/// A wheel of mass m lowered at rest onto soil, settled for 2 s; the hub's final sinkage.
double settledSinkage(const Soil& soil, double m) {
  Simulation sim({.ioStepSize = 1e-3, .integrationSteps = 2});
  sim.multibody().setGravity(Vector3(0, 0, -9.81));
  test::HubRig rig(sim, m, 0.5, Vector3(0, 0, kRadius), Vector3::Zero(), 0.0);
  sim.set("models.ground.params.soils", soil.values());
  addWheel(sim).setParam("soil_damping", 1500.0);
  sim.lock();
  sim.advanceTimeTo(2.0);
  // At rest nothing shears: no pull, no torque, no slip.
  CHECK(std::abs(std::get<double>(sim.get("signals.dp"))) < 1e-9);
  CHECK(std::abs(std::get<double>(sim.get("signals.torque"))) < 1e-9);
  CHECK(std::get<double>(sim.get("signals.fn")) == doctest::Approx(1.001 * m * 9.81).epsilon(1e-6));
  return std::get<double>(sim.get("signals.sinkage"));
}

}  // namespace

TEST_CASE("BekkerWheelSoilContact: at rest it sinks until the pressure-sinkage integral holds it") {
  const double m = 20.0;
  const double weight = 1.001 * m * 9.81;  // the carriage and the wheel (1e-3 m)
  SUBCASE("n = 1: the closed form b k r² (θ1 - sin θ1 cos θ1)") {
    const Soil soil{0.0, 1.0e6, 1.0, 0.0, 0.5, 0.02};
    const double z = sinkageFor(weight, [&](double s) {
      const double theta1 = std::acos(1 - s / kRadius);
      return kWidth * soil.k() * kRadius * kRadius * (theta1 - std::sin(theta1) * std::cos(theta1));
    });
    CHECK(settledSinkage(soil, m) == doctest::Approx(z).epsilon(1e-6));
  }
  SUBCASE("dry sand, n = 1.1: the integral, and Bekker's small-sinkage closed form") {
    const double z =
        sinkageFor(weight, [&](double s) { return 2 * frontLoad(kDrySand.k(), 1.1, s); });
    const double settled = settledSinkage(kDrySand, m);
    CHECK(settled == doctest::Approx(z).epsilon(1e-6));
    // Bekker's W = (3 - n) b k sqrt(D) z^((2n+1)/2) / 3 for each half of the footprint.
    const double n = kDrySand.n, D = 2 * kRadius;
    const double bekker = std::pow(
        3 * weight / (2 * (3 - n) * kWidth * kDrySand.k() * std::sqrt(D)), 2 / (2 * n + 1));
    CHECK(settled == doctest::Approx(bekker).epsilon(0.02));
  }
}

namespace {

/// Wong's resultants for sinkage z and slip i, from the formulas written in terms of i.
struct WongReference {
  double w, dp, torque;
};
WongReference wongReference(const Soil& soil, double z, double i, double c1, double c2) {
  const double r = kRadius, b = kWidth;
  const double t1 = std::acos(1 - z / r);
  const double tm = (c1 + c2 * i) * t1;
  const auto sigma = [&](double t) {
    const double te = t >= tm ? t : t1 - t / tm * (t1 - tm);  // exit angle 0
    return soil.k() * std::pow(r, soil.n) * std::pow(std::cos(te) - std::cos(t1), soil.n);
  };
  const auto tau = [&](double t) {
    const double j = r * ((t1 - t) - (1 - i) * (std::sin(t1) - std::sin(t)));
    return (soil.c + sigma(t) * std::tan(soil.phi)) * (1 - std::exp(-j / soil.K));
  };
  const auto integral = [&](const std::function<double(double)>& f) {
    return adaptiveSimpson(f, 0.0, tm, 1e-12) + adaptiveSimpson(f, tm, t1, 1e-12);
  };
  return {r * b * integral([&](double t) { return sigma(t) * std::cos(t) + tau(t) * std::sin(t); }),
          r * b * integral([&](double t) { return tau(t) * std::cos(t) - sigma(t) * std::sin(t); }),
          r * r * b * integral(tau)};
}

struct RolledWheel {
  double w, dp, torque, slip, fy;
};
/// The wheel's outputs at sinkage z, forward speed vx and slip i (spin vx / (r (1 - i))), on a
/// carriage too heavy for the 0.1 ms hop to change its motion (relative change < 1e-9).
RolledWheel rolledWheel(const Soil& soil, double z, double vx, double i, std::int64_t intervals,
                        double vy = 0.0) {
  Simulation sim({.ioStepSize = 1e-4});
  test::HubRig rig(sim, 1e12, 1e12, Vector3(0, 0, kRadius - z), Vector3(vx, vy, 0),
                   vx / (kRadius * (1 - i)));
  sim.set("models.ground.params.soils", soil.values());
  addWheel(sim).setParam("quadrature_intervals", intervals);
  sim.lock();
  sim.advanceOverHop();
  const auto get = [&](const char* s) {
    return std::get<double>(sim.get(std::string("signals.") + s));
  };
  return {get("fn"), get("dp"), get("torque"), get("slip"), get("fy")};
}

}  // namespace

TEST_CASE("BekkerWheelSoilContact: drawbar pull against slip is Wong's prediction") {
  const double z = 0.02;
  double previous = -1e300;
  for (const double i : {0.02, 0.1, 0.2, 0.4, 0.7}) {
    CAPTURE(i);
    const WongReference ref = wongReference(kDrySand, z, i, 0.4, 0.15);
    const RolledWheel wheel = rolledWheel(kDrySand, z, 0.1, i, 64);
    CHECK(wheel.slip == doctest::Approx(i).epsilon(1e-9));
    CHECK(std::abs(wheel.w - ref.w) < 2e-4 * ref.w);
    CHECK(std::abs(wheel.dp - ref.dp) < 2e-4 * ref.w);
    CHECK(std::abs(wheel.torque - ref.torque) < 2e-4 * ref.w * kRadius);
    const RolledWheel fine = rolledWheel(kDrySand, z, 0.1, i, 1024);
    CHECK(std::abs(fine.dp - ref.dp) < 2e-7 * ref.w);
    CHECK(std::abs(fine.w - ref.w) < 2e-7 * ref.w);
    // Traction grows with slip (Wong's curves): more pull at each larger slip.
    CHECK(wheel.dp > previous);
    previous = wheel.dp;
  }
  // At high slip the pull approaches the soil's shear strength less the compaction resistance:
  // positive on dry sand at this load.
  CHECK(previous > 0.0);
}

TEST_CASE("BekkerWheelSoilContact: backward travel mirrors forward, sideslip resists") {
  const RolledWheel forward = rolledWheel(kDrySand, 0.02, 0.1, 0.3, 64);
  const RolledWheel backward = rolledWheel(kDrySand, 0.02, -0.1, 0.3, 64);
  CHECK(backward.w == doctest::Approx(forward.w).epsilon(1e-12));
  CHECK(backward.dp == doctest::Approx(-forward.dp).epsilon(1e-12));
  CHECK(backward.torque == doctest::Approx(-forward.torque).epsilon(1e-12));
  const RolledWheel sideways = rolledWheel(kDrySand, 0.02, 0.1, 0.3, 64, 0.05);
  CHECK(sideways.fy < 0.0);
  const RolledWheel other = rolledWheel(kDrySand, 0.02, 0.1, 0.3, 64, -0.05);
  CHECK(other.fy == doctest::Approx(-sideways.fy).epsilon(1e-12));
}

TEST_CASE("BekkerWheelSoilContact: an odd quadrature_intervals is refused naming the param") {
  Simulation sim({.ioStepSize = 1e-3});
  test::HubRig rig(sim, 1.0, 1.0, Vector3(0, 0, 1.0), Vector3::Zero(), 0.0);
  addWheel(sim).setParam("quadrature_intervals", std::int64_t{63});
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       "models.wheel.params.quadrature_intervals: value 63 must be even "
                       "(Simpson's rule)",
                       InputError);
}

}  // namespace hopsim
