#pragma once
// An MBSE four-bar checked against an independent planar formulation, and an MBSE relative
// coordinate against its definition: used on the project's mechanisms (test_mechanism_lowering.cpp)
// and on libmbse's examples (tests/unit/shared_data/).

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/core/recorder.h"
#include "mechanism_test_util.h"

namespace hopsim::testing {

/// A two-point link of a four-bar: from point `a` to point `b`, of `length` (m) and `mass`
/// (kg), with `i0` (kg m²) its polar moment about point a and its centre of mass `cog` (m) from
/// a along the link (MBSE's cog [cog, 0]).
struct FourBarLink {
  int a, b;
  double length, mass, i0, cog;
};

/// A four-bar of three links between the fixed points 0 (`pivot0`) and 3 (`pivot3`) under
/// gravity (0, -9.81), in MBSE's own natural coordinates q = [x1, y1, x2, y2]: the mass matrix of
/// each two-point link and the constraints |r_b - r_a|² = L², integrated by RK4 at 1e-4 s with
/// projection, released at rest. Independent of the tree engine the lowering builds.
class FourBarReference {
 public:
  FourBarReference(Eigen::Vector2d pivot0, Eigen::Vector2d pivot3, std::array<FourBarLink, 3> links,
                   Eigen::Vector2d point1, Eigen::Vector2d point2)
      : pivot0_(pivot0), pivot3_(pivot3), links_(links) {
    q_ << point1, point2;
    v_.setZero();
  }
  void advance(double duration) {
    const double h = 1e-4;
    const int n = static_cast<int>(std::lround(duration / h));
    for (int i = 0; i < n; ++i) step(h);
  }
  Eigen::Vector2d point(int k) const { return position(q_, k); }
  const std::array<FourBarLink, 3>& links() const { return links_; }

 private:
  using Vec4 = Eigen::Vector4d;

  Eigen::Vector2d position(const Vec4& q, int k) const {
    if (k == 0) return pivot0_;
    if (k == 3) return pivot3_;
    return q.segment<2>(2 * (k - 1));
  }
  static int slot(int k) { return k == 1 ? 0 : k == 2 ? 2 : -1; }

  void constraints(const Vec4& q, Eigen::Vector3d& phi, Eigen::Matrix<double, 3, 4>& J) const {
    J.setZero();
    for (int c = 0; c < 3; ++c) {
      const FourBarLink& link = links_[static_cast<std::size_t>(c)];
      const Eigen::Vector2d d = position(q, link.b) - position(q, link.a);
      phi[c] = d.squaredNorm() - link.length * link.length;
      if (slot(link.b) >= 0) J.block<1, 2>(c, slot(link.b)) += 2.0 * d.transpose();
      if (slot(link.a) >= 0) J.block<1, 2>(c, slot(link.a)) -= 2.0 * d.transpose();
    }
  }

  Vec4 acceleration(const Vec4& q, const Vec4& v) const {
    Eigen::Matrix4d M = Eigen::Matrix4d::Zero();
    Vec4 Q = Vec4::Zero();
    const Eigen::Vector2d g(0.0, -9.81);
    for (const FourBarLink& link : links_) {
      // The mass matrix of a two-point body with its centre of mass at (a, 0) (B3's formulas).
      const double L = link.length, m = link.mass, a = link.cog;
      const double m00 = m - 2.0 * m * a / L + link.i0 / (L * L);
      const double m11 = link.i0 / (L * L);
      const double m01 = m * a / L - link.i0 / (L * L);
      const int sa = slot(link.a), sb = slot(link.b);
      const auto add = [&M](int r, int c, double value) {
        if (r >= 0 && c >= 0) M.block<2, 2>(r, c) += value * Eigen::Matrix2d::Identity();
      };
      add(sa, sa, m00);
      add(sb, sb, m11);
      add(sa, sb, m01);
      add(sb, sa, m01);
      if (sa >= 0) Q.segment<2>(sa) += (1.0 - a / L) * m * g;
      if (sb >= 0) Q.segment<2>(sb) += (a / L) * m * g;
    }
    Eigen::Vector3d phi;
    Eigen::Matrix<double, 3, 4> J;
    constraints(q, phi, J);
    const auto velocity = [&v](int k) {
      return slot(k) >= 0 ? v.segment<2>(slot(k)).eval() : Eigen::Vector2d::Zero().eval();
    };
    Eigen::Vector3d gamma;
    for (int c = 0; c < 3; ++c) {
      const FourBarLink& link = links_[static_cast<std::size_t>(c)];
      gamma[c] = -2.0 * (velocity(link.b) - velocity(link.a)).squaredNorm();
    }
    Eigen::Matrix<double, 7, 7> K = Eigen::Matrix<double, 7, 7>::Zero();
    K.topLeftCorner<4, 4>() = M;
    K.topRightCorner<4, 3>() = J.transpose();
    K.bottomLeftCorner<3, 4>() = J;
    Eigen::Matrix<double, 7, 1> rhs;
    rhs << Q, gamma;
    return K.fullPivLu().solve(rhs).head<4>();
  }

  void step(double h) {
    const auto f = [this](const Vec4& q, const Vec4& v) { return acceleration(q, v); };
    const Vec4 a1 = f(q_, v_);
    const Vec4 a2 = f(q_ + 0.5 * h * v_, v_ + 0.5 * h * a1);
    const Vec4 a3 = f(q_ + 0.5 * h * (v_ + 0.5 * h * a1), v_ + 0.5 * h * a2);
    const Vec4 a4 = f(q_ + h * (v_ + 0.5 * h * a2), v_ + h * a3);
    q_ += h * v_ + h * h / 6.0 * (a1 + a2 + a3);
    v_ += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    // Project onto the constraints (minimum-norm corrections).
    Eigen::Vector3d phi;
    Eigen::Matrix<double, 3, 4> J;
    for (int k = 0; k < 5; ++k) {
      constraints(q_, phi, J);
      q_ -= J.transpose() * (J * J.transpose()).ldlt().solve(phi);
    }
    constraints(q_, phi, J);
    v_ -= J.transpose() * (J * J.transpose()).ldlt().solve(J * v_);
  }

  Eigen::Vector2d pivot0_, pivot3_;
  std::array<FourBarLink, 3> links_;
  Vec4 q_;
  Vec4 v_;
};

/// The recorded position of MBSE point `k` at time `t`.
inline Eigen::Vector2d recordedPoint(const Recorder& r, int k, double t) {
  const std::string base = "points." + std::to_string(k) + ".position.";
  return {sampleAt(r, base + "x", t), sampleAt(r, base + "y", t)};
}

/// Checks points 1 and 2 of a recorded four-bar run (at least 2 s) against `reference` at 0.5,
/// 1, 1.5 and 2 s, and that every link keeps its length.
inline void checkFourBarFollowsReference(const Recorder& r, FourBarReference reference) {
  double previous = 0.0;
  for (double t : {0.5, 1.0, 1.5, 2.0}) {
    reference.advance(t - previous);
    previous = t;
    CAPTURE(t);
    std::array<Eigen::Vector2d, 4> p;
    for (int k = 0; k < 4; ++k) p[static_cast<std::size_t>(k)] = recordedPoint(r, k, t);
    for (int k : {1, 2}) {
      CAPTURE(k);
      // Both integrate smooth motion with RK4 (1e-3 s against 1e-4 s): their difference is
      // far below 1e-6 m over 2 s of a mechanism of a few metres.
      const Eigen::Vector2d expected = reference.point(k);
      CHECK(p[static_cast<std::size_t>(k)].x() == doctest::Approx(expected.x()).epsilon(1e-6));
      CHECK(p[static_cast<std::size_t>(k)].y() == doctest::Approx(expected.y()).epsilon(1e-6));
    }
    // The loop stays closed: each link keeps its length (constraints projected to 1e-12).
    for (const FourBarLink& link : reference.links()) {
      const double length =
          (p[static_cast<std::size_t>(link.b)] - p[static_cast<std::size_t>(link.a)]).norm();
      CHECK(length == doctest::Approx(link.length).epsilon(1e-10));
    }
  }
}

/// Checks the recorded relative coordinate `label` (the angle of the vector from MBSE point
/// `from` to point `to`) against its definition at every sample, continuous through ±π, and
/// returns its smallest value.
inline double checkRelativeAngle(const Recorder& r, int label, int from, int to) {
  const auto& angle =
      r.values(r.column("relative_coordinates." + std::to_string(label) + ".angle"));
  const auto column = [&r](int point, const char* axis) -> const std::vector<double>& {
    return r.values(r.column("points." + std::to_string(point) + ".position." + axis));
  };
  const auto &x0 = column(from, "x"), &y0 = column(from, "y");
  const auto &x1 = column(to, "x"), &y1 = column(to, "y");
  double smallest = angle.front();
  for (std::size_t k = 0; k < angle.size(); ++k) {
    CAPTURE(k);
    const double direction = std::atan2(y1[k] - y0[k], x1[k] - x0[k]);
    CHECK(std::abs(std::remainder(angle[k] - direction, 2.0 * std::numbers::pi)) < 1e-12);
    if (k > 0) CHECK(std::abs(angle[k] - angle[k - 1]) < 0.5);  // continuous: no 2π jumps
    smallest = std::min(smallest, angle[k]);
  }
  return smallest;
}

}  // namespace hopsim::testing
