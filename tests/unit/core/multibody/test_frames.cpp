// Frame queries: relative poses, velocities and accelerations between every kind of frame
// (world, body, node, hinge inboard F and outboard M) against central finite differences in
// time along random trees with every hinge type, against nodePose/nodeVelocity and the hinge
// definitions, analytic rotating-frame and free-fall cases, and the identities between them.

#include <doctest/doctest.h>

#include <vector>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/frames.h"
#include "hopsim/core/multibody/rnea.h"
#include "hopsim/signals/error.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {
namespace {

// A random tree of n bodies with two nodes on random bodies (one on the world).
MultibodyModel treeWithNodes(test::Random& rnd, int n, int first) {
  MultibodyModel model = rnd.tree(n, first);
  model.addNode("fixed", kWorldBody, rnd.pose());
  for (int k = 0; k < n / 2; ++k) {
    model.addNode("n" + std::to_string(k), rnd.integer(1, n), rnd.pose());
  }
  return model;
}

// Every frame of the model.
std::vector<Frame> allFrames(const MultibodyModel& model) {
  std::vector<Frame> frames{Frame::world()};
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    frames.push_back(Frame::body(b));
    frames.push_back(Frame::hingeInboard(b));
    frames.push_back(Frame::hingeOutboard(b));
  }
  for (NodeIndex n = 0; n < model.nodeCount(); ++n) frames.push_back(Frame::node(n));
  return frames;
}

// One of frames, picked at random.
const Frame& randomFrame(test::Random& rnd, const std::vector<Frame>& frames) {
  return frames[static_cast<std::size_t>(rnd.integer(0, static_cast<int>(frames.size()) - 1))];
}

// The angular velocity ω_A with Ṙ = [ω_A×] R for a rotation R_AX and its rate.
Vector3 angularRate(const Matrix3& Rdot, const Matrix3& R) {
  const Matrix3 W = Rdot * R.transpose();
  return Vector3(W(2, 1), W(0, 2), W(1, 0));
}

double maxAbs(const SpatialMotion& V) { return V.vector().cwiseAbs().maxCoeff(); }

// One random state of a random tree and its neighbours h before and after along the trajectory
// (see test::randomStateAndNeighbours).
struct Trajectory {
  Trajectory(unsigned seed, double h_)
      : rnd(seed),
        model(treeWithNodes(rnd, 22, static_cast<int>(seed))),
        data(model),
        plus(model),
        minus(model),
        h(h_) {
    test::randomStateAndNeighbours(rnd, model, data, plus, minus, h);
  }
  test::Random rnd;
  MultibodyModel model;
  MultibodyData data, plus, minus;
  double h;
};

}  // namespace

TEST_CASE("frames: relative velocities are the derivatives of relative poses") {
  // h = 1e-6: truncation error h²|X'''| ~ 1e-10, rounding ~ 1e-16 |p| / h ~ 1e-10; the
  // worst seen is 9e-10 (accelerations 1.5e-9), so 1e-8 (2e-8) leaves a margin of ten.
  double worstOfAll = 0.0;
  for (unsigned seed = 1; seed <= 11; ++seed) {
    Trajectory t(seed, 1e-6);
    const std::vector<Frame> frames = allFrames(t.model);
    double worst = 0.0;
    for (int k = 0; k < 200; ++k) {
      const Frame& A = randomFrame(t.rnd, frames);
      const Frame& B = randomFrame(t.rnd, frames);
      const Frame& C = randomFrame(t.rnd, frames);
      const RigidTransform X_BA = relativePose(t.model, t.data, A, B);
      const RigidTransform Xp = relativePose(t.model, t.plus, A, B);
      const RigidTransform Xm = relativePose(t.model, t.minus, A, B);
      const Vector3 w_fd =
          angularRate((Xp.rotation() - Xm.rotation()) / (2 * t.h), X_BA.rotation());
      const Vector3 v_fd = (Xp.translation() - Xm.translation()) / (2 * t.h);
      const SpatialMotion V_BA_B = relativeVelocity(t.model, t.data, A, B, B);
      worst = std::max(worst, maxAbs(V_BA_B - SpatialMotion(w_fd, v_fd)) / (1 + maxAbs(V_BA_B)));
      // Expressed in C: the same vectors rotated by R_CB.
      const Matrix3 R_CB = relativePose(t.model, t.data, B, C).rotation();
      const SpatialMotion V_BA_C = relativeVelocity(t.model, t.data, A, B, C);
      CHECK(maxAbs(V_BA_C -
                   SpatialMotion(R_CB * V_BA_B.rotational(), R_CB * V_BA_B.translational())) <
            1e-12 * (1 + maxAbs(V_BA_B)));
    }
    CAPTURE(seed);
    CHECK(worst < 1e-8);
    worstOfAll = std::max(worstOfAll, worst);
  }
  MESSAGE("worst relative |V_BA - d/dt X_BA| = " << worstOfAll);
}

TEST_CASE("frames: relative accelerations are the derivatives of relative velocities") {
  double worstOfAll = 0.0;
  for (unsigned seed = 1; seed <= 11; ++seed) {
    Trajectory t(seed + 20, 1e-6);
    const std::vector<Frame> frames = allFrames(t.model);
    double worst = 0.0;
    for (int k = 0; k < 200; ++k) {
      const Frame& A = randomFrame(t.rnd, frames);
      const Frame& B = randomFrame(t.rnd, frames);
      // Components of V_BA_B differentiated in time are the derivative seen in B.
      const SpatialMotion A_fd = (1.0 / (2 * t.h)) * (relativeVelocity(t.model, t.plus, A, B, B) -
                                                      relativeVelocity(t.model, t.minus, A, B, B));
      const SpatialMotion A_BA_B = relativeAcceleration(t.model, t.data, A, B, B);
      worst = std::max(worst, maxAbs(A_BA_B - A_fd) / (1 + maxAbs(A_BA_B)));
    }
    CAPTURE(seed);
    CHECK(worst < 2e-8);
    worstOfAll = std::max(worstOfAll, worst);
  }
  MESSAGE("worst relative |A_BA - d/dt V_BA| = " << worstOfAll);
}

TEST_CASE("frames: rnea and aba data give the same accelerations") {
  test::Random rnd(7);
  const MultibodyModel model = treeWithNodes(rnd, 30, 3);
  MultibodyData byAba(model), byRnea(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  const Eigen::VectorXd udot = aba(model, byAba, q, u, rnd.vectorX(model.nu()));
  rnea(model, byRnea, q, u, udot);
  const std::vector<Frame> frames = allFrames(model);
  for (const Frame& A : frames) {
    const Frame& B =
        frames[static_cast<std::size_t>(rnd.integer(0, static_cast<int>(frames.size()) - 1))];
    const SpatialMotion a = relativeAcceleration(model, byAba, A, B, Frame::world());
    const SpatialMotion r = relativeAcceleration(model, byRnea, A, B, Frame::world());
    CHECK(maxAbs(a - r) < 1e-9 * (1 + maxAbs(a)));
  }
}

TEST_CASE("frames: relative to the world, poses and velocities are nodePose and nodeVelocity") {
  test::Random rnd(3);
  const MultibodyModel model = treeWithNodes(rnd, 15, 0);
  MultibodyData data(model);
  forwardKinematics(model, data, rnd.configuration(model), rnd.vectorX(model.nu()));
  for (NodeIndex n = 0; n < model.nodeCount(); ++n) {
    const RigidTransform X = relativePose(model, data, Frame::node(n), Frame::world());
    const RigidTransform X_WN = nodePose(model, data, n);
    CHECK(X.rotation().isApprox(X_WN.rotation(), 1e-14));
    CHECK((X.translation() - X_WN.translation()).norm() < 1e-14);
    const SpatialMotion V =
        relativeVelocity(model, data, Frame::node(n), Frame::world(), Frame::world());
    CHECK(maxAbs(V - nodeVelocity(model, data, n)) < 1e-13);
  }
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const SpatialMotion V_B =
        relativeVelocity(model, data, Frame::body(b), Frame::world(), Frame::body(b));
    CHECK(maxAbs(V_B - data.V_WB_B[i]) < 1e-13);
  }
}

TEST_CASE("frames: the hinge frames move as the hinge definitions say") {
  // FULL6DOF: U = [ω_FM_M; v_FMo_M] is M's velocity relative to F in M; FULL6DOF_INERTIAL:
  // the same in F; Q = [q_FM; p_FoMo_F] is M's pose in F.
  test::Random rnd(5);
  MultibodyModel model;
  const BodyIndex base = model.addBody("base", kWorldBody, rnd.inertia(), Hinge::pin(rnd.vector()),
                                       rnd.pose(), rnd.pose());
  const BodyIndex f6 =
      model.addBody("f6", base, rnd.inertia(), Hinge::full6Dof(), rnd.pose(), rnd.pose());
  const BodyIndex fi =
      model.addBody("fi", f6, rnd.inertia(), Hinge::full6DofInertial(), rnd.pose(), rnd.pose());
  MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  forwardKinematics(model, data, q, u);
  for (const BodyIndex b : {f6, fi}) {
    const Frame F = Frame::hingeInboard(b), M = Frame::hingeOutboard(b);
    const RigidTransform X_FM = relativePose(model, data, M, F);
    const RigidTransform X_expected = RigidTransform::fromQuaternion(
        q.segment<4>(model.qStart(b)), q.segment<3>(model.qStart(b) + 4));
    CHECK(X_FM.rotation().isApprox(X_expected.rotation(), 1e-13));
    CHECK((X_FM.translation() - X_expected.translation()).norm() < 1e-13);
    const SpatialMotion V = relativeVelocity(model, data, M, F, b == f6 ? M : F);
    CHECK((V.vector() - u.segment<6>(model.uStart(b))).cwiseAbs().maxCoeff() < 1e-13);
  }
  // PIN: M turns about the axis relative to F, its origin fixed.
  const SpatialMotion V = relativeVelocity(model, data, Frame::hingeOutboard(base),
                                           Frame::hingeInboard(base), Frame::hingeInboard(base));
  const Vector3 axis = model.hinge(base).subhinge(0).axis;
  CHECK((V.rotational() - axis * u[0]).norm() < 1e-14);
  CHECK(V.translational().norm() < 1e-14);
}

TEST_CASE("frames: a point fixed in the world seen from a spinning frame") {
  // B spins at constant ω about z through Wo; a world point at r from the axis circles B's
  // axis at -ω: relative velocity -ω × r, acceleration ω × (ω × r) = -ω² r (centripetal; the
  // Coriolis term is twice the transport term and of opposite sign).
  MultibodyModel model;
  const BodyIndex b = model.addBody(
      "rotor", kWorldBody, SpatialInertia::fromCmInertia(1, Vector3::Zero(), Matrix3::Identity()),
      Hinge::pin(Vector3::UnitZ()));
  const NodeIndex p = model.addNode("p", kWorldBody, RigidTransform::fromTranslation({2, 0, 0.5}));
  MultibodyData data(model);
  const double w = 3.0, theta = 0.4;
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, theta),
                        u = Eigen::VectorXd::Constant(1, w);
  rnea(model, data, q, u, Eigen::VectorXd::Zero(1));
  const Vector3 r_W(2, 0, 0.5), w_W(0, 0, w);
  const Matrix3 R_WB = relativePose(model, data, Frame::body(b), Frame::world()).rotation();
  const SpatialMotion V =
      relativeVelocity(model, data, Frame::node(p), Frame::body(b), Frame::world());
  CHECK((V.rotational() + w_W).norm() < 1e-14);
  CHECK((V.translational() + w_W.cross(r_W)).norm() < 1e-13);
  const SpatialMotion A =
      relativeAcceleration(model, data, Frame::node(p), Frame::body(b), Frame::body(b));
  CHECK(A.rotational().norm() < 1e-13);
  CHECK((A.translational() - R_WB.transpose() * Vector3(-w * w * 2, 0, 0)).norm() < 1e-12);
}

TEST_CASE("frames: accelerations are true accelerations, not offset by gravity") {
  // A free body falls at g; a body welded to the world does not accelerate (aba and rnea both
  // offset their accelerations by the world's fictitious -g).
  MultibodyModel model;
  const Vector3 g(0.5, -1.0, -9.81);
  model.setGravity(g);
  test::Random rnd(9);
  const BodyIndex freeBody =
      model.addBody("free", kWorldBody, rnd.inertia(), Hinge::full6Dof(), rnd.pose(), rnd.pose());
  const BodyIndex welded =
      model.addBody("welded", kWorldBody, rnd.inertia(), Hinge::locked(), rnd.pose(), rnd.pose());
  MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(model.nu());
  for (const bool useRnea : {false, true}) {
    const Eigen::VectorXd udot = aba(model, data, q, u, Eigen::VectorXd::Zero(model.nu()));
    if (useRnea) rnea(model, data, q, u, udot);
    const SpatialMotion Af =
        relativeAcceleration(model, data, Frame::body(freeBody), Frame::world(), Frame::world());
    CHECK(Af.rotational().norm() < 1e-13);
    CHECK((Af.translational() - g).norm() < 1e-12);
    const SpatialMotion Aw = relativeAcceleration(model, data, Frame::hingeOutboard(welded),
                                                  Frame::world(), Frame::world());
    CHECK(maxAbs(Aw) < 1e-13);
    // Relative to the falling body, the world accelerates at -g.
    const SpatialMotion Awf =
        relativeAcceleration(model, data, Frame::world(), Frame::body(freeBody), Frame::world());
    CHECK((Awf.translational() + g).norm() < 1e-12);
  }
}

TEST_CASE("frames: identities between relative poses, velocities and accelerations") {
  test::Random rnd(11);
  const MultibodyModel model = treeWithNodes(rnd, 25, 4);
  MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  aba(model, data, q, u, rnd.vectorX(model.nu()));
  const std::vector<Frame> frames = allFrames(model);
  for (int k = 0; k < 300; ++k) {
    const Frame& A = randomFrame(rnd, frames);
    const Frame& B = randomFrame(rnd, frames);
    const Frame& C = randomFrame(rnd, frames);
    const Frame& E = randomFrame(rnd, frames);
    // A relative to itself.
    const RigidTransform X_AA = relativePose(model, data, A, A);
    CHECK(X_AA.rotation().isApprox(Matrix3::Identity(), 1e-14));
    CHECK(X_AA.translation().norm() < 1e-13);
    CHECK(maxAbs(relativeVelocity(model, data, A, A, C)) < 1e-12);
    CHECK(maxAbs(relativeAcceleration(model, data, A, A, C)) < 1e-10);
    // Poses invert and compose.
    const RigidTransform X_BA = relativePose(model, data, A, B);
    const RigidTransform X_AB = relativePose(model, data, B, A);
    const RigidTransform X_CA = relativePose(model, data, A, C);
    const RigidTransform X_CB = relativePose(model, data, B, C);
    CHECK((X_AB * X_BA).rotation().isApprox(Matrix3::Identity(), 1e-13));
    CHECK((X_AB * X_BA).translation().norm() < 1e-12);
    CHECK((X_CB * X_BA).rotation().isApprox(X_CA.rotation(), 1e-13));
    CHECK(((X_CB * X_BA).translation() - X_CA.translation()).norm() < 1e-12);
    // B relative to A is minus A relative to B, moved from Ao to Bo: [ω; v + ω × p_AoBo].
    const SpatialMotion V_BA_E = relativeVelocity(model, data, A, B, E);
    const SpatialMotion V_AB_E = relativeVelocity(model, data, B, A, E);
    const Vector3 p_AoBo_E = relativePose(model, data, A, E).rotation() * X_AB.translation();
    const SpatialMotion shifted(
        V_BA_E.rotational(),
        Vector3(V_BA_E.translational() + Vector3(V_BA_E.rotational()).cross(p_AoBo_E)));
    CHECK(maxAbs(V_AB_E + shifted) < 1e-12 * (1 + maxAbs(V_BA_E)));
    // Velocities compose: V_CA = V_BA + (V_CB moved to Ao).
    const SpatialMotion V_CA_E = relativeVelocity(model, data, A, C, E);
    const SpatialMotion V_CB_E = relativeVelocity(model, data, B, C, E);
    const Vector3 p_BoAo_E = relativePose(model, data, B, E).rotation() * X_BA.translation();
    const SpatialMotion V_CB_at_Ao(
        V_CB_E.rotational(),
        Vector3(V_CB_E.translational() + Vector3(V_CB_E.rotational()).cross(p_BoAo_E)));
    CHECK(maxAbs(V_CA_E - V_BA_E - V_CB_at_Ao) < 1e-12 * (1 + maxAbs(V_CA_E)));
  }
}

TEST_CASE("frames: names, and frames that do not exist") {
  test::Random rnd(2);
  const MultibodyModel model = treeWithNodes(rnd, 6, 0);
  for (const Frame& f : allFrames(model)) CHECK(frameByName(model, frameName(model, f)) == f);
  CHECK(frameByName(model, "world") == Frame::world());
  CHECK(frameByName(model, "body:world") == Frame::world());
  CHECK(Frame::body(kWorldBody) == Frame::world());
  CHECK(frameByName(model, "body:b3") == Frame::body(3));
  CHECK(frameByName(model, "node:fixed") == Frame::node(0));
  CHECK(frameByName(model, "inboard:b2") == Frame::hingeInboard(2));
  CHECK(frameByName(model, "outboard:b2") == Frame::hingeOutboard(2));
  CHECK(frameName(model, Frame::hingeOutboard(4)) == "outboard:b4");
  CHECK_THROWS_WITH_AS(frameByName(model, "b3"), doctest::Contains("expected \"world\""),
                       InputError);
  CHECK_THROWS_WITH_AS(frameByName(model, "body:nobody"),
                       doctest::Contains("frameByName('body:nobody'): MultibodyModel: no body "
                                         "named 'nobody'"),
                       InputError);
  CHECK_THROWS_WITH_AS(frameByName(model, "inboard:world"),
                       doctest::Contains("the world has no hinge"), InputError);
  MultibodyData data(model);
  forwardKinematics(model, data, model.neutralConfiguration(), Eigen::VectorXd::Zero(model.nu()));
  CHECK_THROWS_WITH_AS(relativePose(model, data, Frame::body(7), Frame::world()),
                       doctest::Contains("relativePose: frame A: body index 7 does not exist"),
                       InputError);
  CHECK_THROWS_WITH_AS(
      relativeVelocity(model, data, Frame::world(), Frame::node(9), Frame::world()),
      doctest::Contains("relativeVelocity: frame B: node index 9 does not exist"), InputError);
  CHECK_THROWS_WITH_AS(
      relativeAcceleration(model, data, Frame::world(), Frame::world(), Frame::hingeInboard(0)),
      doctest::Contains("frame C: hinge frame of body index 0 does not exist"), InputError);
  MultibodyModel bigger = model;
  bigger.addBody("extra", kWorldBody, rnd.inertia(), Hinge::pin(Vector3::UnitX()));
  CHECK_THROWS_WITH_AS(relativePose(bigger, data, Frame::world(), Frame::world()),
                       doctest::Contains("rebuild the data"), InputError);
}

}  // namespace hopsim::multibody
