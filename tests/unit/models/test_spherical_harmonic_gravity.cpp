// SphericalHarmonicGravity against independent computations made here: the closed-form point
// mass + J2 acceleration; for a general degree-4 field in a rotating planet frame, the central
// finite-difference gradient of the potential summed directly from associated Legendre
// functions (a different algorithm from the model's Cartesian V/W recursion); normalized and
// unnormalized coefficients of the same field; and the gravity-gradient torque
// 3 mu/r^3 (r_hat x I r_hat). Each evaluation is one euler hop from rest, which leaves the body
// where it was (q' = 0 at u = 0), so the outputs at the hop end are the field at the placed CM
// and udot is the response to it.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/spherical_harmonic_gravity.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

constexpr double kHop = 0.01;  // s: the outputs are read at t = kHop

std::vector<double> list(const Vector3& v) { return {v.x(), v.y(), v.z()}; }

Vector3 signal3(const Simulation& sim, const char* name) {
  const auto v = std::get<std::vector<double>>(sim.get(std::string("signals.") + name));
  return {v[0], v[1], v[2]};
}

/// A SphericalHarmonicGravity "gravity" on node `node`, outputs on signals "accel", "alpha"
/// and "potential".
models::SphericalHarmonicGravity& addGravity(Simulation& sim, const char* node) {
  auto& gravity = sim.addModel<models::SphericalHarmonicGravity>("gravity");
  gravity.attachToNode(node);
  sim.addSignal("accel", ElementType::Double, 3);
  sim.addSignal("alpha", ElementType::Double, 3);
  sim.addSignal("potential", ElementType::Double);
  sim.tie("gravity", "linearAccel", "accel");
  sim.tie("gravity", "angularAccel", "alpha");
  sim.tie("gravity", "potential", "potential");
  return gravity;
}

/// A free body of mass 40 kg with its CM off its origin and a full inertia, a node "imu" away
/// from the CM, and the gravity model (addGravity) on the node.
struct Satellite {
  Simulation sim{{.ioStepSize = kHop, .integrator = "euler"}};
  Vector3 com{0.3, -0.5, 0.2};
  Matrix3 inertia_B;
  multibody::BodyIndex body;
  models::SphericalHarmonicGravity* gravity;
  Satellite() {
    inertia_B << 12.0, 0.8, -0.5, 0.8, 15.0, 0.3, -0.5, 0.3, 9.0;
    auto& tree = sim.multibody().editModel();
    body = tree.addBody("sat", kWorldBody, SpatialInertia::fromCmInertia(40.0, com, inertia_B),
                        Hinge::full6Dof());
    tree.addNode("imu", body, RigidTransform::fromTranslation({1.0, 0.4, -0.7}));
    gravity = &addGravity(sim, "imu");
  }
  /// Locks, places the CM at p_cm (W) at rest with attitude R_WB and runs one hop.
  void evaluateAt(const Vector3& p_cm, const Matrix3& R_WB) {
    sim.lock();
    sim.multibody().q(body).head<4>() = spatial::quaternionFromRotation(R_WB);
    sim.multibody().q(body).tail<3>() = p_cm - R_WB * com;
    sim.advanceOverHop();
  }
};

/// A deterministic O(0.1) coefficient for (n, m), different for C and S.
double coefficient(int n, int m, double phase) {
  return 0.15 * std::sin(1.7 * n + 2.3 * m + phase) / (1.0 + 0.3 * n);
}

/// Lower-triangular C and S of degree 4, C00 = 1.
struct Coefficients {
  std::vector<double> c, s;
};
Coefficients generalField() {
  Coefficients k;
  for (int n = 0; n <= 4; ++n) {
    for (int m = 0; m <= n; ++m) {
      k.c.push_back(n == 0 ? 1.0 : coefficient(n, m, 0.0));
      k.s.push_back(m == 0 ? 0.0 : coefficient(n, m, 1.0));
    }
  }
  return k;
}

/// Unnormalized associated Legendre function P_nm(x), no Condon-Shortley phase, by the
/// classical recursions in n at fixed m (written independently of the model's).
double legendre(int n, int m, double x) {
  double pmm = 1.0;
  for (int k = 1; k <= m; ++k) pmm *= (2 * k - 1) * std::sqrt(1.0 - x * x);
  if (n == m) return pmm;
  double prev = pmm, cur = x * (2 * m + 1) * pmm;
  for (int k = m + 2; k <= n; ++k) {
    const double next = ((2 * k - 1) * x * cur - (k + m - 1) * prev) / (k - m);
    prev = cur;
    cur = next;
  }
  return cur;
}

/// U = mu/r sum (R/r)^n P_nm(sin phi)(C cos m lambda + S sin m lambda) at r_P (planet frame),
/// m <= min(n, order).
double potentialSum(const Coefficients& k, double mu, double R, int degree, int order,
                    const Vector3& r_P) {
  const double r = r_P.norm(), sinPhi = r_P.z() / r, lambda = std::atan2(r_P.y(), r_P.x());
  double u = 0.0;
  std::size_t i = 0;
  for (int n = 0; n <= degree; ++n) {
    for (int m = 0; m <= n; ++m, ++i) {
      if (m > order) continue;
      u += std::pow(R / r, n) * legendre(n, m, sinPhi) *
           (k.c[i] * std::cos(m * lambda) + k.s[i] * std::sin(m * lambda));
    }
  }
  return mu / r * u;
}

double factorial(int n) { return std::tgamma(n + 1.0); }

}  // namespace

TEST_CASE("SphericalHarmonicGravity: the default field is point mass + J2 in closed form") {
  const double mu = 3.986004418e14, R = 6378136.3, J2 = 1.08262668e-3;
  const Matrix3 R_WB = spatial::rotationFromAxisAngle(Vector3(1.0, 2.0, -0.5).normalized(), 0.7);
  for (const Vector3& p :
       {Vector3(7.0e6, 0.0, 0.0), Vector3(3.1e6, -4.2e6, 5.3e6), Vector3(-1.0e6, 2.0e5, -6.9e6)}) {
    CAPTURE(p.transpose());
    Satellite s;
    s.evaluateAt(p, R_WB);
    const double r = p.norm(), z2 = p.z() * p.z() / (r * r);
    const double k = 1.5 * J2 * (R / r) * (R / r);
    const Vector3 pointMass = -mu / (r * r * r) * p;
    const Vector3 expected(pointMass.x() * (1.0 + k * (1.0 - 5.0 * z2)),
                           pointMass.y() * (1.0 + k * (1.0 - 5.0 * z2)),
                           pointMass.z() * (1.0 + k * (3.0 - 5.0 * z2)));
    const Vector3 a = signal3(s.sim, "accel");
    // The J2 part is ~1e-3 of a: comparing it alone to 1e-9 leaves room for the rounding of
    // the O(1e1) sums (1e-15 relative of a is 1e-12 of the J2 part) and would catch a wrong
    // coefficient in the sixth digit.
    CHECK((a - expected).norm() < 1e-9 * (expected - pointMass).norm());
    const double potential = -mu / r * (1.0 - J2 * (R / r) * (R / r) * (1.5 * z2 - 0.5));
    CHECK(std::get<double>(s.sim.get("signals.potential")) ==
          doctest::Approx(potential).epsilon(1e-14));
    // The force m a acts at the CM: at rest the body translates with a and does not turn.
    const Eigen::VectorXd udot = s.sim.multibody().udot();
    CHECK(udot.head<3>().norm() < 1e-14 * a.norm());
    CHECK((udot.tail<3>() - R_WB.transpose() * a).norm() < 1e-14 * a.norm());
    CHECK(signal3(s.sim, "alpha").norm() == 0.0);
  }
}

TEST_CASE("SphericalHarmonicGravity: a degree-4 field in a rotating frame is minus grad of U") {
  const double mu = 2.0, R = 1.0, angle0 = 0.4, rate = 0.3;
  const int degree = 4, order = 3;  // the m = 4 coefficients are given but must be left out
  const Coefficients k = generalField();
  const Matrix3 R_WB = spatial::rotationFromAxisAngle(Vector3(-0.3, 1.0, 0.2).normalized(), 2.1);
  const Vector3 center(0.2, -0.1, 0.3), p(1.3, -0.8, 0.9);

  // This field on a satellite, with the coefficients given.
  const auto setField = [&](Satellite& sat, const Coefficients& coefficients) {
    sat.gravity->setParam("gravityParameter", mu);
    sat.gravity->setParam("equatorialRadius", R);
    sat.gravity->setParam("degree", std::int64_t{degree});
    sat.gravity->setParam("order", std::int64_t{order});
    sat.gravity->setParam("cCoefficients", coefficients.c);
    sat.gravity->setParam("sCoefficients", coefficients.s);
    sat.gravity->setParam("center", list(center));
    sat.gravity->setParam("planetAngle", angle0);
    sat.gravity->setParam("rotationRate", rate);
  };
  Satellite s;
  setField(s, k);
  s.evaluateAt(p, R_WB);

  // U in world coordinates at the output time t = kHop: the planet frame is turned by
  // angle0 + rate t about z.
  const Matrix3 R_WP = spatial::rotationZ(angle0 + rate * kHop);
  const auto U = [&](const Vector3& x_W) {
    return potentialSum(k, mu, R, degree, order, R_WP.transpose() * (x_W - center));
  };
  // Central differences with h = 1e-5 on O(1) values: truncation h^2 U'''/6 ~ 1e-10, rounding
  // eps U/h ~ 1e-11; the harmonic terms are O(0.1) of a, so 1e-8 checks them to 1e-7.
  const double h = 1e-5;
  Vector3 gradient;
  for (int i = 0; i < 3; ++i) {
    const Vector3 e = h * Vector3::Unit(i);
    gradient[i] = (U(p + e) - U(p - e)) / (2.0 * h);
  }
  const Vector3 a = signal3(s.sim, "accel");
  CHECK((a - gradient).norm() < 1e-8);
  CHECK(std::get<double>(s.sim.get("signals.potential")) == doctest::Approx(-U(p)).epsilon(1e-13));
  // The m = 4 terms would move a by O(1e-2): leaving them out is seen.
  const Vector3 pointMass = -mu / std::pow((p - center).norm(), 3) * (p - center);
  CHECK((a - pointMass).norm() > 1e-2);

  SUBCASE("the same coefficients normalized give the same field") {
    Coefficients normalized = k;
    std::size_t i = 0;
    for (int n = 0; n <= degree; ++n) {
      for (int m = 0; m <= n; ++m, ++i) {
        const double N =
            std::sqrt((m == 0 ? 1.0 : 2.0) * (2 * n + 1) * factorial(n - m) / factorial(n + m));
        normalized.c[i] /= N;
        normalized.s[i] /= N;
      }
    }
    Satellite t;
    setField(t, normalized);
    t.gravity->setParam("normalized", true);
    t.evaluateAt(p, R_WB);
    // Only the rounding of dividing and multiplying back by N_nm differs: 1e-14.
    CHECK((signal3(t.sim, "accel") - a).norm() < 1e-14 * a.norm());
    CHECK(std::get<double>(t.sim.get("signals.potential")) ==
          doctest::Approx(std::get<double>(s.sim.get("signals.potential"))).epsilon(1e-14));
  }
}

TEST_CASE("SphericalHarmonicGravity: gravity-gradient torque is 3 mu/r^3 (r_hat x I r_hat)") {
  const double mu = 4.9048695e12;  // the Moon
  const Matrix3 R_WB = spatial::rotationFromAxisAngle(Vector3(0.5, -1.0, 0.8).normalized(), 1.3);
  const Vector3 p(1.2e6, 1.1e6, -0.9e6);
  for (const bool gradientOn : {true, false}) {
    CAPTURE(gradientOn);
    Satellite s;
    s.gravity->setParam("gravityParameter", mu);
    s.gravity->setParam("degree", std::int64_t{0});
    s.gravity->setParam("cCoefficients", std::vector<double>{1.0});
    s.gravity->setParam("sCoefficients", std::vector<double>{0.0});
    s.gravity->setParam("useGravityGradient", gradientOn);
    s.evaluateAt(p, R_WB);
    const Vector3 alpha_W = signal3(s.sim, "alpha"), a = signal3(s.sim, "accel");
    const Eigen::VectorXd udot = s.sim.multibody().udot();
    // The dynamics cancel the moment c x m a of the force about the body origin: its rounding,
    // eps |c| m |a| / I ~ 1e-16 |a| per metre, bounds the angular acceleration's error.
    const double alphaRounding = 1e-14 * a.norm();
    if (!gradientOn) {
      CHECK(alpha_W.norm() == 0.0);
      CHECK(udot.head<3>().norm() < alphaRounding);
      continue;
    }
    const Matrix3 I_W = R_WB * s.inertia_B * R_WB.transpose();
    const double r = p.norm();
    const Vector3 rHat = p / r;
    const Vector3 torque = 3.0 * mu / (r * r * r) * rHat.cross(I_W * rHat);
    // Rounding of O(1) products and one 3x3 solve: 1e-13 relative.
    CHECK((I_W * alpha_W - torque).norm() < 1e-13 * torque.norm());
    // The body at rest responds with alpha_B = I_B^-1 R^T torque (the couple adds no force),
    // and its origin with a_cm - alpha x c.
    const Vector3 alpha_B = s.inertia_B.inverse() * R_WB.transpose() * torque;
    CHECK((udot.head<3>() - alpha_B).norm() < alphaRounding);
    CHECK((udot.tail<3>() - (R_WB.transpose() * a - alpha_B.cross(s.com))).norm() <
          1e-13 * a.norm());
  }
}

TEST_CASE("SphericalHarmonicGravity: apply = false computes the outputs and leaves the body") {
  Satellite s;
  s.gravity->setParam("apply", false);
  s.gravity->setParam("useGravityGradient", true);
  s.evaluateAt(Vector3(7.0e6, 1.0e6, -2.0e6), Matrix3::Identity());
  CHECK(signal3(s.sim, "accel").norm() > 7.0);
  CHECK(signal3(s.sim, "alpha").norm() > 0.0);
  CHECK(s.sim.multibody().udot().norm() == 0.0);
}

TEST_CASE("SphericalHarmonicGravity: bad orders, coefficient lengths and attachments refused") {
  {
    Satellite s;
    s.gravity->setParam("order", std::int64_t{3});
    CHECK_THROWS_WITH_AS(s.sim.lock(),
                         doctest::Contains("models.gravity.params.order: value 3 "
                                           "is above the degree 2"),
                         InputError);
  }
  {
    Satellite s;
    s.gravity->setParam("cCoefficients", std::vector<double>(10, 0.0));
    s.gravity->setParam("sCoefficients", std::vector<double>(10, 0.0));
    CHECK_THROWS_WITH_AS(s.sim.lock(),
                         doctest::Contains("cCoefficients: 10 entries, but degree 2 needs "
                                           "(N+1)(N+2)/2 = 6"),
                         InputError);
  }
  {
    Satellite s;
    CHECK_THROWS_WITH_AS(s.gravity->setParam("degree", std::int64_t{81}),
                         doctest::Contains("models.gravity.params.degree"), InputError);
  }
  Simulation sim;
  sim.multibody().editModel().addNode("ground", kWorldBody, RigidTransform());
  addGravity(sim, "ground");
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("node 'ground' is fixed on the world body"),
                       ModelError);
}

}  // namespace hopsim
