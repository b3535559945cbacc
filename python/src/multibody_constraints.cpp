// The constraints of the multibody system from Python: closing loops (cut joints) and adding
// DISTANCE, REVOLUTE-SPHERICAL, REVOLUTE-TRANSLATIONAL, POINT_LINE and POINT_PLANE constraints
// procedurally, evaluating φ, G and γ at any Q and U, projecting a state onto the constraints
// (initial conditions), and reading the multipliers and reaction forces of the simulation's last
// derivative evaluation (docs/multibody.md, "From Python").
//
// The C++ ConstraintSet checks the constraint itself (names, lengths, axes, poses) and raises
// InputError; this file converts bodies by name or index with suggestions and vectors by shape
// (multibody_arguments.h). Evaluations at a given Q use a MultibodyData and ConstraintData made
// per call: a query must not disturb the data the models read inside a hop, and a constraint
// query is rare enough that sizing them (a few µs) does not matter.

#include "multibody_constraints.h"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/multibody/constraint_set.h"
#include "hopsim/core/multibody/constraints.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody_assembly.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "multibody_arguments.h"

namespace hopsim::python {
namespace {

using multibody::BodyIndex;
using multibody::Constraint;
using multibody::ConstraintData;
using multibody::ConstraintSet;
using multibody::Hinge;
using multibody::MultibodyData;
using multibody::MultibodyModel;
using spatial::Vector3;
using spatial::Vector6;

// ---- lookups ----------------------------------------------------------------------------------

std::vector<std::string> constraintNames(const ConstraintSet& set) {
  std::vector<std::string> names;
  for (int i = 0; i < set.size(); ++i) names.push_back(set.constraint(i).name);
  return names;
}

/// A constraint given by name or index (the set's own index() has no suggestions).
int constraintArg(const ConstraintSet& set, py::handle constraint, const std::string& what) {
  if (py::isinstance<py::int_>(constraint) && !py::isinstance<py::bool_>(constraint)) {
    const auto i = constraint.cast<long long>();
    if (i < 0 || i >= set.size()) {
      throw InputError(what + ": constraint index " + std::to_string(i) +
                       " does not exist (there are " + std::to_string(set.size()) +
                       " constraints)");
    }
    return static_cast<int>(i);
  }
  if (!py::isinstance<py::str>(constraint)) {
    throw TypeMismatchError(what + ": a constraint is given by name (str) or index (int), got " +
                            py::repr(constraint).cast<std::string>());
  }
  const auto name = constraint.cast<std::string>();
  const std::vector<std::string> names = constraintNames(set);
  for (int i = 0; i < set.size(); ++i) {
    if (names[static_cast<std::size_t>(i)] == name) return i;
  }
  const std::string close = didYouMean(name, names);
  throw NotFoundError(what + ": no constraint named '" + name + "'" +
                      (!close.empty()  ? close
                       : names.empty() ? std::string(" (there are no constraints)")
                                       : " (the constraints are '" + names.front() + "'" +
                                             (names.size() > 1 ? ", ..." : "") + ")"));
}

/// The constraint set for adding to (ModelError while locked), and the two bodies by name or
/// index, named in errors as "<method>('<name>'): body_a".
struct Adding {
  ConstraintSet& set;
  BodyIndex a;
  BodyIndex b;
  std::string what;
};

Adding adding(MultibodySystem& s, const char* method, const std::string& name, py::handle bodyA,
              py::handle bodyB) {
  const std::string what = std::string(method) + "('" + name + "')";
  ConstraintSet& set = s.editConstraints();  // ModelError while locked
  const MultibodyModel& model = s.model();
  return {set, bodyArg(model, bodyA, what + ": body_a"), bodyArg(model, bodyB, what + ": body_b"),
          what};
}

// ---- evaluation at a given Q and U ------------------------------------------------------------

/// φ, G and (with U) γ at q and u on data made for this call. A set with no constraints gives
/// empty results (no rows), whatever tree it was made for.
struct Evaluation {
  Eigen::VectorXd phi;
  Eigen::MatrixXd G;
  Eigen::VectorXd gamma;
};

Evaluation evaluate(MultibodySystem& s, py::handle q, py::handle u, bool withVelocities,
                    const std::string& what) {
  const MultibodyModel& model = s.model();
  const ConstraintSet& set = s.constraints();
  const Eigen::VectorXd qv = qArg(s, q, what);
  if (set.size() == 0) {
    return {Eigen::VectorXd(0), Eigen::MatrixXd(0, model.nu()), Eigen::VectorXd(0)};
  }
  MultibodyData data(model);
  ConstraintData cdata(model, set);  // InputError if the tree changed under the constraints
  if (withVelocities) {
    multibody::forwardKinematics(model, data, qv, uArg(s, u, what));
    multibody::evaluateConstraints(model, set, data, cdata);
  } else {
    multibody::forwardKinematics(model, data, qv);
    multibody::evaluateConstraintPositions(model, set, data, cdata);
  }
  return {cdata.phi, cdata.G, cdata.gamma};
}

// ---- bindings ---------------------------------------------------------------------------------

void bindAdding(py::class_<MultibodySystem>& c) {
  const char* bodies =
      " Bodies are given by name or index ('world' or 0 for the world); points are in the "
      "body's frame (m). Returns the constraint's index. While the simulation is unlocked "
      "(ModelError when locked); the constraints must be cleared before the tree changes.";
  c.def(
       "add_cut_joint",
       [](MultibodySystem& s, const std::string& name, const Hinge& hinge, py::object bodyA,
          py::object poseA, py::object bodyB, py::object poseB) {
         const Adding x = adding(s, "add_cut_joint", name, bodyA, bodyB);
         return x.set.addCutJoint(name, hinge, x.a, poseArg(poseA, x.what + ": pose_a"), x.b,
                                  poseArg(poseB, x.what + ": pose_b"));
       },
       py::arg("name"), py::arg("hinge"), py::arg("body_a"), py::arg("pose_a"), py::arg("body_b"),
       py::arg("pose_b"),
       (std::string("Adds cut joint `name`, closing a loop: frame M (pose X_BM = `pose_b` on "
                    "`body_b`) may move relative to frame F (pose X_AF = `pose_a` on `body_a`) "
                    "only as `hinge` (a Hinge) allows, M = F at the hinge's neutral "
                    "configuration. Poses are RigidTransforms (None: identity). Rows: LOCKED 6, "
                    "PIN and SLIDER 5, CYLINDRICAL and UJOINT 4, BALL and GIMBAL 3 "
                    "(docs/multibody.md).") +
        bodies)
           .c_str())
      .def(
          "add_distance",
          [](MultibodySystem& s, const std::string& name, py::object bodyA, py::object pointA,
             py::object bodyB, py::object pointB, double length) {
            const Adding x = adding(s, "add_distance", name, bodyA, bodyB);
            return x.set.addDistance(name, x.a, vector3Arg(pointA, x.what + ": point_a"), x.b,
                                     vector3Arg(pointB, x.what + ": point_b"), length);
          },
          py::arg("name"), py::arg("body_a"), py::arg("point_a"), py::arg("body_b"),
          py::arg("point_b"), py::arg("length"),
          (std::string("Adds DISTANCE `name` (1 row): point P (`point_a` on `body_a`) and point "
                       "Q (`point_b` on `body_b`) stay `length` (m, positive) apart, like a "
                       "massless rod with ball joints at both ends.") +
           bodies)
              .c_str())
      .def(
          "add_revolute_spherical",
          [](MultibodySystem& s, const std::string& name, py::object bodyA, py::object pointA,
             py::object axisA, py::object bodyB, py::object pointB, double length) {
            const Adding x = adding(s, "add_revolute_spherical", name, bodyA, bodyB);
            return x.set.addRevoluteSpherical(name, x.a, vector3Arg(pointA, x.what + ": point_a"),
                                              vector3Arg(axisA, x.what + ": axis_a"), x.b,
                                              vector3Arg(pointB, x.what + ": point_b"), length);
          },
          py::arg("name"), py::arg("body_a"), py::arg("point_a"), py::arg("axis_a"),
          py::arg("body_b"), py::arg("point_b"), py::arg("length"),
          (std::string("Adds REVOLUTE-SPHERICAL `name` (2 rows, Chrono's "
                       "ChLinkRevoluteSpherical): point Q (`point_b` on `body_b`) keeps `length` "
                       "(m) from point P (`point_a` on `body_a`) and stays in the plane through P "
                       "perpendicular to the revolute axis `axis_a` (on A, normalized).") +
           bodies)
              .c_str())
      .def(
          "add_revolute_translational",
          [](MultibodySystem& s, const std::string& name, py::object bodyA, py::object pointA,
             py::object axisA, py::object bodyB, py::object pointB, py::object xB, py::object yB,
             double length) {
            const Adding x = adding(s, "add_revolute_translational", name, bodyA, bodyB);
            return x.set.addRevoluteTranslational(
                name, x.a, vector3Arg(pointA, x.what + ": point_a"),
                vector3Arg(axisA, x.what + ": axis_a"), x.b,
                vector3Arg(pointB, x.what + ": point_b"), vector3Arg(xB, x.what + ": x_b"),
                vector3Arg(yB, x.what + ": y_b"), length);
          },
          py::arg("name"), py::arg("body_a"), py::arg("point_a"), py::arg("axis_a"),
          py::arg("body_b"), py::arg("point_b"), py::arg("x_b"), py::arg("y_b"), py::arg("length"),
          (std::string("Adds REVOLUTE-TRANSLATIONAL `name` (4 rows, Chrono's "
                       "ChLinkRevoluteTranslational): the revolute axis `axis_a` (on A through "
                       "P) stays perpendicular to the translational directions `x_b` and `y_b` "
                       "(on B through Q, perpendicular to each other); d = Q - P stays "
                       "perpendicular to the axis and its `x_b` component equals `length` (m, "
                       "any sign).") +
           bodies)
              .c_str())
      .def(
          "add_point_on_line",
          [](MultibodySystem& s, const std::string& name, py::object bodyA, py::object pointA,
             py::object directionA, py::object bodyB, py::object pointB) {
            const Adding x = adding(s, "add_point_on_line", name, bodyA, bodyB);
            return x.set.addPointOnLine(name, x.a, vector3Arg(pointA, x.what + ": point_a"),
                                        vector3Arg(directionA, x.what + ": direction_a"), x.b,
                                        vector3Arg(pointB, x.what + ": point_b"));
          },
          py::arg("name"), py::arg("body_a"), py::arg("point_a"), py::arg("direction_a"),
          py::arg("body_b"), py::arg("point_b"),
          (std::string("Adds POINT_LINE `name` (2 rows): point Q (`point_b` on `body_b`) stays "
                       "on the line through P (`point_a` on `body_a`) along `direction_a` (on A); "
                       "rotations are free.") +
           bodies)
              .c_str())
      .def(
          "add_point_on_plane",
          [](MultibodySystem& s, const std::string& name, py::object bodyA, py::object pointA,
             py::object normalA, py::object bodyB, py::object pointB) {
            const Adding x = adding(s, "add_point_on_plane", name, bodyA, bodyB);
            return x.set.addPointOnPlane(name, x.a, vector3Arg(pointA, x.what + ": point_a"),
                                         vector3Arg(normalA, x.what + ": normal_a"), x.b,
                                         vector3Arg(pointB, x.what + ": point_b"));
          },
          py::arg("name"), py::arg("body_a"), py::arg("point_a"), py::arg("normal_a"),
          py::arg("body_b"), py::arg("point_b"),
          (std::string("Adds POINT_PLANE `name` (1 row): point Q (`point_b` on `body_b`) stays "
                       "in the plane through P (`point_a` on `body_a`) with normal `normal_a` "
                       "(on A).") +
           bodies)
              .c_str())
      .def(
          "clear_constraints", [](MultibodySystem& s) { s.clearConstraints(); },
          "Removes every constraint (while unlocked). Needed before the tree changes once "
          "constraints exist.")
      .def(
          "set_projection",
          [](MultibodySystem& s, double positionTolerance, double velocityTolerance,
             int maxIterations) {
            s.setProjection(positionTolerance, velocityTolerance, maxIterations);
          },
          py::arg("position_tolerance") = 1e-12, py::arg("velocity_tolerance") = 1e-12,
          py::arg("max_iterations") = 20,
          "The drift projection after every integration step: Q onto φ(Q) = 0 until the "
          "largest |φ| is at most `position_tolerance` (m) in at most `max_iterations` "
          "Gauss-Newton steps (NumericalError otherwise), then U onto G U = 0 to "
          "`velocity_tolerance`. Defaults 1e-12, 1e-12, 20.")
      .def(
          "assemble",
          [](MultibodySystem& s) {
            const AssemblyCorrection c = assembleOntoConstraints(s);
            return py::dict(py::arg("position") = c.position, py::arg("velocity") = c.velocity,
                            py::arg("above_tolerance") = c.aboveTolerance);
          },
          "The assembly analysis before a first step (after lock()): the system's Q projected "
          "onto the constraints, then U, to 1e-12 (the drift projection's defaults). Returns "
          "{'position': largest |φ| found, 'velocity': largest |G U| at the assembled Q, "
          "'above_tolerance': bool}. NumericalError when no pose satisfies the constraints (Q "
          "and U left as they were).");
}

void bindConstraintIntrospection(py::class_<MultibodySystem>& c) {
  c.def_property_readonly(
       "constraint_count", [](const MultibodySystem& s) { return s.constraints().size(); },
       "Number of constraints.")
      .def_property_readonly(
          "constraint_rows", [](const MultibodySystem& s) { return s.constraints().rowCount(); },
          "Total number of constraint equations (rows of the residuals φ and the Jacobian G).")
      .def(
          "constraint_names",
          [](const MultibodySystem& s) { return constraintNames(s.constraints()); },
          "Constraint names in index order (the order they were added).")
      .def(
          "constraint_index",
          [](const MultibodySystem& s, py::object constraint) {
            return constraintArg(s.constraints(), constraint, "constraint_index");
          },
          py::arg("constraint"),
          "The index of a constraint (NotFoundError with suggestions if unknown).")
      .def(
          "constraint",
          [](const MultibodySystem& s, py::object constraint) {
            const ConstraintSet& set = s.constraints();
            const Constraint& k = set.constraint(constraintArg(set, constraint, "constraint"));
            const MultibodyModel& model = s.model();
            py::dict d;
            d["name"] = k.name;
            d["type"] = std::string(multibody::toString(k.type));
            d["body_a"] = model.bodyName(k.bodyA);
            d["body_b"] = model.bodyName(k.bodyB);
            d["rows"] = py::slice(k.rowStart, k.rowStart + k.rowCount, 1);
            d["row_count"] = k.rowCount;
            if (k.type == multibody::ConstraintType::CutJoint) {
              d["hinge"] = k.hinge;
              d["pose_a"] = k.X_AF;
              d["pose_b"] = k.X_BM;
            } else {
              d["point_a"] = k.p_AoP_A;
              d["point_b"] = k.p_BoQ_B;
              d["length"] = k.length;
            }
            return d;
          },
          py::arg("constraint"),
          "A constraint (by name or index) as a dict: 'name', 'type' ('CUT_JOINT', 'DISTANCE', "
          "'REVOLUTE-SPHERICAL', 'REVOLUTE-TRANSLATIONAL', 'POINT_LINE', 'POINT_PLANE'), "
          "'body_a', 'body_b' (names), 'rows' (a slice of φ and G) and 'row_count'; for a cut "
          "joint 'hinge', 'pose_a' (X_AF) and 'pose_b' (X_BM), otherwise 'point_a', 'point_b' "
          "(m, in A and B) and 'length' (m; 0 where it does not apply).");
}

void bindEvaluation(py::class_<MultibodySystem>& c) {
  c.def(
       "constraint_residuals",
       [](MultibodySystem& s, py::object q) {
         return evaluate(s, q, py::none(), false, "constraint_residuals").phi;
       },
       py::arg("q") = py::none(),
       "φ(Q): the residual of every constraint row (m for separations and distances, "
       "dimensionless for direction rows; zero on the constraints), at `q` (None: the current "
       "Q), on a workspace of its own. Empty without constraints.")
      .def(
          "constraint_jacobian",
          [](MultibodySystem& s, py::object q) {
            return evaluate(s, q, py::none(), false, "constraint_jacobian").G;
          },
          py::arg("q") = py::none(),
          "G(Q) (rows x nu): the constraint Jacobian, φ̇ = G U, at `q` (None: the current Q), on "
          "a workspace of its own.")
      .def(
          "constraint_bias",
          [](MultibodySystem& s, py::object q, py::object u) {
            return evaluate(s, q, u, true, "constraint_bias").gamma;
          },
          py::arg("q") = py::none(), py::arg("u") = py::none(),
          "γ = -Ġ U (rows): the constrained accelerations satisfy G U̇ = γ, at `q` and `u` "
          "(None: the current Q and U), on a workspace of its own.")
      .def(
          "project_onto_constraints",
          [](MultibodySystem& s, py::object q, py::object u, double positionTolerance,
             double velocityTolerance, int maxIterations) {
            const MultibodyModel& model = s.model();
            const ConstraintSet& set = s.constraints();
            Eigen::VectorXd qv = qArg(s, q, "project_onto_constraints");
            Eigen::VectorXd uv = uArg(s, u, "project_onto_constraints");
            if (set.size() == 0) return std::make_pair(qv, uv);
            MultibodyData data(model);
            ConstraintData cdata(model, set);
            multibody::projectPositions(model, set, data, cdata, qv, positionTolerance,
                                        maxIterations);
            multibody::projectVelocities(model, set, data, cdata, qv, uv, velocityTolerance);
            return std::make_pair(qv, uv);
          },
          py::arg("q") = py::none(), py::arg("u") = py::none(),
          py::arg("position_tolerance") = 1e-12, py::arg("velocity_tolerance") = 1e-12,
          py::arg("max_iterations") = 20,
          "(q, u) moved onto the constraints, for consistent initial conditions: Q by "
          "Gauss-Newton with minimum-norm steps until the largest |φ| is at most "
          "`position_tolerance`, then U by the mass-weighted projection that removes only the "
          "velocity violating G U = 0 (prescribed entries held). Starts from `q` and `u` (None: "
          "the current Q and U) and returns new arrays: assign them to `q` and `u` to use them. "
          "NumericalError naming the worst constraint if it does not converge.");
}

// The multipliers λ themselves are not offered: the projection after every integration step
// reuses ConstraintData::lambda as its workspace and leaves it zero, so only what
// applyConstraints alone writes (Gᵀλ and the reactions) is the last evaluation's.
void bindLastEvaluation(py::class_<MultibodySystem>& c) {
  const char* last =
      " Of the simulation's last derivative evaluation (after it has run); ModelError without "
      "constraints or before the simulation was locked with them.";
  c.def(
       "constraint_forces",
       [](const MultibodySystem& s) { return Eigen::VectorXd(s.constraintData().tauConstraint); },
       (std::string("Gᵀλ (nu): the generalized constraint force on each U entry (N·m or N), "
                    "so that M U̇ = τ - C + external + Gᵀλ.") +
        last)
           .c_str())
      .def(
          "constraint_multipliers",
          [](const MultibodySystem& s) { return Eigen::VectorXd(s.constraintData().lambda); },
          (std::string("λ (rows): the constraint multipliers, one per row, so that "
                       "constraint_forces() = Gᵀλ; redundant rows get 0.") +
           last)
              .c_str())
      .def(
          "constraint_rank", [](const MultibodySystem& s) { return s.constraintData().rank; },
          (std::string("The number of independent constraint rows (rows minus redundant ones; "
                       "a planar loop closed by a 3D PIN has 2 of 5).") +
           last)
              .c_str())
      .def(
          "constraint_reactions",
          [](const MultibodySystem& s) {
            const ConstraintData& cdata = s.constraintData();
            const ConstraintSet& set = s.constraints();
            py::dict reactions;
            for (int i = 0; i < set.size(); ++i) {
              const auto k = static_cast<std::size_t>(i);
              py::dict r;
              r["point"] = Vector3(cdata.p_WoQ_W[k]);
              r["force"] = Vector6(cdata.F_B_Q_W[k].vector());
              reactions[py::str(set.constraint(i).name)] = r;
            }
            return reactions;
          },
          (std::string("{constraint: {'point': p_WoQ_W, 'force': [n; f]}}: the spatial force "
                       "each constraint exerts on its body B, about its point Q (for a cut "
                       "joint Mo), in the world frame (N·m; N); body A gets the opposite.") +
           last)
              .c_str());
}

}  // namespace

void bindMultibodyConstraints(py::class_<MultibodySystem>& c) {
  bindAdding(c);
  bindConstraintIntrospection(c);
  bindEvaluation(c);
  bindLastEvaluation(c);
}

}  // namespace hopsim::python
