// One function per joint and constraint kind that closes a loop: the constraints it adds.

#include "hopsim/core/multibody_system.h"
#include "hopsim/signals/error.h"
#include "mechanism_elements.h"

namespace hopsim::mechanism::detail {

namespace {

/// Runs `add`, locating its InputError at `where` and naming `what`.
template <class F>
void located(const SourceLocation& where, const std::string& what, F&& add) {
  try {
    add();
  } catch (const InputError& e) {
    throw InputError(locateMessage(where, what, e.what()));
  }
}

}  // namespace

ConstraintLowering::ConstraintLowering(const LoweringContext& c, MultibodySystem& system)
    : c_(c), system_(system) {}

std::pair<MultibodySystem::BodyIndex, RigidTransform> ConstraintLowering::frameOf(
    const std::string& name) const {
  const int b = c_.mechanism.bodyIndex(name);
  const Body& body = c_.mechanism.bodies[static_cast<std::size_t>(b)];
  if (body.fixed) return {0, RigidTransform()};
  return {system_.model().bodyIndex(c_.bodyName(body.name)),
          c_.plan.X_WB[static_cast<std::size_t>(b)]};
}

// A cut joint restricts marker 1 (body1) relative to marker 2 (body2): A = body2, B = body1.
void ConstraintLowering::cutJoint(const std::string& name, const multibody::Hinge& hinge,
                                  const std::string& body1, const std::string& body2,
                                  const RigidTransform& X_WF) const {
  const auto [a, X_WA] = frameOf(body2);
  const auto [b, X_WB] = frameOf(body1);
  system_.editConstraints().addCutJoint(c_.placement.prefix + name, hinge, a, X_WA.inverse() * X_WF,
                                        b, X_WB.inverse() * X_WF);
}

void ConstraintLowering::pointOnLine(const std::string& name, const std::string& body1,
                                     const std::string& body2, const RigidTransform& X_WF,
                                     const Vector3& axis_W) const {
  const auto [a, X_WA] = frameOf(body2);
  const auto [b, X_WB] = frameOf(body1);
  system_.editConstraints().addPointOnLine(
      c_.placement.prefix + name, a, X_WA.inverseApplyToPoint(X_WF.translation()),
      X_WA.rotation().transpose() * axis_W, b, X_WB.inverseApplyToPoint(X_WF.translation()));
}

void ConstraintLowering::pointOnPlane(const std::string& name, const std::string& body1,
                                      const std::string& body2, const RigidTransform& X_WF,
                                      const Vector3& normal_W) const {
  const auto [a, X_WA] = frameOf(body2);
  const auto [b, X_WB] = frameOf(body1);
  system_.editConstraints().addPointOnPlane(
      c_.placement.prefix + name, a, X_WA.inverseApplyToPoint(X_WF.translation()),
      X_WA.rotation().transpose() * normal_W, b, X_WB.inverseApplyToPoint(X_WF.translation()));
}

void ConstraintLowering::addCutJoint(const Joint& j) const {
  const RigidTransform X_WF = c_.place(j.X_WF);
  const std::string name = "joints." + j.name;
  located(j.where, "joint '" + j.name + "'", [&] {
    switch (j.type) {
      case JointType::PointLine:
        // Marker 1's origin (on body1) stays on marker 2's X line (body2).
        return pointOnLine(name, j.body1, j.body2, X_WF, X_WF.rotation().col(0));
      case JointType::PointPlane:
        // Marker 1's origin stays in marker 2's XY plane.
        return pointOnPlane(name, j.body1, j.body2, X_WF, X_WF.rotation().col(2));
      case JointType::Lock:
      case JointType::Spherical:
      case JointType::Revolute:
      case JointType::Prismatic:
      case JointType::Universal:
        // The hinge with body1 as its child: a cut joint moves marker 1 relative to marker 2.
        return cutJoint(name, jointHinge(j.type, true), j.body1, j.body2, X_WF);
    }
  });
}

void ConstraintLowering::addMotorSupport(const Motor& motor) const {
  const RigidTransform X_WF = c_.place(motor.X_WF);
  const std::string name = "motors." + motor.name;
  located(motor.where, "motor '" + motor.name + "'", [&] {
    switch (motor.support) {
      case MotorSupport::Revolute:
      case MotorSupport::Cylindrical:
      case MotorSupport::Prismatic:
        return cutJoint(name, motorHinge(motor), motor.body1, motor.body2, X_WF);
      case MotorSupport::Spherical:
        // Chrono's SPHERICAL guide keeps frame 1's origin on frame 2's Z line.
        return pointOnLine(name, motor.body1, motor.body2, X_WF, X_WF.rotation().col(2));
      case MotorSupport::Free:
        return;  // no support: the motor's force acts alone
    }
  });
}

void ConstraintLowering::addConstraint(const Constraint& c) const {
  const auto [a, X_WA] = frameOf(c.body1);
  const auto [b, X_WB] = frameOf(c.body2);
  const Vector3 p1 = c_.place(c.point1);
  const Vector3 p2 = c_.place(c.point2);
  const Vector3 axis = c_.placement.X_WP.rotation() * c.axis;
  const Vector3 p_A = X_WA.inverseApplyToPoint(p1);
  const Vector3 p_B = X_WB.inverseApplyToPoint(p2);
  const Matrix3 R_AW = X_WA.rotation().transpose();
  const Matrix3 R_BW = X_WB.rotation().transpose();
  const std::string name = c_.placement.prefix + "constraints." + c.name;
  located(c.where, "constraint '" + c.name + "'", [&] {
    multibody::ConstraintSet& set = system_.editConstraints();
    switch (c.type) {
      case ConstraintType::Distance:
        set.addDistance(name, a, p_A, b, p_B, c.distance.value_or((p2 - p1).norm()));
        return;
      case ConstraintType::RevoluteSpherical:
        set.addRevoluteSpherical(name, a, p_A, R_AW * axis, b, p_B,
                                 c.distance.value_or((p2 - p1).norm()));
        return;
      case ConstraintType::RevoluteTranslational: {
        const Vector3 zn = axis.normalized();
        const Vector3 slide = c_.placement.X_WP.rotation() * c.axis2;
        const Vector3 x = (slide - zn * zn.dot(slide)).normalized();
        const Vector3 y = zn.cross(x);
        set.addRevoluteTranslational(name, a, p_A, R_AW * zn, b, p_B, R_BW * x, R_BW * y,
                                     c.distance.value_or(x.dot(p2 - p1)));
        return;
      }
    }
  });
}

}  // namespace hopsim::mechanism::detail
