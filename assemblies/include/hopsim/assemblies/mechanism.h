#pragma once
/// @file
/// Mechanism: what the Chrono MBS and MBSE planar front ends read from their files, in SI units
/// and world coordinates, before it is lowered into bodies, hinges, constraints, models and
/// signals (mechanism_lowering.h). Every item keeps the location of its entry so that the
/// lowering can name the file, line and column of what it rejects.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/models/contact_material.h"
#include "hopsim/signals/error.h"

namespace hopsim::mechanism {

using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::Vector3;

/// A function of time as the motor and load models take it (models/time_function.h): its type
/// name and coefficients, and Chrono's `repeat` (empty, or {start, width, shift}).
///
/// | type | coefficients |
/// |---|---|
/// | CONSTANT | [value] |
/// | POLYNOMIAL | [a0, a1, ...] (at least one) |
/// | SINE | [amplitude, frequency (Hz), phase (rad), shift] |
/// | RAMP | [slope, intercept] |
/// | DATA | [t0, y0, t1, y1, ...] (t strictly increasing) |
/// | CONTROLLER | [] (the value comes from a signal) |
struct Function {
  std::string type{"CONSTANT"};
  std::vector<double> coefficients{0.0};
  std::vector<double> repeat;  ///< {} or {start, width, shift} (s)
  SourceLocation where;

  bool isController() const { return type == "CONTROLLER"; }
  /// f(t) = value.
  static Function constant(double value) { return {"CONSTANT", {value}, {}, {}}; }
};

/// A contact material of a body (Chrono's `contact.materials`; its name is the body's own).
struct ContactMaterial {
  std::string name;
  models::ContactMaterial properties;
  SourceLocation where;
};

/// The geometry of a shape of a body, posed in the body's reference frame; cylinders and
/// capsules along the shape frame's Z. HULL and MESH keep their OBJ file (as written); CAPSULE
/// and HALFSPACE (the ground) come from native scenarios only.
struct ShapeGeometry {
  enum class Type { Sphere, Box, Cylinder, Hull, Mesh, Capsule, HalfSpace } type{Type::Sphere};
  RigidTransform X_RS;                  ///< shape frame in the reference frame
  double radius{0.0};                   ///< SPHERE, CYLINDER, CAPSULE (m)
  Vector3 dimensions{Vector3::Zero()};  ///< BOX: full edge lengths (m)
  double length{0.0};  ///< CYLINDER: full length; CAPSULE: between its caps' centres (m)
  std::string file;    ///< HULL, MESH: the OBJ file, as written
  double scale{1.0};   ///< MESH
  SourceLocation where;
};

/// A collision shape of a body (Chrono's `contact.shapes`).
struct ContactShape : ShapeGeometry {
  std::string material;       ///< a material of the same body
  double contactRadius{0.0};  ///< MESH (m)
};

/// A visualization shape of a body (Chrono's `visualization.shapes`, or its `model_file` as a
/// MESH at the reference frame): drawn by viewers, no effect on the physics.
struct VisualShape : ShapeGeometry {
  Vector3 color{0.75, 0.75, 0.75};  ///< diffuse RGB in [0, 1] (Chrono's default grey)
};

/// A body. Its reference frame is X_WR; its centre of mass frame is X_WR * X_RC; the inertia
/// is about the centre of mass, in the centre-of-mass frame's axes (the usual positive-definite
/// tensor: products are -∫xy dm etc.).
struct Body {
  std::string name;
  bool fixed{false};
  double mass{0.0};                       ///< kg (ignored for a fixed body)
  RigidTransform X_WR;                    ///< reference frame in the world at t = 0
  RigidTransform X_RC;                    ///< centre-of-mass frame in the reference frame
  Matrix3 inertia{Matrix3::Zero()};       ///< kg m^2, about the COM, in COM axes
  Vector3 v_WC_W{Vector3::Zero()};        ///< initial COM velocity, world axes (m/s)
  Vector3 w_WC_C{Vector3::Zero()};        ///< initial angular velocity, COM-frame axes (rad/s)
  InputNode visualization;                ///< as written (null when absent)
  std::vector<VisualShape> visualShapes;  ///< read from `visualization` (types checked)
  InputNode contact;                      ///< the `contact` entry as written (null when absent)
  std::vector<ContactMaterial> contactMaterials;
  std::vector<ContactShape> contactShapes;
  SourceLocation where;
};

/// The kinematic joint types of the Chrono spec.
enum class JointType { Lock, Spherical, Revolute, Prismatic, Universal, PointLine, PointPlane };

/// A bushing replacing a joint's constraint (Chrono's bushing_data): K = diag(Kl, Kl, Kl, Kr,
/// Kr, Kr) and D likewise, except that the joint's free rotations take the `DOF` rotational
/// values (already applied here: stiffness and damping are the six diagonal entries, in the
/// order [x, y, z, rx, ry, rz] of the joint frame).
struct Bushing {
  std::array<double, 6> stiffness{};  ///< N/m (translations), N m/rad (rotations)
  std::array<double, 6> damping{};    ///< N s/m, N m s/rad
};

/// A joint between body1 and body2. X_WF is the joint frame at t = 0, oriented as the type
/// asks (the Z-frame of the axis for REVOLUTE and PRISMATIC; X = a1, Z = a1 x a2 for UNIVERSAL;
/// the world axes for LOCK and SPHERICAL; a Z-frame of the line or plane normal for POINT_LINE
/// (line along X) and POINT_PLANE (normal along Z)). Chrono's markers: marker 1 on body1 and
/// marker 2 on body2 both coincide with F at t = 0; the joint restricts marker 1 relative to
/// marker 2.
struct Joint {
  std::string name;
  JointType type{JointType::Lock};
  std::string body1;
  std::string body2;
  RigidTransform X_WF;
  std::optional<Bushing> bushing;  ///< when set, a compliant force replaces the constraint
  SourceLocation where;
};

/// The extra constraint types of the Chrono spec.
enum class ConstraintType { Distance, RevoluteSpherical, RevoluteTranslational };

/// A constraint between body1 and body2. Points are world points at t = 0.
/// - DISTANCE: |p2 - p1| = distance (the initial distance unless given).
/// - REVOLUTE-SPHERICAL: |p2 - p1| = distance and (p2 - p1) · axis = 0, axis fixed on body1
///   (Chrono's ChLinkRevoluteSpherical; the revolute is on body1 at point1, the spherical on
///   body2 at point2).
/// - REVOLUTE-TRANSLATIONAL: Chrono's ChLinkRevoluteTranslational: revolute on body1 at point1
///   about `axis`, translational on body2 at point2 along the direction `axis2` (in the world,
///   at t = 0) perpendicular to `axis`; four equations.
struct Constraint {
  std::string name;
  ConstraintType type{ConstraintType::Distance};
  std::string body1;
  std::string body2;
  Vector3 point1{Vector3::Zero()};
  Vector3 point2{Vector3::Zero()};
  std::optional<double> distance;   ///< m; the initial |p2 - p1| when absent
  Vector3 axis{Vector3::UnitZ()};   ///< unit, world, at t = 0 (the two composite types)
  Vector3 axis2{Vector3::UnitX()};  ///< unit, world (REVOLUTE-TRANSLATIONAL's sliding direction)
  SourceLocation where;
};

/// A piecewise-linear table y(x), x strictly increasing (clamped outside its range).
struct Curve {
  std::vector<double> x;
  std::vector<double> y;
};

/// The force laws of a TSDA (Chrono's ChLinkTSDA functors), as the front end resolved them
/// from the keys given (the lower row of the semantics table wins).
enum class TsdaLaw {
  Linear,       ///< F = P - k (L - L0) - c L̇ + S
  Damper,       ///< F = -c L̇
  Degressive,   ///< F = -c L̇ / (1 + de L̇) for L̇ >= 0, else -c L̇ / (1 - dc L̇)
  Curves,       ///< F = P - Kt(L - L0) - Ct(L̇) + S (a missing curve is zero)
  DamperCurve,  ///< F = -Ct(L̇)
  Map,          ///< F = P - M(L, L̇), bilinear with linear extrapolation
};

/// How viewers draw a TSDA (Chrono's `visualization`): a coil of `turns` turns or a segment;
/// zero radius and turns leave the size to the viewer.
struct TsdaVisualization {
  bool spring{false};  ///< SPRING: a coil; SEGMENT: a straight segment
  double radius{0.0};  ///< m (0: the viewer's choice)
  int turns{0};        ///< coil turns (0: the viewer's choice)
  Vector3 color{0.75, 0.75, 0.75};
};

/// A translational spring-damper-actuator between point1 on body1 and point2 on body2 (world
/// points at t = 0, then fixed in their bodies). F > 0 pushes the bodies apart.
struct Tsda {
  std::string name;
  std::string body1;
  std::string body2;
  Vector3 point1{Vector3::Zero()};
  Vector3 point2{Vector3::Zero()};
  TsdaLaw law{TsdaLaw::Linear};
  double stiffness{0.0};   ///< k, N/m
  double damping{0.0};     ///< c, N s/m
  double freeLength{0.0};  ///< L0, m
  double preload{0.0};     ///< P, N
  double degressivityCompression{0.0};
  double degressivityExpansion{0.0};
  Curve springCurve;                                  ///< Kt(L - L0), N
  Curve dampingCurve;                                 ///< Ct(L̇), N
  std::vector<double> mapLengths;                     ///< the map's columns (m), ascending
  std::vector<double> mapSpeeds;                      ///< the map's rows (m/s), ascending
  std::vector<std::vector<double>> mapForces;         ///< [row][column], N
  std::optional<std::array<double, 2>> lengthLimits;  ///< {min, max} for the stop force S
  std::optional<TsdaVisualization> visualization;     ///< absent: not drawn by Chrono
  SourceLocation where;
};

/// The torque laws of an RSDA.
enum class RsdaLaw {
  Linear,       ///< T = P - k (θ - θ0) - c θ̇
  Damper,       ///< T = -c θ̇
  Curves,       ///< T = P - Kt(θ - θ0) - Ct(θ̇)
  DamperCurve,  ///< T = -Ct(θ̇)
};

/// A rotational spring-damper-actuator between body1 and body2 about the Z axis of X_WF (the
/// X-then-Ry frame of `axis` at `location`). θ is body2 relative to body1, 0 at t = 0; +T Z
/// acts on body2 and -T Z on body1.
struct Rsda {
  std::string name;
  std::string body1;
  std::string body2;
  RigidTransform X_WF;
  RsdaLaw law{RsdaLaw::Linear};
  double stiffness{0.0};  ///< N m/rad
  double damping{0.0};    ///< N m s/rad
  double freeAngle{0.0};  ///< θ0, rad
  double preload{0.0};    ///< N m
  Curve springCurve;      ///< Kt(θ - θ0)
  Curve dampingCurve;     ///< Ct(θ̇)
  SourceLocation where;
};

enum class MotorKind { Rotation, Linear };
enum class Actuation { Position, Speed, Force };
/// The constraints a motor adds besides its drive: spindle (ROTATION) or guide (LINEAR).
/// Rotation: Revolute (x y z rx ry), Cylindrical (x y rx ry), Free. Linear: Prismatic
/// (x y rx ry rz), Spherical (x y: point on line), Free.
enum class MotorSupport { Revolute, Cylindrical, Prismatic, Spherical, Free };

/// A motor: drives body1 relative to body2 along or about the Z axis of X_WF (the X-then-Ry
/// frame of `axis` at `location`; frame 1 on body1 and frame 2 on body2 coincide with it at
/// t = 0). The driven angle or offset is 0 at t = 0.
struct Motor {
  std::string name;
  MotorKind kind{MotorKind::Rotation};
  Actuation actuation{Actuation::Force};
  MotorSupport support{MotorSupport::Revolute};
  std::string body1;
  std::string body2;
  RigidTransform X_WF;
  Function function;
  SourceLocation where;
};

/// A force or torque on a body (Chrono's body_loads and load_controllers). "Local" means the
/// centre-of-mass frame. A FORCE acts at `point` (from the COM in COM axes when localPoint,
/// else a world point fixed in the world); the value is load * modulation(t), or for a
/// controlled load the 3-vector of signal `controllers.<name>`.
struct BodyLoad {
  std::string name;
  bool torque{false};  ///< TORQUE (true) or FORCE (false)
  std::string body;
  Vector3 load{Vector3::Zero()};  ///< N or N m
  bool localLoad{true};
  Vector3 point{Vector3::Zero()};  ///< m
  bool localPoint{true};
  Function modulation{Function::constant(1.0)};
  bool controlled{false};  ///< a load controller: the load comes from a signal
  SourceLocation where;
};

/// A point whose world position is logged as `points.<label>.position.{x,y}` (MBSE points),
/// fixed on `body` at the world position `point` at t = 0 (on the ground when body is empty).
struct OutputPoint {
  std::string label;
  std::string body;
  Vector3 point{Vector3::Zero()};
};

/// An angle logged as `relative_coordinates.<label>.angle` (MBSE's RelativeAngleAbsoluteDOF,
/// a RelativeAngle model): the counter-clockwise angle (rad, unwrapped, starting at `initial`)
/// from world +X of the vector from output point `from` to output point `to` (labels of
/// `outputPoints`). It adds no physics.
struct OutputAngle {
  std::string label;
  std::string from;
  std::string to;
  double initial{0.0};  ///< rad, atan2 of the projected points at t = 0
  SourceLocation where;
};

/// Everything a model file describes.
struct Mechanism {
  /// The index of the body called `name` in `bodies`, or -1 when there is none.
  int bodyIndex(std::string_view bodyName) const {
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      if (bodies[b].name == bodyName) return static_cast<int>(b);
    }
    return -1;
  }
  /// The body called `name` (items name existing bodies: the readers check it).
  /// @throws InputError when there is none.
  const Body& body(std::string_view bodyName) const {
    const int b = bodyIndex(bodyName);
    if (b < 0)
      throw InputError("mechanism '" + name + "' has no body '" + std::string(bodyName) + "'");
    return bodies[static_cast<std::size_t>(b)];
  }

  std::string name{"model"};
  std::vector<Body> bodies;
  std::vector<Joint> joints;
  std::vector<Constraint> constraints;
  std::vector<Tsda> tsdas;
  std::vector<Rsda> rsdas;
  std::vector<Motor> motors;
  std::vector<BodyLoad> loads;
  std::vector<OutputPoint> outputPoints;
  std::vector<OutputAngle> outputAngles;
  /// The gravity the file's tool uses when nothing else sets it (m/s^2, world).
  Vector3 defaultGravity{0.0, 0.0, -9.8};
  /// Warnings the reader issued, each "file:line:col: message".
  std::vector<std::string> warnings;
  /// The file read.
  std::string file;
  /// The directory mesh, hull and model_file names are relative to (Chrono's `data_path`);
  /// empty: the working directory.
  std::string dataRoot;
};

}  // namespace hopsim::mechanism
