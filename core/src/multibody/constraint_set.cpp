#include "hopsim/core/multibody/constraint_set.h"

#include <cmath>
#include <string>

#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"

namespace hopsim::multibody {
namespace {

using Row = ConstraintRow;

std::string context(std::string_view where, std::string_view name) {
  return "ConstraintSet::" + std::string(where) + ": constraint \"" + std::string(name) + "\"";
}

std::string format(const Vector3& v) {
  return "(" + std::to_string(v.x()) + ", " + std::to_string(v.y()) + ", " + std::to_string(v.z()) +
         ")";
}

void checkPose(const RigidTransform& X, const std::string& what) {
  if (!X.rotation().allFinite() || !X.translation().allFinite() ||
      !spatial::isRotation(X.rotation(), 1e-9)) {
    throw InputError(what +
                     " is not a rigid transform (expected a finite rotation matrix and a "
                     "finite translation)");
  }
}

void checkPoint(const Vector3& p, const std::string& what) {
  if (!p.allFinite()) throw InputError(what + " is " + format(p) + " (expected finite)");
}

Vector3 unitAxis(const Vector3& v, const std::string& what) {
  const double n = v.norm();
  if (!v.allFinite() || !(n > 0.0)) {
    throw InputError(what + " is " + format(v) + " (expected a finite non-zero vector)");
  }
  return v / n;
}

// Two unit vectors t1, t2 with (t1, t2, n) right-handed and orthonormal.
std::pair<Vector3, Vector3> perpendicularPair(const Vector3& n) {
  Eigen::Index least = 0;
  n.cwiseAbs().minCoeff(&least);
  const Vector3 t1 = n.cross(Vector3::Unit(least)).normalized();
  return {t1, n.cross(t1)};
}

void checkPositiveLength(double length, const std::string& what) {
  if (!std::isfinite(length) || !(length > 0.0)) {
    throw InputError(what + ": length is " + std::to_string(length) +
                     " m (expected finite and positive)");
  }
}

Row distance(double length) {
  Row r;
  r.kind = Row::Kind::Distance;
  r.offset = length;
  return r;
}

Row separation(const Vector3& a_A) {
  Row r;
  r.kind = Row::Kind::DirectionSeparation;
  r.a = a_A;
  return r;
}

Row directions(const Vector3& a_A, const Vector3& b_B, double offset = 0.0) {
  Row r;
  r.kind = Row::Kind::DirectionDirection;
  r.a = a_A;
  r.b = b_B;
  r.offset = offset;
  return r;
}

}  // namespace

std::string_view toString(ConstraintType type) {
  switch (type) {
    case ConstraintType::CutJoint:
      return "CUT_JOINT";
    case ConstraintType::Distance:
      return "DISTANCE";
    case ConstraintType::RevoluteSpherical:
      return "REVOLUTE-SPHERICAL";
    case ConstraintType::RevoluteTranslational:
      return "REVOLUTE-TRANSLATIONAL";
    case ConstraintType::PointOnLine:
      return "POINT_LINE";
    case ConstraintType::PointOnPlane:
      return "POINT_PLANE";
  }
  return "?";
}

ConstraintSet::ConstraintSet(const MultibodyModel& model) : bodyCount_(model.bodyCount()) {}

const Constraint& ConstraintSet::constraint(int i) const {
  if (i < 0 || i >= size()) {
    throw InputError("ConstraintSet::constraint: index " + std::to_string(i) +
                     " does not exist (the set has " + std::to_string(size()) + " constraints)");
  }
  return constraints_[static_cast<std::size_t>(i)];
}

int ConstraintSet::index(std::string_view name) const {
  const auto it = byName_.find(name);
  if (it == byName_.end()) {
    throw InputError("ConstraintSet::index: no constraint is called \"" + std::string(name) + "\"");
  }
  return it->second;
}

// Validates what every constraint has and appends it; finish() commits it once complete, so a
// throw in between leaves the set unchanged.
Constraint& ConstraintSet::begin(std::string_view where, std::string_view name, ConstraintType type,
                                 BodyIndex bodyA, BodyIndex bodyB) {
  const std::string what = context(where, name);
  if (name.empty()) {
    throw InputError("ConstraintSet::" + std::string(where) +
                     ": the constraint name is empty (expected a unique non-empty name)");
  }
  if (byName_.count(name) != 0) {
    throw InputError(what + ": the name is taken (expected a name unique in the set)");
  }
  for (const auto& [label, body] : {std::pair{"body A", bodyA}, std::pair{"body B", bodyB}}) {
    if (body < 0 || body >= bodyCount_) {
      throw InputError(what + ": " + label + " index " + std::to_string(body) +
                       " does not exist (expected 0.." + std::to_string(bodyCount_ - 1) + ")");
    }
  }
  if (bodyA == bodyB) {
    throw InputError(what + ": body A and body B are both " + std::to_string(bodyA) +
                     " (expected two different bodies)");
  }
  pending_ = Constraint();
  pending_.name = std::string(name);
  pending_.type = type;
  pending_.bodyA = bodyA;
  pending_.bodyB = bodyB;
  return pending_;
}

int ConstraintSet::finish() {
  pending_.rowStart = rowCount_;
  rowCount_ += pending_.rowCount;
  const int i = size();
  byName_.emplace(pending_.name, i);
  constraints_.push_back(pending_);
  return i;
}

int ConstraintSet::addCutJoint(std::string_view name, const Hinge& hinge, BodyIndex bodyA,
                               const RigidTransform& X_AF, BodyIndex bodyB,
                               const RigidTransform& X_BM) {
  Constraint& c = begin("addCutJoint", name, ConstraintType::CutJoint, bodyA, bodyB);
  const std::string what = context("addCutJoint", name);
  checkPose(X_AF, what + ": frame X_AF");
  checkPose(X_BM, what + ": frame X_BM");
  c.hinge = hinge;
  c.X_AF = X_AF;
  c.X_BM = X_BM;
  c.p_AoP_A = X_AF.translation();
  c.p_BoQ_B = X_BM.translation();

  // Directions fixed in F (on A) and in M (on B), expressed in their body frames.
  const Matrix3& R_AF = X_AF.rotation();
  const Matrix3& R_BM = X_BM.rotation();
  const auto add = [&c](const Row& row) { c.rows[static_cast<std::size_t>(c.rowCount++)] = row; };
  const auto translationAll = [&] {
    for (int k = 0; k < 3; ++k) add(separation(R_AF.col(k)));
  };
  const auto translationPerpendicular = [&](const Vector3& n) {
    const auto [t1, t2] = perpendicularPair(n);
    add(separation(R_AF * t1));
    add(separation(R_AF * t2));
  };
  // R = 1 near the identity: each pair of F and M axes stays perpendicular.
  const auto rotationAll = [&] {
    add(directions(R_AF.col(1), R_BM.col(2)));
    add(directions(R_AF.col(2), R_BM.col(0)));
    add(directions(R_AF.col(0), R_BM.col(1)));
  };
  // R n = n near the identity: n on M stays perpendicular to F's t1 and t2.
  const auto rotationAbout = [&](const Vector3& n) {
    const auto [t1, t2] = perpendicularPair(n);
    add(directions(R_AF * t1, R_BM * n));
    add(directions(R_AF * t2, R_BM * n));
  };

  switch (hinge.type()) {
    case HingeType::Locked:
      translationAll();
      rotationAll();
      break;
    case HingeType::Pin:
      translationAll();
      rotationAbout(hinge.subhinge(0).axis);
      break;
    case HingeType::Slider:
      translationPerpendicular(hinge.subhinge(0).axis);
      rotationAll();
      break;
    case HingeType::Cylindrical:
      translationPerpendicular(hinge.subhinge(0).axis);
      rotationAbout(hinge.subhinge(0).axis);
      break;
    case HingeType::Ujoint: {
      // R = R(n1, θ1) R(n2, θ2) exactly when R n2 stays on the cone of axis n1 through n2.
      translationAll();
      const Vector3& n1 = hinge.subhinge(0).axis;
      const Vector3& n2 = hinge.subhinge(1).axis;
      add(directions(R_AF * n1, R_BM * n2, n1.dot(n2)));
      break;
    }
    case HingeType::Gimbal:
    case HingeType::Ball:
      translationAll();
      break;
    case HingeType::Planar:
      add(separation(R_AF * hinge.subhinge(0).axis.cross(hinge.subhinge(1).axis).normalized()));
      rotationAll();
      break;
    case HingeType::Translational:
      rotationAll();
      break;
    case HingeType::Full6Dof:
    case HingeType::Full6DofInertial:
      break;
  }
  return finish();
}

int ConstraintSet::addDistance(std::string_view name, BodyIndex bodyA, const Vector3& p_AoP_A,
                               BodyIndex bodyB, const Vector3& p_BoQ_B, double length) {
  Constraint& c = begin("addDistance", name, ConstraintType::Distance, bodyA, bodyB);
  const std::string what = context("addDistance", name);
  checkPoint(p_AoP_A, what + ": point p_AoP_A");
  checkPoint(p_BoQ_B, what + ": point p_BoQ_B");
  checkPositiveLength(length, what);
  c.p_AoP_A = p_AoP_A;
  c.p_BoQ_B = p_BoQ_B;
  c.length = length;
  c.rows[0] = distance(length);
  c.rowCount = 1;
  return finish();
}

int ConstraintSet::addRevoluteSpherical(std::string_view name, BodyIndex bodyA,
                                        const Vector3& p_AoP_A, const Vector3& z_A, BodyIndex bodyB,
                                        const Vector3& p_BoQ_B, double length) {
  Constraint& c =
      begin("addRevoluteSpherical", name, ConstraintType::RevoluteSpherical, bodyA, bodyB);
  const std::string what = context("addRevoluteSpherical", name);
  checkPoint(p_AoP_A, what + ": point p_AoP_A");
  checkPoint(p_BoQ_B, what + ": point p_BoQ_B");
  const Vector3 z = unitAxis(z_A, what + ": revolute axis z_A");
  checkPositiveLength(length, what);
  c.p_AoP_A = p_AoP_A;
  c.p_BoQ_B = p_BoQ_B;
  c.length = length;
  c.rows[0] = distance(length);
  c.rows[1] = separation(z);
  c.rowCount = 2;
  return finish();
}

int ConstraintSet::addRevoluteTranslational(std::string_view name, BodyIndex bodyA,
                                            const Vector3& p_AoP_A, const Vector3& z_A,
                                            BodyIndex bodyB, const Vector3& p_BoQ_B,
                                            const Vector3& x_B, const Vector3& y_B, double length) {
  Constraint& c =
      begin("addRevoluteTranslational", name, ConstraintType::RevoluteTranslational, bodyA, bodyB);
  const std::string what = context("addRevoluteTranslational", name);
  checkPoint(p_AoP_A, what + ": point p_AoP_A");
  checkPoint(p_BoQ_B, what + ": point p_BoQ_B");
  const Vector3 z = unitAxis(z_A, what + ": revolute axis z_A");
  const Vector3 x = unitAxis(x_B, what + ": translational direction x_B");
  const Vector3 y = unitAxis(y_B, what + ": translational direction y_B");
  if (std::abs(x.dot(y)) > 1e-9) {
    throw InputError(what + ": x_B " + format(x_B) + " and y_B " + format(y_B) +
                     " are not perpendicular (expected |x̂·ŷ| <= 1e-9)");
  }
  if (!std::isfinite(length)) {
    throw InputError(what + ": length is " + std::to_string(length) + " m (expected finite)");
  }
  c.p_AoP_A = p_AoP_A;
  c.p_BoQ_B = p_BoQ_B;
  c.length = length;
  c.rows[0] = directions(z, x);
  c.rows[1] = directions(z, y);
  c.rows[2] = separation(z);
  Row along = separation(x);
  along.directionOnB = true;
  along.offset = length;
  c.rows[3] = along;
  c.rowCount = 4;
  return finish();
}

int ConstraintSet::addPointOnLine(std::string_view name, BodyIndex bodyA, const Vector3& p_AoP_A,
                                  const Vector3& n_A, BodyIndex bodyB, const Vector3& p_BoQ_B) {
  Constraint& c = begin("addPointOnLine", name, ConstraintType::PointOnLine, bodyA, bodyB);
  const std::string what = context("addPointOnLine", name);
  checkPoint(p_AoP_A, what + ": point p_AoP_A");
  checkPoint(p_BoQ_B, what + ": point p_BoQ_B");
  const auto [t1, t2] = perpendicularPair(unitAxis(n_A, what + ": line direction n_A"));
  c.p_AoP_A = p_AoP_A;
  c.p_BoQ_B = p_BoQ_B;
  c.rows[0] = separation(t1);
  c.rows[1] = separation(t2);
  c.rowCount = 2;
  return finish();
}

int ConstraintSet::addPointOnPlane(std::string_view name, BodyIndex bodyA, const Vector3& p_AoP_A,
                                   const Vector3& n_A, BodyIndex bodyB, const Vector3& p_BoQ_B) {
  Constraint& c = begin("addPointOnPlane", name, ConstraintType::PointOnPlane, bodyA, bodyB);
  const std::string what = context("addPointOnPlane", name);
  checkPoint(p_AoP_A, what + ": point p_AoP_A");
  checkPoint(p_BoQ_B, what + ": point p_BoQ_B");
  c.p_AoP_A = p_AoP_A;
  c.p_BoQ_B = p_BoQ_B;
  c.rows[0] = separation(unitAxis(n_A, what + ": plane normal n_A"));
  c.rowCount = 1;
  return finish();
}

}  // namespace hopsim::multibody
