// The native scenarios of examples/ against analytic or independent references, and a
// scenario against the equivalent C++ construction, bit for bit.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/body_assembly.h"
#include "hopsim/assemblies/gravity_assembly.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/generalized_force_motor.h"
#include "hopsim/models/hinge_encoder.h"
#include "hopsim/models/pd_controller.h"

#ifndef HOPSIM_SOURCE_DIR
#error "HOPSIM_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

namespace hopsim {
namespace {

std::string example(const std::string& file) {
  return std::string(HOPSIM_SOURCE_DIR) + "/examples/" + file;
}

InputNode map(std::vector<InputNode::Entry> entries) {
  return InputNode::mapping(std::move(entries));
}

AssemblyInputs withParams(InputNode params) {
  AssemblyInputs inputs;
  inputs.params = std::move(params);
  return inputs;
}

/// The recorded column `name`.
const std::vector<double>& column(const Recorder& r, const std::string& name) {
  return r.values(r.column(name));
}

// ---- pendulum_pd.yaml ---------------------------------------------------------------------

// The example's constants: a 1 kg bob 1 m above a PIN about y with 0.01 kg m^2 about its CM,
// g = 9.81, kp = 30, kd = 8, limit = 50, sampled every T = 20 ms.
constexpr double kMass = 1.0, kLength = 1.0, kIyy = 0.01, kGravity = 9.81;
constexpr double kKp = 30.0, kKd = 8.0, kLimit = 50.0, kSample = 0.02;

/// The exact sampled-data (zero-order-hold) solution of the linearized loop
/// I th'' = m g L th + u, u_k = -kp th_k - kd w_k held over [kT, (k+1)T]: x_{k+1} = Phi x_k +
/// Gamma u_k, with Phi = expm(A T) and Gamma = int_0^T expm(A s) ds B in closed form
/// (A = [0 1; lambda^2 0], B = [0; 1/I], lambda^2 = m g L / I). Returns [theta_k, omega_k].
std::vector<std::array<double, 2>> sampledDataReference(double theta0, std::size_t samples) {
  const double inertia = kMass * kLength * kLength + kIyy;
  const double lambda = std::sqrt(kMass * kGravity * kLength / inertia);
  const double c = std::cosh(lambda * kSample), s = std::sinh(lambda * kSample);
  const double phi[2][2] = {{c, s / lambda}, {lambda * s, c}};
  const double gamma[2] = {(c - 1.0) / (lambda * lambda * inertia), s / (lambda * inertia)};
  std::vector<std::array<double, 2>> x{{theta0, 0.0}};
  while (x.size() < samples) {
    const auto& k = x.back();
    const double u = -kKp * k[0] - kKd * k[1];
    x.push_back({phi[0][0] * k[0] + phi[0][1] * k[1] + gamma[0] * u,
                 phi[1][0] * k[0] + phi[1][1] * k[1] + gamma[1] * u});
  }
  return x;
}

TEST_CASE("examples: pendulum_pd.yaml follows the sampled-data solution of its linearized loop") {
  // A 1 mrad tilt keeps the linearization honest: the neglected torque m g L (th - sin th) ~
  // m g L th^3/6 <= 1.6e-9 N m is an acceleration ~1.6e-9 rad/s^2 that the loop (stiffness
  // (kp - m g L)/I ~ 20/s^2) turns into at most ~1e-10 rad of angle and, times the loop's
  // natural frequency ~4.5/s, ~4e-10 rad/s of rate. rk4 with h = 2 ms on the within-hop dynamics
  // (rate lambda ~ 3.1/s) makes a relative local error ~(lambda h)^5/120 ~ 1e-13 per step,
  // ~1e-13 rad absolute over the 2500 steps of a decaying 1e-3 rad motion: negligible. Hence
  // 2e-10 rad and 1e-9 rad/s (observed: 2.6e-11 and 1.1e-10); a wrong inertia, gain, hold or
  // sample phase shows as >= 1e-6 rad.
  const auto scenario =
      Scenario::load(example("pendulum_pd.yaml"), {"assemblies.pendulum.params.hinge.q=[0.001]"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto& q = column(r, "multibody.bodies.pendulum.Q");
  const auto& u = column(r, "multibody.bodies.pendulum.U");
  REQUIRE(r.rows() == 251);  // t = 0, 0.02, ..., 5
  const auto reference = sampledDataReference(1e-3, r.rows());
  double worstQ = 0.0, worstU = 0.0;
  for (std::size_t k = 0; k < r.rows(); ++k) {
    REQUIRE(r.times()[k] == doctest::Approx(kSample * static_cast<double>(k)).epsilon(1e-12));
    worstQ = std::max(worstQ, std::abs(q[k] - reference[k][0]));
    worstU = std::max(worstU, std::abs(u[k] - reference[k][1]));
  }
  MESSAGE("largest deviation from the sampled-data reference: theta ", worstQ, " rad, omega ",
          worstU, " rad/s");
  CHECK(worstQ < 2e-10);
  CHECK(worstU < 1e-9);
  // The reference itself moves: the comparison is not against a trivially small signal.
  CHECK(std::abs(reference[10][0] - 1e-3) > 1e-4);
}

TEST_CASE("examples: pendulum_pd.yaml as it is ends upright within the torque limit") {
  const auto scenario = Scenario::load(example("pendulum_pd.yaml"));
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto& q = column(r, "multibody.bodies.pendulum.Q");
  const auto& torque = column(r, "signals.torque");
  REQUIRE(r.rows() == 251);
  CHECK(q.front() == 0.1);
  CHECK(r.times().back() == doctest::Approx(5.0).epsilon(1e-12));
  CHECK(std::abs(q.back()) < 1e-4);
  CHECK(std::abs(scenario->sim().multibody().q()[0]) < 1e-4);
  // Row 0 (t = 0) holds the controller's output before its first update (NaN: the recorder's
  // first row comes before the first hop's initial update; docs/scenario-yaml.md); from t = 0.02 on
  // every command is finite and within the limit, and is the PD law of the recorded state up to
  // rounding (the encoder reads it exactly).
  const auto& u = column(r, "multibody.bodies.pendulum.U");
  double largest = 0.0;
  for (std::size_t k = 1; k < r.rows(); ++k) {
    REQUIRE(std::isfinite(torque[k]));
    largest = std::max(largest, std::abs(torque[k]));
    CHECK(std::abs(torque[k] - (-kKp * q[k] - kKd * u[k])) < 1e-12);
  }
  CHECK(largest <= kLimit);
  CHECK(largest > 1.0);  // the loop did work
}

// ---- lander_touchdown.yaml ----------------------------------------------------------------

TEST_CASE("examples: lander_touchdown.yaml stops at the analytic touchdown time") {
  // Free fall from 20 m in 3.71 m/s^2; the foot is 2 m below the body's origin.
  const double touchdown = std::sqrt(2.0 * (20.0 - 2.0) / 3.71);
  const auto scenario = Scenario::load(example("lander_touchdown.yaml"));
  scenario->run();
  // The crossing is located to 1e-10 s (the event's default tolerance); rk4 integrates a
  // constant acceleration exactly up to rounding, so 1e-9 s leaves 10x margin.
  REQUIRE(scenario->eventLog().size() == 1);
  const EventLogEntry& entry = scenario->eventLog().front();
  CHECK(entry.event == "touchdown");
  CHECK(entry.message == "foot on the ground");
  CHECK(std::abs(entry.time - touchdown) < 1e-9);
  CHECK(std::abs(scenario->sim().stateTime() - touchdown) < 1e-9);
  CHECK(scenario->sim().stateTime() < scenario->endTime());
  // No torque acts (uniform gravity), so the attitude stays the identity and the fall is
  // vertical: rounding only.
  const Recorder& r = scenario->recorder();
  REQUIRE(r.rows() > 2);
  for (std::size_t k = 0; k < r.rows(); ++k) {
    const double expected[6] = {1.0, 0.0, 0.0, 0.0, 0.0, 0.0};  // quaternion, x, y
    for (int i = 0; i < 6; ++i) {
      const std::string name = "multibody.bodies.body.Q[" + std::to_string(i) + "]";
      CHECK(std::abs(column(r, name)[k] - expected[i]) < 1e-14);
    }
  }
  // The last recorded height is above the foot-on-ground height, and the final state at it.
  const auto& z = column(r, "multibody.bodies.body.Q[6]");
  CHECK(z.front() == 20.0);
  CHECK(z.back() >= 2.0 - 1e-9);
}

// ---- signal_ties.yaml ---------------------------------------------------------------------

TEST_CASE("examples: signal_ties.yaml carries B's sine through A.a into C") {
  const auto scenario = Scenario::load(example("signal_ties.yaml"));
  scenario->run();
  const Recorder& r = scenario->recorder();
  const auto& a = column(r, "signals.A.a");
  const auto& y = column(r, "signals.A.C.y");
  REQUIRE(r.rows() == 101);
  // Values of order 6 evaluated by one sin: 1e-12 allows rounding in the time argument.
  // Row 0 (t = 0) is taken before the models' first update (NaN until then).
  bool moves = false;
  for (std::size_t k = 1; k < r.rows(); ++k) {
    const double t = r.times()[k];
    const double sine = std::sin(2.0 * std::numbers::pi * 2.0 * t);
    CHECK(std::abs(a[k] - 3.0 * sine) < 1e-12);
    CHECK(std::abs(y[k] - 2.0 * 3.0 * sine) < 1e-12);
    moves = moves || std::abs(y[k]) > 5.0;
  }
  CHECK(moves);
}

TEST_CASE("examples: pendulum_pd.yaml and its C++ construction agree bit for bit") {
  const std::vector<std::string> logged = {"multibody.bodies.pendulum.Q",
                                           "multibody.bodies.pendulum.U", "signals.torque"};
  const auto scenario = Scenario::load(example("pendulum_pd.yaml"));
  scenario->run();

  // The same simulation in C++: the simulation section's options, then what the scenario
  // builds in its order (top-level signals, the assemblies, the models with their attachments
  // and ties).
  SimulationOptions options;
  options.ioStepSize = 0.02;
  options.integrationSteps = 10;
  options.integrator = "rk4";
  Simulation sim(options);
  SimulationAssembly top(sim);
  sim.addSignal("angle", ElementType::Double, 1, "rad", "measured tilt");
  sim.addSignal("rate", ElementType::Double, 1, "rad/s", "measured tilt rate");
  sim.addSignal("torque", ElementType::Double, 1, "N*m", "commanded hinge torque");
  top.addAssembly<GravityAssembly>("gravity", withParams(map({{"g", {0.0, 0.0, -9.81}}})));
  top.addAssembly<BodyAssembly>(
      "pendulum",
      withParams(
          map({{"mass", 1.0},
               {"cm", {0.0, 0.0, 1.0}},
               {"inertia", {0.01, 0.01, 0.01}},
               {"hinge", map({{"type", "PIN"}, {"axes", {0.0, 1.0, 0.0}}, {"q", {0.1}}})}})));
  auto& encoder = sim.addModel<models::HingeEncoder>("encoder");
  encoder.attachToHinge("pendulum");
  auto& controller = sim.addModel<models::PdController>("controller");
  controller.setParam("kp", 30.0);
  controller.setParam("kd", 8.0);
  controller.setParam("limit", 50.0);
  auto& motor = sim.addModel<models::GeneralizedForceMotor>("motor");
  motor.attachToHinge("pendulum");
  sim.tie("encoder", "q", "angle");
  sim.tie("encoder", "u", "rate");
  sim.tie("controller", "q", "angle");
  sim.tie("controller", "qdot", "rate");
  sim.tie("controller", "u", "torque");
  sim.tie("motor", "force", "torque");
  sim.lock();
  Recorder recorder(sim, logged);
  sim.advanceTimeTo(5.0);

  const Recorder& fromFile = scenario->recorder();
  REQUIRE(recorder.columns() == fromFile.columns());
  REQUIRE(recorder.rows() == fromFile.rows());
  REQUIRE(recorder.rows() == 251);
  CHECK(recorder.times() == fromFile.times());
  // Identical bits (so the NaN of the t = 0 torque sample compares equal to itself, and
  // -0.0 differs from 0.0).
  std::size_t differing = 0;
  for (std::size_t c = 1; c < recorder.columns().size(); ++c) {
    for (std::size_t k = 0; k < recorder.rows(); ++k) {
      if (std::bit_cast<std::uint64_t>(recorder.values(c)[k]) !=
          std::bit_cast<std::uint64_t>(fromFile.values(c)[k])) {
        ++differing;
      }
    }
  }
  CHECK(differing == 0);
  CHECK(sim.stateTime() == scenario->sim().stateTime());
  const bool sameQ = sim.multibody().q() == scenario->sim().multibody().q();
  const bool sameU = sim.multibody().u() == scenario->sim().multibody().u();
  CHECK(sameQ);
  CHECK(sameU);
  // And the run did something: the pendulum moved from its tilt.
  CHECK(sim.multibody().q()[0] != 0.1);
}

}  // namespace

// ---- cart_pole_balance.yaml (a Chrono model file in a scenario) ------------------------------

namespace {

/// The cart-pole of cart_pole_model.yaml in its own Lagrangian coordinates (cart x, pole angle
/// θ about +y, COM at l from the pivot): (M + m) ẍ + m l cos θ θ̈ - m l sin θ θ̇² = F and
/// m l cos θ ẍ + (I + m l²) θ̈ - m g l sin θ = 0, with the PD force F = kp θ_k + kd θ̇_k held
/// over each 10 ms sample; RK4 at 0.1 ms. Independent of the tree engine and of the lowering.
class CartPoleReference {
 public:
  /// θ at the end of each sample, from θ(0) = 0, θ̇(0) = 0.5 rad/s, x = ẋ = 0.
  std::vector<double> run(int samples) {
    std::vector<double> theta{0.0};
    State s{0.0, 0.0, 0.0, 0.5};  // x, θ, ẋ, θ̇
    for (int k = 0; k < samples; ++k) {
      const double force = kKp * s[1] + kKd * s[3];
      for (int i = 0; i < 100; ++i) s = step(s, force, 1e-4);
      theta.push_back(s[1]);
    }
    return theta;
  }

 private:
  using State = std::array<double, 4>;
  static constexpr double kM = 1.0, km = 0.5, kl = 0.5, kI = 0.05, kg = 9.8;
  static constexpr double kKp = 60.0, kKd = 12.0;

  static State rate(const State& s, double force) {
    const double c = std::cos(s[1]), sn = std::sin(s[1]);
    // [[M + m, m l c], [m l c, I + m l²]] [ẍ, θ̈] = [F + m l sin θ θ̇², m g l sin θ].
    const double a = kM + km, b = km * kl * c, d = kI + km * kl * kl;
    const double r1 = force + km * kl * sn * s[3] * s[3], r2 = km * kg * kl * sn;
    const double det = a * d - b * b;
    return {s[2], s[3], (d * r1 - b * r2) / det, (a * r2 - b * r1) / det};
  }
  static State step(const State& s, double force, double h) {
    const auto add = [](const State& x, const State& dx, double f) {
      return State{x[0] + f * dx[0], x[1] + f * dx[1], x[2] + f * dx[2], x[3] + f * dx[3]};
    };
    const State k1 = rate(s, force);
    const State k2 = rate(add(s, k1, h / 2), force);
    const State k3 = rate(add(s, k2, h / 2), force);
    const State k4 = rate(add(s, k3, h), force);
    State out = s;
    for (int i = 0; i < 4; ++i) out[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return out;
  }
};

}  // namespace

TEST_CASE("examples: cart_pole_balance.yaml follows the cart-pole's own equations and settles") {
  const auto scenario = Scenario::load(example("cart_pole_balance.yaml"));
  CHECK(scenario->warnings().empty());
  scenario->run();
  const Recorder& r = scenario->recorder();
  const std::vector<double>& theta = column(r, "signals.cp.joints.hinge.q");
  const std::vector<double> expected = CartPoleReference().run(800);
  REQUIRE(theta.size() == expected.size());
  // RK4 at 1 ms on the tree against RK4 at 0.1 ms on the Lagrangian: the motion is slow for both
  // step sizes, and they agree to 7e-14 rad here; 1e-10 rad leaves room for other compilers.
  double worst = 0.0, peak = 0.0;
  for (std::size_t k = 0; k < theta.size(); ++k) {
    worst = std::max(worst, std::abs(theta[k] - expected[k]));
    peak = std::max(peak, std::abs(theta[k]));
  }
  CHECK(worst < 1e-10);
  CHECK(peak > 0.02);                    // it leans first (0.5 rad/s initial rate) ...
  CHECK(std::abs(theta.back()) < 1e-6);  // ... and settles upright
}

}  // namespace hopsim

namespace hopsim {
namespace {

// ---- slider_pushes_ball.yaml ------------------------------------------------------------------

TEST_CASE(
    "contact (long): examples: slider_pushes_ball.yaml runs 20 s with contact and keeps the "
    "books") {
  auto scenario = Scenario::load(example("slider_pushes_ball.yaml"), {"simulation.end_time=20"});
  scenario->run();
  const Recorder& r = scenario->recorder();
  REQUIRE(r.rows() == 2001);  // 100 samples a second (the output fps of a model file)
  const auto& ball = column(r, "bodies.ball.position.x");
  const auto& slider = column(r, "bodies.slider.position.x");
  const auto& count = column(r, "contact.contact_count");
  const auto& depth = column(r, "contact.max_penetration");
  const auto& momentum = column(r, "system.linear_momentum.x");
  // The bodies' reference frames are their centres of mass: the momentum is Σ m v.
  const std::pair<const char*, double> masses[] = {
      {"crank", 1.0}, {"rod", 0.5}, {"slider", 2.0}, {"ball", 0.5}};
  std::size_t touching = 0;
  for (std::size_t i = 0; i < r.rows(); ++i) {
    CAPTURE(r.times()[i]);
    for (std::size_t c = 1; c < r.columns().size(); ++c) REQUIRE(std::isfinite(r.values(c)[i]));
    // The ball stays on its rail between its rest (2.2 m, less the spring's overshoot) and
    // the slider's reach (front face 2.15 m plus its radius 0.1 m).
    CHECK(ball[i] > 2.1);
    CHECK(ball[i] < 2.25 + 1e-6);
    double sum = 0.0;
    for (const auto& [body, m] : masses) {
      sum += m * column(r, std::string("bodies.") + body + ".velocity.x")[i];
    }
    CHECK(momentum[i] == doctest::Approx(sum).epsilon(1e-9).scale(1.0));
    if (count[i] > 0.0) {
      ++touching;
      // In contact the ball's centre is the slider's half length and its own radius ahead.
      CHECK(depth[i] < 1e-3);
      CHECK(ball[i] - slider[i] == doctest::Approx(0.25 - depth[i]).epsilon(1e-6));
    }
  }
  // Ten turns of the crank (π s each), each pushing for a while.
  CHECK(touching > 100);
  CHECK(*std::max_element(ball.begin(), ball.end()) > 2.249);
}

}  // namespace
}  // namespace hopsim
