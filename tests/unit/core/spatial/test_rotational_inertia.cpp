// Rotational inertia: the sign of products of inertia (positive sense in the API, negative
// sense of the seed's BodyParam converted), validity checks, and the parallel-axis theorem.
// References: sums over point masses and a numerically integrated solid box.

#include <doctest/doctest.h>

#include "hopsim/core/spatial/rotational_inertia.h"
#include "hopsim/signals/error.h"
#include "spatial_test_support.h"

namespace hopsim::spatial::test {

TEST_CASE("products of inertia: positive sense Ixy = +∫xy dm, tensor entry -Ixy (worked example)") {
  // Two 1 kg points at (1, 1, 0) and (-1, -1, 0) m: ∫xy dm = 2, ∫xz dm = ∫yz dm = 0,
  // Ixx = ∫(y² + z²) dm = 2, Iyy = 2, Izz = ∫(x² + y²) dm = 4.
  PointCloud cloud{{1.0, 1.0}, {Vector3(1, 1, 0), Vector3(-1, -1, 0)}};
  const Matrix3 I = cloud.inertiaAbout(Vector3::Zero());
  CHECK(I(0, 1) == -2.0);  // the tensor entry is -∫xy dm
  const InertiaMoments positive{2.0, 2.0, 4.0, 2.0, 0.0, 0.0};
  CHECK(maxAbsDiff(positive.tensor(), I) == 0.0);
  const InertiaMoments fromTensor = InertiaMoments::fromTensor(I);
  CHECK(fromTensor.xy == 2.0);
  CHECK(fromTensor.zz == 4.0);
  // The seed's BodyParam with negativeIntegralSense = True gives Jxy = -∫xy dm = -2.
  const InertiaMoments seed = InertiaMoments::fromNegativeIntegralSense(2.0, 2.0, 4.0, -2.0, 0, 0);
  CHECK(seed.xy == 2.0);
  CHECK(maxAbsDiff(seed.tensor(), I) == 0.0);
  // A 3x3 matrix in the seed's sense already is the tensor; one in the positive sense is not.
  Matrix3 negativeSenseMatrix, positiveSenseMatrix;
  negativeSenseMatrix << 2, -2, 0, -2, 2, 0, 0, 0, 4;
  positiveSenseMatrix << 2, 2, 0, 2, 2, 0, 0, 0, 4;
  CHECK(maxAbsDiff(inertiaTensorFromMatrix(negativeSenseMatrix, ProductsOfInertiaSense::Negative),
                   I) == 0.0);
  CHECK(maxAbsDiff(inertiaTensorFromMatrix(positiveSenseMatrix, ProductsOfInertiaSense::Positive),
                   I) == 0.0);
}

TEST_CASE("parallel-axis theorem against point clouds and a numerically integrated box") {
  Random rng;
  for (int k = 0; k < 50; ++k) {
    const PointCloud cloud = PointCloud::random(rng, 20, rng.vector3(2.0));
    const double m = cloud.mass();
    const Vector3 c = cloud.com();
    const Matrix3 I_cm = cloud.inertiaAbout(c);
    const Vector3 q = rng.vector3(3.0);
    CHECK(maxAbsDiff(shiftFromCm(I_cm, m, Vector3(c - q)), cloud.inertiaAbout(q)) < 1e-12);
    CHECK(maxAbsDiff(shiftToCm(cloud.inertiaAbout(q), m, Vector3(c - q)), I_cm) < 1e-12);
  }
  // A solid 1 x 0.6 x 0.4 m box of 3 kg, integrated by the midpoint rule on a grid about a
  // corner; closed form about its centre: m (b² + c²) / 12 etc., shifted by the theorem.
  const double a = 1.0, b = 0.6, c = 0.4, mass = 3.0;
  const int n = 40;
  PointCloud box;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < n; ++l) {
        box.m.push_back(mass / (n * n * n));
        box.r.push_back(Vector3((i + 0.5) * a / n, (j + 0.5) * b / n, (l + 0.5) * c / n));
      }
  const Vector3 moments =
      Vector3(mass * (b * b + c * c), mass * (a * a + c * c), mass * (a * a + b * b)) / 12.0;
  const Matrix3 I_centre = moments.asDiagonal();
  const Matrix3 I_corner = shiftFromCm(I_centre, mass, Vector3(a / 2, b / 2, c / 2));
  // The midpoint rule integrates x y exactly and x² with the error -h² (per unit mass, h the
  // cell edge), so the grid's tensor is I_corner minus m (h_y² + h_z²)/12 etc. on the diagonal.
  const Vector3 h2 = Vector3(a * a, b * b, c * c) / (n * n);
  const Vector3 midpointError = mass / 12.0 * Vector3(h2[1] + h2[2], h2[0] + h2[2], h2[0] + h2[1]);
  const Matrix3 I_grid = box.inertiaAbout(Vector3::Zero());
  CHECK(maxAbsDiff(I_grid, I_corner) < 3e-4);
  CHECK(maxAbsDiff(Matrix3(I_grid + Matrix3(midpointError.asDiagonal())), I_corner) < 1e-12);
  CHECK(I_corner(0, 1) == doctest::Approx(-mass * a * b / 4));  // -∫xy dm = -m (a/2)(b/2)
}

TEST_CASE("invalid rotational inertias are refused with the bad value named") {
  Matrix3 indefinite;
  indefinite << 1, 0, 0, 0, 1, 0, 0, 0, -0.5;
  CHECK_THROWS_WITH_AS(checkRotationalInertia(indefinite, "bodies.arm"),
                       doctest::Contains("bodies.arm: rotational inertia has a negative principal "
                                         "moment -0.5 kg·m²"),
                       InputError);
  const Matrix3 triangle = Vector3(1.0, 1.0, 3.0).asDiagonal();
  CHECK_THROWS_WITH_AS(checkRotationalInertia(triangle, "bodies.arm"),
                       doctest::Contains("principal moments 1, 1, 3 kg·m² violate the triangle "
                                         "inequality 1 + 1 >= 3"),
                       InputError);
  Matrix3 asymmetric = Matrix3::Identity();
  asymmetric(0, 1) = 0.1;
  CHECK_THROWS_WITH_AS(checkRotationalInertia(asymmetric, "b"),
                       doctest::Contains("not symmetric: I(0,1) = 0.1 but I(1,0) = 0"), InputError);
  Matrix3 nan = Matrix3::Identity();
  nan(2, 2) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(checkRotationalInertia(nan, "b"), doctest::Contains("non-finite"),
                       InputError);
  // Finite, but the symmetrization 0.5 (I + I^T) that is stored would overflow.
  Matrix3 huge = Matrix3::Identity();
  huge(0, 2) = huge(2, 0) = -1e308;
  CHECK_THROWS_WITH_AS(checkRotationalInertia(huge, "b"),
                       doctest::Contains("b: rotational inertia entries up to 1e+308 kg·m² "
                                         "overflow; expected entries below 8e307"),
                       InputError);
  // Limits of real bodies are accepted: a point mass (0) and a thin rod (0, a, a), and a flat
  // plate on the triangle's edge (a, b, a + b).
  CHECK_NOTHROW(checkRotationalInertia(Matrix3::Zero(), "point"));
  CHECK_NOTHROW(checkRotationalInertia(Vector3(0.0, 2.0, 2.0).asDiagonal(), "rod"));
  CHECK_NOTHROW(checkRotationalInertia(Vector3(1.0, 2.0, 3.0).asDiagonal(), "plate"));
}

}  // namespace hopsim::spatial::test
