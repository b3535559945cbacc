// SpatialInertia: kinetic energy, momentum, frame changes, composites and validation.
// References: sums over clouds of point masses (½ Σ m_i |v_i|², Σ m_i r_i × v_i) and the
// textbook split ½ m |v_cm|² + ½ ωᵀ I_cm ω.

#include <doctest/doctest.h>

#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/signals/error.h"
#include "spatial_test_support.h"

namespace hopsim::spatial::test {
namespace {

SpatialInertia inertiaOf(const PointCloud& cloud) {
  const Vector3 c = cloud.com();
  return SpatialInertia::fromCmInertia(cloud.mass(), c, cloud.inertiaAbout(c));
}

}  // namespace

TEST_CASE("kinetic energy ½ Vᵀ M V = ½ m |v_cm|² + ½ ωᵀ I_cm ω = ½ Σ m_i |v_i|²") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const PointCloud cloud = PointCloud::random(rng, 15, rng.vector3(2.0));
    const SpatialInertia M = inertiaOf(cloud);
    const Vector3 w = rng.vector3(), v_Bo = rng.vector3();
    const SpatialMotion V(w, v_Bo);
    double sum = 0.0;
    for (std::size_t i = 0; i < cloud.m.size(); ++i) {
      sum += 0.5 * cloud.m[i] * (v_Bo + w.cross(cloud.r[i])).squaredNorm();
    }
    const Vector3 v_cm = v_Bo + w.cross(cloud.com());
    const double split =
        0.5 * cloud.mass() * v_cm.squaredNorm() + 0.5 * w.dot(cloud.inertiaAbout(cloud.com()) * w);
    CHECK(M.kineticEnergy(V) == doctest::Approx(sum).epsilon(1e-12));
    CHECK(M.kineticEnergy(V) == doctest::Approx(split).epsilon(1e-12));
    CHECK(0.5 * V.vector().dot(M.matrix() * V.vector()) == doctest::Approx(sum).epsilon(1e-12));
  }
}

TEST_CASE("M V is the spatial momentum about Bo: [Σ m_i r_i × v_i, Σ m_i v_i]") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const PointCloud cloud = PointCloud::random(rng, 15, rng.vector3(2.0));
    const SpatialInertia M = inertiaOf(cloud);
    const SpatialMotion V(rng.vector6());
    Vector3 h = Vector3::Zero(), l = Vector3::Zero();
    for (std::size_t i = 0; i < cloud.m.size(); ++i) {
      const Vector3 vi = Vector3(V.translational()) + Vector3(V.rotational()).cross(cloud.r[i]);
      h += cloud.m[i] * cloud.r[i].cross(vi);
      l += cloud.m[i] * vi;
    }
    const SpatialForce momentum = M * V;
    CHECK(maxAbsDiff(momentum.rotational(), h) < 1e-12);
    CHECK(maxAbsDiff(momentum.translational(), l) < 1e-12);
    CHECK(maxAbsDiff(M.matrix() * V.vector(), momentum.vector()) < 1e-12);
    CHECK(maxAbsDiff(M.rotationalInertiaAboutOrigin(), cloud.inertiaAbout(Vector3::Zero())) <
          1e-12);
  }
}

TEST_CASE("biasForce(V) equals V ×* (M V) and is exactly zero for a non-rotating body") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const PointCloud cloud = PointCloud::random(rng, 15, rng.vector3(2.0));
    const SpatialInertia M = inertiaOf(cloud);
    const SpatialMotion V(rng.vector6());
    CHECK(maxAbsDiff(M.biasForce(V).vector(), crossForce(V, M * V).vector()) < 1e-12);
    // V ×* (M V) holds v × m v, zero but rounding to ~ε m |v|² (at 7.5 km/s ~1e-8 N m per
    // kg of mass); biasForce has no such term: a fast body without rotation feels no bias.
    const SpatialMotion fast(Vector3::Zero(), Vector3(rng.vector3(7.5e3)));
    CHECK(M.biasForce(fast).vector() == Vector6::Zero());
  }
}

TEST_CASE("newtonEulerForce(A, V) equals M A + V ×* (M V), without its v × m v term") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const PointCloud cloud = PointCloud::random(rng, 15, rng.vector3(2.0));
    const SpatialInertia M = inertiaOf(cloud);
    const SpatialMotion A(rng.vector6());
    const SpatialMotion V(rng.vector6());
    // The 6x6 matrix and the cross product are an independent formulation; 1e-12 is round-off
    // on entries of order 10 to 100.
    const Vector6 expected = M.matrix() * A.vector() + crossForce(V, M * V).vector();
    CHECK(maxAbsDiff(M.newtonEulerForce(A, V).vector(), expected) < 1e-12);
    const SpatialMotion fast(Vector3::Zero(), Vector3(rng.vector3(7.5e3)));
    CHECK(M.newtonEulerForce(SpatialMotion(), fast).vector() == Vector6::Zero());
  }
}

TEST_CASE("transformed(X_AB) equals the cloud moved into A, and X* M X⁻¹ in 6x6 form") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const PointCloud cloud_B = PointCloud::random(rng, 12, rng.vector3(2.0));
    const RigidTransform X_AB(rng.rotation(), rng.vector3(3.0));
    PointCloud cloud_A = cloud_B;
    for (Vector3& r : cloud_A.r) r = X_AB * r;
    const SpatialInertia M_A = inertiaOf(cloud_B).transformed(X_AB);
    CHECK(M_A.isApprox(inertiaOf(cloud_A), 1e-11));
    const SpatialTransform X(X_AB);
    const Matrix6 expected =
        X.forceMatrix() * inertiaOf(cloud_B).matrix() * X.inverse().motionMatrix();
    CHECK(maxAbsDiff(M_A.matrix(), expected) < 1e-11);
    // Momentum is a force: transforming V then multiplying equals multiplying then transforming.
    const SpatialMotion V_B(rng.vector6());
    CHECK(maxAbsDiff((M_A * X.apply(V_B)).vector(), X.apply(inertiaOf(cloud_B) * V_B).vector()) <
          1e-11);
  }
}

TEST_CASE("shiftedTo and fromOriginInertia agree with the parallel-axis theorem") {
  Random rng;
  const PointCloud cloud = PointCloud::random(rng, 25, Vector3(0.5, -0.2, 0.1));
  const SpatialInertia M = inertiaOf(cloud);
  const Vector3 q = rng.vector3();
  PointCloud shifted = cloud;
  for (Vector3& r : shifted.r) r -= q;
  CHECK(M.shiftedTo(q).isApprox(inertiaOf(shifted), 1e-12));
  const SpatialInertia fromOrigin = SpatialInertia::fromOriginInertia(
      cloud.mass(), cloud.com(), cloud.inertiaAbout(Vector3::Zero()));
  CHECK(fromOrigin.isApprox(M, 1e-12));
}

TEST_CASE("composite inertia of two bodies equals the inertia of the union of their clouds") {
  Random rng;
  for (int k = 0; k < 50; ++k) {
    const PointCloud a = PointCloud::random(rng, 10, rng.vector3(2.0));
    const PointCloud b = PointCloud::random(rng, 10, rng.vector3(2.0));
    PointCloud both = a;
    both.m.insert(both.m.end(), b.m.begin(), b.m.end());
    both.r.insert(both.r.end(), b.r.begin(), b.r.end());
    CHECK((inertiaOf(a) + inertiaOf(b)).isApprox(inertiaOf(both), 1e-11));
    CHECK((SpatialInertia::Zero() + inertiaOf(a)).isApprox(inertiaOf(a), 1e-14));
  }
  const SpatialInertia p = SpatialInertia::pointMass(2.0, Vector3(1, 0, 0));
  CHECK(p.rotationalInertiaAboutOrigin()(1, 1) == 2.0);  // m d²
}

TEST_CASE("invalid spatial inertias are refused with messages naming the bad value") {
  const Matrix3 I = Matrix3::Identity();
  CHECK_THROWS_WITH_AS(SpatialInertia::fromCmInertia(-1.0, Vector3::Zero(), I, "bodies.wheel"),
                       doctest::Contains("bodies.wheel: mass -1 kg must be finite and positive"),
                       InputError);
  CHECK_THROWS_WITH_AS(SpatialInertia::fromCmInertia(0.0, Vector3::Zero(), I),
                       doctest::Contains("mass 0 kg"), InputError);
  CHECK_THROWS_WITH_AS(
      SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Vector3(1, 1, 3).asDiagonal()),
      doctest::Contains("triangle inequality 1 + 1 >= 3"), InputError);
  CHECK_THROWS_WITH_AS(
      SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Vector3(1, -1, 1).asDiagonal()),
      doctest::Contains("negative principal moment -1"), InputError);
  CHECK_THROWS_WITH_AS(
      SpatialInertia::fromCmInertia(1.0, Vector3(0, std::numeric_limits<double>::infinity(), 0), I),
      doctest::Contains("CM position"), InputError);
  // About the origin, an inertia too small for the CM offset has no valid CM inertia:
  // a 1 kg body 2 m from Bo has at least 4 kg·m² about Bo's y and z axes.
  CHECK_THROWS_WITH_AS(SpatialInertia::fromOriginInertia(1.0, Vector3(2, 0, 0), I, "b"),
                       doctest::Contains("shifted to the CM"), InputError);
  CHECK_THROWS_AS(SpatialInertia::pointMass(-2.0, Vector3::Zero()), InputError);
}

}  // namespace hopsim::spatial::test
