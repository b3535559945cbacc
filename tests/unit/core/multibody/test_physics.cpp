// Physics against analytic references: the small-angle pendulum period 2π√(l/g), exact free
// fall, conservation of energy and angular momentum of a torque-free asymmetric body, energy
// of a double pendulum and its motion against hand-derived Lagrangian equations, and mass
// changes taking effect at the next evaluation. Integration by hopsim's rkf45 at tight
// tolerances (multibody_test_support.h).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/multibody/rnea.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {
namespace {
constexpr double kG = 9.81;
}

TEST_CASE("multibody: simple pendulum has the small-angle period 2π√(l/g)") {
  const double l = 2.0, theta0 = 1e-4;
  MultibodyModel model;
  model.setGravity(Vector3(0, 0, -kG));
  model.addBody("bob", kWorldBody,
                SpatialInertia::fromCmInertia(3.0, Vector3(0, 0, -l), Matrix3::Zero()),
                Hinge::pin(Vector3::UnitX()));
  const double period = 2.0 * std::numbers::pi * std::sqrt(l / kG);
  Eigen::VectorXd x(2);
  x << theta0, 0.0;
  test::Propagator propagator(model, 1e-11, 1e-16);
  propagator.propagate(x, 0.0, period / 2);
  CHECK(std::abs(x[0] + theta0) < 1e-6 * theta0);
  propagator.propagate(x, period / 2, period);
  // The amplitude correction to the period (θ0²/16 ≈ 6e-10) is far below the tolerances.
  CHECK(std::abs(x[0] - theta0) < 1e-6 * theta0);
  CHECK(std::abs(x[1]) < 1e-6 * theta0 * std::sqrt(kG / l));
}

TEST_CASE("multibody: a free body under gravity falls exactly") {
  test::Random rnd(3);
  for (const Hinge& hinge : {Hinge::full6Dof(), Hinge::full6DofInertial()}) {
    MultibodyModel model;
    const Vector3 g(0.0, 0.0, -kG);
    model.setGravity(g);
    model.addBody("body", kWorldBody, rnd.inertia(), hinge);
    MultibodyData data(model);
    const spatial::Quaternion e = rnd.quaternion();
    const Matrix3 R = spatial::rotationFromQuaternion(e);
    const Vector3 p0(1, 2, 3), v0_W(0.5, -1.0, 4.0);
    Eigen::VectorXd x(13);
    const bool inChild = hinge.type() == HingeType::Full6Dof;
    x << e, p0, Vector3::Zero(), (inChild ? Vector3(R.transpose() * v0_W) : v0_W);
    const Eigen::VectorXd udot = aba(model, data, x.head(7), x.tail(6), Eigen::VectorXd::Zero(6));
    CHECK(udot.head(3).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((udot.tail(3) - (inChild ? Vector3(R.transpose() * g) : g)).cwiseAbs().maxCoeff() <
          1e-14);
    test::Propagator propagator(model, 1e-10, 1e-12);
    const double t = 2.5;
    propagator.propagate(x, 0.0, t);
    CHECK((x.head(4) - e).cwiseAbs().maxCoeff() < 1e-13);  // no rotation (round-off only)
    const Vector3 expected = p0 + v0_W * t + 0.5 * g * t * t;
    CAPTURE(std::string(toString(hinge.type())));
    CHECK((x.segment<3>(4) - expected).cwiseAbs().maxCoeff() < 1e-11);
    CHECK(x.segment<3>(7).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("multibody: a torque-free asymmetric body conserves energy and angular momentum") {
  for (const Hinge& hinge : {Hinge::full6Dof(), Hinge::full6DofInertial()}) {
    MultibodyModel model;
    // Principal moments 1, 2, 3 kg·m² (rotated), CM off the body origin.
    const Matrix3 R0 = spatial::rotationFromAxisAngle(Vector3(1, 2, 3), 0.4);
    const Matrix3 I = R0 * Vector3(1.0, 2.0, 3.0).asDiagonal() * R0.transpose();
    model.addBody("tumbler", kWorldBody,
                  SpatialInertia::fromCmInertia(5.0, Vector3(0.1, 0.2, -0.1), I), hinge);
    MultibodyData data(model);
    Eigen::VectorXd x(13);
    x << spatial::quaternionFromAxisAngle(Vector3(0, 1, 1), 0.3), Vector3(1, 0, -1),
        Vector3(0.3, 2.0, 0.4), Vector3(0.2, -0.1, 0.3);  // near the unstable middle axis
    computeEnergyAndMomentum(model, data, x.head(7), x.tail(6));
    const double T0 = data.kineticEnergy;
    const Vector3 H0 = data.H_WWo_W, L0 = data.L_W;
    test::Propagator propagator(model, 1e-13, 1e-14);
    double worstT = 0.0, worstH = 0.0;
    for (int k = 1; k <= 10; ++k) {
      propagator.propagate(x, 0.5 * (k - 1), 0.5 * k);
      computeEnergyAndMomentum(model, data, x.head(7), x.tail(6));
      worstT = std::max(worstT, std::abs(data.kineticEnergy - T0) / T0);
      worstH = std::max(worstH, (data.H_WWo_W - H0).norm() / H0.norm());
      CHECK((data.L_W - L0).norm() < 1e-10 * L0.norm());
    }
    CAPTURE(std::string(toString(hinge.type())));
    MESSAGE(toString(hinge.type())
            << ": relative drift over 5 s: energy " << worstT << ", angular momentum " << worstH);
    CHECK(worstT < 1e-10);
    CHECK(worstH < 1e-10);
  }
}

TEST_CASE("multibody: a double pendulum conserves energy") {
  MultibodyModel model;
  model.setGravity(Vector3(0, 0, -kG));
  const Matrix3 I = Vector3(0.02, 0.01, 0.015).asDiagonal();
  model.addBody("upper", kWorldBody, SpatialInertia::fromCmInertia(1.0, Vector3(0, 0, -0.5), I),
                Hinge::pin(Vector3::UnitX()));
  model.addBody("lower", 1, SpatialInertia::fromCmInertia(0.5, Vector3(0, 0, -0.4), I),
                Hinge::pin(Vector3::UnitX()), RigidTransform::fromTranslation(Vector3(0, 0, -1)));
  MultibodyData data(model);
  Eigen::VectorXd x(4);
  x << 1.2, -0.5, 0.0, 2.0;
  computeEnergyAndMomentum(model, data, x.head(2), x.tail(2));
  const double E0 = data.kineticEnergy + data.potentialEnergy;
  const double scale = data.kineticEnergy + 1.5 * kG * 1.5;  // energy scale of the motion
  test::Propagator propagator(model, 1e-12, 1e-14);
  double worst = 0.0;
  for (int k = 1; k <= 20; ++k) {
    propagator.propagate(x, 0.5 * (k - 1), 0.5 * k);
    computeEnergyAndMomentum(model, data, x.head(2), x.tail(2));
    worst = std::max(worst, std::abs(data.kineticEnergy + data.potentialEnergy - E0) / scale);
  }
  MESSAGE("double pendulum: relative energy drift over 10 s " << worst);
  CHECK(worst < 1e-9);
}

TEST_CASE("multibody: a mass change takes effect at the next evaluation") {
  MultibodyModel model;
  const BodyIndex b = model.addBody(
      "tank", kWorldBody, SpatialInertia::fromCmInertia(4.0, Vector3::Zero(), Matrix3::Identity()),
      Hinge::full6Dof());
  MultibodyData data(model);
  Eigen::VectorXd q = model.neutralConfiguration();
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(6);
  std::vector<SpatialForce> F(2);
  F[1] = SpatialForce(Vector3::Zero(), Vector3(0, 0, 2.0));  // 2 N along z, at the CM
  CHECK(aba(model, data, q, u, u, F)[5] == doctest::Approx(0.5).epsilon(1e-15));
  model.setMassProperties(b,
                          SpatialInertia::fromCmInertia(2.0, Vector3::Zero(), Matrix3::Identity()));
  CHECK(aba(model, data, q, u, u, F)[5] == doctest::Approx(1.0).epsilon(1e-15));

  // A pendulum whose CM moves out sees the gravity torque m g l sin θ change accordingly.
  MultibodyModel pendulum;
  pendulum.setGravity(Vector3(0, 0, -kG));
  pendulum.addBody("arm", kWorldBody,
                   SpatialInertia::fromCmInertia(2.0, Vector3(0, 0, -1.0), Matrix3::Identity()),
                   Hinge::pin(Vector3::UnitX()));
  MultibodyData pdata(pendulum);
  const Eigen::VectorXd theta = Eigen::VectorXd::Constant(1, 0.3);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(1);
  CHECK(rnea(pendulum, pdata, theta, zero, zero)[0] ==
        doctest::Approx(2.0 * kG * 1.0 * std::sin(0.3)).epsilon(1e-14));
  pendulum.setMassProperties(
      1, SpatialInertia::fromCmInertia(2.0, Vector3(0, 0, -1.5), Matrix3::Identity()));
  CHECK(rnea(pendulum, pdata, theta, zero, zero)[0] ==
        doctest::Approx(2.0 * kG * 1.5 * std::sin(0.3)).epsilon(1e-14));
}

TEST_CASE("multibody: an axisymmetric free body tumbles at the analytic body-frame rate") {
  // Euler's equations with I1 = I2: ω1 = a cos Ωt, ω2 = a sin Ωt, ω3 = c, Ω = (I3 - I1) c / I1.
  const double I1 = 2.0, I3 = 3.0, a = 0.7, c = 1.3;
  MultibodyModel model;
  model.addBody("spinner", kWorldBody,
                SpatialInertia::fromCmInertia(4.0, Vector3::Zero(),
                                              Vector3(I1, I1, I3).asDiagonal().toDenseMatrix()),
                Hinge::full6Dof());
  Eigen::VectorXd x(13);
  x << spatial::quaternionIdentity(), Vector3::Zero(), Vector3(a, 0, c), Vector3::Zero();
  test::Propagator propagator(model, 1e-12, 1e-14);
  const double t = 4.0, Omega = (I3 - I1) * c / I1;
  propagator.propagate(x, 0.0, t);
  CHECK((x.segment<3>(7) - Vector3(a * std::cos(Omega * t), a * std::sin(Omega * t), c))
            .cwiseAbs()
            .maxCoeff() < 1e-9);
}

TEST_CASE("multibody: FULL6DOF and FULL6DOF_INERTIAL describe the same motion") {
  // The same body and initial motion with rates in the child or the parent frame: the poses
  // agree after integration (the U differ by the rotation R_FM).
  test::Random rnd(11);
  const SpatialInertia M = rnd.inertia();
  MultibodyModel child, parent;
  child.setGravity(Vector3(0, 0, -kG));
  parent.setGravity(Vector3(0, 0, -kG));
  child.addBody("b", kWorldBody, M, Hinge::full6Dof());
  parent.addBody("b", kWorldBody, M, Hinge::full6DofInertial());
  const spatial::Quaternion e = rnd.quaternion();
  const Matrix3 R = spatial::rotationFromQuaternion(e);
  const Vector3 w_M(0.4, -1.0, 2.0), v_M(1.0, 0.5, -0.2);
  Eigen::VectorXd xc(13), xp(13);
  xc << e, Vector3(1, 2, 3), w_M, v_M;
  xp << e, Vector3(1, 2, 3), R * w_M, R * v_M;
  test::Propagator pc(child, 1e-12, 1e-14), pp(parent, 1e-12, 1e-14);
  pc.propagate(xc, 0.0, 3.0);
  pp.propagate(xp, 0.0, 3.0);
  const Matrix3 Rc = spatial::rotationFromQuaternion(xc.head<4>() / xc.head<4>().norm());
  const Matrix3 Rp = spatial::rotationFromQuaternion(xp.head<4>() / xp.head<4>().norm());
  CHECK((Rc - Rp).cwiseAbs().maxCoeff() < 1e-9);
  CHECK((xc.segment<3>(4) - xp.segment<3>(4)).cwiseAbs().maxCoeff() < 1e-9);
  CHECK((Rc * xc.segment<3>(7) - xp.segment<3>(7)).cwiseAbs().maxCoeff() < 1e-9);
}

TEST_CASE("multibody: a double pendulum follows its hand-derived Lagrangian equations") {
  // The acceptance test. Two bodies on PINs about x, CMs at distances l1, l2 below
  // their pins (the lower pin at L1 below the upper one), central inertias I1, I2 about x.
  // With absolute angles φ1 = θ1, φ2 = θ1 + θ2 from the downward vertical, the Lagrangian
  // T - V, T = ½(m1 l1² + I1 + m2 L1²) φ̇1² + ½(m2 l2² + I2) φ̇2² + m2 L1 l2 cos(φ1 - φ2) φ̇1 φ̇2,
  // V = -(m1 l1 + m2 L1) g cos φ1 - m2 l2 g cos φ2, gives
  //   a φ̈1 + b cos(φ1 - φ2) φ̈2 = -b sin(φ1 - φ2) φ̇2² - (m1 l1 + m2 L1) g sin φ1,
  //   b cos(φ1 - φ2) φ̈1 + d φ̈2 = b sin(φ1 - φ2) φ̇1² - m2 l2 g sin φ2,
  // a = m1 l1² + I1 + m2 L1², b = m2 L1 l2, d = m2 l2² + I2: written out here, independent of
  // the multibody engine, and integrated side by side with it from a large-angle start.
  const double m1 = 1.0, m2 = 0.5, l1 = 0.5, l2 = 0.4, L1 = 1.0, I1 = 0.02, I2 = 0.03;
  MultibodyModel model;
  model.setGravity(Vector3(0, 0, -kG));
  model.addBody("upper", kWorldBody,
                SpatialInertia::fromCmInertia(
                    m1, Vector3(0, 0, -l1), Vector3(I1, 0.01, 0.015).asDiagonal().toDenseMatrix()),
                Hinge::pin(Vector3::UnitX()));
  model.addBody("lower", 1,
                SpatialInertia::fromCmInertia(m2, Vector3(0, 0, -l2),
                                              Vector3(I2, 0.02, 0.01).asDiagonal().toDenseMatrix()),
                Hinge::pin(Vector3::UnitX()), RigidTransform::fromTranslation(Vector3(0, 0, -L1)));

  // x = [φ1, φ2, φ̇1, φ̇2].
  const DerivativeFunction lagrangian = [&](double, const Eigen::Ref<const Eigen::VectorXd>& x,
                                            Eigen::Ref<Eigen::VectorXd> xdot) {
    const double a = m1 * l1 * l1 + I1 + m2 * L1 * L1, b = m2 * L1 * l2, d = m2 * l2 * l2 + I2;
    const double c = std::cos(x[0] - x[1]), s = std::sin(x[0] - x[1]);
    const double r1 = -b * s * x[3] * x[3] - (m1 * l1 + m2 * L1) * kG * std::sin(x[0]);
    const double r2 = b * s * x[2] * x[2] - m2 * l2 * kG * std::sin(x[1]);
    const double det = a * d - b * b * c * c;
    xdot << x[2], x[3], (d * r1 - b * c * r2) / det, (a * r2 - b * c * r1) / det;
  };
  // Tolerances: rkf45 at rtol 1e-13 keeps each run's own error near 1e-11 rad over 10 s; both
  // runs solve the same ODE with the same method, so their difference is that error's
  // difference plus round-off amplified by the motion's sensitivity (this start is large-angle
  // but not chaotic over 10 s). A wrong term anywhere (a mass, an inertia, a sign, a frame)
  // moves the angles by orders of magnitude more than 1e-8 rad within the first swing.
  const double rtol = 1e-13, atol = 1e-14;
  IntegratorOptions options;
  options.relativeTolerance = rtol;
  options.absoluteTolerance = atol;
  const auto reference = makeIntegrator("rkf45", options);
  reference->resize(4);
  test::Propagator propagator(model, rtol, atol);

  const double theta1 = 1.4, theta2 = -0.9;  // 80° and -52°, at rest
  Eigen::VectorXd x(4), xRef(4);
  x << theta1, theta2, 0.0, 0.0;
  xRef << theta1, theta1 + theta2, 0.0, 0.0;
  reference->restart(0.0, xRef);
  double worst = 0.0, largest = 0.0;
  for (int k = 1; k <= 200; ++k) {
    const double t0 = 0.05 * (k - 1), t1 = 0.05 * k;
    propagator.propagate(x, t0, t1);
    reference->advance(lagrangian, t1, xRef);
    worst = std::max({worst, std::abs(x[0] - xRef[0]), std::abs(x[0] + x[1] - xRef[1])});
    largest = std::max(largest, std::abs(xRef[1]));
  }
  MESSAGE("double pendulum vs Lagrangian: worst angle difference over 10 s " << worst << " rad");
  CHECK(largest > 1.0);  // the lower body does swing through large angles
  CHECK(worst < 1e-8);
}

}  // namespace hopsim::multibody
