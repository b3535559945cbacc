// A multi-rate control loop: a fast plant (MassSpringDamper, integrated on 1 ms hops), a slow
// controller (a PdController whose command a ZeroOrderHold samples at 20 Hz, or a Pid at
// 20 Hz) and the hold between them. The sampled-data response must equal the exact ZOH
// discretization of the closed loop, computed here with the matrix exponential, at every fast hop.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cmath>
#include <unsupported/Eigen/MatrixFunctions>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"

namespace hopsim {
namespace {

double scalar(const Simulation& sim, std::string_view path) {
  const Value value = sim.get(path);
  if (const auto* x = std::get_if<double>(&value)) return *x;
  return std::get<std::vector<double>>(value)[0];
}

/// Exact response of x' = A x + B u over a time s with u held: [Phi(s), Gamma(s)] from
/// exp([[A, B], [0, 0]] s).
struct Discretized {
  Eigen::Matrix2d phi;
  Eigen::Vector2d gamma;
};
Discretized discretize(const Eigen::Matrix2d& A, const Eigen::Vector2d& B, double s) {
  Eigen::Matrix3d M = Eigen::Matrix3d::Zero();
  M.topLeftCorner<2, 2>() = A;
  M.topRightCorner<2, 1>() = B;
  const Eigen::Matrix3d E = (M * s).exp();
  return {E.topLeftCorner<2, 2>(), E.topRightCorner<2, 1>()};
}

/// The plant's exact responses after j = 1..hops fast hops of h with its input held.
std::vector<Discretized> heldInputResponses(double m, double k, double c, double h, int hops) {
  Eigen::Matrix2d A;
  A << 0.0, 1.0, -k / m, -c / m;
  const Eigen::Vector2d B(0.0, 1.0 / m);
  std::vector<Discretized> within;
  for (int j = 1; j <= hops; ++j) within.push_back(discretize(A, B, j * h));
  return within;
}

/// The plant m x'' + c x' + k x = F ("plant", a MassSpringDamper) on signals "x", "v" and
/// "F", and a ZeroOrderHold "zoh" at 1/T that holds the signal "command" into "F". The
/// controller, which writes "command", is the test's.
void addPlantBehindHold(Simulation& sim, double m, double k, double c, double T) {
  sim.addSignal("x", ElementType::Double, 1, "m");
  sim.addSignal("v", ElementType::Double, 1, "m/s");
  sim.addSignal("command", ElementType::Double, 1, "N");
  sim.addSignal("F", ElementType::Double, 1, "N");
  const ModelRegistry& registry = models::standardRegistry();
  sim.addModel(registry.create("MassSpringDamper", "plant", {{"m", m}, {"k", k}, {"c", c}}));
  sim.addModel(registry.create("ZeroOrderHold", "zoh"));
  sim.tie("plant", "x", "x");
  sim.tie("plant", "v", "v");
  sim.tie("plant", "F", "F");
  sim.tie("zoh", "u", "command");
  sim.tie("zoh", "y", "F");
  sim.setModelRate("zoh", 1.0 / T);
}

}  // namespace

TEST_CASE(
    "ZeroOrderHold: a multi-rate loop (fast plant, PD sampled at 20 Hz) is the exact "
    "ZOH-discretized loop") {
  // Plant m x'' + c x' + k x = F; controller F_k = -kp x(t_k) - kd v(t_k), held on
  // [t_k, t_k + T). T = 0.05 s is 50 plant hops; the gains make the sampled loop visibly
  // different from the continuous one (w_n T ~ 0.15 rad per sample).
  const double m = 1.0, k = 4.0, c = 0.2, kp = 6.0, kd = 1.5;
  const double h = 1e-3, T = 0.05;
  const int hopsPerSample = 50;
  Simulation sim({.ioStepSize = h, .integrator = "rk4"});
  addPlantBehindHold(sim, m, k, c, T);
  sim.addModel(models::standardRegistry().create("PdController", "pd", {{"kp", kp}, {"kd", kd}}));
  sim.tie("pd", "q", "x");
  sim.tie("pd", "qdot", "v");
  sim.tie("pd", "u", "command");
  const double x0 = 0.5, v0 = -0.2;
  sim.set("models.plant.continuousStates.x", x0);
  sim.set("models.plant.continuousStates.v", v0);
  sim.lock();  // no algebraic loop: the plant and the hold have no feed-through

  const std::vector<Discretized> within = heldInputResponses(m, k, c, h, hopsPerSample);

  Eigen::Vector2d xk(x0, v0);
  const Eigen::Vector2d gains(-kp, -kd);
  double largestCommand = 0.0;
  for (int sample = 0; sample < 80; ++sample) {  // 4 s
    const double uk = gains.dot(xk);
    largestCommand = std::max(largestCommand, std::fabs(uk));
    for (int j = 1; j <= hopsPerSample; ++j) {
      sim.advanceOverHop();
      const Discretized& d = within[static_cast<std::size_t>(j - 1)];
      const Eigen::Vector2d expected = d.phi * xk + d.gamma * uk;
      CAPTURE(sim.time());
      // rk4 at w h ~ 3e-3 on a smooth held-input solution: global error ~1e-12 of 0.5 m.
      REQUIRE(std::fabs(scalar(sim, "signals.x") - expected[0]) < 1e-10);
      REQUIRE(std::fabs(scalar(sim, "signals.v") - expected[1]) < 1e-10);
      // The plant sees the command of the last sample, not the current PD output.
      REQUIRE(scalar(sim, "signals.F") == doctest::Approx(uk).epsilon(1e-12));
    }
    xk = within.back().phi * xk + within.back().gamma * uk;
  }
  CHECK(largestCommand > 1.0);
  CHECK(std::get<std::int64_t>(sim.get("models.zoh.discreteStates.samples")) == 80);
  CHECK(std::fabs(scalar(sim, "signals.x")) < 0.05);  // the sampled loop is stable and settles
}

TEST_CASE("ZeroOrderHold: a slow Pid behind a hold at its own rate acts one sample late") {
  // The Pid (20 Hz, derivative on the measured position) and the hold (20 Hz) both act at each
  // t_k, between the same two output sweeps: the hold samples the command the Pid published
  // before this sample, c_{k-1} (c_{-1} = 0). This is the deterministic computational delay
  // of a rate transition; the loop equals the delayed recursion
  // x_{k+1} = Phi x_k + Gamma c_{k-1}, c_k = -kp x_k - kd (x_k - x_{k-1}) / T, to rk4's error.
  const double m = 1.0, k = 4.0, c = 0.2, kp = 3.0, kd = 1.0;
  const double h = 1e-3, T = 0.05;
  const int hopsPerSample = 50;
  Simulation sim({.ioStepSize = h, .integrator = "rk4"});
  addPlantBehindHold(sim, m, k, c, T);
  sim.addSignal("zero", ElementType::Double, 1, "m");
  sim.addModel(models::standardRegistry().create("Pid", "pid", {{"kp", kp}, {"kd", kd}}));
  sim.tie("pid", "r", "zero");
  sim.tie("pid", "y", "x");
  sim.tie("pid", "u", "command");
  sim.setModelRate("pid", 1.0 / T);
  sim.set("signals.zero", 0.0);
  sim.set("models.plant.continuousStates.x", 0.5);
  sim.lock();

  const std::vector<Discretized> within = heldInputResponses(m, k, c, h, hopsPerSample);

  Eigen::Vector2d xk(0.5, 0.0);
  double previousCommand = 0.0, previousX = 0.0;
  for (int sample = 0; sample < 80; ++sample) {
    const double derivative = sample == 0 ? 0.0 : -kd * (xk[0] - previousX) / T;
    const double command = -kp * xk[0] + derivative;
    const double applied = previousCommand;
    for (int j = 1; j <= hopsPerSample; ++j) {
      sim.advanceOverHop();
      const Discretized& d = within[static_cast<std::size_t>(j - 1)];
      const Eigen::Vector2d expected = d.phi * xk + d.gamma * applied;
      CAPTURE(sim.time());
      REQUIRE(std::fabs(scalar(sim, "signals.x") - expected[0]) < 1e-10);
      REQUIRE(scalar(sim, "signals.F") == doctest::Approx(applied).epsilon(1e-12));
      REQUIRE(scalar(sim, "signals.command") == doctest::Approx(command).epsilon(1e-12));
    }
    previousX = xk[0];
    previousCommand = command;
    xk = within.back().phi * xk + within.back().gamma * applied;
  }
  CHECK(std::fabs(scalar(sim, "signals.x")) < 0.5);
}

}  // namespace hopsim
