#include "linearize_chart.h"

#include <Eigen/Geometry>
#include <cmath>
#include <map>

namespace hopsim {

namespace {

using multibody::SubhingeType;

Eigen::Quaterniond quaternionAt(const Eigen::VectorXd& x, Eigen::Index i) {
  return {x[i], x[i + 1], x[i + 2], x[i + 3]};  // scalar first, as Q holds it
}

void store(const Eigen::Quaterniond& q, Eigen::VectorXd& x, Eigen::Index i) {
  x.segment<4>(i) << q.w(), q.x(), q.y(), q.z();
}

/// exp(δθ/2): the unit quaternion of rotation vector δθ.
Eigen::Quaterniond exponential(const Eigen::Vector3d& theta) {
  const double angle = theta.norm();
  if (angle == 0.0) return Eigen::Quaterniond::Identity();
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, theta / angle));
}

/// 2 log(q): the rotation vector of q, of angle at most π.
Eigen::Vector3d logarithm(Eigen::Quaterniond q) {
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();  // the same rotation, the shorter way
  const double s = q.vec().norm();
  if (s == 0.0) return Eigen::Vector3d::Zero();
  return 2.0 * std::atan2(s, q.w()) / s * q.vec();
}

Eigen::Matrix3d skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

/// J_r⁻¹(φ) = I + ½[φ]× + (1/θ² - (1 + cos θ) / (2θ sin θ)) [φ]×², θ = |φ|: maps the body rate
/// ω onto φ̇ for q = q₀ ⊗ exp(φ/2).
Eigen::Matrix3d inverseRightJacobian(const Eigen::Vector3d& phi) {
  const double angle = phi.norm();
  const Eigen::Matrix3d S = skew(phi);
  // The series 1/12 + θ²/720 below 1e-4 rad, where the closed form loses its digits.
  const double c = angle < 1e-4 ? 1.0 / 12.0 + angle * angle / 720.0
                                : 1.0 / (angle * angle) -
                                      (1.0 + std::cos(angle)) / (2.0 * angle * std::sin(angle));
  return Eigen::Matrix3d::Identity() + 0.5 * S + c * S * S;
}

const char* coordinateUnit(SubhingeType type, bool rate) {
  switch (type) {
    case SubhingeType::Slider:
      return rate ? "m/s" : "m";
    default:
      return rate ? "rad/s" : "rad";
  }
}

}  // namespace

StateChart::StateChart(const std::vector<std::string>& xNames, std::vector<std::string> xUnits,
                       const multibody::MultibodyModel& tree, const ConstraintManifold* manifold)
    : manifold_(manifold) {
  std::map<std::string, Eigen::Index> indexOf;
  for (std::size_t i = 0; i < xNames.size(); ++i) indexOf[xNames[i]] = static_cast<Eigen::Index>(i);
  // The multibody coordinates' units and where the quaternions start, from the subhinges.
  std::map<Eigen::Index, bool> rotationAt;
  for (multibody::BodyIndex b = 1; b < tree.bodyCount(); ++b) {
    const multibody::Hinge& hinge = tree.hinge(b);
    const std::string base = "multibody.bodies." + tree.bodyName(b);
    for (int k = 0; k < hinge.subhingeCount(); ++k) {
      const multibody::Subhinge& sub = hinge.subhinge(k);
      const bool hasQuaternion = sub.type == SubhingeType::Ball || sub.type == SubhingeType::Free ||
                                 sub.type == SubhingeType::FreeInertial;
      for (int j = 0; j < hinge.subhingeNq(k); ++j) {
        const auto found = indexOf.find(base + ".Q[" + std::to_string(sub.qOffset + j) + "]");
        if (found == indexOf.end()) continue;           // masked
        const bool position = hasQuaternion && j >= 4;  // FULL6DOF's p after q
        xUnits[static_cast<std::size_t>(found->second)] =
            position ? "m" : coordinateUnit(sub.type, false);
        if (hasQuaternion && j == 0) rotationAt[found->second] = true;
      }
      for (int j = 0; j < hinge.subhingeNu(k); ++j) {
        const auto found = indexOf.find(base + ".U[" + std::to_string(sub.uOffset + j) + "]");
        if (found == indexOf.end()) continue;
        const bool velocity = sub.type != SubhingeType::Ball && sub.type != SubhingeType::Pin &&
                              (sub.type == SubhingeType::Slider || j >= 3);
        xUnits[static_cast<std::size_t>(found->second)] = velocity ? "m/s" : "rad/s";
      }
    }
  }
  std::vector<bool> dependent(xNames.size(), false);
  if (manifold != nullptr) {
    for (Eigen::Index i : manifold->dependentX()) dependent[static_cast<std::size_t>(i)] = true;
  }
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(xNames.size());) {
    const auto u = static_cast<std::size_t>(i);
    if (dependent[u]) {
      ++i;
    } else if (rotationAt.count(i) != 0) {
      coordinates_.push_back({i, true});
      // "multibody.bodies.b.Q[k]" -> "multibody.bodies.b.rotation[j]"
      const std::string body = xNames[u].substr(0, xNames[u].rfind(".Q["));
      for (int j = 0; j < 3; ++j) {
        ofTangent_.push_back(coordinates_.size() - 1);
        names_.push_back(body + ".rotation[" + std::to_string(j) + "]");
        units_.emplace_back("rad");
      }
      i += 4;
    } else {
      coordinates_.push_back({i, false});
      ofTangent_.push_back(coordinates_.size() - 1);
      names_.push_back(xNames[u]);
      units_.push_back(xUnits[u]);
      ++i;
    }
  }
}

void StateChart::retract(const Eigen::VectorXd& x0, const Eigen::VectorXd& delta,
                         Eigen::VectorXd& x) const {
  x = x0;
  Eigen::Index d = 0;
  for (const Coordinate& c : coordinates_) {
    if (c.rotation) {
      store(quaternionAt(x0, c.x) * exponential(delta.segment<3>(d)), x, c.x);
      d += 3;
    } else {
      x[c.x] += delta[d++];
    }
  }
  if (manifold_ != nullptr) manifold_->complete(x);
}

void StateChart::local(const Eigen::VectorXd& x0, const Eigen::VectorXd& x,
                       Eigen::VectorXd& delta) const {
  delta.resize(size());
  Eigen::Index d = 0;
  for (const Coordinate& c : coordinates_) {
    if (c.rotation) {
      delta.segment<3>(d) = logarithm(quaternionAt(x0, c.x).conjugate() * quaternionAt(x, c.x));
      d += 3;
    } else {
      delta[d++] = x[c.x] - x0[c.x];
    }
  }
}

void StateChart::tangentRate(const Eigen::VectorXd& x0, const Eigen::VectorXd& x,
                             const Eigen::VectorXd& xdot, Eigen::Ref<Eigen::VectorXd> rate) const {
  Eigen::Index d = 0;
  for (const Coordinate& c : coordinates_) {
    if (!c.rotation) {
      rate[d++] = xdot[c.x];
      continue;
    }
    const Eigen::Quaterniond q = quaternionAt(x, c.x);
    const Eigen::Quaterniond qdot = quaternionAt(xdot, c.x);
    const Eigen::Vector3d omega = 2.0 * (q.conjugate() * qdot).vec() / q.squaredNorm();
    const Eigen::Vector3d phi = logarithm(quaternionAt(x0, c.x).conjugate() * q);
    rate.segment<3>(d) = inverseRightJacobian(phi) * omega;
    d += 3;
  }
}

}  // namespace hopsim
