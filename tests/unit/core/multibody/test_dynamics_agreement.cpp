// ABA, CRBA and RNEA agree on random trees: U̇_ABA = M⁻¹(τ - C) with C = RNEA(Q, U, 0), and
// RNEA(Q, U, U̇_ABA) = τ; CRBA's columns equal RNEA's response to unit accelerations without
// gravity or velocity; and none of them depends on where the tree is. Every hinge type
// appears in every tree of 11 bodies or more.

#include <doctest/doctest.h>

#include <Eigen/Cholesky>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/aba_solve.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/multibody/rnea.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {

TEST_CASE("multibody: ABA, mass-matrix solve and RNEA agree to 1e-10 on random trees") {
  double worstSolve = 0.0, worstRoundTrip = 0.0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    test::Random rnd(seed);
    const int n = 1 + static_cast<int>((seed * 7) % 50);
    const MultibodyModel model = rnd.tree(n, static_cast<int>(seed % 11));
    MultibodyData data(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::VectorXd tau = rnd.vectorX(model.nu(), 5.0);
    const std::vector<SpatialForce> F = rnd.forces(model);

    const Eigen::VectorXd udot = aba(model, data, q, u, tau, F);
    const Eigen::VectorXd C = rnea(model, data, q, u, Eigen::VectorXd::Zero(model.nu()), F);
    const Eigen::MatrixXd M = crba(model, data, q);
    REQUIRE((M - M.transpose()).cwiseAbs().maxCoeff() == 0.0);
    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    REQUIRE(llt.info() == Eigen::Success);
    const Eigen::VectorXd udotSolve = llt.solve(tau - C);
    const Eigen::VectorXd tauBack = rnea(model, data, q, u, udot, F);

    const double scale = 1.0 + udot.cwiseAbs().maxCoeff();
    const double solveError = model.nu() ? (udot - udotSolve).cwiseAbs().maxCoeff() / scale : 0.0;
    const double roundTrip =
        model.nu() ? (tauBack - tau).cwiseAbs().maxCoeff() / (1.0 + tau.cwiseAbs().maxCoeff())
                   : 0.0;
    worstSolve = std::max(worstSolve, solveError);
    worstRoundTrip = std::max(worstRoundTrip, roundTrip);
    CAPTURE(seed);
    CAPTURE(n);
    CHECK(solveError < 1e-10);
    CHECK(roundTrip < 1e-10);
  }
  MESSAGE("worst relative |ABA - M⁻¹(τ - C)| = " << worstSolve
                                                 << ", worst |RNEA(ABA) - τ| = " << worstRoundTrip);
}

TEST_CASE("multibody: CRBA columns are RNEA's response to unit accelerations") {
  for (unsigned seed = 100; seed < 110; ++seed) {
    test::Random rnd(seed);
    MultibodyModel model = rnd.tree(22, static_cast<int>(seed));
    model.setGravity(Vector3::Zero());
    MultibodyData data(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::MatrixXd M = crba(model, data, q);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nu());
    double worst = 0.0;
    for (int k = 0; k < model.nu(); ++k) {
      const Eigen::VectorXd e = Eigen::VectorXd::Unit(model.nu(), k);
      worst = std::max(worst, (rnea(model, data, q, zero, e) - M.col(k)).cwiseAbs().maxCoeff());
    }
    CAPTURE(seed);
    CHECK(worst < 1e-11 * (1.0 + M.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("multibody: kinetic energy equals ½ Uᵀ M U") {
  test::Random rnd(7);
  const MultibodyModel model = rnd.tree(33);
  MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  const double fromM = 0.5 * u.dot(crba(model, data, q) * u);
  computeEnergyAndMomentum(model, data, q, u);
  CHECK(std::abs(data.kineticEnergy - fromM) < 1e-11 * (1.0 + fromM));
}

TEST_CASE("multibody: dynamics do not depend on where the mechanism is, 7e6 m out included") {
  // ABA and CRBA work about each tree's base, not the world origin (multibody_data.h): moving
  // every base by 7e6 m (an orbit's radius) must change neither U̇, nor M, nor M⁻¹ f. The same
  // trees about Wo would carry m |p|² ~ 5e13 in every inertia and lose about 13 digits. The
  // bound is round-off on O(1) quantities: no operation of the recursions sees the offset.
  const Vector3 offset(7.0e6, -3.0e6, 1.0e6);
  for (unsigned seed = 200; seed < 210; ++seed) {
    test::Random near(seed), far(seed);
    const MultibodyModel atOrigin = near.tree(25, static_cast<int>(seed));
    const MultibodyModel inOrbit = far.tree(25, static_cast<int>(seed), offset);
    MultibodyData nearData(atOrigin), farData(inOrbit);
    const Eigen::VectorXd q = near.configuration(atOrigin);
    const Eigen::VectorXd u = near.vectorX(atOrigin.nu());
    const Eigen::VectorXd tau = near.vectorX(atOrigin.nu(), 5.0);
    const std::vector<SpatialForce> F = near.forces(atOrigin);
    CAPTURE(seed);

    const Eigen::VectorXd udot = aba(atOrigin, nearData, q, u, tau, F);
    const Eigen::VectorXd udotFar = aba(inOrbit, farData, q, u, tau, F);
    CHECK((udotFar - udot).cwiseAbs().maxCoeff() < 1e-12 * (1.0 + udot.cwiseAbs().maxCoeff()));
    for (BodyIndex b = 1; b < inOrbit.bodyCount(); ++b) {  // B's pose in its base's frame
      BodyIndex base = b;
      while (inOrbit.parent(base) != kWorldBody) base = inOrbit.parent(base);
      const auto i = static_cast<std::size_t>(b);
      const RigidTransform X_RB =
          nearData.X_WB[static_cast<std::size_t>(base)].inverse() * nearData.X_WB[i];
      CHECK((farData.X_RB[i].translation() - X_RB.translation()).norm() <
            1e-12 * (1.0 + X_RB.translation().norm()));
      CHECK((farData.X_RB[i].rotation() - X_RB.rotation()).cwiseAbs().maxCoeff() < 1e-13);
    }

    AbaSolveWorkspace nearWork(atOrigin), farWork(inOrbit);
    Eigen::VectorXd response(atOrigin.nu()), responseFar(inOrbit.nu());
    abaSolve(atOrigin, nearData, nearWork, tau, F, response);
    abaSolve(inOrbit, farData, farWork, tau, F, responseFar);
    CHECK((responseFar - response).cwiseAbs().maxCoeff() <
          1e-12 * (1.0 + response.cwiseAbs().maxCoeff()));

    const Eigen::MatrixXd M = crba(atOrigin, nearData, q);
    const Eigen::MatrixXd MFar = crba(inOrbit, farData, q);
    CHECK((MFar - M).cwiseAbs().maxCoeff() < 1e-12 * (1.0 + M.cwiseAbs().maxCoeff()));
  }
}

}  // namespace hopsim::multibody
