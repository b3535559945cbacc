// Forward kinematics against central finite differences along a trajectory: the spatial
// velocities from the motion subspaces and U agree with d/dt of the poses moved by Q̇(Q, U)
// (pins the S matrices and the Q̇ maps of every hinge type), and ABA's accelerations agree
// with d/dt of the world-frame spatial velocities (pins the velocity-product terms).

#include <doctest/doctest.h>

#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/qdot.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {
namespace {

// The spatial velocity of B about Wo expressed in W, from V_WB_B.
SpatialMotion worldVelocity(const MultibodyData& data, std::size_t i) {
  return SpatialTransform(data.X_WB[i]).apply(data.V_WB_B[i]);
}

}  // namespace

TEST_CASE("multibody: body velocities are the derivatives of the body poses") {
  for (unsigned seed = 1; seed <= 11; ++seed) {
    test::Random rnd(seed);
    const MultibodyModel model = rnd.tree(22, static_cast<int>(seed));
    MultibodyData data(model), plus(model), minus(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    Eigen::VectorXd qdot(model.nq());
    computeQdot(model, q, u, qdot);
    forwardKinematics(model, data, q, u);
    const double h = 1e-6;
    forwardKinematics(model, plus, Eigen::VectorXd(q + h * qdot));
    forwardKinematics(model, minus, Eigen::VectorXd(q - h * qdot));
    double worst = 0.0;
    for (int b = 1; b < model.bodyCount(); ++b) {
      const auto i = static_cast<std::size_t>(b);
      const Matrix3& R = data.X_WB[i].rotation();
      // Ṙ Rᵀ = [ω_W×]; ṗ = v_WBo_W.
      const Matrix3 W =
          (plus.X_WB[i].rotation() - minus.X_WB[i].rotation()) / (2 * h) * R.transpose();
      const Vector3 w_fd(W(2, 1), W(0, 2), W(1, 0));
      const Vector3 v_fd = (plus.X_WB[i].translation() - minus.X_WB[i].translation()) / (2 * h);
      worst = std::max(worst, (w_fd - R * data.V_WB_B[i].rotational()).cwiseAbs().maxCoeff());
      worst = std::max(worst, (v_fd - R * data.V_WB_B[i].translational()).cwiseAbs().maxCoeff());
    }
    CAPTURE(seed);
    CHECK(worst < 1e-7);
  }
}

TEST_CASE("multibody: ABA accelerations are the derivatives of the body velocities") {
  for (unsigned seed = 1; seed <= 11; ++seed) {
    test::Random rnd(seed + 50);
    const MultibodyModel model = rnd.tree(22, static_cast<int>(seed));
    MultibodyData data(model), plus(model), minus(model);
    const double h = 1e-6;
    test::randomStateAndNeighbours(rnd, model, data, plus, minus, h);
    const SpatialMotion g_W(Vector3::Zero(), model.gravity());
    double worst = 0.0;
    for (int b = 1; b < model.bodyCount(); ++b) {
      const auto i = static_cast<std::size_t>(b);
      const SpatialMotion A_fd =
          (1.0 / (2 * h)) * (worldVelocity(plus, i) - worldVelocity(minus, i));
      // ABA's accelerations carry the fictitious world acceleration -g.
      const SpatialMotion A = SpatialTransform(data.X_WB[i]).apply(data.A_WB_B[i]) + g_W;
      worst = std::max(worst, (A_fd - A).vector().cwiseAbs().maxCoeff());
    }
    CAPTURE(seed);
    CHECK(worst < 1e-5);
  }
}

TEST_CASE("multibody: hinge joint transforms follow the documented conventions") {
  MultibodyModel model;
  const SpatialInertia M = SpatialInertia::pointMass(1.0, Vector3(1, 0, 0));
  model.addBody("pin", kWorldBody, M, Hinge::pin(Vector3(0, 0, 2)));
  model.addBody("gimbal", kWorldBody, M, Hinge::gimbal());
  model.addBody("free", kWorldBody, M, Hinge::full6Dof(),
                RigidTransform::fromTranslation(Vector3(0, 0, 1)));
  MultibodyData data(model);
  Eigen::VectorXd q = model.neutralConfiguration();
  q[0] = 0.3;
  q.segment<3>(1) << 0.1, -0.2, 0.4;
  const spatial::Quaternion e = spatial::quaternionFromAxisAngle(Vector3(1, 1, 0), 0.7);
  q.segment<4>(4) = e;
  q.segment<3>(8) << 1, 2, 3;
  forwardKinematics(model, data, q);
  CHECK(data.X_WB[1].rotation().isApprox(spatial::rotationZ(0.3), 1e-15));
  CHECK(data.X_WB[2].rotation().isApprox(
      spatial::rotationFromEuler(spatial::EulerSequence::XYZ, Vector3(0.1, -0.2, 0.4)), 1e-14));
  CHECK(data.X_WB[3].rotation().isApprox(spatial::rotationFromQuaternion(e), 1e-15));
  CHECK(data.X_WB[3].translation().isApprox(Vector3(1, 2, 4), 1e-15));
}

TEST_CASE("multibody: a PIN about a coordinate axis has the pose of Rodrigues' rotation") {
  // The kernels form such a pin's pose from two columns of R_PF (hinge_kernels.h); the
  // reference is the spatial library's axis-angle rotation composed with X_PF. Also a nearly
  // coordinate axis (the general path) and an outboard frame off the body frame.
  test::Random rnd(7);
  struct Case {
    Vector3 axis;
    int coordinateAxis;  // Subhinge::coordinateAxis expected
  };
  const Case cases[] = {{Vector3::UnitX(), 0},        {-Vector3::UnitX(), 0},
                        {Vector3::UnitY(), 1},        {-Vector3::UnitY(), 1},
                        {Vector3::UnitZ(), 2},        {Vector3(0, 0, -3), 2},
                        {Vector3(1e-9, 0.0, 1.0), -1}};
  for (const auto& [axis, coordinateAxis] : cases) {
    for (const bool bodyFrame : {true, false}) {
      const Hinge hinge = Hinge::pin(axis);
      CHECK(hinge.subhinge(0).coordinateAxis == coordinateAxis);
      MultibodyModel model;
      const RigidTransform X_PF = rnd.pose(), X_BM = bodyFrame ? RigidTransform() : rnd.pose();
      model.addBody("b", kWorldBody, rnd.inertia(), hinge, X_PF, X_BM);
      MultibodyData data(model);
      for (const double angle : {0.0, 0.4, -2.9, 7.5}) {
        forwardKinematics(model, data, Eigen::VectorXd::Constant(1, angle));
        const RigidTransform expected =
            X_PF *
            RigidTransform::fromRotation(spatial::rotationFromAxisAngle(axis.normalized(), angle)) *
            X_BM.inverse();
        CAPTURE(axis.transpose());
        CAPTURE(bodyFrame);
        CAPTURE(angle);
        CHECK(data.X_PB[1].isApprox(expected, 1e-14));  // a few roundings of products
        CHECK(data.S_B[1].col(0).isApprox(
            SpatialTransform(X_BM)
                .apply(SpatialMotion(axis.normalized(), Vector3::Zero()))
                .vector(),
            1e-15));
      }
    }
  }
}

}  // namespace hopsim::multibody
