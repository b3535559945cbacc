// Hinge (inter-body) forces: statics (a pendulum carries its weight, a hanging chain's top
// hinge the whole chain's, a welded body its weight and moment), the projection on each
// hinge's motion subspace equals its generalized force, RNEA's per-body forces agree, and each
// subtree's momentum changes at the rate its root hinge force, gravity and the external
// forces give (central differences in time, independent of the recursion).

#include <doctest/doctest.h>

#include <vector>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/hinge_forces.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/multibody/rnea.h"
#include "hopsim/signals/error.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {
namespace {

const Vector3 kGravity(0, 0, -9.81);

double maxAbs(const Vector6& v) { return v.cwiseAbs().maxCoeff(); }

// F_M moved to about Bo in B.
SpatialForce inBody(const MultibodyModel& model, BodyIndex b, const SpatialForce& F_M) {
  return SpatialTransform(model.X_BM(b)).apply(F_M);
}

// The largest component of any hinge force moved to its body, and at least 1: the scale the
// checks on them are relative to.
double forceScale(const MultibodyModel& model, const std::vector<SpatialForce>& F) {
  double scale = 1.0;
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    scale = std::max(scale, maxAbs(inBody(model, b, F[static_cast<std::size_t>(b)]).vector()));
  }
  return scale;
}

// The largest |S_Bᵀ F_B - tau[j]| over every hinge entry j, F_B each hinge force in its body.
double worstProjection(const MultibodyModel& model, const MultibodyData& data,
                       const std::vector<SpatialForce>& F, const Eigen::VectorXd& tau) {
  double worst = 0.0;
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const SpatialForce F_B = inBody(model, b, F[i]);
    for (int k = 0; k < model.hinge(b).nu(); ++k) {
      const int j = model.uStart(b) + k;
      worst = std::max(worst, std::abs(data.S_B[i].col(k).dot(F_B.vector()) - tau[j]));
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("hinge forces: a pendulum at rest carries its weight") {
  // Hanging straight down (τ = 0) and held horizontal by τ = m g l: the hinge pushes up with
  // m g and, about Mo, balances the weight's moment.
  const double m = 2.5, l = 0.8;
  for (const double angle : {0.0, -M_PI / 2}) {
    MultibodyModel model;
    model.setGravity(kGravity);
    const RigidTransform X_BM(spatial::rotationZ(0.3), Vector3(0.1, 0.2, 0.3));
    // CM at l below Mo along -z of M (at zero angle).
    const Vector3 p_BoCm_B = X_BM * Vector3(0, 0, -l);
    model.addBody("bob", kWorldBody,
                  SpatialInertia::fromCmInertia(m, p_BoCm_B, 0.01 * Matrix3::Identity()),
                  Hinge::pin(Vector3::UnitX()), RigidTransform::fromTranslation({0, 0, 2}), X_BM);
    MultibodyData data(model);
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, angle), u = Eigen::VectorXd::Zero(1);
    // Held: τ balances the weight's moment about x, m g l sin(angle) (rotating -z toward +y).
    const Eigen::VectorXd tau = Eigen::VectorXd::Constant(1, m * 9.81 * l * std::sin(angle));
    const Eigen::VectorXd udot = aba(model, data, q, u, tau);
    CHECK(std::abs(udot[0]) < 1e-12);
    const std::vector<SpatialForce> F = hingeForces(model, data);
    // In M the CM is at (0, 0, -l) and gravity is R_MW g.
    const Matrix3 R_WM = data.X_WB[1].rotation() * X_BM.rotation();
    const Vector3 f_M = -m * (R_WM.transpose() * kGravity);
    const Vector3 n_M = -Vector3(0, 0, -l).cross(m * (R_WM.transpose() * kGravity));
    CAPTURE(angle);
    CHECK((Vector3(F[1].translational()) - f_M).norm() < 1e-12);
    CHECK((Vector3(F[1].rotational()) - n_M).norm() < 1e-12);
    CHECK(std::abs(F[1].rotational().x() - tau[0]) < 1e-12);
  }
}

TEST_CASE("hinge forces: a hanging chain's hinges carry the weight below them") {
  // Five links of different masses hang straight down from mixed hinges at rest: hinge k
  // carries the weight of links k..5 and no moment (all CMs on the vertical through Mo).
  const double masses[] = {1.0, 2.0, 0.5, 3.0, 1.5};
  const Hinge hinges[] = {Hinge::pin(Vector3::UnitX()), Hinge::ball(),
                          Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()), Hinge::locked(),
                          Hinge::gimbal()};
  MultibodyModel model;
  model.setGravity(kGravity);
  BodyIndex parent = kWorldBody;
  for (int k = 0; k < 5; ++k) {
    const SpatialInertia M =
        SpatialInertia::fromCmInertia(masses[k], Vector3(0, 0, -0.5), 0.02 * Matrix3::Identity());
    parent = model.addBody("link" + std::to_string(k), parent, M, hinges[k],
                           RigidTransform::fromTranslation({0, 0, k == 0 ? 0.0 : -1.0}));
  }
  MultibodyData data(model);
  const Eigen::VectorXd udot =
      aba(model, data, model.neutralConfiguration(), Eigen::VectorXd::Zero(model.nu()),
          Eigen::VectorXd::Zero(model.nu()));
  CHECK(udot.cwiseAbs().maxCoeff() < 1e-12);
  const std::vector<SpatialForce> F = hingeForces(model, data);
  double below = 0.0;
  for (int b = 5; b >= 1; --b) {
    below += masses[b - 1];
    CAPTURE(b);
    CHECK((Vector3(F[static_cast<std::size_t>(b)].translational()) - Vector3(0, 0, below * 9.81))
              .norm() < 1e-12);
    CHECK(F[static_cast<std::size_t>(b)].rotational().norm() < 1e-12);
  }
}

TEST_CASE("hinge forces: each hinge's projection on its motion subspace is its τ, RNEA agrees") {
  // Against RNEA at ABA's U̇ (same accelerations): agreement to round-off of the forces. Against
  // the τ given to ABA: also ABA's own round-off, which RNEA(ABA) - τ measures on these 30-body
  // trees (up to 2e-10 of the largest hinge force), so that comparison allows 1e-9.
  for (unsigned seed = 1; seed <= 11; ++seed) {
    test::Random rnd(seed + 100);
    const MultibodyModel model = rnd.tree(30, static_cast<int>(seed));
    MultibodyData data(model), byRnea(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::VectorXd tau = rnd.vectorX(model.nu());
    const std::vector<SpatialForce> F_ext = rnd.forces(model);
    const Eigen::VectorXd udot = aba(model, data, q, u, tau, F_ext);
    std::vector<SpatialForce> F(static_cast<std::size_t>(model.bodyCount()));
    hingeForces(model, data, F_ext, F);
    rnea(model, byRnea, q, u, udot, F_ext);
    const double scale = forceScale(model, F);
    const double worstTau = worstProjection(model, data, F, tau);
    const double worstRneaTau = worstProjection(model, data, F, byRnea.tau);
    double worstRnea = 0.0;
    for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
      const auto i = static_cast<std::size_t>(b);
      worstRnea =
          std::max(worstRnea, maxAbs(inBody(model, b, F[i]).vector() - byRnea.F_B[i].vector()));
    }
    CAPTURE(seed);
    CHECK(worstRnea < 1e-12 * scale);
    CHECK(worstRneaTau < 1e-12 * scale);
    CHECK(worstTau < 1e-9 * scale);
  }
}

TEST_CASE("hinge forces: each subtree's momentum changes as its hinge force says") {
  // d/dt Σ_subtree (ᵂX_B* M_B V_B) = ᵂX_M* F_M(root) + Σ_subtree ᵂX_B* (M_B [0; g_B] + F_ext_B),
  // by central differences along the trajectory through (q, u) (h = 1e-6, worst seen 8e-10).
  double worstOfAll = 0.0;
  for (unsigned seed = 1; seed <= 5; ++seed) {
    test::Random rnd(seed + 200);
    const MultibodyModel model = rnd.tree(20, static_cast<int>(seed));
    const int n = model.bodyCount();
    MultibodyData data(model), plus(model), minus(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const std::vector<SpatialForce> F_ext = rnd.forces(model);
    const Eigen::VectorXd udot = aba(model, data, q, u, rnd.vectorX(model.nu()), F_ext);
    const std::vector<SpatialForce> F = hingeForces(model, data, F_ext);
    Eigen::VectorXd qdot(model.nq());
    computeQdot(model, q, u, qdot);
    const double h = 1e-6;
    forwardKinematics(model, plus, Eigen::VectorXd(q + h * qdot), Eigen::VectorXd(u + h * udot));
    forwardKinematics(model, minus, Eigen::VectorXd(q - h * qdot), Eigen::VectorXd(u - h * udot));
    // Per body, momentum about Wo in W and the applied (gravity + external) force.
    auto momentum = [&](const MultibodyData& d, BodyIndex b) {
      const auto i = static_cast<std::size_t>(b);
      const SpatialInertia& M = model.massProperties(b);
      return SpatialTransform(d.X_WB[i]).apply(SpatialForce(M * d.V_WB_B[i]));
    };
    double worst = 0.0;
    for (BodyIndex root = 1; root < n; ++root) {
      // Bodies in root's subtree: ancestors' indices are smaller, so one forward sweep.
      std::vector<char> in(static_cast<std::size_t>(n), 0);
      in[static_cast<std::size_t>(root)] = 1;
      SpatialForce rate, applied;
      for (BodyIndex b = root; b < n; ++b) {
        const auto i = static_cast<std::size_t>(b);
        if (b != root && !in[static_cast<std::size_t>(model.parent(b))]) continue;
        in[i] = 1;
        rate += (1.0 / (2 * h)) * (momentum(plus, b) - momentum(minus, b));
        const Vector3 g_B = data.X_WB[i].rotation().transpose() * model.gravity();
        const SpatialForce W_B =
            model.massProperties(b) * SpatialMotion(Vector3::Zero(), g_B) + F_ext[i];
        applied += SpatialTransform(data.X_WB[i]).apply(W_B);
      }
      const auto r = static_cast<std::size_t>(root);
      const RigidTransform X_WM = data.X_WB[r] * model.X_BM(root);
      const SpatialForce hinge_W = SpatialTransform(X_WM).apply(F[r]);
      worst = std::max(worst,
                       maxAbs((rate - applied - hinge_W).vector()) / (1 + maxAbs(rate.vector())));
    }
    CAPTURE(seed);
    CHECK(worst < 1e-8);
    worstOfAll = std::max(worstOfAll, worst);
  }
  MESSAGE("worst relative |d/dt momentum - forces| = " << worstOfAll);
}

TEST_CASE("hinge forces: after hybrid dynamics they project on the prescribed entries' forces") {
  // Prescribed entries: S_Mᵀ F_M is the force their motion needs (data.tau); free: their τ.
  for (unsigned seed = 1; seed <= 6; ++seed) {
    test::Random rnd(seed + 500);
    MultibodyModel model = rnd.tree(25, static_cast<int>(seed));
    for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
      for (int k = 0; k < model.hinge(b).subhingeCount(); ++k) {
        model.setPrescribed(b, k, rnd.integer(0, 1) == 1);
      }
    }
    MultibodyData data(model);
    const std::vector<SpatialForce> F_ext = rnd.forces(model);
    hybridDynamics(model, data, rnd.configuration(model), rnd.vectorX(model.nu()),
                   rnd.vectorX(model.nu()), rnd.vectorX(model.nu()), F_ext);
    const std::vector<SpatialForce> F = hingeForces(model, data, F_ext);
    const double scale = forceScale(model, F);
    const double worst = worstProjection(model, data, F, data.tau);
    CAPTURE(seed);
    CHECK(model.prescribedCount() > 0);
    CHECK(worst < 1e-10 * scale);
  }
}

TEST_CASE("hinge forces: bad sizes are InputErrors") {
  MultibodyModel model;
  model.addBody("a", kWorldBody,
                SpatialInertia::fromCmInertia(1, Vector3::Zero(), Matrix3::Identity()),
                Hinge::ball());
  MultibodyData data(model);
  std::vector<SpatialForce> F(1);
  CHECK_THROWS_WITH_AS(
      hingeForces(model, data, {}, F),
      doctest::Contains("hingeForces: the output F_M (one per body) has 1 entries (expected 2)"),
      InputError);
  const std::vector<SpatialForce> F_ext(3);
  CHECK_THROWS_WITH_AS(hingeForces(model, data, F_ext),
                       doctest::Contains("hingeForces: external forces given for 3 bodies"),
                       InputError);
}

}  // namespace hopsim::multibody
