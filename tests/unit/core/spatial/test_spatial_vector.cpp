// Spatial vectors: [angular; linear] layout, cross products crm/crf and the motion-force
// pairing. References: Featherstone's definitions written out component by component.

#include <doctest/doctest.h>

#include "hopsim/core/spatial/spatial_vector.h"
#include "spatial_test_support.h"

namespace hopsim::spatial::test {

TEST_CASE("spatial vectors are laid out [angular, linear]") {
  const SpatialMotion V(Vector3(1, 2, 3), Vector3(4, 5, 6));
  CHECK(V.vector() == (Vector6() << 1, 2, 3, 4, 5, 6).finished());
  CHECK(V.rotational() == Vector3(1, 2, 3));
  CHECK(V.translational() == Vector3(4, 5, 6));
  const SpatialForce F(Vector3(7, 8, 9), Vector3(10, 11, 12));
  CHECK(F[0] == 7);
  CHECK(F[5] == 12);
  CHECK(SpatialMotion().vector().isZero());
  CHECK((2.0 * V - V).vector() == V.vector());
}

TEST_CASE("skew(a) b equals a × b") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const Vector3 a = rng.vector3(), b = rng.vector3();
    CHECK(maxAbsDiff(skew(a) * b, a.cross(b)) < 1e-15);
    CHECK(maxAbsDiff(skew(a).transpose(), -skew(a)) == 0.0);
  }
}

TEST_CASE("crm and crf match Featherstone's component formulas and crf = -crmᵀ") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const SpatialMotion V(rng.vector6()), M(rng.vector6());
    const SpatialForce F(rng.vector6());
    const Vector3 w = V.rotational(), v = V.translational();
    // Reference: v × m = [ω × m_ω; v × m_ω + ω × m_v], v ×* f = [ω × n + v × f; ω × f].
    const Vector3 mw = M.rotational(), mv = M.translational();
    const Vector3 n = F.rotational(), f = F.translational();
    Vector6 expectedMotion, expectedForce;
    expectedMotion << w.cross(mw), v.cross(mw) + w.cross(mv);
    expectedForce << w.cross(n) + v.cross(f), w.cross(f);
    CHECK(maxAbsDiff(crossMotion(V, M).vector(), expectedMotion) < 1e-15);
    CHECK(maxAbsDiff(crossForce(V, F).vector(), expectedForce) < 1e-15);
    CHECK(maxAbsDiff(crm(V) * M.vector(), expectedMotion) < 1e-15);
    CHECK(maxAbsDiff(crf(V) * F.vector(), expectedForce) < 1e-15);
    CHECK(maxAbsDiff(crf(V), Matrix6(-crm(V).transpose())) == 0.0);
  }
}

TEST_CASE("v × v = 0 and the cross products keep power: (V × M)·F = -M·(V ×* F)") {
  Random rng;
  for (int k = 0; k < 100; ++k) {
    const SpatialMotion V(rng.vector6()), M(rng.vector6());
    const SpatialForce F(rng.vector6());
    CHECK(crossMotion(V, V).vector().norm() < 1e-15);
    CHECK(dot(crossMotion(V, M), F) == doctest::Approx(-dot(M, crossForce(V, F))).epsilon(1e-13));
    // Jacobi identity of the Lie bracket: [a, [b, c]] + [b, [c, a]] + [c, [a, b]] = 0.
    const SpatialMotion C(rng.vector6());
    const SpatialMotion jacobi = crossMotion(V, crossMotion(M, C)) +
                                 crossMotion(M, crossMotion(C, V)) +
                                 crossMotion(C, crossMotion(V, M));
    CHECK(jacobi.vector().norm() < 1e-14);
  }
}

TEST_CASE("V ×* (M V) about the CM is Euler's gyroscopic torque ω × I ω (and no force)") {
  // A body with its CM at the reference point: momentum [I ω; m v], and the bias force of
  // Newton-Euler is [ω × I ω + v × m v; ω × m v] = [ω × I ω; m ω × v].
  Random rng;
  Matrix3 I;
  I << 2.0, -0.1, 0.2, -0.1, 3.0, 0.05, 0.2, 0.05, 4.0;
  const double m = 1.7;
  for (int k = 0; k < 20; ++k) {
    const Vector3 w = rng.vector3(), v = rng.vector3();
    const SpatialForce momentum(I * w, m * v);
    const SpatialForce bias = crossForce(SpatialMotion(w, v), momentum);
    CHECK(maxAbsDiff(bias.rotational(), w.cross(I * w)) < 1e-14);
    CHECK(maxAbsDiff(bias.translational(), m * w.cross(v)) < 1e-14);
  }
}

TEST_CASE("dot(V, F) is the power ω·n + v·f") {
  const SpatialMotion V(Vector3(1, 0, 2), Vector3(0, 3, 0));
  const SpatialForce F(Vector3(5, 7, 1), Vector3(2, 4, 6));
  CHECK(dot(V, F) == 5.0 + 2.0 + 12.0);
  CHECK(dot(F, V) == dot(V, F));
}

}  // namespace hopsim::spatial::test
