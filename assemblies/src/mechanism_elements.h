#pragma once
// The lowering of a mechanism element by element: one function per element kind creates the
// element's signals, nodes, model and ties together (lowered_element.h), and one per joint and
// constraint kind adds its constraint. MechanismBuilder (mechanism_lowering.h) runs them in the
// assembly's stages.

#include <optional>
#include <string>
#include <vector>

#include "hopsim/assemblies/mechanism_lowering.h"
#include "lowered_element.h"

namespace hopsim::mechanism::detail {

/// What every element's lowering reads: the mechanism, where it goes, and its plan.
struct LoweringContext {
  const Mechanism& mechanism;
  const Placement& placement;
  const LoweringPlan& plan;

  /// The multibody name of body `name`.
  std::string bodyName(const std::string& name) const { return placement.prefix + name; }
  /// A point of the file's world in hopsim's world.
  Vector3 place(const Vector3& p) const { return placement.X_WP * p; }
  /// A frame of the file's world in hopsim's world.
  RigidTransform place(const RigidTransform& X) const { return placement.X_WP * X; }
  /// Whether both bodies are fixed (both the world): an item between them acts on nothing.
  bool grounded(const std::string& body1, const std::string& body2) const;
  /// The warning for `what` at `where` joining two fixed bodies, when it does.
  std::optional<std::string> groundedWarning(const std::string& body1, const std::string& body2,
                                             const std::string& what,
                                             const SourceLocation& where) const;
};

/// The signal name prefix of a tree hinge's coordinates: joints.<name> or motors.<name>.
std::string hingeSignalBase(const Mechanism& m, const TreeHinge& h);

/// The hinge a joint stands for, with body1 as child (childIsBody1) or as parent, in the joint
/// frame. @throws InputError for POINT_LINE and POINT_PLANE, which are constraints only.
multibody::Hinge jointHinge(JointType type, bool childIsBody1);
/// The hinge a motor's spindle or guide stands for (REVOLUTE, CYLINDRICAL, PRISMATIC).
/// @throws InputError for SPHERICAL and FREE, which are no hinge.
multibody::Hinge motorHinge(const Motor& motor);

// ---- elements that become models (in the order the builder adds them) -------------------------

/// A moving body: `bodies.<name>.{position,orientation,velocity,angular_velocity}` from a
/// BodyStateSensor at its reference frame.
LoweredElement lowerBody(const LoweringContext& c, std::size_t body);
/// A tree hinge with coordinates: `joints.<name>.{q,u}` (or `motors.<name>.*`) from a
/// HingeEncoder.
LoweredElement lowerHingeEncoder(const LoweringContext& c, const TreeHinge& hinge);
/// An MBSE output point: `points.<label>.*` from a BodyStateSensor at the point.
LoweredElement lowerOutputPoint(const LoweringContext& c, const OutputPoint& point);
/// An MBSE relative angle: `relative_coordinates.<label>.angle` from a RelativeAngle.
LoweredElement lowerOutputAngle(const OutputAngle& angle);
/// A motor on the tree: a ChronoMotor on its hinge, its setpoint and `motors.<name>.force`; a
/// POSITION or SPEED motor masks the coordinate it prescribes.
LoweredElement lowerTreeMotor(const LoweringContext& c, const TreeHinge& hinge);
/// A motor off the tree: a ChronoForceMotor between two nodes and its setpoint (its support is
/// a cut joint, addMotorSupport). @throws InputError for a POSITION or SPEED motor.
LoweredElement lowerCutMotor(const LoweringContext& c, const Motor& motor);
/// A TSDA: a Tsda model between two nodes, `tsdas.<name>.{length,speed,force}`.
LoweredElement lowerTsda(const LoweringContext& c, const Tsda& tsda);
/// An RSDA: an Rsda model between two frames, `rsdas.<name>.{angle,rate,torque}`.
LoweredElement lowerRsda(const LoweringContext& c, const Rsda& rsda);
/// A joint replaced by a bushing: a Bushing model, `bushings.<name>.{deflection,wrench}`.
LoweredElement lowerBushing(const LoweringContext& c, const Joint& joint);
/// A body load or load controller: a BodyLoad at the body's centre of mass and its command.
LoweredElement lowerBodyLoad(const LoweringContext& c, const BodyLoad& load);

// ---- elements that become constraints ----------------------------------------------------------

/// Adds the cut-joint constraints of one mechanism to a multibody system, one function per
/// kind; each names what it adds with the placement's prefix and locates its errors at the
/// element.
class ConstraintLowering {
 public:
  ConstraintLowering(const LoweringContext& c, MultibodySystem& system);

  /// A kinematic joint that closes a loop (LOCK, SPHERICAL, REVOLUTE, PRISMATIC, UNIVERSAL as a
  /// cut joint; POINT_LINE and POINT_PLANE as point constraints).
  void addCutJoint(const Joint& joint) const;
  /// The spindle or guide of a motor off the tree.
  void addMotorSupport(const Motor& motor) const;
  /// DISTANCE, REVOLUTE-SPHERICAL or REVOLUTE-TRANSLATIONAL.
  void addConstraint(const Constraint& constraint) const;

 private:
  /// A body's multibody index and its pose in the world at t = 0 (the world for fixed ones).
  std::pair<MultibodySystem::BodyIndex, RigidTransform> frameOf(const std::string& body) const;
  /// A cut joint restricting marker 1 (on body1) relative to marker 2 (body2), both at X_WF.
  void cutJoint(const std::string& name, const multibody::Hinge& hinge, const std::string& body1,
                const std::string& body2, const RigidTransform& X_WF) const;
  /// Marker 1's origin (on body1, at X_WF's origin) stays on the line through it along axis_W
  /// (world, at t = 0), fixed on body2.
  void pointOnLine(const std::string& name, const std::string& body1, const std::string& body2,
                   const RigidTransform& X_WF, const Vector3& axis_W) const;
  /// Marker 1's origin stays in the plane through it of normal normal_W, fixed on body2.
  void pointOnPlane(const std::string& name, const std::string& body1, const std::string& body2,
                    const RigidTransform& X_WF, const Vector3& normal_W) const;

  const LoweringContext& c_;
  MultibodySystem& system_;
};

}  // namespace hopsim::mechanism::detail
