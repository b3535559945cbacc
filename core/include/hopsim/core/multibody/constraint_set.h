#pragma once
/// @file
/// ConstraintSet: closed loops and extra constraints on a tree, as scalar equations φ(Q) = 0
/// between a frame or point on body A and one on body B (docs/multibody.md, "Closed loops and
/// constraints").

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/multibody/hinge.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// The kinds of constraint a ConstraintSet holds.
enum class ConstraintType : std::uint8_t {
  /// A cut joint: frame M on B may move relative to frame F on A only as the hinge allows.
  CutJoint,
  /// DISTANCE: |p_Q - p_P| = length for a point P on A and a point Q on B (1 equation).
  Distance,
  /// REVOLUTE-SPHERICAL (Chrono's ChLinkRevoluteSpherical): |d| = length and z_A · d = 0, with
  /// d = p_Q - p_P (2 equations).
  RevoluteSpherical,
  /// REVOLUTE-TRANSLATIONAL (Chrono's ChLinkRevoluteTranslational): z_A · x_B = 0,
  /// z_A · y_B = 0, z_A · d = 0 and x_B · d = length (4 equations).
  RevoluteTranslational,
  /// POINT_LINE (Chrono's point-on-line joint): point Q on B stays on the line through P on A
  /// along the direction n_A: t1 · d = 0 and t2 · d = 0, t1 and t2 perpendicular to n_A and
  /// fixed on A (2 equations; rotations free).
  PointOnLine,
  /// POINT_PLANE (Chrono's point-on-plane joint): point Q on B stays in the plane through P on
  /// A with normal n_A: n_A · d = 0 (1 equation).
  PointOnPlane,
};

/// "CUT_JOINT", "DISTANCE", "REVOLUTE-SPHERICAL" or "REVOLUTE-TRANSLATIONAL".
std::string_view toString(ConstraintType type);

/// One scalar equation φ = 0 of a constraint, in one of three forms that cover every
/// constraint type. With P the constraint's point on A, Q its point on B and d = p_Q - p_P
/// (world positions):
/// - DirectionDirection: φ = a · b - offset, a a unit direction fixed on A, b one fixed on B;
/// - DirectionSeparation: φ = a · d - offset, a a unit direction fixed on A (or on B when
///   directionOnB);
/// - Distance: φ = |d| - offset.
/// The row's Jacobian is wᵀ (J_B(Q) - J_A(Q)), with J the frame Jacobians of the two bodies at
/// Q and w the spatial force (about Q, in W) the row's multiplier applies to B per unit λ.
struct ConstraintRow {
  enum class Kind : std::uint8_t { DirectionDirection, DirectionSeparation, Distance };
  Kind kind{Kind::DirectionSeparation};
  bool directionOnB{false};     ///< DirectionSeparation: a is fixed on B rather than on A
  Vector3 a{Vector3::UnitZ()};  ///< unit direction, in the body frame of the body it is on
  Vector3 b{Vector3::UnitZ()};  ///< DirectionDirection: unit direction on B, in B
  double offset{0.0};           ///< the value of a · b, a · d or |d| the equation imposes
};

/// One constraint of a ConstraintSet: its two bodies and points, and its rows.
struct Constraint {
  /// Most rows of one constraint (a LOCKED cut joint).
  static constexpr int kMaxRows = 6;

  std::string name;  ///< unique in its set
  ConstraintType type{ConstraintType::CutJoint};
  BodyIndex bodyA{kWorldBody};               ///< body A (may be the world)
  BodyIndex bodyB{kWorldBody};               ///< body B (may be the world)
  Hinge hinge;                               ///< CutJoint: the relative motion allowed
  RigidTransform X_AF;                       ///< CutJoint: frame F on A
  RigidTransform X_BM;                       ///< CutJoint: frame M on B
  Vector3 p_AoP_A{Vector3::Zero()};          ///< the point P on A (Fo for a cut joint), in A (m)
  Vector3 p_BoQ_B{Vector3::Zero()};          ///< the point Q on B (Mo for a cut joint), in B (m)
  double length{0.0};                        ///< the imposed distance (m) of the last three types
  int rowStart{0};                           ///< its first row in the set's φ, G, γ, λ
  int rowCount{0};                           ///< its number of equations (0..6)
  std::array<ConstraintRow, kMaxRows> rows;  ///< its equations, rowCount of them
};

/// A set of constraints on one MultibodyModel's bodies. Each is a number of scalar equations
/// φ(Q) = 0 (its rows), numbered in the order the constraints were added.
///
/// Cut joints (addCutJoint) restrict the motion of frame M fixed on B relative to frame F
/// fixed on A to what `hinge` allows when M coincides with F at the hinge's neutral
/// configuration; the equations use the hinge's axes in F (and in M, where they coincide at
/// neutral), with t1, t2 two unit vectors perpendicular to an axis n, d = p_Mo - p_Fo and
/// R = R_FM:
///
/// | hinge | translation rows | rotation rows | total |
/// |---|---|---|---|
/// | LOCKED | e_x·d, e_y·d, e_z·d (= 0) | e_y·R e_z, e_z·R e_x, e_x·R e_y | 6 |
/// | PIN(n) | e_x·d, e_y·d, e_z·d | t1·R n, t2·R n | 5 |
/// | SLIDER(n) | t1·d, t2·d | as LOCKED | 5 |
/// | CYLINDRICAL(n) | t1·d, t2·d | t1·R n, t2·R n | 4 |
/// | UJOINT(n1, n2) | e_x·d, e_y·d, e_z·d | n1·R n2 - n1·n2 (no twist about n1 × R n2) | 4 |
/// | GIMBAL, BALL | e_x·d, e_y·d, e_z·d | none | 3 |
/// | PLANAR(n1, n2) | (n1 × n2)/|n1 × n2| · d | as LOCKED | 4 |
/// | TRANSLATIONAL | none | as LOCKED | 3 |
/// | FULL6DOF, FULL6DOF_INERTIAL | none | none | 0 |
///
/// (e_x, e_y, e_z and the axes are F's, fixed on A; R n, R e_z, ... are M's, fixed on B.) Each
/// set of equations holds exactly on the hinge's reachable poses near the neutral one.
class ConstraintSet {
 public:
  /// An empty set for constraints on `model`'s bodies (its body count is kept for checks).
  explicit ConstraintSet(const MultibodyModel& model);

  /// Adds cut joint `name`: frame M (pose X_BM on body B) may move relative to frame F (pose
  /// X_AF on body A) only as `hinge` allows (the table above). Returns its index.
  /// @throws InputError if the name is empty or taken, a body does not exist, A == B or a pose
  /// is not a finite rigid transform.
  int addCutJoint(std::string_view name, const Hinge& hinge, BodyIndex bodyA,
                  const RigidTransform& X_AF, BodyIndex bodyB, const RigidTransform& X_BM);
  /// Adds DISTANCE `name`: point P (p_AoP_A on A) and point Q (p_BoQ_B on B) stay `length` (m)
  /// apart. @throws InputError as addCutJoint, for a non-finite point, or unless length is
  /// finite and positive.
  int addDistance(std::string_view name, BodyIndex bodyA, const Vector3& p_AoP_A, BodyIndex bodyB,
                  const Vector3& p_BoQ_B, double length);
  /// Adds REVOLUTE-SPHERICAL `name` (Chrono's ChLinkRevoluteSpherical): point Q on B keeps
  /// `length` (m) from point P on A and stays in the plane through P perpendicular to the
  /// revolute axis z_A (in A, normalized). @throws InputError as addDistance or for a zero or
  /// non-finite axis.
  int addRevoluteSpherical(std::string_view name, BodyIndex bodyA, const Vector3& p_AoP_A,
                           const Vector3& z_A, BodyIndex bodyB, const Vector3& p_BoQ_B,
                           double length);
  /// Adds REVOLUTE-TRANSLATIONAL `name` (Chrono's ChLinkRevoluteTranslational): the revolute
  /// axis z_A (on A, through P) stays perpendicular to the translational directions x_B and
  /// y_B (on B, through Q); d = p_Q - p_P stays perpendicular to z_A and its x_B component
  /// equals `length` (m, any sign). Axes are normalized. @throws InputError as addCutJoint,
  /// for a non-finite point or length, a zero or non-finite axis, or x_B not perpendicular to
  /// y_B (|x̂·ŷ| > 1e-9).
  int addRevoluteTranslational(std::string_view name, BodyIndex bodyA, const Vector3& p_AoP_A,
                               const Vector3& z_A, BodyIndex bodyB, const Vector3& p_BoQ_B,
                               const Vector3& x_B, const Vector3& y_B, double length);

  /// Adds POINT_LINE `name`: point Q (p_BoQ_B on B) stays on the line through P (p_AoP_A on A)
  /// along `n_A` (on A, normalized). @throws InputError as addCutJoint, for a non-finite point
  /// or a zero or non-finite direction.
  int addPointOnLine(std::string_view name, BodyIndex bodyA, const Vector3& p_AoP_A,
                     const Vector3& n_A, BodyIndex bodyB, const Vector3& p_BoQ_B);
  /// Adds POINT_PLANE `name`: point Q (p_BoQ_B on B) stays in the plane through P (p_AoP_A on
  /// A) with normal `n_A` (on A, normalized). @throws InputError as addPointOnLine.
  int addPointOnPlane(std::string_view name, BodyIndex bodyA, const Vector3& p_AoP_A,
                      const Vector3& n_A, BodyIndex bodyB, const Vector3& p_BoQ_B);

  /// Number of constraints.
  int size() const { return static_cast<int>(constraints_.size()); }
  /// Total number of equations (rows of φ and G).
  int rowCount() const { return rowCount_; }
  /// The number of bodies of the model the set was made for.
  int bodyCount() const { return bodyCount_; }
  /// Constraint i. @throws InputError if i is out of range.
  const Constraint& constraint(int i) const;
  /// The index of the constraint called `name`. @throws InputError if there is none.
  int index(std::string_view name) const;

 private:
  // Checks the name and bodies and starts pending_; finish() appends it (so a throw in
  // between leaves the set unchanged) and returns its index.
  Constraint& begin(std::string_view where, std::string_view name, ConstraintType type,
                    BodyIndex bodyA, BodyIndex bodyB);
  int finish();

  Constraint pending_;

  std::vector<Constraint> constraints_;
  std::map<std::string, int, std::less<>> byName_;
  int bodyCount_{0};
  int rowCount_{0};
};

}  // namespace hopsim::multibody
