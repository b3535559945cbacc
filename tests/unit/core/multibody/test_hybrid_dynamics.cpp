// Hybrid dynamics (prescribed U̇ in, generalized force out) against inverse dynamics: on random
// trees with every hinge type and random prescribed subhinges, the (U̇, τ) it returns satisfy
// RNEA(Q, U, U̇) = τ on every entry; without prescribed entries it is ABA, with all of them
// RNEA; a PIN with prescribed U̇ returns the torque inverse dynamics predicts; the articulated
// quantities left in the data follow MultibodyData's contract; bad sizes are refused.

#include <doctest/doctest.h>

#include <cmath>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/rnea.h"
#include "hopsim/signals/error.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {
namespace {

// Prescribes each subhinge of the model with probability 2/5; returns how many U entries.
int prescribeRandomSubhinges(MultibodyModel& model, test::Random& rnd) {
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    for (int k = 0; k < model.hinge(b).subhingeCount(); ++k) {
      model.setPrescribed(b, k, rnd.integer(0, 4) < 2);
    }
  }
  return model.prescribedCount();
}

// max |a - b| / (1 + max |b|): relative to the size of the expected values, absolute near zero.
double relativeError(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() == 0) return 0.0;
  return (a - b).cwiseAbs().maxCoeff() / (1.0 + b.cwiseAbs().maxCoeff());
}

}  // namespace

TEST_CASE("multibody: hybrid dynamics satisfies inverse dynamics on random trees and subsets") {
  // Tolerance 1e-10 relative, as ABA against RNEA (test_dynamics_agreement.cpp): both are exact
  // O(N) recursions, so they differ by round-off growing with depth and conditioning of the
  // random trees (observed below 1e-11).
  double worst = 0.0;
  int mixedHinges = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    test::Random rnd(seed + 1000);
    const int n = 1 + static_cast<int>((seed * 7) % 50);
    MultibodyModel model = rnd.tree(n, static_cast<int>(seed % 11));
    prescribeRandomSubhinges(model, rnd);
    for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
      int count = 0;
      for (int k = 0; k < model.hinge(b).nu(); ++k) {
        count += model.isPrescribed(model.uStart(b) + k) ? 1 : 0;
      }
      mixedHinges += (count > 0 && count < model.hinge(b).nu()) ? 1 : 0;
    }
    MultibodyData data(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::VectorXd tau = rnd.vectorX(model.nu(), 5.0);
    const Eigen::VectorXd udotPrescribed = rnd.vectorX(model.nu(), 3.0);
    const std::vector<SpatialForce> F = rnd.forces(model);

    const Eigen::VectorXd udot = hybridDynamics(model, data, q, u, tau, udotPrescribed, F);
    const Eigen::VectorXd tauOut = data.tau;
    for (int k = 0; k < model.nu(); ++k) {
      CAPTURE(k);
      if (model.isPrescribed(k)) {
        CHECK(udot[k] == udotPrescribed[k]);
      } else {
        CHECK(tauOut[k] == tau[k]);
      }
    }

    // The split entry point gives the same numbers after forward kinematics.
    forwardKinematics(model, data, q, u);
    const Eigen::VectorXd udotSplit = articulatedBodyDynamics(model, data, tau, udotPrescribed, F);
    CHECK(udotSplit == udot);
    CHECK(data.tau == tauOut);

    const double error = relativeError(rnea(model, data, q, u, udot, F), tauOut);
    worst = std::max(worst, error);
    CAPTURE(seed);
    CAPTURE(n);
    CHECK(error < 1e-10);
  }
  MESSAGE("worst relative |RNEA(hybrid U̇) - hybrid τ| = " << worst << " (" << mixedHinges
                                                          << " hinges partly prescribed)");
  CHECK(mixedHinges > 10);  // the subsets do split hinges
}

TEST_CASE("multibody: hybrid dynamics without prescribed entries is ABA") {
  test::Random rnd(5);
  MultibodyModel model = rnd.tree(33);
  MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  const Eigen::VectorXd tau = rnd.vectorX(model.nu(), 5.0);
  const std::vector<SpatialForce> F = rnd.forces(model);
  const Eigen::VectorXd fromAba = aba(model, data, q, u, tau, F);
  // Same recursion: identical to the last bit. The prescribed U̇ are not read.
  const Eigen::VectorXd ignored = Eigen::VectorXd::Constant(model.nu(), std::nan(""));
  CHECK(hybridDynamics(model, data, q, u, tau, ignored, F) == fromAba);
  CHECK(data.tau == tau);

  // aba ignores the prescribed flags: every entry stays free.
  model.setPrescribed(1, true);
  model.setPrescribed(7, true);
  CHECK(aba(model, data, q, u, tau, F) == fromAba);
}

TEST_CASE("multibody: hybrid dynamics with every entry prescribed is RNEA") {
  test::Random rnd(9);
  MultibodyModel model = rnd.tree(40, 3);
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) model.setPrescribed(b, true);
  REQUIRE(model.prescribedCount() == model.nu());
  MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  const Eigen::VectorXd udot = rnd.vectorX(model.nu(), 3.0);
  const std::vector<SpatialForce> F = rnd.forces(model);
  const Eigen::VectorXd ignored = Eigen::VectorXd::Constant(model.nu(), std::nan(""));
  CHECK(hybridDynamics(model, data, q, u, ignored, udot, F) == udot);
  const Eigen::VectorXd tau = data.tau;
  // Tolerance as above: two recursions, the same forces summed in a different order.
  CHECK(relativeError(tau, rnea(model, data, q, u, udot, F)) < 1e-10);
}

TEST_CASE("multibody: a PIN with prescribed U̇ returns the torque inverse dynamics predicts") {
  // The acceptance test: a double pendulum whose upper PIN follows θ1 = a sin ωt (so
  // U̇1 = -a ω² sin ωt is prescribed) while the lower PIN swings freely under gravity and a
  // small torque. At each sampled state, the upper torque hybrid dynamics returns is the one
  // RNEA needs for the resulting (U̇1, U̇2), and RNEA's lower torque is the one applied.
  MultibodyModel model;
  model.setGravity(Vector3(0, 0, -9.81));
  const Matrix3 I = Vector3(0.02, 0.01, 0.015).asDiagonal();
  const BodyIndex upper =
      model.addBody("upper", kWorldBody, SpatialInertia::fromCmInertia(1.0, Vector3(0, 0, -0.5), I),
                    Hinge::pin(Vector3::UnitX()));
  model.addBody("lower", upper, SpatialInertia::fromCmInertia(0.5, Vector3(0, 0, -0.4), I),
                Hinge::pin(Vector3::UnitX()), RigidTransform::fromTranslation(Vector3(0, 0, -1)));
  model.setPrescribed(upper, true);
  MultibodyData data(model);
  const double a = 0.8, omega = 2.5, lowerTorque = 0.3;
  for (double t = 0.0; t < 3.0; t += 0.37) {
    Eigen::Vector2d q, u, tau, udotPrescribed;
    q << a * std::sin(omega * t), 0.9 * std::cos(1.3 * t);
    u << a * omega * std::cos(omega * t), -1.1 * std::sin(1.3 * t);
    tau << std::nan(""), lowerTorque;  // the upper torque is an output
    udotPrescribed << -a * omega * omega * std::sin(omega * t), std::nan("");
    const Eigen::Vector2d udot = hybridDynamics(model, data, q, u, tau, udotPrescribed);
    const double upperTorque = data.tau[0];
    CAPTURE(t);
    CHECK(udot[0] == udotPrescribed[0]);
    const Eigen::Vector2d expected = rnea(model, data, q, u, udot);
    // Torques of order 10 N·m from two O(1)-operation recursions: 1e-12 N·m is round-off.
    CHECK(std::abs(upperTorque - expected[0]) < 1e-12);
    CHECK(std::abs(expected[1] - lowerTorque) < 1e-12);
  }
}

TEST_CASE("multibody: a prescribed GIMBAL subhinge and a prescribed FULL6DOF base") {
  // Prescribed entries inside one hinge and a whole free base, under a chain that mixes them.
  test::Random rnd(21);
  MultibodyModel model;
  model.setGravity(Vector3(0, 0, -9.81));
  const BodyIndex base = model.addBody("base", kWorldBody, rnd.inertia(), Hinge::full6Dof());
  const BodyIndex gimbal =
      model.addBody("gimbal", base, rnd.inertia(), Hinge::gimbal(), rnd.pose(), rnd.pose());
  const BodyIndex cyl = model.addBody("cylinder", gimbal, rnd.inertia(),
                                      Hinge::cylindrical(Vector3(0, 1, 1)), rnd.pose());
  model.addBody("ball", cyl, rnd.inertia(), Hinge::ball(), rnd.pose());
  model.setPrescribed(base, true);
  model.setPrescribed(gimbal, 1, true);
  model.setPrescribed(cyl, 1, true);  // the Pin of the CYLINDRICAL, its Slider free
  REQUIRE(model.prescribedCount() == 6 + 1 + 1);
  MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  const Eigen::VectorXd tau = rnd.vectorX(model.nu(), 5.0);
  const Eigen::VectorXd udotPrescribed = rnd.vectorX(model.nu(), 3.0);
  const Eigen::VectorXd udot = hybridDynamics(model, data, q, u, tau, udotPrescribed);
  const Eigen::VectorXd tauOut = data.tau;
  CHECK(udot.head(6) == udotPrescribed.head(6));
  CHECK(udot[7] == udotPrescribed[7]);
  CHECK(udot[10] == udotPrescribed[10]);
  CHECK(relativeError(rnea(model, data, q, u, udot), tauOut) < 1e-10);
}

TEST_CASE("multibody: hybrid dynamics leaves the factorization of the free subsystem") {
  // MultibodyData's contract for solvers reusing the factorization: PS_R = P S on free columns
  // and zero elsewhere, Dinv = (S_fᵀ P S_f)⁻¹ on the free block and the identity elsewhere,
  // everything in the tree's frame R: S_R and A_R are S_B and A_WB_B moved to R.
  test::Random rnd(31);
  MultibodyModel model = rnd.tree(30, 4);
  prescribeRandomSubhinges(model, rnd);
  MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  const Eigen::VectorXd v = rnd.vectorX(model.nu());
  // First all free, then the hybrid call: no stale column of the first call may survive.
  aba(model, data, q, u, v);
  hybridDynamics(model, data, q, u, v, v);
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const int nub = model.hinge(b).nu();
    const Matrix6& P = data.P_R[i].matrix();
    const Matrix6& S = data.S_R[i];
    const SpatialTransform X_RB(data.X_RB[i]);
    CHECK((S - X_RB.applyToMotions(data.S_B[i])).cwiseAbs().maxCoeff() < 1e-14);
    const double accelerationScale = 1.0 + data.A_R[i].vector().norm();
    CHECK((data.A_R[i].vector() - X_RB.apply(data.A_WB_B[i]).vector()).cwiseAbs().maxCoeff() <
          1e-13 * accelerationScale);
    Matrix6 Sf = Matrix6::Zero();
    for (int k = 0; k < nub; ++k) {
      if (!model.isPrescribed(model.uStart(b) + k)) Sf.col(k) = S.col(k);
    }
    Matrix6 D = Sf.transpose() * P * Sf;
    for (int k = 0; k < 6; ++k) {
      if (Sf.col(k).isZero(0.0)) D(k, k) = 1.0;
    }
    CAPTURE(b);
    CHECK((data.PS_R[i] - P * Sf).cwiseAbs().maxCoeff() < 1e-12 * (1.0 + P.norm()));
    CHECK((data.Dinv[i] * D - Matrix6::Identity()).cwiseAbs().maxCoeff() < 1e-10);
    for (int k = 0; k < 6; ++k) {
      if (!Sf.col(k).isZero(0.0)) continue;
      CHECK(data.PS_R[i].col(k).isZero(0.0));
      CHECK(data.Dinv[i].col(k) == Vector6::Unit(k));
      CHECK(data.eps[i][k] == 0.0);
    }
  }
}

TEST_CASE("multibody: hybrid dynamics refuses vectors of the wrong size") {
  test::Random rnd(2);
  const MultibodyModel model = rnd.tree(4, 1);  // PIN, SLIDER, CYLINDRICAL, UJOINT
  MultibodyData data(model);
  const Eigen::VectorXd q = model.neutralConfiguration();
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nu());
  const Eigen::VectorXd shortV = Eigen::VectorXd::Zero(model.nu() - 1);
  CHECK_THROWS_WITH_AS(hybridDynamics(model, data, shortV, v, v, v),
                       doctest::Contains("hybridDynamics: q has 5 entries (expected 6)"),
                       InputError);
  CHECK_THROWS_WITH_AS(hybridDynamics(model, data, q, shortV, v, v),
                       doctest::Contains("hybridDynamics: u has 5 entries (expected 6)"),
                       InputError);
  CHECK_THROWS_WITH_AS(hybridDynamics(model, data, q, v, shortV, v),
                       doctest::Contains("hybridDynamics: tau has 5 entries (expected 6)"),
                       InputError);
  CHECK_THROWS_WITH_AS(hybridDynamics(model, data, q, v, v, shortV),
                       doctest::Contains("hybridDynamics: udotPrescribed has 5 entries"),
                       InputError);
  CHECK_THROWS_WITH_AS(articulatedBodyDynamics(model, data, v, shortV),
                       doctest::Contains("articulatedBodyDynamics: udotPrescribed has 5 entries"),
                       InputError);
  CHECK_THROWS_WITH_AS(articulatedBodyDynamics(model, data, shortV, v),
                       doctest::Contains("articulatedBodyDynamics: tau has 5 entries"), InputError);
  const std::vector<SpatialForce> twoForces(2);
  CHECK_THROWS_WITH_AS(articulatedBodyDynamics(model, data, v, v, twoForces),
                       doctest::Contains("articulatedBodyDynamics: external forces given for 2"),
                       InputError);
  MultibodyData other(rnd.tree(2));
  CHECK_THROWS_WITH_AS(hybridDynamics(model, other, q, v, v, v),
                       doctest::Contains("hybridDynamics: the MultibodyData was built for 3"),
                       InputError);
}

}  // namespace hopsim::multibody
