// Closed loops and extra constraints: φ, G and γ of every constraint type against finite
// differences; the constrained accelerations against a direct KKT solve with CRBA's M;
// redundant rows; projection; and the two acceptance mechanisms: a planar four-bar closed by a
// 3D PIN cut joint (redundant) against an independent planar equation of motion, and a
// slider-crank driven at constant crank speed (prescribed, hybrid dynamics) against the
// analytic slider position.

#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/constraints.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/multibody/rnea.h"
#include "hopsim/signals/error.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Two different random bodies of the model (either may be the world).
std::pair<BodyIndex, BodyIndex> randomPair(test::Random& rnd, const MultibodyModel& model) {
  const BodyIndex a = rnd.integer(0, model.bodyCount() - 1);
  BodyIndex b = a;
  while (b == a) b = rnd.integer(0, model.bodyCount() - 1);
  return {a, b};
}

// One constraint of every kind: a cut joint of each hinge type, DISTANCE, REVOLUTE-SPHERICAL
// and REVOLUTE-TRANSLATIONAL, between random bodies at random frames and points.
ConstraintSet everyConstraint(const MultibodyModel& model, test::Random& rnd) {
  ConstraintSet set(model);
  int i = 0;
  for (const HingeType type : test::kAllHingeTypes) {
    const auto [a, b] = randomPair(rnd, model);
    set.addCutJoint("cut" + std::to_string(i++), rnd.hinge(type), a, rnd.pose(), b, rnd.pose());
  }
  auto [a, b] = randomPair(rnd, model);
  set.addDistance("distance", a, rnd.vector(0.5), b, rnd.vector(0.5), rnd.uniform(0.5, 2.0));
  std::tie(a, b) = randomPair(rnd, model);
  set.addRevoluteSpherical("revsph", a, rnd.vector(0.5), rnd.vector(), b, rnd.vector(0.5),
                           rnd.uniform(0.5, 2.0));
  std::tie(a, b) = randomPair(rnd, model);
  const Vector3 x = rnd.vector();
  set.addRevoluteTranslational("revtrans", a, rnd.vector(0.5), rnd.vector(), b, rnd.vector(0.5), x,
                               x.cross(rnd.vector()), rnd.uniform(-1.0, 1.0));
  return set;
}

// A random tree of free bodies (FULL6DOF and FULL6DOF_INERTIAL alternately), so that a few
// random constraints between its bodies are independent: G has full row rank.
MultibodyModel freeTree(test::Random& rnd, int n) {
  MultibodyModel model;
  model.setGravity(Vector3(0.3, -0.2, -9.81));
  for (int b = 1; b <= n; ++b) {
    const Hinge hinge = b % 2 == 0 ? Hinge::full6Dof() : Hinge::full6DofInertial();
    model.addBody("b" + std::to_string(b), rnd.integer(0, b - 1), rnd.inertia(), hinge, rnd.pose(),
                  rnd.pose());
  }
  return model;
}

}  // namespace

TEST_CASE("constraints: every type has the documented number of rows") {
  MultibodyModel model;
  model.addBody("b", kWorldBody, SpatialInertia::pointMass(1.0, Vector3::Zero()), Hinge::ball());
  ConstraintSet set(model);
  const RigidTransform I;
  const std::pair<Hinge, int> expected[] = {{Hinge::locked(), 6},
                                            {Hinge::pin(Vector3::UnitZ()), 5},
                                            {Hinge::slider(Vector3::UnitX()), 5},
                                            {Hinge::cylindrical(Vector3::UnitX()), 4},
                                            {Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()), 4},
                                            {Hinge::gimbal(), 3},
                                            {Hinge::ball(), 3},
                                            {Hinge::planar(), 4},
                                            {Hinge::translational(), 3},
                                            {Hinge::full6Dof(), 0},
                                            {Hinge::full6DofInertial(), 0}};
  int total = 0;
  for (const auto& [hinge, rows] : expected) {
    const int i = set.addCutJoint(std::string(toString(hinge.type())), hinge, 1, I, 0, I);
    CHECK(set.constraint(i).rowCount == rows);
    total += rows;
  }
  CHECK(
      set.constraint(set.addDistance("d", 1, Vector3::Zero(), 0, Vector3::UnitX(), 1.0)).rowCount ==
      1);
  CHECK(set.constraint(set.addRevoluteSpherical("rs", 1, Vector3::Zero(), Vector3::UnitZ(), 0,
                                                Vector3::UnitX(), 1.0))
            .rowCount == 2);
  CHECK(set.constraint(set.addRevoluteTranslational("rt", 1, Vector3::Zero(), Vector3::UnitZ(), 0,
                                                    Vector3::UnitX(), Vector3::UnitX(),
                                                    Vector3::UnitY(), 1.0))
            .rowCount == 4);
  CHECK(set.rowCount() == total + 7);
  CHECK(set.index("PIN") == 1);
}

TEST_CASE("constraints: φ, G and γ of every type agree with finite differences") {
  // Central differences along Q(t) with Q̇ = Q̇(Q, U), h = 1e-6: G U = dφ/dt and
  // γ = -d(G U)/dt at fixed U, to truncation O(h²) plus rounding O(1e-16/h).
  double worstG = 0.0, worstGamma = 0.0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    test::Random rnd(seed + 700);
    const MultibodyModel model = rnd.tree(14, static_cast<int>(seed));
    const ConstraintSet set = everyConstraint(model, rnd);
    MultibodyData data(model);
    ConstraintData cdata(model, set), plus(model, set), minus(model, set);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    Eigen::VectorXd qdot(model.nq());
    computeQdot(model, q, u, qdot);
    const double h = 1e-6;
    forwardKinematics(model, data, Eigen::VectorXd(q + h * qdot));
    evaluateConstraintPositions(model, set, data, plus);
    forwardKinematics(model, data, Eigen::VectorXd(q - h * qdot));
    evaluateConstraintPositions(model, set, data, minus);
    forwardKinematics(model, data, q, u);
    evaluateConstraints(model, set, data, cdata);
    const Eigen::VectorXd dphi = (plus.phi - minus.phi) / (2 * h);
    const Eigen::VectorXd dGu = (plus.G * u - minus.G * u) / (2 * h);
    worstG = std::max(worstG, (cdata.G * u - dphi).cwiseAbs().maxCoeff());
    worstGamma = std::max(worstGamma, (cdata.gamma + dGu).cwiseAbs().maxCoeff());
    CAPTURE(seed);
    CHECK((cdata.G * u - dphi).cwiseAbs().maxCoeff() < 1e-7);
    CHECK((cdata.gamma + dGu).cwiseAbs().maxCoeff() < 1e-6);
  }
  MESSAGE("worst |G U - dφ/dt| = " << worstG << ", worst |γ + d(G U)/dt| = " << worstGamma);
}

TEST_CASE("constraints: applyConstraints gives G U̇ = γ and the KKT multipliers of CRBA's M") {
  double worstLambda = 0.0, worstAcc = 0.0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    test::Random rnd(seed + 800);
    const MultibodyModel model = freeTree(rnd, 9);
    // Disjoint body pairs, so that the 15 rows are independent.
    ConstraintSet set(model);
    set.addCutJoint("ball", Hinge::ball(), 1, rnd.pose(), 2, rnd.pose());
    set.addCutJoint("pin", rnd.hinge(HingeType::Pin), 3, rnd.pose(), 4, rnd.pose());
    set.addCutJoint("ujoint", rnd.hinge(HingeType::Ujoint), 5, rnd.pose(), 6, rnd.pose());
    set.addDistance("distance", 7, rnd.vector(0.5), 8, rnd.vector(0.5), 1.0);
    set.addRevoluteSpherical("revsph", 9, rnd.vector(0.5), rnd.vector(), kWorldBody,
                             rnd.vector(0.5), 1.0);
    MultibodyData data(model);
    ConstraintData cdata(model, set);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::MatrixXd M = crba(model, data, q);
    const Eigen::VectorXd udot0 =
        aba(model, data, q, u, rnd.vectorX(model.nu()), rnd.forces(model));
    const Eigen::VectorXd& udot = applyConstraints(model, set, data, cdata);

    // KKT: M U̇ = M U̇₀ + Gᵀλ, G U̇ = γ, solved with the dense M.
    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    const Eigen::MatrixXd MinvGt = llt.solve(cdata.G.transpose());
    const Eigen::MatrixXd K = cdata.G * MinvGt;
    const Eigen::VectorXd lambda = K.partialPivLu().solve(cdata.gamma - cdata.G * udot0);
    CHECK(cdata.rank == set.rowCount());
    const double lambdaError =
        (cdata.lambda - lambda).cwiseAbs().maxCoeff() / (1.0 + lambda.cwiseAbs().maxCoeff());
    const double accError = (cdata.G * udot - cdata.gamma).cwiseAbs().maxCoeff() /
                            (1.0 + cdata.gamma.cwiseAbs().maxCoeff());
    worstLambda = std::max(worstLambda, lambdaError);
    worstAcc = std::max(worstAcc, accError);
    CAPTURE(seed);
    CHECK(lambdaError < 1e-10);  // two stable solves of the same well-posed system (1e-14 seen)
    CHECK(accError < 1e-10);
    CHECK((udot - udot0 - MinvGt * lambda).cwiseAbs().maxCoeff() <
          1e-8 * (1.0 + udot.cwiseAbs().maxCoeff()));
    CHECK((cdata.tauConstraint - cdata.G.transpose() * cdata.lambda).isZero(1e-12));
    // The reaction on B is Σ λ w, the one on A its opposite.
    for (int ci = 0; ci < set.size(); ++ci) {
      const auto i = static_cast<std::size_t>(ci);
      CHECK((cdata.F_A_Q_W[i].vector() + cdata.F_B_Q_W[i].vector()).isZero(0.0));
    }
  }
  MESSAGE("worst relative |λ - λ_KKT| = " << worstLambda
                                          << ", worst relative |G U̇ - γ| = " << worstAcc);
}

TEST_CASE("constraints: with prescribed entries, data.tau + Gᵀλ is what inverse dynamics needs") {
  // After hybridDynamics and applyConstraints, prescribed entries keep their U̇ and their
  // required forces include the constraint loads: RNEA(Q, U, U̇) = τ + Gᵀλ on every entry.
  double worst = 0.0;
  for (unsigned seed = 1; seed <= 8; ++seed) {
    test::Random rnd(seed + 850);
    MultibodyModel model = freeTree(rnd, 9);
    // The lower-indexed body of two constrained pairs is prescribed: the other one is never its
    // ancestor, so its own free hinge keeps the rows independent.
    model.setPrescribed(1, true);
    model.setPrescribed(7, true);
    ConstraintSet set(model);
    set.addCutJoint("ball", Hinge::ball(), 1, rnd.pose(), 2, rnd.pose());
    set.addCutJoint("pin", rnd.hinge(HingeType::Pin), 3, rnd.pose(), 4, rnd.pose());
    set.addDistance("distance", 7, rnd.vector(0.5), 8, rnd.vector(0.5), 1.0);
    MultibodyData data(model);
    ConstraintData cdata(model, set);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::VectorXd udotPrescribed = rnd.vectorX(model.nu());
    const std::vector<SpatialForce> F = rnd.forces(model);
    hybridDynamics(model, data, q, u, rnd.vectorX(model.nu()), udotPrescribed, F);
    applyConstraints(model, set, data, cdata);
    const Eigen::VectorXd udot = data.udot, tau = data.tau;
    CHECK(cdata.rank == set.rowCount());
    CHECK((cdata.G * udot - cdata.gamma).cwiseAbs().maxCoeff() < 1e-10);
    for (int k = 0; k < model.nu(); ++k) {
      if (model.isPrescribed(k)) CHECK(udot[k] == udotPrescribed[k]);
    }
    const Eigen::VectorXd needed = rnea(model, data, q, u, udot, F);
    const double error = (needed - tau - cdata.tauConstraint).cwiseAbs().maxCoeff() /
                         (1.0 + needed.cwiseAbs().maxCoeff());
    worst = std::max(worst, error);
    CAPTURE(seed);
    CHECK(error < 1e-10);
  }
  MESSAGE("worst relative |RNEA(U̇) - τ - Gᵀλ| with prescribed entries = " << worst);
}

TEST_CASE("constraints: a redundant row gets λ = 0 and the others still hold") {
  test::Random rnd(901);
  const MultibodyModel model = freeTree(rnd, 4);
  ConstraintSet set(model);
  const Vector3 p = rnd.vector(0.5), r = rnd.vector(0.5);
  set.addDistance("once", 1, p, 2, r, 1.0);
  set.addDistance("twice", 1, p, 2, r, 1.0);
  set.addCutJoint("ball", Hinge::ball(), 3, rnd.pose(), kWorldBody, rnd.pose());
  MultibodyData data(model);
  ConstraintData cdata(model, set);
  aba(model, data, rnd.configuration(model), rnd.vectorX(model.nu()),
      Eigen::VectorXd::Zero(model.nu()));
  const Eigen::VectorXd& udot = applyConstraints(model, set, data, cdata);
  CHECK(cdata.rank == set.rowCount() - 1);
  CHECK((cdata.G * udot - cdata.gamma).cwiseAbs().maxCoeff() < 1e-10);
  CHECK((cdata.lambda[0] == 0.0 || cdata.lambda[1] == 0.0));
}

namespace {

// The four-bar of the acceptance test, in the x-y plane under gravity -y: ground pivots O = 0
// and D = (l0, 0); crank O-A (l1), coupler A-B (l2), rocker D-B (l3); uniform bars. A Grashof
// crank-rocker (l1 + l2 <= l0 + l3), so the crank turns without singular positions.
struct FourBar {
  double l0 = 3.0, l1 = 1.0, l2 = 3.0, l3 = 2.5;
  double m1 = 1.0, m2 = 2.0, m3 = 1.5;
  double g = 9.81;

  static Eigen::Vector2d e(double t) { return {std::cos(t), std::sin(t)}; }
  static Eigen::Vector2d perp(double t) { return {-std::sin(t), std::cos(t)}; }

  // The coupler and rocker angles θ2 (of B - A) and θ3 (of B - D) for crank angle θ1: B is
  // where the circles about A (radius l2) and D (radius l3) meet, on the upper branch.
  void angles(double t1, double& t2, double& t3) const {
    const Eigen::Vector2d A = l1 * e(t1), D(l0, 0.0);
    const Eigen::Vector2d AD = D - A;
    const double d = AD.norm();
    const double along = (l2 * l2 - l3 * l3 + d * d) / (2 * d);
    const double across = std::sqrt(l2 * l2 - along * along);
    const Eigen::Vector2d n = AD / d;
    const Eigen::Vector2d B = A + along * n - across * Eigen::Vector2d(-n.y(), n.x());
    t2 = std::atan2(B.y() - A.y(), B.x() - A.x());
    t3 = std::atan2(B.y() - D.y(), B.x() - D.x());
  }

  // Loop closure l1 e1 + l2 e2 - l3 e3 = (l0, 0) differentiated: [l2 e2⊥, -l3 e3⊥] [ω2; ω3] =
  // -l1 ω1 e1⊥; per unit ω1 this gives (k2, k3).
  Eigen::Vector2d rates(double t1, double t2, double t3) const {
    Eigen::Matrix2d J;
    J << l2 * perp(t2), -l3 * perp(t3);
    return J.partialPivLu().solve(-l1 * perp(t1));
  }

  // θ̈1 from the virtual power of the three bars (Kane's equation with the one speed ω1):
  // Σ m a_cm · ∂v_cm/∂ω1 + I α ∂ω/∂ω1 = Σ m g · ∂v_cm/∂ω1, with I = m l²/12 about the CM.
  double crankAcceleration(double t1, double w1) const {
    double t2 = 0.0, t3 = 0.0;
    angles(t1, t2, t3);
    const Eigen::Vector2d k = rates(t1, t2, t3);
    const double w2 = k[0] * w1, w3 = k[1] * w1;
    Eigen::Matrix2d J;
    J << l2 * perp(t2), -l3 * perp(t3);
    // Angular accelerations at θ̈1 = 0 (their θ̈1 parts are k θ̈1).
    const Eigen::Vector2d b =
        J.partialPivLu().solve(l1 * w1 * w1 * e(t1) + l2 * w2 * w2 * e(t2) - l3 * w3 * w3 * e(t3));
    // Partial velocities of the centres of mass, and their accelerations at θ̈1 = 0.
    const Eigen::Vector2d v1 = 0.5 * l1 * perp(t1);
    const Eigen::Vector2d v2 = l1 * perp(t1) + k[0] * 0.5 * l2 * perp(t2);
    const Eigen::Vector2d v3 = k[1] * 0.5 * l3 * perp(t3);
    const Eigen::Vector2d a1 = -w1 * w1 * 0.5 * l1 * e(t1);
    const Eigen::Vector2d a2 =
        -w1 * w1 * l1 * e(t1) + b[0] * 0.5 * l2 * perp(t2) - w2 * w2 * 0.5 * l2 * e(t2);
    const Eigen::Vector2d a3 = b[1] * 0.5 * l3 * perp(t3) - w3 * w3 * 0.5 * l3 * e(t3);
    const double I1 = m1 * l1 * l1 / 12, I2 = m2 * l2 * l2 / 12, I3 = m3 * l3 * l3 / 12;
    const double mass = m1 * v1.squaredNorm() + I1 + m2 * v2.squaredNorm() + I2 * k[0] * k[0] +
                        m3 * v3.squaredNorm() + I3 * k[1] * k[1];
    const double bias =
        m1 * a1.dot(v1) + m2 * a2.dot(v2) + I2 * b[0] * k[0] + m3 * a3.dot(v3) + I3 * b[1] * k[1];
    const Eigen::Vector2d gravity(0.0, -g);
    const double load = gravity.dot(m1 * v1 + m2 * v2 + m3 * v3);
    return (load - bias) / mass;
  }
};

// A uniform bar of mass m and length l along its body x axis from the origin.
SpatialInertia bar(double m, double l) {
  const double I = m * l * l / 12;
  return SpatialInertia::fromCmInertia(m, Vector3(0.5 * l, 0, 0),
                                       Vector3(0.01 * I, I, I).asDiagonal());
}

// The four-bar as a tree of PIN joints about z (crank, coupler, rocker) added to model, and the
// set with the cut joint "closure" that closes the loop at the ground pivot D.
ConstraintSet addFourBar(const FourBar& fb, MultibodyModel& model) {
  const Hinge pinZ = Hinge::pin(Vector3::UnitZ());
  const BodyIndex crank = model.addBody("crank", kWorldBody, bar(fb.m1, fb.l1), pinZ);
  const BodyIndex coupler = model.addBody("coupler", crank, bar(fb.m2, fb.l2), pinZ,
                                          RigidTransform::fromTranslation({fb.l1, 0, 0}));
  // The rocker's x axis points from B to the ground pivot D, where the cut joint closes it.
  const BodyIndex rocker = model.addBody("rocker", coupler, bar(fb.m3, fb.l3), pinZ,
                                         RigidTransform::fromTranslation({fb.l2, 0, 0}));
  ConstraintSet set(model);
  set.addCutJoint("closure", pinZ, rocker, RigidTransform::fromTranslation({fb.l3, 0, 0}),
                  kWorldBody, RigidTransform::fromTranslation({fb.l0, 0, 0}));
  return set;
}

// Integrates the constrained tree [Q; U] with rkf45 in hops, projecting Q and U at every hop
// end; `dynamics` fills data.udot (aba or hybridDynamics) before applyConstraints.
template <class Dynamics, class AtHopEnd>
void integrateInHops(const MultibodyModel& model, const ConstraintSet& set, Eigen::VectorXd& x,
                     double hop, int hops, Dynamics&& dynamics, AtHopEnd&& atHopEnd) {
  MultibodyData data(model);
  ConstraintData cdata(model, set);
  const int nq = model.nq(), nu = model.nu();
  IntegratorOptions options;
  options.relativeTolerance = 1e-11;
  options.absoluteTolerance = 1e-11;
  auto integrator = makeIntegrator("rkf45", options);
  integrator->resize(nq + nu);
  const DerivativeFunction f = [&](double, const Eigen::Ref<const Eigen::VectorXd>& xs,
                                   Eigen::Ref<Eigen::VectorXd> xdot) {
    computeQdot(model, xs.head(nq), xs.tail(nu), xdot.head(nq));
    dynamics(data, xs.head(nq), xs.tail(nu));
    xdot.tail(nu) = applyConstraints(model, set, data, cdata);
  };
  for (int k = 0; k < hops; ++k) {
    integrator->restart(k * hop, x);
    integrator->advance(f, (k + 1) * hop, x);
    forwardKinematics(model, data, x.head(nq));
    evaluateConstraintPositions(model, set, data, cdata);
    const double drift = cdata.phi.cwiseAbs().maxCoeff();
    projectPositions(model, set, data, cdata, x.head(nq), 1e-12, 10);
    projectVelocities(model, set, data, cdata, x.head(nq), x.tail(nu));
    forwardKinematics(model, data, x.head(nq));
    evaluateConstraintPositions(model, set, data, cdata);
    atHopEnd((k + 1) * hop, x, std::max(drift, cdata.phi.cwiseAbs().maxCoeff()));
  }
}

}  // namespace

TEST_CASE("constraints: a four-bar of 3D PIN joints follows its planar equation of motion") {
  const FourBar fb;
  MultibodyModel model;
  model.setGravity(Vector3(0, -fb.g, 0));
  const ConstraintSet set = addFourBar(fb, model);
  REQUIRE(set.rowCount() == 5);  // 2 independent in the plane, 3 redundant

  // Start at θ1 = 0.3 rad, ω1 = 8 rad/s, consistent on position and velocity.
  const double t1 = 0.3, w1 = 8.0;
  double t2 = 0.0, t3 = 0.0;
  fb.angles(t1, t2, t3);
  const Eigen::Vector2d k = fb.rates(t1, t2, t3);
  Eigen::VectorXd x(6);
  x << t1, t2 - t1, t3 + kPi - t2, w1, (k[0] - 1) * w1, (k[1] - k[0]) * w1;

  // The planar reference: x_p = [θ1; ω1], θ̈1 from FourBar, integrated at rtol 1e-12.
  IntegratorOptions options;
  options.relativeTolerance = 1e-12;
  options.absoluteTolerance = 1e-12;
  auto planar = makeIntegrator("rkf45", options);
  planar->resize(2);
  Eigen::VectorXd xp(2);
  xp << t1, w1;
  planar->restart(0.0, xp);
  const DerivativeFunction fp = [&fb](double, const Eigen::Ref<const Eigen::VectorXd>& s,
                                      Eigen::Ref<Eigen::VectorXd> sdot) {
    sdot << s[1], fb.crankAcceleration(s[0], s[1]);
  };

  double worstClosure = 0.0, worstAngle = 0.0, turned = 0.0;
  integrateInHops(
      model, set, x, 0.01, 1000,
      [&](MultibodyData& data, const auto& q, const auto& u) {
        aba(model, data, q, u, Eigen::Vector3d::Zero());
      },
      [&](double t, const Eigen::VectorXd& state, double closure) {
        planar->advance(fp, t, xp);
        worstClosure = std::max(worstClosure, closure);
        worstAngle = std::max(worstAngle, std::abs(state[0] - xp[0]));
        turned = std::max(turned, std::abs(state[0] - t1));
      });
  MESSAGE("four-bar over 10 s: worst loop closure "
          << worstClosure << ", worst crank angle - "
          << "planar reference " << worstAngle << " rad, crank turned up to " << turned << " rad");
  CHECK(turned > 2 * kPi);  // the crank goes all the way round
  CHECK(worstClosure < 1e-9);
  CHECK(worstAngle < 1e-6);
}

TEST_CASE("constraints: a slider-crank at constant crank speed follows x(θ) exactly") {
  // Crank O-A (r) about z, prescribed at ω with U̇ = 0 (hybrid dynamics); rod A-B (l); slider
  // on the x axis, closed to the rod's end by a PIN cut joint (5 rows, 2 independent):
  // x(θ) = r cos θ + √(l² - r² sin² θ).
  const double r = 0.5, l = 1.5, omega = 2 * kPi, theta0 = 0.2;
  MultibodyModel model;
  model.setGravity(Vector3(0, -9.81, 0));
  const Hinge pinZ = Hinge::pin(Vector3::UnitZ());
  const BodyIndex crank = model.addBody("crank", kWorldBody, bar(1.0, r), pinZ);
  const BodyIndex rod =
      model.addBody("rod", crank, bar(2.0, l), pinZ, RigidTransform::fromTranslation({r, 0, 0}));
  const BodyIndex slider =
      model.addBody("slider", kWorldBody, SpatialInertia::pointMass(3.0, Vector3::Zero()),
                    Hinge::slider(Vector3::UnitX()));
  model.setPrescribed(crank, true);
  ConstraintSet set(model);
  set.addCutJoint("wrist", pinZ, rod, RigidTransform::fromTranslation({l, 0, 0}), slider,
                  RigidTransform());
  const auto xOf = [&](double theta) {
    return r * std::cos(theta) + std::sqrt(l * l - r * r * std::sin(theta) * std::sin(theta));
  };

  // Consistent start: rod angle from A to B = (x(θ0), 0); rod and slider rates from the
  // velocity projection (the prescribed crank rate is held).
  const double ax = r * std::cos(theta0), ay = r * std::sin(theta0);
  Eigen::VectorXd x(6);
  x << theta0, std::atan2(-ay, xOf(theta0) - ax) - theta0, xOf(theta0), omega, 0.0, 0.0;
  {
    MultibodyData data(model);
    ConstraintData cdata(model, set);
    projectVelocities(model, set, data, cdata, x.head(3), x.tail(3));
  }
  CHECK(x[3] == omega);

  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  double worstX = 0.0, worstClosure = 0.0, worstTheta = 0.0;
  integrateInHops(
      model, set, x, 0.01, 300,
      [&](MultibodyData& data, const auto& q, const auto& u) {
        hybridDynamics(model, data, q, u, zero, zero);
      },
      [&](double t, const Eigen::VectorXd& state, double closure) {
        worstX = std::max(worstX, std::abs(state[2] - xOf(state[0])));
        worstTheta = std::max(worstTheta, std::abs(state[0] - (theta0 + omega * t)));
        worstClosure = std::max(worstClosure, closure);
        CHECK(state[3] == omega);
      });
  MESSAGE("slider-crank over 3 s (3 turns): worst |x - x(θ)| "
          << worstX << " m, worst |θ - ωt| " << worstTheta << " rad, worst closure "
          << worstClosure);
  CHECK(worstX < 1e-8);
  CHECK(worstTheta < 1e-9);
  CHECK(worstClosure < 1e-9);
}

TEST_CASE("constraints: projection converges onto the manifold and reports what fails") {
  const FourBar fb;
  MultibodyModel model;
  const ConstraintSet set = addFourBar(fb, model);
  const BodyIndex crank = model.bodyIndex("crank");
  MultibodyData data(model);
  ConstraintData cdata(model, set);
  double t2 = 0.0, t3 = 0.0;
  fb.angles(0.3, t2, t3);
  Eigen::VectorXd q(3);
  q << 0.3 + 0.02, t2 - 0.3 - 0.03, t3 + kPi - t2 + 0.01;
  const ProjectionResult result = projectPositions(model, set, data, cdata, q, 1e-13, 10);
  MESSAGE("four-bar position projection: " << result.iterations << " iterations, residual "
                                           << result.residual);
  CHECK(result.residual <= 1e-13);
  CHECK(result.iterations <= 6);

  // A consistent U is left alone; an inconsistent one loses only its violating part.
  Eigen::VectorXd u(3);
  const Eigen::Vector2d k = fb.rates(q[0], q[0] + q[1], q[0] + q[1] + q[2] - kPi);
  u << 1.0, k[0] - 1.0, k[1] - k[0];
  Eigen::VectorXd v = u;
  projectVelocities(model, set, data, cdata, q, v);
  CHECK((v - u).cwiseAbs().maxCoeff() < 1e-12);
  v[2] += 0.1;
  const ProjectionResult velocity = projectVelocities(model, set, data, cdata, q, v);
  CHECK(velocity.residual < 1e-12);

  // A point that cannot reach its target: the error names the constraint.
  ConstraintSet impossible(model);
  impossible.addDistance("too far", crank, Vector3(fb.l1, 0, 0), kWorldBody, Vector3(10, 0, 0),
                         1.0);
  ConstraintData idata(model, impossible);
  try {
    projectPositions(model, impossible, data, idata, q, 1e-12, 5);
    FAIL("expected a NumericalError");
  } catch (const NumericalError& e) {
    CHECK(std::string(e.what()).find("\"too far\"") != std::string::npos);
  }
}

TEST_CASE("constraints: bad input is an InputError that names the call, constraint and value") {
  test::Random rnd(1);
  const MultibodyModel model = rnd.tree(3);
  ConstraintSet set(model);
  const RigidTransform I;
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message([&] { set.addCutJoint("", Hinge::ball(), 1, I, 2, I); }).find("addCutJoint") !=
        std::string::npos);
  set.addCutJoint("c", Hinge::ball(), 1, I, 2, I);
  CHECK(message([&] { set.addCutJoint("c", Hinge::ball(), 1, I, 2, I); }).find("taken") !=
        std::string::npos);
  CHECK(message([&] { set.addCutJoint("d", Hinge::ball(), 1, I, 7, I); }).find("7") !=
        std::string::npos);
  CHECK(message([&] { set.addCutJoint("d", Hinge::ball(), 2, I, 2, I); }).find("different") !=
        std::string::npos);
  const RigidTransform bad(2.0 * Matrix3::Identity(), Vector3::Zero());
  CHECK(message([&] { set.addCutJoint("d", Hinge::ball(), 1, bad, 2, I); }).find("X_AF") !=
        std::string::npos);
  CHECK(message([&] {
          set.addDistance("d", 1, Vector3::Zero(), 2, Vector3::Zero(), -1.0);
        }).find("\"d\": length is -1") != std::string::npos);
  CHECK(message([&] {
          set.addRevoluteSpherical("d", 1, Vector3::Zero(), Vector3::Zero(), 2, Vector3::Zero(),
                                   1.0);
        }).find("axis z_A") != std::string::npos);
  CHECK(message([&] {
          set.addRevoluteTranslational("d", 1, Vector3::Zero(), Vector3::UnitZ(), 2,
                                       Vector3::Zero(), Vector3::UnitX(), Vector3(1, 1, 0), 1.0);
        }).find("not perpendicular") != std::string::npos);
  CHECK(set.size() == 1);  // the refused constraints left nothing behind
  CHECK_THROWS_AS(set.index("nope"), InputError);
  const MultibodyModel other = rnd.tree(5);
  CHECK_THROWS_AS(ConstraintData(other, set), InputError);
}

}  // namespace hopsim::multibody
