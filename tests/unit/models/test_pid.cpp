// Pid against its sampled-data equations on a first-order plant (the exact recursion, computed
// here), against the analytic continuous PI closed loop (first-order convergence in the sample
// period), and its anti-windup, derivative-on-measurement and rate behaviour by hand.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <unsupported/Eigen/MatrixFunctions>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

double scalar(const Simulation& sim, std::string_view path) {
  const Value value = sim.get(path);
  if (const auto* x = std::get_if<double>(&value)) return *x;
  return std::get<std::vector<double>>(value)[0];
}

struct Gains {
  double kp, ki, kd;
  double lower = -INFINITY, upper = INFINITY;
};

/// Pid "pid" closing a loop on the plant tau y' = u - y ("plant", a FirstOrderFilter) with the
/// constant setpoint r, sampled every hop of length T. rk4 with 4 sub-steps per hop: for the
/// held input the per-hop error is ~ 4 (T / 4 tau)^5 / 120 < 1e-13.
void buildLoop(Simulation& sim, const Gains& g, double tau, double r) {
  sim.addSignal("r", ElementType::Double);
  sim.addSignal("y", ElementType::Double);
  sim.addSignal("u", ElementType::Double);
  const ModelRegistry& registry = models::standardRegistry();
  sim.addModel(registry.create("Pid", "pid",
                               {{"kp", g.kp},
                                {"ki", g.ki},
                                {"kd", g.kd},
                                {"output_min", g.lower},
                                {"output_max", g.upper}}));
  sim.addModel(registry.create("FirstOrderFilter", "plant", {{"tau", tau}}));
  sim.tie("pid", "r", "r");
  sim.tie("pid", "y", "y");
  sim.tie("pid", "u", "u");
  sim.tie("plant", "u", "u");
  sim.tie("plant", "y", "y");
  sim.set("signals.r", r);
}

/// The Pid's equations, written out for the test: one sample per call.
struct PidReference {
  Gains g;
  bool antiWindup = true;
  double integral = 0.0, lastY = 0.0;
  bool first = true;
  double sample(double r, double y, double T) {
    const double dt = first ? 0.0 : T;
    const double e = r - y;
    const double d = first ? 0.0 : -g.kd * (y - lastY) / dt;
    const double candidate = integral + g.ki * e * dt;
    const double v = g.kp * e + candidate + d;
    const bool saturatedFurther =
        (v > g.upper && candidate > integral) || (v < g.lower && candidate < integral);
    if (!(antiWindup && saturatedFurther)) integral = candidate;
    first = false;
    lastY = y;
    return std::clamp(g.kp * e + integral + d, g.lower, g.upper);
  }
};

/// The sampled-data loop: y_{k+1} = a y_k + (1 - a) u_k, a = exp(-T / tau), the exact
/// discretization of the plant under a held input. Returns y at t = T, 2T, ..., n T.
std::vector<double> sampledLoop(PidReference pid, double tau, double r, double T, int n) {
  const double a = std::exp(-T / tau);
  std::vector<double> ys;
  double y = 0.0;
  for (int k = 0; k < n; ++k) {
    const double u = pid.sample(r, y, T);
    y = a * y + (1.0 - a) * u;
    ys.push_back(y);
  }
  return ys;
}

}  // namespace

TEST_CASE("Pid: on a first-order plant, the loop is the exact sampled-data recursion") {
  const Gains g{.kp = 2.0, .ki = 3.0, .kd = 0.05};
  const double tau = 0.5, r = 1.0, T = 0.01;
  Simulation sim({.ioStepSize = T, .integrationSteps = 4, .integrator = "rk4"});
  buildLoop(sim, g, tau, r);
  sim.lock();
  const std::vector<double> expected = sampledLoop(PidReference{g}, tau, r, T, 400);
  for (int k = 0; k < 400; ++k) {
    sim.advanceOverHop();
    CAPTURE(sim.time());
    REQUIRE(std::fabs(scalar(sim, "signals.y") - expected[static_cast<std::size_t>(k)]) < 1e-11);
  }
  CHECK(std::fabs(scalar(sim, "signals.y") - r) < 1e-2);  // P alone would leave r / (1 + kp)
}

TEST_CASE("Pid: the sampled PI loop converges to the continuous closed loop at first order in T") {
  // Continuous PI on tau y' = u - y with z = integral of (r - y): [y; z]' = A [y; z] + b r,
  // solved exactly as x(t) = x_ss + exp(A t) (x0 - x_ss), x_ss = [r; r / ki]. The sampled loop
  // holds u for one period: an O(T) lag, so halving T halves the largest deviation.
  const double kp = 2.0, ki = 3.0, tau = 0.5, r = 1.0;
  Eigen::Matrix2d A;
  A << -(1.0 + kp) / tau, ki / tau, -1.0, 0.0;
  const Eigen::Vector2d xss(r, r / ki);
  const auto maxDeviation = [&](double T) {
    Simulation sim({.ioStepSize = T, .integrationSteps = 4, .integrator = "rk4"});
    buildLoop(sim, {.kp = kp, .ki = ki, .kd = 0.0}, tau, r);
    sim.lock();
    double worst = 0.0;
    while (sim.time() < 3.0 - 1e-9) {
      sim.advanceOverHop();
      const Eigen::Vector2d x = xss + (A * sim.time()).exp() * (Eigen::Vector2d::Zero() - xss);
      worst = std::max(worst, std::fabs(scalar(sim, "signals.y") - x[0]));
    }
    return worst;
  };
  const double coarse = maxDeviation(0.01);
  const double fine = maxDeviation(0.005);
  CAPTURE(coarse);
  CAPTURE(fine);
  CHECK(fine < 0.02);
  CHECK(fine / coarse == doctest::Approx(0.5).epsilon(0.1));
}

TEST_CASE("Pid: output limits with conditional-integration anti-windup") {
  // u saturates at 1.5 at the start; without anti-windup the integral would grow during the
  // saturation and overshoot more. The simulated loop equals the recursion with anti-windup.
  const Gains g{.kp = 2.0, .ki = 5.0, .kd = 0.0, .lower = -1.5, .upper = 1.5};
  const double tau = 0.5, r = 1.0, T = 0.01;
  Simulation sim({.ioStepSize = T, .integrationSteps = 4, .integrator = "rk4"});
  buildLoop(sim, g, tau, r);
  sim.lock();
  const std::vector<double> expected = sampledLoop(PidReference{g}, tau, r, T, 500);
  PidReference windup{g};
  windup.antiWindup = false;
  const std::vector<double> wound = sampledLoop(windup, tau, r, T, 500);
  double peak = 0.0;
  bool saturated = false;
  for (int k = 0; k < 500; ++k) {
    sim.advanceOverHop();
    CAPTURE(sim.time());
    const double u = scalar(sim, "signals.u");
    REQUIRE(std::fabs(u) <= 1.5);
    saturated = saturated || u == 1.5;
    REQUIRE(std::fabs(scalar(sim, "signals.y") - expected[static_cast<std::size_t>(k)]) < 1e-11);
    peak = std::max(peak, scalar(sim, "signals.y"));
  }
  CHECK(saturated);
  const double woundPeak = *std::max_element(wound.begin(), wound.end());
  CAPTURE(peak);
  CAPTURE(woundPeak);
  CHECK(peak - r < 0.5 * (woundPeak - r));
}

TEST_CASE("Pid: derivative on the measurement, sampled and held at the model's own rate") {
  // kd only, 10 Hz on a 100 Hz simulation: a setpoint step changes nothing (no derivative
  // kick); a measurement step of 0.3 gives u = -kd 0.3 / 0.1 at the next sample, for one
  // sample period.
  Simulation sim({.ioStepSize = 0.01});
  sim.addSignal("r", ElementType::Double);
  sim.addSignal("y", ElementType::Double);
  sim.addSignal("u", ElementType::Double);
  sim.addModel(models::standardRegistry().create("Pid", "pid", {{"kp", 0.0}, {"kd", 0.2}}));
  sim.tie("pid", "r", "r");
  sim.tie("pid", "y", "y");
  sim.tie("pid", "u", "u");
  sim.setModelRate("pid", 10.0);
  sim.set("signals.r", 0.0);
  sim.set("signals.y", 0.0);
  sim.lock();
  for (int k = 1; k <= 40; ++k) {
    if (k == 6) sim.set("signals.r", 1.0);   // at t = 0.05
    if (k == 16) sim.set("signals.y", 0.3);  // at t = 0.15, sampled at t = 0.2
    sim.advanceOverHop();
    const double t = sim.time();
    CAPTURE(t);
    const bool kicked = t > 0.2 + 1e-9 && t < 0.3 + 1e-9;  // held over [0.2, 0.3)
    REQUIRE(scalar(sim, "signals.u") == doctest::Approx(kicked ? -0.2 * 0.3 / 0.1 : 0.0));
  }
  CHECK(std::get<double>(sim.get("models.pid.discreteStates.last_sample_time")) ==
        doctest::Approx(0.3));
}

TEST_CASE("Pid: output_min above output_max is refused") {
  Simulation sim;
  buildLoop(sim, {.kp = 1.0, .ki = 0.0, .kd = 0.0, .lower = 2.0, .upper = 1.0}, 1.0, 0.0);
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       doctest::Contains("models.pid.params.output_min = 2 exceeds output_max = 1"),
                       InputError);
}

}  // namespace hopsim
