// Rotations: the R_AB convention, quaternions (scalar first, Hamilton, canonical e0 >= 0),
// axis-angle, the 12 Euler sequences (intrinsic and extrinsic) and quaternion kinematics.
// References: Eigen's Quaterniond/AngleAxisd (an independent implementation), closed forms
// for 90° rotations, and products of elementary rotations written out below.

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"
#include "spatial_test_support.h"

namespace hopsim::spatial::test {
namespace {

constexpr double kPi = std::numbers::pi;

Quaternion fromEigen(const Eigen::Quaterniond& q) { return Quaternion(q.w(), q.x(), q.y(), q.z()); }

}  // namespace

TEST_CASE("R_AB has B's axes as columns in A: 90° about z maps x_B to y_A (active reading)") {
  // B is A turned +90° about z (right hand). B's x axis points along A's y.
  const Matrix3 R_AB = rotationZ(kPi / 2);
  CHECK(maxAbsDiff(R_AB.col(0), Vector3(0, 1, 0)) < 1e-15);   // x_B in A
  CHECK(maxAbsDiff(R_AB.col(1), Vector3(-1, 0, 0)) < 1e-15);  // y_B in A
  // Passive reading: a vector along x_B has A coordinates v_A = R_AB v_B.
  CHECK(maxAbsDiff(R_AB * Vector3(1, 0, 0), Vector3(0, 1, 0)) < 1e-15);
}

TEST_CASE("90° about each axis: closed forms for the matrix and the quaternion") {
  const double h = std::sqrt(0.5);
  Matrix3 expectX, expectY, expectZ;
  expectX << 1, 0, 0, 0, 0, -1, 0, 1, 0;
  expectY << 0, 0, 1, 0, 1, 0, -1, 0, 0;
  expectZ << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  CHECK(maxAbsDiff(rotationX(kPi / 2), expectX) < 1e-15);
  CHECK(maxAbsDiff(rotationY(kPi / 2), expectY) < 1e-15);
  CHECK(maxAbsDiff(rotationZ(kPi / 2), expectZ) < 1e-15);
  CHECK(maxAbsDiff(quaternionFromRotation(expectX), Quaternion(h, h, 0, 0)) < 1e-15);
  CHECK(maxAbsDiff(quaternionFromRotation(expectY), Quaternion(h, 0, h, 0)) < 1e-15);
  CHECK(maxAbsDiff(quaternionFromRotation(expectZ), Quaternion(h, 0, 0, h)) < 1e-15);
  CHECK(maxAbsDiff(rotationFromQuaternion(Quaternion(h, 0, 0, h)), expectZ) < 1e-15);
  CHECK(maxAbsDiff(rotationFromAxisAngle(Vector3(0, 0, 2), kPi / 2), expectZ) < 1e-15);
  CHECK(maxAbsDiff(quaternionFromAxisAngle(Vector3(3, 0, 0), kPi / 2), Quaternion(h, h, 0, 0)) <
        1e-15);
  // 180° about x: e0 = 0, the canonical sign makes the first non-zero entry positive.
  CHECK(maxAbsDiff(quaternionFromRotation(rotationX(kPi)), Quaternion(0, 1, 0, 0)) < 1e-15);
}

TEST_CASE("quaternions agree with Eigen::Quaterniond and round-trip to 1e-12") {
  Random rng;
  for (int k = 0; k < 1000; ++k) {
    const Matrix3 R = rng.rotation();
    const Quaternion q = quaternionFromRotation(R);
    CHECK(q[0] >= 0.0);
    CHECK(std::abs(q.norm() - 1.0) < 1e-15);
    const Quaternion ref = canonicalQuaternion(fromEigen(Eigen::Quaterniond(R)));
    CHECK(maxAbsDiff(q, ref) < 1e-12);
    CHECK(maxAbsDiff(rotationFromQuaternion(q), R) < 1e-12);
    CHECK(maxAbsDiff(rotationFromQuaternion(-q), R) < 1e-12);  // q and -q: one rotation
    const Vector3 v = rng.vector3();
    CHECK(maxAbsDiff(rotateByQuaternion(q, v), R * v) < 1e-12);
    CHECK(maxAbsDiff(rotationFromQuaternion(quaternionConjugate(q)), R.transpose()) < 1e-12);
  }
}

TEST_CASE("the scalar-last layout of DARTS and Eigen::coeffs() converts by reordering only") {
  // DARTS's identity (0, 0, 0, 1) is hopsim's [1, 0, 0, 0].
  CHECK(quaternionFromScalarLast(Eigen::Vector4d(0, 0, 0, 1)) == quaternionIdentity());
  const Eigen::Quaterniond eigen(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()));
  const Quaternion q = quaternionFromScalarLast(eigen.coeffs());
  CHECK(maxAbsDiff(rotationFromQuaternion(q), eigen.toRotationMatrix()) < 1e-15);
  CHECK(quaternionToScalarLast(q) == eigen.coeffs());
}

TEST_CASE("the Hamilton product composes like matrices: R(p ⊗ q) = R(p) R(q)") {
  Random rng;
  for (int k = 0; k < 200; ++k) {
    const Matrix3 R1 = rng.rotation(), R2 = rng.rotation();
    const Quaternion p = quaternionFromRotation(R1), q = quaternionFromRotation(R2);
    CHECK(maxAbsDiff(rotationFromQuaternion(quaternionProduct(p, q)), R1 * R2) < 1e-12);
    const Eigen::Quaterniond ep(p[0], p[1], p[2], p[3]), eq(q[0], q[1], q[2], q[3]);
    CHECK(maxAbsDiff(quaternionProduct(p, q), fromEigen(ep * eq)) < 1e-15);
  }
  CHECK(maxAbsDiff(quaternionProduct(quaternionIdentity(), Quaternion(0.5, 0.5, 0.5, 0.5)),
                   Quaternion(0.5, 0.5, 0.5, 0.5)) == 0.0);
}

TEST_CASE("axis-angle agrees with Eigen::AngleAxisd, angle in [0, π], and round-trips") {
  Random rng;
  for (int k = 0; k < 1000; ++k) {
    const Vector3 axis = rng.vector3().normalized();
    const double angle = rng.uniform(0.0, kPi);
    const Matrix3 R = rotationFromAxisAngle(axis, angle);
    CHECK(maxAbsDiff(R, Eigen::AngleAxisd(angle, axis).toRotationMatrix()) < 1e-12);
    CHECK(maxAbsDiff(rotationFromQuaternion(quaternionFromAxisAngle(axis, angle)), R) < 1e-12);
    const AxisAngle aa = axisAngleFromRotation(R);
    CHECK(aa.angle == doctest::Approx(angle).epsilon(1e-12));
    CHECK(maxAbsDiff(aa.axis, axis) < 1e-10);  // 1/sin(θ/2) conditioning near 0
    const Matrix3 Rr = rng.rotation();
    const AxisAngle ar = axisAngleFromRotation(Rr);
    CHECK(ar.angle >= 0.0);
    CHECK(ar.angle <= kPi);
    CHECK(maxAbsDiff(rotationFromAxisAngle(ar.axis, ar.angle), Rr) < 1e-12);
  }
  // A negative angle about n is the positive angle about -n.
  const AxisAngle neg = axisAngleFromRotation(rotationFromAxisAngle(Vector3(0, 0, 1), -0.3));
  CHECK(neg.angle == doctest::Approx(0.3));
  CHECK(maxAbsDiff(neg.axis, Vector3(0, 0, -1)) < 1e-14);
  CHECK(axisAngleFromRotation(Matrix3::Identity()).angle == 0.0);
  CHECK_THROWS_AS(rotationFromAxisAngle(Vector3::Zero(), 1.0), InputError);
}

TEST_CASE("rotation vectors (exp/log) agree with axis-angle and stay accurate near zero") {
  Random rng;
  for (int k = 0; k < 1000; ++k) {
    const Vector3 axis = rng.vector3().normalized();
    const double angle = rng.uniform(0.0, kPi);
    const Quaternion q = quaternionFromRotationVector(angle * axis);
    CHECK(maxAbsDiff(q, quaternionFromAxisAngle(axis, angle)) < 1e-15);
    CHECK(maxAbsDiff(rotationVectorFromQuaternion(q), Vector3(angle * axis)) < 1e-12);
    CHECK(maxAbsDiff(rotationVectorFromQuaternion(-q), Vector3(angle * axis)) < 1e-12);
  }
  // Tiny angles, across the series switches: against sin(θ/2) n and back, to relative precision.
  for (double theta : {0.0, 1e-12, 1e-9, 1e-8, 1.1e-8, 1e-6, 1e-4, 1.01e-4}) {
    const Vector3 n(0.6, 0.0, 0.8);
    const Vector3 phi = theta * n;
    const Quaternion q = quaternionFromRotationVector(phi);
    CHECK(maxAbsDiff(q.tail<3>(), Vector3(std::sin(0.5 * theta) * n)) <= 1e-16 * theta);
    CHECK(maxAbsDiff(rotationVectorFromQuaternion(q), phi) <= 1e-15 * theta + 1e-300);
  }
}

namespace {

/// Each sequence with its intrinsic product written out: R_AB = R_i(a) R_j(b) R_k(c).
struct SequenceCase {
  EulerSequence sequence;
  const char* name;
  std::function<Matrix3(double, double, double)> intrinsic;
  bool proper;
};

std::vector<SequenceCase> sequenceCases() {
  return {
      {EulerSequence::XYZ, "XYZ",
       [](double a, double b, double c) { return Matrix3(Rx(a) * Ry(b) * Rz(c)); }, false},
      {EulerSequence::XZY, "XZY",
       [](double a, double b, double c) { return Matrix3(Rx(a) * Rz(b) * Ry(c)); }, false},
      {EulerSequence::YXZ, "YXZ",
       [](double a, double b, double c) { return Matrix3(Ry(a) * Rx(b) * Rz(c)); }, false},
      {EulerSequence::YZX, "YZX",
       [](double a, double b, double c) { return Matrix3(Ry(a) * Rz(b) * Rx(c)); }, false},
      {EulerSequence::ZXY, "ZXY",
       [](double a, double b, double c) { return Matrix3(Rz(a) * Rx(b) * Ry(c)); }, false},
      {EulerSequence::ZYX, "ZYX",
       [](double a, double b, double c) { return Matrix3(Rz(a) * Ry(b) * Rx(c)); }, false},
      {EulerSequence::XYX, "XYX",
       [](double a, double b, double c) { return Matrix3(Rx(a) * Ry(b) * Rx(c)); }, true},
      {EulerSequence::XZX, "XZX",
       [](double a, double b, double c) { return Matrix3(Rx(a) * Rz(b) * Rx(c)); }, true},
      {EulerSequence::YXY, "YXY",
       [](double a, double b, double c) { return Matrix3(Ry(a) * Rx(b) * Ry(c)); }, true},
      {EulerSequence::YZY, "YZY",
       [](double a, double b, double c) { return Matrix3(Ry(a) * Rz(b) * Ry(c)); }, true},
      {EulerSequence::ZXZ, "ZXZ",
       [](double a, double b, double c) { return Matrix3(Rz(a) * Rx(b) * Rz(c)); }, true},
      {EulerSequence::ZYZ, "ZYZ",
       [](double a, double b, double c) { return Matrix3(Rz(a) * Ry(b) * Rz(c)); }, true},
  };
}

}  // namespace

TEST_CASE("all 12 Euler sequences equal their products of elementary rotations, both kinds") {
  Random rng;
  for (const SequenceCase& s : sequenceCases()) {
    CAPTURE(s.name);
    CHECK(toString(s.sequence) == std::string_view(s.name));
    CHECK((eulerSequenceFromString(s.name) == s.sequence));
    for (int k = 0; k < 100; ++k) {
      const Vector3 angles = rng.vector3(kPi);
      // Intrinsic (body-fixed): R_i(a) R_j(b) R_k(c).
      CHECK(maxAbsDiff(rotationFromEuler(s.sequence, angles),
                       s.intrinsic(angles[0], angles[1], angles[2])) < 1e-14);
      // Extrinsic (space-fixed): a about A's i, then b about A's j, then c about A's k is
      // R_k(c) R_j(b) R_i(a), i.e. the intrinsic product with the angles swapped end for end
      // and the factors reversed. Written out: reverse the matrix product.
      const Eigen::Vector3i ax = eulerAxesOf(s.sequence);
      const auto elem = [](int axis, double t) {
        return axis == 0 ? Rx(t) : axis == 1 ? Ry(t) : Rz(t);
      };
      const Matrix3 extrinsic =
          elem(ax[2], angles[2]) * elem(ax[1], angles[1]) * elem(ax[0], angles[0]);
      CHECK(maxAbsDiff(rotationFromEuler(s.sequence, angles, EulerAxes::Extrinsic), extrinsic) <
            1e-14);
    }
  }
  CHECK_THROWS_WITH_AS(eulerSequenceFromString("XXY"), doctest::Contains("\"XXY\" is not one of"),
                       InputError);
  CHECK((eulerSequenceFromString("zyx") == EulerSequence::ZYX));
}

TEST_CASE(
    "Euler angles round-trip for every sequence, inside their ranges and on random rotations") {
  Random rng;
  for (const SequenceCase& s : sequenceCases()) {
    CAPTURE(s.name);
    for (EulerAxes kind : {EulerAxes::Intrinsic, EulerAxes::Extrinsic}) {
      for (int k = 0; k < 300; ++k) {
        // Angles strictly inside the principal ranges come back exactly.
        const Vector3 angles(rng.uniform(-kPi, kPi),
                             s.proper ? rng.uniform(0.0, kPi) : rng.uniform(-kPi / 2, kPi / 2),
                             rng.uniform(-kPi, kPi));
        const Matrix3 R = rotationFromEuler(s.sequence, angles, kind);
        const Vector3 back = eulerFromRotation(s.sequence, R, kind);
        CHECK(maxAbsDiff(back, angles) < 1e-9);  // conditioning 1/cos b near the lock
        CHECK(maxAbsDiff(rotationFromEuler(s.sequence, back, kind), R) < 1e-12);
        // Any rotation gives angles that rebuild it.
        const Matrix3 Rr = rng.rotation();
        const Vector3 ar = eulerFromRotation(s.sequence, Rr, kind);
        CHECK(maxAbsDiff(rotationFromEuler(s.sequence, ar, kind), Rr) < 1e-12);
        CHECK(ar[0] > -kPi);
        CHECK(ar[0] <= kPi);
        CHECK(ar[2] > -kPi);
        CHECK(ar[2] <= kPi);
        if (s.proper) {
          CHECK(ar[1] >= 0.0);
          CHECK(ar[1] <= kPi);
        } else {
          CHECK(std::abs(ar[1]) <= kPi / 2);
        }
      }
      // Gimbal lock: the middle angle at its singular value still rebuilds the rotation, with
      // the angle of the rightmost factor set to zero.
      const double lock = s.proper ? 0.0 : kPi / 2;
      for (double middle : {lock, s.proper ? kPi : -kPi / 2}) {
        const Matrix3 R = rotationFromEuler(s.sequence, Vector3(0.4, middle, -1.1), kind);
        const Vector3 back = eulerFromRotation(s.sequence, R, kind);
        CHECK(maxAbsDiff(rotationFromEuler(s.sequence, back, kind), R) < 1e-12);
        CHECK(back[kind == EulerAxes::Intrinsic ? 2 : 0] == 0.0);
      }
    }
  }
}

TEST_CASE("extrinsic XYZ (a, b, c) is intrinsic ZYX (c, b, a)") {
  const Vector3 abc(0.3, -0.7, 1.9);
  CHECK(maxAbsDiff(rotationFromEuler(EulerSequence::XYZ, abc, EulerAxes::Extrinsic),
                   rotationFromEuler(EulerSequence::ZYX, Vector3(abc[2], abc[1], abc[0]))) < 1e-15);
  // Aerospace yaw-pitch-roll (ψ, θ, φ) is intrinsic ZYX: R_NB = Rz(ψ) Ry(θ) Rx(φ).
  const Matrix3 R = rotationFromEuler(EulerSequence::ZYX, Vector3(0.5, 0.2, -0.1));
  CHECK(maxAbsDiff(R, Matrix3(Rz(0.5) * Ry(0.2) * Rx(-0.1))) < 1e-15);
}

TEST_CASE("Euler angle rates map to ω by N(angles): [ω_B×] = Rᵀ Ṙ by central differences") {
  Random rng;
  for (const SequenceCase& s : sequenceCases()) {
    CAPTURE(s.name);
    for (EulerAxes kind : {EulerAxes::Intrinsic, EulerAxes::Extrinsic}) {
      for (int k = 0; k < 20; ++k) {
        const Vector3 angles = rng.vector3(kPi), rates = rng.vector3(2.0);
        const double h = 1e-6;
        const Matrix3 R = rotationFromEuler(s.sequence, angles, kind);
        const Matrix3 Rdot = (rotationFromEuler(s.sequence, angles + h * rates, kind) -
                              rotationFromEuler(s.sequence, angles - h * rates, kind)) /
                             (2 * h);
        const Matrix3 W = R.transpose() * Rdot;  // [ω_B×]
        const Vector3 w_B(W(2, 1), W(0, 2), W(1, 0));
        CHECK(maxAbsDiff(eulerRateToBodyRate(s.sequence, angles, kind) * rates, w_B) < 1e-8);
        CHECK(maxAbsDiff(eulerRateToParentRate(s.sequence, angles, kind) * rates, R * w_B) < 1e-8);
      }
    }
  }
}

TEST_CASE("quaternion kinematics: q̇ = ½ q ⊗ [0, ω_B] = ½ [0, ω_A] ⊗ q, checked on exact motions") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const Quaternion q0 = quaternionFromRotation(rng.rotation());
    const Vector3 w = rng.vector3(2.0);
    // Constant body rate: q(t) = q0 ⊗ exp(ω_B t / 2); constant parent rate: exp(ω_A t/2) ⊗ q0.
    const auto bodyMotion = [&](double t) {
      return quaternionProduct(q0, quaternionFromAxisAngle(w, w.norm() * t));
    };
    const auto parentMotion = [&](double t) {
      return quaternionProduct(quaternionFromAxisAngle(w, w.norm() * t), q0);
    };
    const double t = 0.7, h = 1e-5;
    const Quaternion q = bodyMotion(t);
    const Quaternion fdBody = (bodyMotion(t + h) - bodyMotion(t - h)) / (2 * h);
    CHECK(maxAbsDiff(quaternionRateFromBodyRate(q, w), fdBody) < 1e-9);
    CHECK(maxAbsDiff(bodyRateFromQuaternionRate(q, fdBody), w) < 1e-9);
    const Quaternion qp = parentMotion(t);
    const Quaternion fdParent = (parentMotion(t + h) - parentMotion(t - h)) / (2 * h);
    CHECK(maxAbsDiff(quaternionRateFromParentRate(qp, w), fdParent) < 1e-9);
    CHECK(maxAbsDiff(parentRateFromQuaternionRate(qp, fdParent), w) < 1e-9);
    // The two forms agree when ω_A = R_AB ω_B.
    CHECK(maxAbsDiff(quaternionRateFromParentRate(q, rotationFromQuaternion(q) * w),
                     quaternionRateFromBodyRate(q, w)) < 1e-14);
    // Matrix forms against the Hamilton products.
    const Quaternion wq(0.0, w[0], w[1], w[2]);
    CHECK(maxAbsDiff(quaternionRateMatrixInBody(q) * w, quaternionProduct(q, wq)) < 1e-14);
    CHECK(maxAbsDiff(quaternionRateMatrixInParent(q) * w, quaternionProduct(wq, q)) < 1e-14);
  }
}

TEST_CASE("integrating q̇ with constant ω about z turns by |ω| t with the right-hand sign") {
  // RK4 on q̇ = ½ E_body(q) ω from the identity; reference: R = Rz(ω t) (x_B -> (cos, sin, 0)).
  const Vector3 w(0, 0, 0.8);
  Quaternion q = quaternionIdentity();
  const double dt = 1e-3;
  const int steps = 2000;
  for (int i = 0; i < steps; ++i) {
    const Quaternion k1 = quaternionRateFromBodyRate(q, w);
    const Quaternion k2 = quaternionRateFromBodyRate(q + 0.5 * dt * k1, w);
    const Quaternion k3 = quaternionRateFromBodyRate(q + 0.5 * dt * k2, w);
    const Quaternion k4 = quaternionRateFromBodyRate(q + dt * k3, w);
    q += dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  const double angle = 0.8 * dt * steps;
  CHECK(maxAbsDiff(q, Quaternion(std::cos(angle / 2), 0, 0, std::sin(angle / 2))) < 1e-12);
  CHECK(maxAbsDiff(rotationFromQuaternion(q).col(0), Vector3(std::cos(angle), std::sin(angle), 0)) <
        1e-12);
}

TEST_CASE("normalization of quaternions and of drifted rotation matrices") {
  CHECK(maxAbsDiff(normalizeQuaternion(Quaternion(2, 0, 0, 0)), quaternionIdentity()) == 0.0);
  CHECK_THROWS_WITH_AS(normalizeQuaternion(Quaternion::Zero(), "bodies.b.q"),
                       doctest::Contains("bodies.b.q: quaternion [0 0 0 0] cannot be normalized"),
                       InputError);
  CHECK(maxAbsDiff(canonicalQuaternion(Quaternion(-0.5, 0.5, 0.5, 0.5)),
                   Quaternion(0.5, -0.5, -0.5, -0.5)) == 0.0);
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const Matrix3 R = rng.rotation();
    Matrix3 drifted = R;
    for (int i = 0; i < 9; ++i) drifted(i / 3, i % 3) += rng.uniform(-1e-6, 1e-6);
    CHECK_FALSE(isRotation(drifted, 1e-9));
    const Matrix3 fixed = normalizeRotation(drifted);
    CHECK(isRotation(fixed, 1e-14));
    CHECK(maxAbsDiff(fixed, R) < 1e-5);
    CHECK(isRotation(R));
  }
  CHECK_FALSE(isRotation(Matrix3(-Matrix3::Identity())));  // a reflection
  CHECK_THROWS_WITH_AS(normalizeRotation(Matrix3::Zero()), doctest::Contains("singular"),
                       InputError);
}

}  // namespace hopsim::spatial::test
