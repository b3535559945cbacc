// abaSolve against CRBA's M: on random trees, after aba() at (Q, U, τ), U̇ = abaSolve(τ', F)
// satisfies M U̇ = τ' + Σ J_Bᵀ F_B (the body forces mapped by frameJacobian at each body
// origin) to rounding, and aba's results in the data stay untouched; with prescribed entries
// (after hybridDynamics) it is the free subsystem's M_ff⁻¹.

#include <doctest/doctest.h>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/aba_solve.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/jacobian.h"
#include "hopsim/signals/error.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {

TEST_CASE("abaSolve: equals M⁻¹ f from CRBA on random trees, reusing aba's factorization") {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    test::Random rnd(seed + 500);
    const int n = 1 + static_cast<int>((seed * 7) % 40);
    const MultibodyModel model = rnd.tree(n, static_cast<int>(seed % 11));
    MultibodyData data(model);
    AbaSolveWorkspace work(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::MatrixXd M = crba(model, data, q);
    const Eigen::VectorXd udot0 = aba(model, data, q, u, rnd.vectorX(model.nu()));

    const Eigen::VectorXd tau = rnd.vectorX(model.nu(), 3.0);
    const std::vector<SpatialForce> F = rnd.forces(model);
    Eigen::VectorXd f = tau;
    Matrix6X J(6, model.nu());
    for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
      const auto i = static_cast<std::size_t>(b);
      frameJacobian(model, data, b, Vector3::Zero(), J);
      const Matrix3& R = data.X_WB[i].rotation();
      Vector6 F_W;
      F_W << R * F[i].rotational(), R * F[i].translational();
      f += J.transpose() * F_W;
    }

    Eigen::VectorXd udot(model.nu());
    abaSolve(model, data, work, tau, F, udot);
    // The backward error |M U̇ - f| / (|M| |U̇| + |f|) of a stable O(N) solve is a few ulps
    // whatever M's conditioning (which reaches 4e8 in these trees; the forward error does not
    // stay small there for any method).
    const double error = model.nu() == 0
                             ? 0.0
                             : (M * udot - f).lpNorm<Eigen::Infinity>() /
                                   (M.lpNorm<Eigen::Infinity>() * udot.lpNorm<Eigen::Infinity>() +
                                    f.lpNorm<Eigen::Infinity>());
    worst = std::max(worst, error);
    CAPTURE(seed);
    CHECK(error < 1e-14);
    CHECK(data.udot == udot0);  // aba's result is still there
  }
  MESSAGE("worst backward error of abaSolve, |M U̇ - f| / (|M| |U̇| + |f|) = " << worst);
}

TEST_CASE("abaSolve: after hybridDynamics it is M_ff⁻¹ on the free entries, zero on prescribed") {
  double worst = 0.0;
  int prescribedSeen = 0;
  for (unsigned seed = 1; seed <= 30; ++seed) {
    test::Random rnd(seed + 600);
    const int n = 2 + static_cast<int>((seed * 7) % 30);
    MultibodyModel model = rnd.tree(n, static_cast<int>(seed % 11));
    for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
      for (int k = 0; k < model.hinge(b).subhingeCount(); ++k) {
        model.setPrescribed(b, k, rnd.integer(0, 4) < 2);
      }
    }
    prescribedSeen += model.prescribedCount();
    MultibodyData data(model);
    AbaSolveWorkspace work(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::MatrixXd M = crba(model, data, q);
    hybridDynamics(model, data, q, rnd.vectorX(model.nu()), rnd.vectorX(model.nu()),
                   rnd.vectorX(model.nu()));
    const Eigen::VectorXd tau = rnd.vectorX(model.nu(), 3.0);
    Eigen::VectorXd udot(model.nu());
    abaSolve(model, data, work, tau, {}, udot);
    // M_ff U̇_f = τ_f with U̇_p = 0: the free rows of M U̇ - τ vanish.
    const Eigen::VectorXd residual = M * udot - tau;
    double error = 0.0;
    for (int k = 0; k < model.nu(); ++k) {
      if (model.isPrescribed(k)) {
        CHECK(udot[k] == 0.0);
      } else {
        error = std::max(error, std::abs(residual[k]));
      }
    }
    if (model.nu() > 0) {
      error /= M.lpNorm<Eigen::Infinity>() * udot.lpNorm<Eigen::Infinity>() +
               tau.lpNorm<Eigen::Infinity>();
    }
    worst = std::max(worst, error);
    CAPTURE(seed);
    CHECK(error < 1e-14);
  }
  CHECK(prescribedSeen > 50);
  MESSAGE("worst backward error of abaSolve on the free subsystem = " << worst);
}

TEST_CASE("abaSolve: refuses a workspace or vectors of the wrong size") {
  test::Random rnd(7);
  const MultibodyModel model = rnd.tree(5);
  const MultibodyModel other = rnd.tree(6);
  MultibodyData data(model);
  AbaSolveWorkspace work(model), otherWork(other);
  Eigen::VectorXd udot(model.nu());
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nu());
  CHECK_THROWS_AS(abaSolve(model, data, otherWork, tau, {}, udot), InputError);
  CHECK_THROWS_AS(abaSolve(model, data, work, Eigen::VectorXd::Zero(model.nu() + 1), {}, udot),
                  InputError);
  Eigen::VectorXd shortUdot(model.nu() - 1);
  CHECK_THROWS_AS(abaSolve(model, data, work, tau, {}, shortUdot), InputError);
}

}  // namespace hopsim::multibody
