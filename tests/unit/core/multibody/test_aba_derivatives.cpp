// The analytic derivatives of forward dynamics (aba_derivatives.h) against central differences
// of the library's aba and of the plain reference ABA of reference_aba.h (an independent
// formulation sharing no kernel with the library), on seeded random trees with every hinge type,
// random states, generalized forces and external forces; against closed forms (a pendulum, a
// free body's Euler equations); and the tangent-space step the derivatives are taken along.
//
// The reference derivatives are central differences at steps 2h and h (h = 1e-5, Q moved by
// integrateConfiguration) combined by Richardson extrapolation, (4 D(h) - D(2h)) / 3, which
// removes their truncation term h² f''' / 6. Plain central differences are not accurate enough
// here: some random trees are badly conditioned (a GIMBAL near lock, light bodies far out), their
// derivatives reach 1e8 with third derivatives to match, and a central difference at h = 1e-5
// errs there by 4e-5 of the size, shrinking as h² (checked over seven steps), while the
// extrapolated one errs by about 1e-8 (round-off, ε |f| / h, then dominates).
// Tolerance: 1e-6 of the matrix's size, max |analytic - reference| / (1 + max |analytic|); the
// worst case observed, which the tests report, is in docs/multibody.md. Any wrong term of the
// recursion (a missing velocity product, a column moved with the wrong joint) shows at 1e-2 or
// more.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/aba_derivatives.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/multibody/tangent_space.h"
#include "hopsim/signals/error.h"
#include "multibody_test_support.h"
#include "reference_aba.h"

namespace hopsim::multibody {
namespace {

constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-6;

struct Derivatives {
  Eigen::MatrixXd dq, du, dtau;
};

Derivatives analytic(const MultibodyModel& model, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& u, const Eigen::VectorXd& tau,
                     std::span<const SpatialForce> F_ext) {
  MultibodyData data(model);
  AbaDerivativesWorkspace work(model);
  const int n = model.nu();
  Derivatives d{Eigen::MatrixXd(n, n), Eigen::MatrixXd(n, n), Eigen::MatrixXd(n, n)};
  abaDerivatives(model, data, work, q, u, tau, F_ext, d.dq, d.du, d.dtau);
  return d;
}

// Central differences of fd(q, u, τ) at step h along the tangent directions of Q, and along U
// and τ.
template <class ForwardDynamics>
Derivatives centralDifferences(const MultibodyModel& model, const Eigen::VectorXd& q,
                               const Eigen::VectorXd& u, const Eigen::VectorXd& tau,
                               ForwardDynamics& fd, double h) {
  const int n = model.nu();
  Derivatives d{Eigen::MatrixXd(n, n), Eigen::MatrixXd(n, n), Eigen::MatrixXd(n, n)};
  Eigen::VectorXd qPlus(model.nq()), qMinus(model.nq());
  for (int k = 0; k < n; ++k) {
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(n, k) * h;
    integrateConfiguration(model, q, e, qPlus);
    integrateConfiguration(model, q, -e, qMinus);
    d.dq.col(k) = (fd(qPlus, u, tau) - fd(qMinus, u, tau)) / (2 * h);
    d.du.col(k) =
        (fd(q, Eigen::VectorXd(u + e), tau) - fd(q, Eigen::VectorXd(u - e), tau)) / (2 * h);
    d.dtau.col(k) =
        (fd(q, u, Eigen::VectorXd(tau + e)) - fd(q, u, Eigen::VectorXd(tau - e))) / (2 * h);
  }
  return d;
}

// Central differences at 2h and h, Richardson-extrapolated: (4 D(h) - D(2h)) / 3.
template <class ForwardDynamics>
Derivatives extrapolatedDifferences(const MultibodyModel& model, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& u, const Eigen::VectorXd& tau,
                                    ForwardDynamics&& fd) {
  const Derivatives coarse = centralDifferences(model, q, u, tau, fd, 2 * kStep);
  Derivatives fine = centralDifferences(model, q, u, tau, fd, kStep);
  fine.dq = (4 * fine.dq - coarse.dq) / 3;
  fine.du = (4 * fine.du - coarse.du) / 3;
  fine.dtau = (4 * fine.dtau - coarse.dtau) / 3;
  return fine;
}

double relativeError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.size() == 0) return 0.0;
  return (a - b).cwiseAbs().maxCoeff() / (1.0 + a.cwiseAbs().maxCoeff());
}

// The worst relative error of the three matrices over random trees of every hinge type, against
// the extrapolated differences of the forward dynamics fdOf(model, F) returns.
template <class ForwardDynamicsOf>
double worstOverRandomTrees(unsigned seed, int trees, ForwardDynamicsOf&& fdOf) {
  test::Random rnd(seed);
  double worst = 0.0;
  int hinges = 0;
  for (int t = 0; t < trees; ++t) {
    const MultibodyModel model = rnd.tree(rnd.integer(1, 14), t % 11);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::VectorXd tau = rnd.vectorX(model.nu());
    const std::vector<SpatialForce> F = rnd.forces(model);
    const Derivatives a = analytic(model, q, u, tau, F);
    const Derivatives c = extrapolatedDifferences(model, q, u, tau, fdOf(model, F));
    const double e = std::max(
        {relativeError(a.dq, c.dq), relativeError(a.du, c.du), relativeError(a.dtau, c.dtau)});
    INFO("tree ", t, " with ", model.bodyCount() - 1, " bodies");
    CHECK(relativeError(a.dq, c.dq) < kTolerance);
    CHECK(relativeError(a.du, c.du) < kTolerance);
    CHECK(relativeError(a.dtau, c.dtau) < kTolerance);
    worst = std::max(worst, e);
    hinges += model.bodyCount() - 1;
  }
  MESSAGE("worst relative error over ", trees, " trees (", hinges, " hinges): ", worst);
  return worst;
}

TEST_CASE("aba derivatives: central differences of aba on random trees of every hinge type") {
  const double worst = worstOverRandomTrees(7, 44, [](const MultibodyModel& model, auto& F) {
    return [&model, &F, data = MultibodyData(model)](const Eigen::VectorXd& q,
                                                     const Eigen::VectorXd& u,
                                                     const Eigen::VectorXd& tau) mutable {
      return Eigen::VectorXd(aba(model, data, q, u, tau, F));
    };
  });
  CHECK(worst < kTolerance);
}

TEST_CASE("aba derivatives: central differences of the reference ABA") {
  const double worst = worstOverRandomTrees(11, 22, [](const MultibodyModel& model, auto& F) {
    return [&model, &F](const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                        const Eigen::VectorXd& tau) {
      return test::referenceAba(model, q, u, tau, F);
    };
  });
  CHECK(worst < kTolerance);
}

TEST_CASE("aba derivatives: the recursion's kinematics and forces are the dynamics'") {
  // S_kᵀ F of each hinge is the τ that produced U̇, and the accelerations are aba's: the forward
  // pass's velocity products of every hinge type are the engine's.
  test::Random rnd(3);
  for (int t = 0; t < 22; ++t) {
    const MultibodyModel model = rnd.tree(12, t % 11);
    MultibodyData data(model);
    AbaDerivativesWorkspace work(model);
    const Eigen::VectorXd q = rnd.configuration(model), u = rnd.vectorX(model.nu());
    const Eigen::VectorXd tau = rnd.vectorX(model.nu());
    const std::vector<SpatialForce> F = rnd.forces(model);
    Eigen::MatrixXd a(model.nu(), model.nu()), b = a, c = a;
    abaDerivatives(model, data, work, q, u, tau, F, a, b, c);
    for (BodyIndex body = 1; body < model.bodyCount(); ++body) {
      const auto i = static_cast<std::size_t>(body);
      CHECK((work.A[i] - data.A_R[i].vector()).norm() <= 1e-10 * (1 + work.A[i].norm()));
      for (int k = 0; k < model.hinge(body).nu(); ++k) {
        const int K = model.uStart(body) + k;
        CHECK(std::abs(work.S[static_cast<std::size_t>(K)].dot(work.F[i]) - tau[K]) <= 1e-10);
      }
    }
    // M⁻¹ is the inverse of CRBA's mass matrix, and symmetric.
    const Eigen::MatrixXd& M = crba(model, data, q);
    CHECK((c * M - Eigen::MatrixXd::Identity(model.nu(), model.nu())).cwiseAbs().maxCoeff() < 1e-9);
    CHECK((c - c.transpose()).cwiseAbs().maxCoeff() <= 1e-10 * c.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("aba derivatives: a pendulum's closed form") {
  // θ̈ = (τ - m g l sin θ) / (I + m l²) for a PIN about x with the CM at l below the axis:
  // ∂θ̈/∂θ = -m g l cos θ / J, ∂θ̈/∂θ̇ = 0, ∂θ̈/∂τ = 1 / J.
  const double m = 2.0, l = 0.7, g = 9.81, Ixx = 0.05;
  MultibodyModel model;
  model.setGravity({0, 0, -g});
  model.addBody("arm", kWorldBody,
                SpatialInertia::fromCmInertia(m, {0, 0, -l}, Vector3(Ixx, 0.08, 0.03).asDiagonal()),
                Hinge::pin({1, 0, 0}));
  const double J = Ixx + m * l * l;
  for (const double theta : {0.0, 0.4, 2.0, M_PI}) {
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, theta);
    const Derivatives d = analytic(model, q, Eigen::VectorXd::Constant(1, 1.3),
                                   Eigen::VectorXd::Constant(1, 0.2), {});
    CHECK(d.dq(0, 0) == doctest::Approx(-m * g * l * std::cos(theta) / J).epsilon(1e-12));
    CHECK(std::abs(d.du(0, 0)) < 1e-12);
    CHECK(d.dtau(0, 0) == doctest::Approx(1.0 / J).epsilon(1e-12));
  }
}

TEST_CASE("aba derivatives: a free body's Euler equations") {
  // FULL6DOF about its CM with no gravity: ω̇ = I⁻¹ (τ - ω × I ω), so ∂ω̇/∂ω = I⁻¹ ([Iω×] - [ω×] I),
  // and the rotation does not change ω̇ (rates in the body frame).
  const Vector3 principal(1.0, 2.0, 2.5);
  const Matrix3 I = principal.asDiagonal();
  MultibodyModel model;
  model.addBody("body", kWorldBody, SpatialInertia::fromCmInertia(4.0, Vector3::Zero(), I),
                Hinge::full6Dof());
  test::Random rnd(5);
  Eigen::VectorXd q = rnd.configuration(model), u = Eigen::VectorXd::Zero(6);
  const Vector3 w(0.3, -1.2, 0.8);
  u.head<3>() = w;
  const Derivatives d = analytic(model, q, u, Eigen::VectorXd::Zero(6), {});
  const Matrix3 expected = I.inverse() * (spatial::skew(I * w) - spatial::skew(w) * I);
  CHECK((d.du.topLeftCorner<3, 3>() - expected).cwiseAbs().maxCoeff() < 1e-13);
  CHECK(d.dq.topRows<3>().cwiseAbs().maxCoeff() < 1e-13);
  CHECK((d.dtau.topLeftCorner<3, 3>() - Matrix3(I.inverse())).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("aba derivatives: the tangent step follows Q̇") {
  // (Q ⊕ ε δ - Q) / ε → Q̇(Q, δ), and unit quaternions stay unit.
  test::Random rnd(13);
  for (int t = 0; t < 11; ++t) {
    const MultibodyModel model = rnd.tree(11, t);
    const Eigen::VectorXd q = rnd.configuration(model), delta = rnd.vectorX(model.nu());
    Eigen::VectorXd qdot(model.nq()), plus(model.nq()), minus(model.nq());
    computeQdot(model, q, delta, qdot);
    constexpr double eps = 1e-6;
    integrateConfiguration(model, q, Eigen::VectorXd(eps * delta), plus);
    integrateConfiguration(model, q, Eigen::VectorXd(-eps * delta), minus);
    CHECK(((plus - minus) / (2 * eps) - qdot).cwiseAbs().maxCoeff() < 1e-8);
    Eigen::VectorXd aliased = q;
    integrateConfiguration(model, aliased, Eigen::VectorXd(eps * delta), aliased);
    CHECK(aliased == plus);
    Eigen::VectorXd renormalized = plus;
    normalizeQuaternions(model, renormalized);
    CHECK((renormalized - plus).cwiseAbs().maxCoeff() < 1e-15);
  }
}

TEST_CASE("aba derivatives: bad arguments throw InputError and change nothing") {
  test::Random rnd(17);
  MultibodyModel model = rnd.tree(5);
  MultibodyData data(model);
  AbaDerivativesWorkspace work(model);
  const int n = model.nu();
  const Eigen::VectorXd q = rnd.configuration(model), u = rnd.vectorX(n), tau = rnd.vectorX(n);
  Eigen::MatrixXd a = Eigen::MatrixXd::Constant(n, n, 7.0), b = a, c = a, small(n, n - 1);
  CHECK_THROWS_WITH_AS(abaDerivatives(model, data, work, q, u, tau, {}, small, b, c),
                       doctest::Contains("dudot_dq is"), InputError);
  CHECK_THROWS_AS(
      abaDerivatives(model, data, work, Eigen::VectorXd(q.head(n - 1)), u, tau, {}, a, b, c),
      InputError);
  CHECK_THROWS_AS(
      abaDerivatives(model, data, work, q, u, Eigen::VectorXd(tau.head(1)), {}, a, b, c),
      InputError);
  CHECK((a.array() == 7.0).all());
  const MultibodyModel other = rnd.tree(6);
  AbaDerivativesWorkspace foreign(other);
  CHECK_THROWS_WITH_AS(abaDerivatives(model, data, foreign, q, u, tau, {}, a, b, c),
                       doctest::Contains("AbaDerivativesWorkspace was built for another model"),
                       InputError);
  model.addBody("late", kWorldBody, rnd.inertia(), Hinge::locked());
  MultibodyData rebuilt(model);
  CHECK_THROWS_WITH_AS(abaDerivatives(model, rebuilt, work, q, u, tau, {}, a, b, c),
                       doctest::Contains("before the tree was edited"), InputError);
  Eigen::VectorXd out(model.nq());
  CHECK_THROWS_AS(integrateConfiguration(model, q, u.head(1), out), InputError);
}

}  // namespace
}  // namespace hopsim::multibody
