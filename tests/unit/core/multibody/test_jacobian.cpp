// Frame Jacobians against the velocities forward kinematics computes (J U = node velocity)
// and against central finite differences of node poses along Q̇(Q, e_k) for every U entry.

#include <doctest/doctest.h>

#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/jacobian.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/signals/error.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {
namespace {

// A random tree with one node on every body at a random pose.
MultibodyModel treeWithNodes(test::Random& rnd, int n, int first) {
  MultibodyModel model = rnd.tree(n, first);
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    model.addNode("n" + std::to_string(b), b, rnd.pose());
  }
  return model;
}

}  // namespace

TEST_CASE("jacobian: J U equals the node velocity from forward kinematics") {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= 11; ++seed) {
    test::Random rnd(seed + 300);
    const MultibodyModel model = treeWithNodes(rnd, 22, static_cast<int>(seed));
    MultibodyData data(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    forwardKinematics(model, data, q, u);
    Matrix6X J(6, model.nu());
    for (NodeIndex n = 0; n < model.nodeCount(); ++n) {
      nodeJacobian(model, data, n, J);
      const Vector6 V = nodeVelocity(model, data, n).vector();
      worst = std::max(worst, (J * u - V).cwiseAbs().maxCoeff());
    }
  }
  MESSAGE("worst |J U - V_node| = " << worst);
  CHECK(worst < 1e-13);
}

TEST_CASE("jacobian: columns are the derivatives of node poses along Q̇(Q, e_k)") {
  double worst = 0.0;
  for (unsigned seed = 1; seed <= 11; ++seed) {
    test::Random rnd(seed + 400);
    const MultibodyModel model = treeWithNodes(rnd, 15, static_cast<int>(seed));
    MultibodyData data(model), plus(model), minus(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    forwardKinematics(model, data, q);
    Matrix6X J(6, model.nu());
    Eigen::VectorXd qdot(model.nq());
    const double h = 1e-6;
    for (int k = 0; k < model.nu(); ++k) {
      computeQdot(model, q, Eigen::VectorXd::Unit(model.nu(), k), qdot);
      forwardKinematics(model, plus, Eigen::VectorXd(q + h * qdot));
      forwardKinematics(model, minus, Eigen::VectorXd(q - h * qdot));
      for (NodeIndex n = 0; n < model.nodeCount(); ++n) {
        nodeJacobian(model, data, n, J);
        const RigidTransform Xp = nodePose(model, plus, n), Xm = nodePose(model, minus, n);
        const Matrix3 Wx = (Xp.rotation() - Xm.rotation()) / (2 * h) *
                           nodePose(model, data, n).rotation().transpose();
        const Vector3 w_fd(Wx(2, 1), Wx(0, 2), Wx(1, 0));
        const Vector3 v_fd = (Xp.translation() - Xm.translation()) / (2 * h);
        worst = std::max(worst, (J.col(k).head<3>() - w_fd).cwiseAbs().maxCoeff());
        worst = std::max(worst, (J.col(k).tail<3>() - v_fd).cwiseAbs().maxCoeff());
      }
    }
  }
  MESSAGE("worst |J - finite difference| = " << worst);
  CHECK(worst < 1e-7);  // central differences with h = 1e-6: truncation ~h², rounding ~1e-10
}

TEST_CASE("jacobian: only ancestors' columns are non-zero, the world's Jacobian is zero") {
  MultibodyModel model;
  const auto M = SpatialInertia::pointMass(1.0, Vector3(0, 0, -1));
  const BodyIndex a = model.addBody("a", kWorldBody, M, Hinge::pin(Vector3::UnitX()));
  const BodyIndex b = model.addBody("b", a, M, Hinge::slider(Vector3::UnitZ()));
  const BodyIndex c = model.addBody("c", kWorldBody, M, Hinge::ball());
  MultibodyData data(model);
  forwardKinematics(model, data, model.neutralConfiguration());
  Matrix6X J(6, model.nu());
  frameJacobian(model, data, b, Vector3(0, 0, -2), J);
  // Turning a about x moves P = (0, 0, -2) with ω × p = x × (0, 0, -2) = (0, 2, 0).
  CHECK(J.col(model.uStart(a)).isApprox((Vector6() << 1, 0, 0, 0, 2, 0).finished()));
  CHECK(J.col(model.uStart(b)).isApprox((Vector6() << 0, 0, 0, 0, 0, 1).finished()));
  CHECK(J.middleCols(model.uStart(c), 3).isZero(0.0));
  frameJacobian(model, data, kWorldBody, Vector3(1, 2, 3), J);
  CHECK(J.isZero(0.0));
  CHECK_THROWS_AS(frameJacobian(model, data, 9, Vector3::Zero(), J), InputError);
  Matrix6X wrong(6, model.nu() + 1);
  CHECK_THROWS_AS(frameJacobian(model, data, b, Vector3::Zero(), wrong), InputError);
}

}  // namespace hopsim::multibody
