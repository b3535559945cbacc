// RigidTransform X_AB = (R_AB, p_AoBo_A): monogram meaning, composition, inverse, points vs
// vectors. Reference: 4x4 homogeneous matrices multiplied by Eigen.

#include <doctest/doctest.h>

#include <numbers>

#include "hopsim/core/spatial/rigid_transform.h"
#include "spatial_test_support.h"

namespace hopsim::spatial::test {
namespace {

RigidTransform randomPose(Random& rng) { return RigidTransform(rng.rotation(), rng.vector3(3.0)); }

Eigen::Vector4d homogeneous(const Vector3& p) { return Eigen::Vector4d(p[0], p[1], p[2], 1.0); }

}  // namespace

TEST_CASE("X_AB holds B's origin in A and maps B coordinates of a point to A coordinates") {
  // B sits at (1, 2, 3) in A, turned +90° about z: B's x axis is A's y axis.
  const RigidTransform X_AB(Rz(std::numbers::pi / 2), Vector3(1, 2, 3));
  CHECK(maxAbsDiff(X_AB * Vector3::Zero(), Vector3(1, 2, 3)) == 0.0);
  // The point one metre along x_B is one metre along y_A from Bo.
  CHECK(maxAbsDiff(X_AB * Vector3(1, 0, 0), Vector3(1, 3, 3)) < 1e-15);
  // A free vector is rotated only.
  CHECK(maxAbsDiff(X_AB.applyToVector(Vector3(1, 0, 0)), Vector3(0, 1, 0)) < 1e-15);
  CHECK(maxAbsDiff(X_AB.inverseApplyToPoint(Vector3(1, 3, 3)), Vector3(1, 0, 0)) < 1e-15);
}

TEST_CASE("composition and application match 4x4 homogeneous matrices") {
  Random rng;
  for (int k = 0; k < 200; ++k) {
    const RigidTransform X_AB = randomPose(rng), X_BC = randomPose(rng);
    const Vector3 p_CoQ_C = rng.vector3();
    CHECK(maxAbsDiff((X_AB * X_BC).matrix(), Eigen::Matrix4d(X_AB.matrix() * X_BC.matrix())) <
          1e-13);
    const Eigen::Vector4d expected = X_AB.matrix() * X_BC.matrix() * homogeneous(p_CoQ_C);
    CHECK(maxAbsDiff((X_AB * X_BC) * p_CoQ_C, expected.head<3>()) < 1e-13);
    CHECK(maxAbsDiff(X_AB.applyToPoint(p_CoQ_C), X_AB * p_CoQ_C) == 0.0);
  }
}

TEST_CASE("composition is associative and X X⁻¹ = X⁻¹ X = identity") {
  Random rng;
  for (int k = 0; k < 200; ++k) {
    const RigidTransform X1 = randomPose(rng), X2 = randomPose(rng), X3 = randomPose(rng);
    CHECK(((X1 * X2) * X3).isApprox(X1 * (X2 * X3), 1e-13));
    CHECK((X1 * X1.inverse()).isApprox(RigidTransform::Identity(), 1e-14));
    CHECK((X1.inverse() * X1).isApprox(RigidTransform::Identity(), 1e-14));
    CHECK(maxAbsDiff(X1.inverse().matrix(), Eigen::Matrix4d(X1.matrix().inverse())) < 1e-13);
    const Vector3 p = rng.vector3();
    CHECK(maxAbsDiff(X1.inverseApplyToPoint(X1 * p), p) < 1e-14);
    CHECK(maxAbsDiff(X1.inverseApplyToVector(X1.applyToVector(p)), p) < 1e-14);
  }
}

TEST_CASE("a pose built from q_AB equals the one built from R(q_AB), factories") {
  Random rng;
  const Matrix3 R = rng.rotation();
  const RigidTransform X =
      RigidTransform::fromQuaternion(quaternionFromRotation(R), Vector3(1, 2, 3));
  CHECK(RigidTransform::fromRotation(R).translation() == Vector3::Zero());
  CHECK(RigidTransform::fromTranslation(Vector3(1, 2, 3)).rotation() == Matrix3::Identity());
  // Eigen expressions pick the (R, p) constructor without ambiguity.
  CHECK(RigidTransform(Matrix3::Identity(), Vector3(1, 0, 0)).translation() == Vector3(1, 0, 0));
  CHECK(maxAbsDiff(X.rotation(), R) < 1e-14);
  CHECK(maxAbsDiff(rotationFromQuaternion(X.quaternion()), R) < 1e-14);
}

}  // namespace hopsim::spatial::test
