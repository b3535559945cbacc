// Linearization and trim (Simulation::linearize, Simulation::trim) against closed-form
// references: a first-order thermal node, pendulums, the cart-pole, the double pendulum, a free
// body spinning about its intermediate axis; and the promise that linearizing changes nothing.

#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>
#include <string>
#include <unsupported/Eigen/MatrixFunctions>
#include <vector>

#include "continuous_test_models.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/snapshot.h"
#include "hopsim/signals/error.h"
#include "multibody_test_models.h"
#include "same_bits.h"
#include "test_models.h"

namespace hopsim::test {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

constexpr double g = 9.81;

/// C T' = P - (T - Ta) / R with P on signal "P" and T on signal "T".
void buildThermal(Simulation& sim) {
  sim.addSignal("P", ElementType::Double);
  sim.addSignal("T", ElementType::Double);
  sim.addModel<ThermalNode>("node");
  sim.tie("node", "P", "P");
  sim.tie("node", "T", "T");
  sim.lock();
  sim.set("signals.P", 3.0);
  sim.set("models.node.continuousStates.T", 310.0);
}

/// A rigid pendulum on a PIN about x at the world origin, its CM c below the pivot (above it
/// when `inverted`), driven by the HingeDrive "motor" (param f, N·m).
struct Pendulum {
  double m = 2.0, c = 0.7, I = 0.05;
  /// ω² = m g c / (I + m c²), the small-angle frequency squared.
  double omega2() const { return m * g * c / (I + m * c * c); }
};

void buildPendulum(Simulation& sim, const Pendulum& p, bool inverted) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -g});
  tree.addBody(
      "arm", kWorldBody,
      SpatialInertia::fromCmInertia(p.m, {0, 0, inverted ? p.c : -p.c}, Matrix3::Identity() * p.I),
      Hinge::pin(Vector3::UnitX()));
  sim.addModel<HingeDrive>("motor").attachToHinge("arm");
}

/// A cart on a SLIDER along x pushed by HingeDrive "push" (N), and a pole on a PIN about y
/// whose CM is l above the pivot at θ = 0: M q̈ = K q + b F with the textbook
/// M = [M + m, m l; m l, I + m l²], K = [0, 0; 0, m g l], b = [1; 0].
struct CartPole {
  double cart = 1.5, m = 0.4, l = 0.6, I = 0.02;
};

void buildCartPole(Simulation& sim, const CartPole& p) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -g});
  tree.addBody("cart", kWorldBody,
               SpatialInertia::fromCmInertia(p.cart, {0, 0, 0}, Matrix3::Identity() * 0.1),
               Hinge::slider(Vector3::UnitX()));
  tree.addBody("pole", "cart",
               SpatialInertia::fromCmInertia(p.m, {0, 0, p.l}, Matrix3::Identity() * p.I),
               Hinge::pin(Vector3::UnitY()));
  sim.addModel<HingeDrive>("push").attachToHinge("cart");
  sim.lock();
}

/// [0 I; M⁻¹K 0] and [0; M⁻¹b] of M q̈ = K q + b u.
std::pair<Eigen::MatrixXd, Eigen::MatrixXd> secondOrder(const Eigen::MatrixXd& M,
                                                        const Eigen::MatrixXd& K,
                                                        const Eigen::MatrixXd& b) {
  const Eigen::Index n = M.rows();
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  A.topRightCorner(n, n).setIdentity();
  A.bottomLeftCorner(n, n) = M.inverse() * K;
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(2 * n, b.cols());
  B.bottomRows(n) = M.inverse() * b;
  return {A, B};
}

double largestDifference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("linearize: a first-order node's A, B, C, D are exact in every scheme") {
  Simulation sim;
  buildThermal(sim);
  for (DifferenceScheme scheme : {DifferenceScheme::Forward, DifferenceScheme::Central2,
                                  DifferenceScheme::Central4, DifferenceScheme::Richardson}) {
    CAPTURE(toString(scheme));
    LinearizationRequest request{{}, {"signals.P"}, {"signals.T"}, {}};
    request.options.scheme = scheme;
    const LinearSystem lin = sim.linearize(request);
    // R = 2 K/W, C = 5 J/K: A = -1/(RC), B = 1/C. The model is linear, so only the round-off
    // of f's evaluation remains, about ε |T/(RC)| / h: 1e-14 / h, at most 1e-6 for the forward
    // difference's h = √ε, 1e-12 for the others' h ≥ 1e-4.
    const double tolerance = scheme == DifferenceScheme::Forward ? 1e-6 : 1e-9;
    CHECK(lin.A(0, 0) == doctest::Approx(-0.1).epsilon(tolerance));
    CHECK(lin.B(0, 0) == doctest::Approx(0.2).epsilon(tolerance));
    // The output T is the state T, whatever sweeps it is published at.
    CHECK(lin.y0[0] == 310.0);
    CHECK(lin.C(0, 0) == doctest::Approx(1.0).epsilon(tolerance));
    CHECK(lin.D(0, 0) == 0.0);
    CHECK(lin.stateNames == std::vector<std::string>{"models.node.continuousStates.T"});
    CHECK(lin.stateUnits == std::vector<std::string>{"K"});
    CHECK(lin.inputNames == std::vector<std::string>{"signals.P"});
    CHECK(lin.xdot0[0] == doctest::Approx((3.0 - 10.0 / 2.0) / 5.0));
    CHECK(lin.stateColumnError[0] < tolerance);
  }
}

TEST_CASE("linearize: the step follows the relative error target, per column with relativeStep") {
  Simulation sim;
  buildThermal(sim);
  LinearizationRequest request{{}, {"signals.P"}, {}, {}};
  request.options.scheme = DifferenceScheme::Central2;
  request.options.relativeError = 1e-6;
  LinearSystem lin = sim.linearize(request);
  CHECK(lin.step == doctest::Approx(1e-3));  // h = relativeError^(1/2)
  request.options.relativeError = 1e-30;     // below the round-off floor ε^(1/3)
  lin = sim.linearize(request);
  CHECK(lin.step == doctest::Approx(std::cbrt(std::numeric_limits<double>::epsilon())));
  request.options = {DifferenceScheme::Forward, 1e-8, 1e-4, 0.5};
  lin = sim.linearize(request);
  // Rounded to powers of two: 1e-4 (1 + 155) = 0.0156 -> 2⁻⁶, 1e-4 (1 + 1.5) -> 2⁻¹²
  CHECK(lin.stateSteps[0] == std::exp2(-6));
  CHECK(lin.inputSteps[0] == std::exp2(-12));
}

TEST_CASE("linearize: a bad request is refused with what was wrong") {
  Simulation sim;
  buildThermal(sim);
  const auto refuses = [&](LinearizationRequest r, const char* text) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(sim.linearize(r), doctest::Contains(text), InputError);
  };
  refuses({{"models.node.continuousStates.X"}, {}, {}, {}}, "matches no continuous state");
  refuses({{}, {"signals.Q"}, {}, {}}, "matches no numeric variable");
  refuses({{}, {"models.node.continuousStates.T"}, {}, {}}, "is not a double signal");
  refuses({{}, {}, {"signals.T[3]"}, {}}, "has 1 elements");
  LinearizationRequest r;
  r.options.relativeStep = 0.1;
  refuses(r, "cannot be used with the richardson scheme");
  r.options = {};
  r.options.step = -1.0;
  refuses(r, "step -1 must be finite and positive");
  Simulation unlocked;
  CHECK_THROWS_WITH_AS(unlocked.linearize({}), doctest::Contains("lock()"), ModelError);
}

TEST_CASE("linearize: sampled at the I/O step, the node gives Φ = e^(AT), Γ = R (1 - Φ)") {
  Simulation sim(SimulationOptions{.ioStepSize = 0.25});
  buildThermal(sim);
  LinearizationRequest request{{}, {"signals.P"}, {"signals.T"}, {}};
  request.options.discrete = DiscreteRule::SampledData;
  const LinearSystem lin = sim.linearize(request);
  const double phi = std::exp(-0.1 * 0.25);
  CHECK(lin.discrete());
  CHECK(lin.samplePeriod == 0.25);
  CHECK(lin.A(0, 0) == doctest::Approx(phi).epsilon(1e-12));
  CHECK(lin.B(0, 0) == doctest::Approx(2.0 * (1.0 - phi)).epsilon(1e-9));
}

TEST_CASE("linearize: a pendulum hanging has ±i ω, inverted ±ω, ω² = m g c / (I + m c²)") {
  const Pendulum p;
  for (bool inverted : {false, true}) {
    CAPTURE(inverted);
    Simulation sim;
    buildPendulum(sim, p, inverted);
    sim.lock();
    const LinearSystem lin = sim.linearize({{}, {"models.motor.params.f"}, {}, {}});
    REQUIRE(lin.A.rows() == 2);
    // The model's own equations: θ̈ = ∓ω² θ + f / (I + m c²).
    Eigen::Matrix2d A;
    A << 0, 1, (inverted ? 1 : -1) * p.omega2(), 0;
    CHECK(largestDifference(lin.A, A) < 1e-8);
    CHECK(lin.B(1, 0) == doctest::Approx(1.0 / (p.I + p.m * p.c * p.c)).epsilon(1e-9));
    const Eigen::Vector2cd eig = lin.A.eigenvalues();
    const double w = std::sqrt(p.omega2());
    for (int k = 0; k < 2; ++k) {
      CHECK(std::abs(inverted ? eig[k].imag() : eig[k].real()) < 1e-8);
      CHECK(std::abs(inverted ? eig[k].real() : eig[k].imag()) == doctest::Approx(w));
    }
  }
}

TEST_CASE("linearize: the cart-pole upright gives the textbook matrices") {
  const CartPole p;
  Simulation sim;
  buildCartPole(sim, p);
  const LinearSystem lin =
      sim.linearize({{}, {"models.push.params.f"}, {"multibody.bodies.pole.Q"}, {}});
  Eigen::Matrix2d M, K;
  M << p.cart + p.m, p.m * p.l, p.m * p.l, p.I + p.m * p.l * p.l;
  K << 0, 0, 0, p.m * g * p.l;
  const auto [A, B] = secondOrder(M, K, Eigen::Vector2d(1, 0));
  // X is [x, ẋ, θ, θ̇] in body order; the reference is [x, θ, ẋ, θ̇].
  Eigen::PermutationMatrix<4> order(Eigen::Vector4i(0, 2, 1, 3));
  CHECK(lin.stateNames[1] == "multibody.bodies.cart.U[0]");
  CHECK(largestDifference(lin.A, order.transpose() * A * order) < 1e-8);
  CHECK(largestDifference(lin.B, order.transpose() * B) < 1e-9);
  CHECK(largestDifference(lin.C, Eigen::RowVector4d(0, 0, 1, 0)) < 1e-9);
  CHECK(lin.D(0, 0) == 0.0);
  CHECK(lin.stateUnits == std::vector<std::string>{"m", "m/s", "rad", "rad/s"});
}

TEST_CASE("linearize: the double pendulum's A matches the Lagrangian derived by hand") {
  // Absolute angles φ = T θ of the joint angles θ: M_φ = [I1 + m1 a1² + m2 l1², m2 l1 a2;
  // m2 l1 a2, I2 + m2 a2²], V'' = diag(g (m1 a1 + m2 l1), g m2 a2) at the hanging rest; in
  // joint coordinates Tᵀ M_φ T and Tᵀ V'' T.
  const double m1 = 1.2, m2 = 0.8, a1 = 0.4, a2 = 0.35, l1 = 0.9, I1 = 0.03, I2 = 0.02;
  Simulation sim;
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -g});
  tree.addBody("upper", kWorldBody,
               SpatialInertia::fromCmInertia(m1, {0, 0, -a1}, Matrix3::Identity() * I1),
               Hinge::pin(Vector3::UnitX()));
  tree.addBody("lower", "upper",
               SpatialInertia::fromCmInertia(m2, {0, 0, -a2}, Matrix3::Identity() * I2),
               Hinge::pin(Vector3::UnitX()), RigidTransform::fromTranslation({0, 0, -l1}));
  sim.lock();
  const LinearSystem lin = sim.linearize({});
  Eigen::Matrix2d Mphi, Vphi, T;
  Mphi << I1 + m1 * a1 * a1 + m2 * l1 * l1, m2 * l1 * a2, m2 * l1 * a2, I2 + m2 * a2 * a2;
  Vphi << g * (m1 * a1 + m2 * l1), 0, 0, g * m2 * a2;
  T << 1, 0, 1, 1;
  const auto [A, B] = secondOrder(T.transpose() * Mphi * T, -(T.transpose() * Vphi * T),
                                  Eigen::MatrixXd::Zero(2, 0));
  Eigen::PermutationMatrix<4> order(Eigen::Vector4i(0, 2, 1, 3));
  // The default scheme aims at a relative error of 1e-8 (its error estimate says so too).
  const Eigen::MatrixXd reference = order.transpose() * A * order;
  CHECK(largestDifference(lin.A, reference) < 1e-8 * reference.cwiseAbs().maxCoeff());
  CHECK(lin.stateColumnError.maxCoeff() < 1e-8 * reference.cwiseAbs().maxCoeff());
}

TEST_CASE("linearize: a free body spinning about its intermediate axis, in 12 coordinates") {
  // Euler's equations about a spin Ω about axis 2: λ² = Ω² (I2 - I1)(I3 - I2) / (I1 I3).
  const double I1 = 1.0, I2 = 2.0, I3 = 3.0, spin = 1.5;
  Simulation sim;
  auto& tree = sim.multibody().editModel();
  tree.addBody(
      "box", kWorldBody,
      SpatialInertia::fromCmInertia(4.0, {0, 0, 0}, Eigen::Vector3d(I1, I2, I3).asDiagonal()),
      Hinge::full6Dof());
  sim.lock();
  Eigen::VectorXd q(7);
  const double half = 0.35;  // any attitude: the chart is about the current one
  q << std::cos(half), std::sin(half) / std::sqrt(3.0), std::sin(half) / std::sqrt(3.0),
      std::sin(half) / std::sqrt(3.0), 1.0, 2.0, 3.0;
  sim.multibody().q() = q;
  sim.multibody().u() << 0, spin, 0, 0, 0, 0;
  const LinearSystem lin = sim.linearize({});
  REQUIRE(lin.A.rows() == 12);  // 3 rotation + 3 position + 6 rates: not 13
  CHECK(lin.stateNames[0] == "multibody.bodies.box.rotation[0]");
  CHECK(lin.stateUnits[0] == "rad");
  const double lambda = spin * std::sqrt((I2 - I1) * (I3 - I2) / (I1 * I3));
  const Eigen::VectorXcd eig = lin.A.eigenvalues();
  double largest = 0.0;
  for (Eigen::Index k = 0; k < eig.size(); ++k) largest = std::max(largest, eig[k].real());
  CHECK(largest == doctest::Approx(lambda).epsilon(1e-7));
  // The attitude rows: δθ̇ = -½[ω]× δθ + δω, the δω columns after rotation and position.
  Eigen::Matrix3d omegaCross;
  omegaCross << 0, 0, spin, 0, 0, 0, -spin, 0, 0;
  CHECK(largestDifference(lin.A.block(0, 0, 3, 3), -0.5 * omegaCross) < 1e-8);
  CHECK(largestDifference(lin.A.block(0, 6, 3, 3), Eigen::Matrix3d::Identity()) < 1e-8);
}

TEST_CASE("linearize: a parallelogram four-bar has one degree of freedom on its manifold") {
  // Two equal cranks (pivots A = (0, 0) and B = (D, 0)) hang down and a coupler joins their
  // ends; gravity along -y. The coupler translates without turning, so with θ the cranks' angle
  // T = (2 J + m_k L²) θ̇² / 2 and V = -g (2 m a + m_k L) cos θ: ω² = g (2 m a + m_k L) /
  // (2 J + m_k L²), J = I + m a² each crank's inertia about its pivot.
  const double L = 1.0, D = 2.0, m = 1.0, a = 0.5, I = m * L * L / 12.0, mk = 2.0;
  Simulation sim;
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, -g, 0});
  const auto crank = [&](const Vector3& cm) {
    return SpatialInertia::fromCmInertia(m, cm, Matrix3::Identity() * I);
  };
  tree.addBody("crank", kWorldBody, crank({0, -a, 0}), Hinge::pin(Vector3::UnitZ()));
  tree.addBody("coupler", "crank",
               SpatialInertia::fromCmInertia(mk, {D / 2, 0, 0}, Matrix3::Identity() * 0.3),
               Hinge::pin(Vector3::UnitZ()), RigidTransform::fromTranslation({0, -L, 0}));
  const auto rocker =
      tree.addBody("rocker", "coupler", crank({0, L - a, 0}), Hinge::pin(Vector3::UnitZ()),
                   RigidTransform::fromTranslation({D, 0, 0}));
  sim.multibody().editConstraints().addCutJoint("B", Hinge::pin(Vector3::UnitZ()), kWorldBody,
                                                RigidTransform::fromTranslation({D, 0, 0}), rocker,
                                                RigidTransform::fromTranslation({0, L, 0}));
  sim.lock();
  const LinearSystem lin = sim.linearize({});
  REQUIRE(lin.A.rows() == 2);  // one coordinate and its rate, of six
  const double omega = std::sqrt(g * (2 * m * a + mk * L) / (2 * (I + m * a * a) + mk * L * L));
  const Eigen::Vector2cd eig = lin.A.eigenvalues();
  for (int k = 0; k < 2; ++k) {
    CHECK(std::abs(eig[k].real()) < 1e-7);
    CHECK(std::abs(eig[k].imag()) == doctest::Approx(omega).epsilon(1e-7));
  }
  // The state is what it was: the dependent coordinates were solved only inside the evaluations.
  CHECK(sim.multibody().q().isZero(0.0));
}

TEST_CASE("linearize: the linear model predicts the simulation's small-step response") {
  const Pendulum p;
  Simulation sim(SimulationOptions{.ioStepSize = 0.01, .integrator = "rk4"});
  buildPendulum(sim, p, false);
  sim.lock();
  const LinearSystem lin = sim.linearize({});
  const Eigen::Vector2d dx0(1e-4, -2e-4);
  sim.multibody().q()[0] = dx0[0];
  sim.multibody().u()[0] = dx0[1];
  sim.advanceTimeTo(1.0);
  const Eigen::Vector2d predicted = (lin.A * 1.0).exp() * dx0;
  const Eigen::Vector2d simulated(sim.multibody().q()[0], sim.multibody().u()[0]);
  // The neglected terms are O(|δx|³ ω²) ~ 1e-11, rk4's error at 0.01 s ~ 1e-12.
  CHECK(largestDifference(simulated, predicted) < 1e-9);
}

TEST_CASE("linearize: afterwards the simulation is bit for bit what it was, and runs on so") {
  for (const char* integrator : {"rk4", "rkf45", "cvode"}) {
    CAPTURE(std::string(integrator));
    const auto build = [&](Simulation& sim) {
      buildPendulum(sim, Pendulum{}, false);
      sim.addSignal("x", ElementType::Double);
      sim.addSignal("sum", ElementType::Double);
      sim.addModel<MassSpring>("spring");
      sim.addModel<Accumulator>("acc");
      sim.tie("spring", "position", "x");
      sim.tie("acc", "u", "x");
      sim.tie("acc", "y", "sum");
      sim.setModelRate("acc", 30.0);
      sim.lock();
      sim.multibody().q()[0] = 0.3;
      sim.registerPeriodicEvent("stiffen", 0.5, 0.75, [](Simulation& s, double) {
        s.set("models.spring.params.k", std::get<double>(s.get("models.spring.params.k")) * 1.01);
      });
    };
    const SimulationOptions options{
        .ioStepSize = 0.02, .integrationSteps = 3, .integrator = integrator};
    Simulation straight(options), sim(options);
    build(straight);
    build(sim);
    straight.advanceTimeTo(2.0);
    straight.advanceTimeTo(3.0);
    sim.advanceTimeTo(2.0);
    const Snapshot before = SnapshotAccess::take(sim);
    const std::vector<std::string> paths = sim.list();
    std::vector<Value> values;
    for (const std::string& path : paths) values.push_back(sim.get(path));
    const PropagationStatistics statistics = sim.propagationStatistics();
    // A refused request first: the spring publishes x at every derivative evaluation (the
    // pendulum's evaluations run it), so x cannot be held.
    const LinearizationRequest heldX{{}, {"signals.x"}, {}, {}};
    CHECK_THROWS_WITH_AS(sim.linearize(heldX), doctest::Contains("in every derivative evaluation"),
                         InputError);
    sim.linearize({{},
                   {"models.motor.params.f", "models.spring.params.k", "signals.sum"},
                   {"signals.**", "multibody.**"},
                   {}});
    const Snapshot after = SnapshotAccess::take(sim);
    CHECK(sameBits(after.q, before.q));
    CHECK(sameBits(after.u, before.u));
    CHECK(after.continuation.step == before.continuation.step);
    for (std::size_t i = 0; i < paths.size(); ++i) {
      CAPTURE(paths[i]);
      CHECK(sameBits(sim.get(paths[i]), values[i]));
    }
    CHECK(sim.propagationStatistics().derivativeEvaluations == statistics.derivativeEvaluations);
    sim.advanceTimeTo(3.0);
    for (const std::string& path : paths) {
      CAPTURE(path);
      CHECK(sameBits(sim.get(path), straight.get(path)));
    }
  }
}

TEST_CASE("trim: the torque holding a pendulum at 30 degrees is m g c sin 30°") {
  const Pendulum p;
  Simulation sim;
  buildPendulum(sim, p, false);
  sim.lock();
  const double angle = std::numbers::pi / 6;
  sim.multibody().q()[0] = angle;
  TrimRequest request;
  request.freeInputs = {"models.motor.params.f"};
  const TrimResult trim = sim.trim(request);
  CHECK(trim.inputs[0] == doctest::Approx(p.m * g * p.c * std::sin(angle)).epsilon(1e-9));
  CHECK(trim.residual.cwiseAbs().maxCoeff() <= 1e-10);
  // Set in the simulation: it stays at 30°.
  CHECK(std::get<double>(sim.get("models.motor.params.f")) == trim.inputs[0]);
  sim.advanceTimeTo(1.0);
  CHECK(sim.multibody().q()[0] == doctest::Approx(angle).epsilon(1e-9));
}

TEST_CASE("trim: the cart-pole's upright equilibrium from a tilted start") {
  Simulation sim;
  buildCartPole(sim, CartPole{});
  sim.multibody().q()[1] = 0.3;
  sim.multibody().u()[1] = 0.2;
  TrimRequest request;
  request.freeStates = {"multibody.bodies.pole.*"};
  request.freeInputs = {"models.push.params.f"};
  const TrimResult trim = sim.trim(request);
  CHECK(trim.stateNames ==
        std::vector<std::string>{"multibody.bodies.pole.Q[0]", "multibody.bodies.pole.U[0]"});
  CHECK(std::abs(trim.states[0]) < 1e-9);
  CHECK(std::abs(trim.states[1]) < 1e-9);
  CHECK(std::abs(trim.inputs[0]) < 1e-9);
  CHECK(trim.iterations > 0);
}

TEST_CASE("trim: no solution is an error that leaves the simulation as it was") {
  Simulation sim;
  buildPendulum(sim, Pendulum{}, false);
  sim.lock();
  sim.multibody().u()[0] = 1.0;  // θ' = 1 whatever the torque
  TrimRequest request;
  request.freeInputs = {"models.motor.params.f"};
  const Snapshot before = SnapshotAccess::take(sim);
  CHECK_THROWS_WITH_AS(sim.trim(request), doctest::Contains("does not decrease"), NumericalError);
  CHECK(sameBits(SnapshotAccess::take(sim).u, before.u));
  CHECK(std::get<double>(sim.get("models.motor.params.f")) == 0.0);
  request.freeInputs = {};
  CHECK_THROWS_WITH_AS(sim.trim(request), doctest::Contains("free at least one"), InputError);
}

}  // namespace hopsim::test
