// The multibody system from Python: build trees procedurally (bodies, hinges, nodes), query
// frames, energies and momenta, the mass matrix and the dynamics (docs/multibody.md, "From
// Python"). The C++ engine is the authority: each method converts its arguments
// (multibody_arguments.h), calls the engine and converts the result. Spatial vectors travel as
// numpy arrays of 6 numbers [angular; linear], poses as RigidTransform (spatial_types.cpp, with
// the other value types), quaternions scalar first, as in C++.
//
// The queries evaluate the engine's algorithms on a workspace (MultibodyData) kept per
// MultibodySystem in this file, not on the simulation's own data: a query must not disturb what
// the models read inside a hop, and it may ask about any Q and U, not only the integrated ones.

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bindings.h"
#include "hopsim/core/cpu_kernels.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/aba_derivatives.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/frames.h"
#include "hopsim/core/multibody/jacobian.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/multibody/rnea.h"
#include "hopsim/core/multibody_system.h"
#include "hopsim/core/simulation.h"
#include "multibody_arguments.h"
#include "multibody_constraints.h"
#include "spatial_types.h"

namespace hopsim::python {
namespace {

using multibody::BodyIndex;
using multibody::Frame;
using multibody::FrameKind;
using multibody::Hinge;
using multibody::MultibodyData;
using multibody::MultibodyModel;
using spatial::SpatialForce;
using spatial::SpatialInertia;
using spatial::Vector3;
using spatial::Vector6;

// ---- the query workspace ----------------------------------------------------------------------

/// One MultibodyData per MultibodySystem, rebuilt when the tree changes. An entry is removed
/// when the Simulation's Python object goes away (a weak reference registered by the
/// `multibody` property); a stale entry would still be correct, because every algorithm
/// overwrites what it reads and the entry is rebuilt whenever the tree's revision or sizes
/// differ.
std::unordered_map<const MultibodySystem*, std::unique_ptr<MultibodyData>>& workspaces() {
  static std::unordered_map<const MultibodySystem*, std::unique_ptr<MultibodyData>> map;
  return map;
}

MultibodyData& workspace(const MultibodySystem& system) {
  std::unique_ptr<MultibodyData>& data = workspaces()[&system];
  const MultibodyModel& model = system.model();
  if (!data || data->modelRevision != model.structureRevision() ||
      data->bodyCount != model.bodyCount() || data->nq != model.nq() || data->nu != model.nu()) {
    data = std::make_unique<MultibodyData>(model);
  }
  return *data;
}

// ---- results ----------------------------------------------------------------------------------

/// The energies and momenta at `q` and `u` (None: the system's current Q and U), evaluated on
/// the workspace.
EnergyAndMomentum energyAndMomentum(MultibodySystem& system, py::handle q, py::handle u,
                                    const std::string& what) {
  const MultibodyModel& model = system.model();
  const Eigen::VectorXd qv = qArg(system, q, what);
  const Eigen::VectorXd uv = uArg(system, u, what);
  MultibodyData& data = workspace(system);
  multibody::computeEnergyAndMomentum(model, data, qv, uv);
  return {data.kineticEnergy, data.potentialEnergy, data.totalMass, data.p_WoScm_W,
          data.L_W,           data.H_WWo_W};
}

// ---- bindings ---------------------------------------------------------------------------------

void bindStructure(py::class_<MultibodySystem>& c) {
  c.def(
       "add_body",
       [](MultibodySystem& s, const std::string& name, py::object parent, const Hinge& hinge,
          const SpatialInertia& massProperties, py::object inboard, py::object outboard) {
         const std::string what = "add_body('" + name + "')";
         MultibodyModel& model = s.editModel();  // ModelError while locked
         return model.addBody(name, bodyArg(model, parent, what + ": parent"), massProperties,
                              hinge, poseArg(inboard, what + ": inboard"),
                              poseArg(outboard, what + ": outboard"));
       },
       py::arg("name"), py::arg("parent"), py::arg("hinge"), py::arg("mass_properties"),
       py::arg("inboard") = py::none(), py::arg("outboard") = py::none(),
       "Adds body `name` to `parent` (a body name or index; 'world' or 0 for the world) through "
       "`hinge` and returns its index. `mass_properties` is a SpatialInertia about the new body's "
       "origin Bo in its axes. `inboard` is the pose X_PF of the hinge's inboard frame F on the "
       "parent, `outboard` the pose X_BM of its outboard frame M on the new body (RigidTransform; "
       "None: identity): X_PB = X_PF · X_FM(Q) · X_BM⁻¹. While the simulation is unlocked.")
      .def(
          "add_node",
          [](MultibodySystem& s, const std::string& name, py::object body, py::object placement) {
            const std::string what = "add_node('" + name + "')";
            MultibodyModel& model = s.editModel();
            return model.addNode(name, bodyArg(model, body, what + ": body"),
                                 poseArg(placement, what + ": placement"));
          },
          py::arg("name"), py::arg("body"), py::arg("placement") = py::none(),
          "Adds node `name`, a frame N fixed on `body` at pose X_BN = `placement` "
          "(RigidTransform; None: the body frame), and returns its index.")
      .def(
          "remove_body",
          [](MultibodySystem& s, py::object body) {
            MultibodyModel& model = s.editModel();
            return model.removeBody(movingBodyArg(model, body, "remove_body"));
          },
          py::arg("body"),
          "Removes a body with its whole subtree and their nodes (while unlocked); returns the "
          "removed bodies' names. The other bodies are re-indexed (names stay valid).")
      .def(
          "set_mass_properties",
          [](MultibodySystem& s, py::object body, const SpatialInertia& M) {
            s.setMassProperties(movingBodyArg(s.model(), body, "set_mass_properties"), M);
          },
          py::arg("body"), py::arg("mass_properties"),
          "Replaces a body's mass properties (about Bo in B); allowed at any time, the next "
          "evaluation uses them and U is unchanged.")
      .def(
          "mass_properties",
          [](const MultibodySystem& s, py::object body) {
            return s.model().massProperties(movingBodyArg(s.model(), body, "mass_properties"));
          },
          py::arg("body"), "A body's SpatialInertia (about Bo in B).")
      .def_property(
          "gravity", [](const MultibodySystem& s) { return s.model().gravity(); },
          [](MultibodySystem& s, py::object g) { s.setGravity(vector3Arg(g, "gravity")); },
          "The uniform gravitational acceleration g_W (m/s², in the world frame; default zero). "
          "Settable at any time.")
      .def(
          "set_masked",
          [](MultibodySystem& s, py::object body, bool masked, int subhinge) {
            s.setMasked(movingBodyArg(s.model(), body, "set_masked"), subhinge, masked);
          },
          py::arg("body"), py::arg("masked") = true, py::arg("subhinge") = -1,
          "Masks (or unmasks) the Q and U of one subhinge of a body's hinge (-1: all): they "
          "leave the integrated state and are prescribed in the dynamics; a MotorModel drives "
          "them. While unlocked.")
      .def(
          "set_prescribed",
          [](MultibodySystem& s, py::object body, bool prescribed, int subhinge) {
            MultibodyModel& model = s.editModel();
            const BodyIndex b = movingBodyArg(model, body, "set_prescribed");
            if (subhinge == -1) {
              model.setPrescribed(b, prescribed);
            } else {
              model.setPrescribed(b, subhinge, prescribed);
            }
          },
          py::arg("body"), py::arg("prescribed") = true, py::arg("subhinge") = -1,
          "Makes the U entries of one subhinge (-1: all) prescribed in the dynamics (hybrid "
          "dynamics: their U̇ is an input, their force an output). While unlocked.")
      .def_property_readonly(
          "prescribed",
          [](const MultibodySystem& s) {
            std::vector<bool> flags;
            for (int k = 0; k < s.model().nu(); ++k) flags.push_back(s.model().isPrescribed(k));
            return flags;
          },
          "Per U entry, whether it is prescribed (or masked).")
      .def(
          "set_joint_limits",
          [](MultibodySystem& s, py::object body, int coordinate, double lower, double upper) {
            MultibodyModel& model = s.editModel();
            model.setJointLimits(movingBodyArg(model, body, "set_joint_limits"), coordinate, lower,
                                 upper);
          },
          py::arg("body"), py::arg("coordinate"), py::arg("lower"), py::arg("upper"),
          "Limits coordinate `coordinate` of a body's hinge Q to [lower, upper] (rad or m; "
          "either may be infinite). Data for models that enforce them; the engine does not.")
      .def(
          "joint_limits",
          [](const MultibodySystem& s, py::object body,
             int coordinate) -> std::optional<std::pair<double, double>> {
            const auto limits =
                s.model().jointLimits(movingBodyArg(s.model(), body, "joint_limits"), coordinate);
            if (!limits) return std::nullopt;
            return std::make_pair(limits->lower, limits->upper);
          },
          py::arg("body"), py::arg("coordinate"),
          "The (lower, upper) limits of a hinge coordinate, or None.")
      .def(
          "clear_joint_limits",
          [](MultibodySystem& s, py::object body, int coordinate) {
            MultibodyModel& model = s.editModel();
            model.clearJointLimits(movingBodyArg(model, body, "clear_joint_limits"), coordinate);
          },
          py::arg("body"), py::arg("coordinate"), "Removes the limits of a hinge coordinate.");
}

void bindIntrospection(py::class_<MultibodySystem>& c) {
  c.def_property_readonly(
       "body_count", [](const MultibodySystem& s) { return s.model().bodyCount(); },
       "Number of bodies including the world (body 0).")
      .def_property_readonly(
          "node_count", [](const MultibodySystem& s) { return s.model().nodeCount(); },
          "Number of nodes.")
      .def_property_readonly(
          "nq", [](const MultibodySystem& s) { return s.model().nq(); }, "Size of Q.")
      .def_property_readonly(
          "nu", [](const MultibodySystem& s) { return s.model().nu(); },
          "Size of U (degrees of freedom).")
      .def(
          "body_names", [](const MultibodySystem& s) { return bodyNames(s.model()); },
          "Body names in index order, 'world' first.")
      .def(
          "node_names", [](const MultibodySystem& s) { return nodeNames(s.model()); },
          "Node names in index order.")
      .def(
          "body_index",
          [](const MultibodySystem& s, py::object body) {
            return bodyArg(s.model(), body, "body_index");
          },
          py::arg("body"), "The index of a body (NotFoundError with suggestions if unknown).")
      .def(
          "node_index",
          [](const MultibodySystem& s, py::object node) {
            return nodeArg(s.model(), node, "node_index");
          },
          py::arg("node"), "The index of a node.")
      .def(
          "parent",
          [](const MultibodySystem& s, py::object body) {
            return s.model().bodyName(s.model().parent(movingBodyArg(s.model(), body, "parent")));
          },
          py::arg("body"), "The name of a body's parent.")
      .def(
          "hinge",
          [](const MultibodySystem& s, py::object body) {
            return s.model().hinge(movingBodyArg(s.model(), body, "hinge"));
          },
          py::arg("body"), "The Hinge joining a body to its parent.")
      .def(
          "inboard_placement",
          [](const MultibodySystem& s, py::object body) {
            return s.model().X_PF(movingBodyArg(s.model(), body, "inboard_placement"));
          },
          py::arg("body"), "X_PF: the pose of a body's hinge inboard frame F on its parent.")
      .def(
          "outboard_placement",
          [](const MultibodySystem& s, py::object body) {
            return s.model().X_BM(movingBodyArg(s.model(), body, "outboard_placement"));
          },
          py::arg("body"), "X_BM: the pose of a body's hinge outboard frame M on the body.")
      .def(
          "node_body",
          [](const MultibodySystem& s, py::object node) {
            const auto& model = s.model();
            return model.bodyName(model.node(nodeArg(model, node, "node_body")).body);
          },
          py::arg("node"), "The name of the body a node is fixed on.")
      .def(
          "node_placement",
          [](const MultibodySystem& s, py::object node) {
            const auto& model = s.model();
            return model.node(nodeArg(model, node, "node_placement")).X_BN;
          },
          py::arg("node"), "X_BN: the pose of a node on its body.")
      .def(
          "q_start",
          [](const MultibodySystem& s, py::object body) {
            return s.model().qStart(movingBodyArg(s.model(), body, "q_start"));
          },
          py::arg("body"), "The index of a body's first hinge coordinate in Q.")
      .def(
          "u_start",
          [](const MultibodySystem& s, py::object body) {
            return s.model().uStart(movingBodyArg(s.model(), body, "u_start"));
          },
          py::arg("body"), "The index of a body's first hinge rate in U.")
      .def(
          "neutral_configuration",
          [](const MultibodySystem& s) { return s.model().neutralConfiguration(); },
          "Q with every hinge at zero angles and offsets and identity quaternions.")
      .def("__repr__", [](const MultibodySystem& s) {
        return "<hopsim.MultibodySystem " + std::to_string(s.model().bodyCount() - 1) + " bod" +
               (s.model().bodyCount() == 2 ? "y" : "ies") + ", " +
               std::to_string(s.model().nodeCount()) +
               " node(s), nq=" + std::to_string(s.model().nq()) +
               ", nu=" + std::to_string(s.model().nu()) + ">";
      });
}

void bindCoordinates(py::class_<MultibodySystem>& c) {
  c.def_property(
       "q", [](MultibodySystem& s) { return Eigen::VectorXd(s.q()); },
       [](MultibodySystem& s, py::object q) { s.q() = vectorArg(q, "q", s.model().nq(), "nq"); },
       "The system Q (nq numbers; a copy). Assign a whole vector to set it: at any time "
       "between hops, the integration restarts from it. Quaternions should be unit (they are "
       "normalized before use and after every step).")
      .def_property(
          "u", [](MultibodySystem& s) { return Eigen::VectorXd(s.u()); },
          [](MultibodySystem& s, py::object u) { s.u() = vectorArg(u, "u", s.model().nu(), "nu"); },
          "The system U (nu numbers; a copy); assign a whole vector to set it.")
      .def(
          "body_q",
          [](MultibodySystem& s, py::object body) {
            return Eigen::VectorXd(s.q(movingBodyArg(s.model(), body, "body_q")));
          },
          py::arg("body"), "A body's hinge coordinates Q (a copy).")
      .def(
          "set_body_q",
          [](MultibodySystem& s, py::object body, py::object q) {
            const BodyIndex b = movingBodyArg(s.model(), body, "set_body_q");
            const std::string what = "set_body_q('" + s.model().bodyName(b) + "')";
            s.q(b) = vectorArg(q, what, s.model().hinge(b).nq(), "the hinge's nq");
          },
          py::arg("body"), py::arg("q"), "Sets a body's hinge coordinates Q.")
      .def(
          "body_u",
          [](MultibodySystem& s, py::object body) {
            return Eigen::VectorXd(s.u(movingBodyArg(s.model(), body, "body_u")));
          },
          py::arg("body"), "A body's hinge rates U (a copy).")
      .def(
          "set_body_u",
          [](MultibodySystem& s, py::object body, py::object u) {
            const BodyIndex b = movingBodyArg(s.model(), body, "set_body_u");
            const std::string what = "set_body_u('" + s.model().bodyName(b) + "')";
            s.u(b) = vectorArg(u, what, s.model().hinge(b).nu(), "the hinge's nu");
          },
          py::arg("body"), py::arg("u"), "Sets a body's hinge rates U.")
      .def_property_readonly(
          "qdot", [](const MultibodySystem& s) { return Eigen::VectorXd(s.qdot()); },
          "Q̇ of the simulation's last derivative evaluation.")
      .def_property_readonly(
          "udot", [](const MultibodySystem& s) { return Eigen::VectorXd(s.udot()); },
          "U̇ of the simulation's last derivative evaluation (with the forces the models "
          "applied).")
      .def_property_readonly(
          "generalized_forces", [](const MultibodySystem& s) { return s.generalizedForces(); },
          "The generalized forces of the last derivative evaluation: applied ones for free "
          "entries, the forces their motion needed for prescribed and masked ones.")
      .def(
          "hinge_forces",
          [](MultibodySystem& s) {
            const std::vector<SpatialForce>& F = s.hingeForces();
            py::dict forces;
            for (BodyIndex b = 1; b < s.model().bodyCount(); ++b) {
              forces[py::str(s.model().bodyName(b))] =
                  py::cast(Vector6(F[static_cast<std::size_t>(b)].vector()));
            }
            return forces;
          },
          "{body: [n; f]}: the spatial force each body's parent exerts on it through its hinge "
          "in the simulation's last derivative evaluation, about the hinge's outboard frame "
          "origin Mo, expressed in M (N·m; N), with the applied and constraint forces "
          "accounted for (the seed's getInterBodyForce). After the simulation has run.");
}

void bindQueries(py::class_<MultibodySystem>& c) {
  const char* state =
      " Evaluated at `q` and `u` (None: the system's current Q and U), on a workspace of its "
      "own: the simulation's state is not touched.";
  c.def(
       "relative_pose",
       [](MultibodySystem& s, py::object frame, py::object relativeTo, py::object q) {
         const MultibodyModel& model = s.model();
         const Frame A = frameArg(model, frame, "relative_pose: frame");
         const Frame B = frameArg(model, relativeTo, "relative_pose: relative_to");
         MultibodyData& data = workspace(s);
         multibody::forwardKinematics(model, data, qArg(s, q, "relative_pose"));
         return multibody::relativePose(model, data, A, B);
       },
       py::arg("frame"), py::arg("relative_to") = "world", py::arg("q") = py::none(),
       (std::string("X_BA, the pose of `frame` A in frame B = `relative_to` (default the "
                    "world). Frames are 'world', 'body:<body>', 'node:<node>', "
                    "'inboard:<body>' (F of the body's hinge), 'outboard:<body>' (its M), a bare "
                    "body or node name, or a body index.") +
        " Evaluated at `q` (None: the current Q).")
           .c_str())
      .def(
          "relative_velocity",
          [](MultibodySystem& s, py::object frame, py::object relativeTo, py::object expressedIn,
             py::object q, py::object u) {
            const MultibodyModel& model = s.model();
            const Frame A = frameArg(model, frame, "relative_velocity: frame");
            const Frame B = frameArg(model, relativeTo, "relative_velocity: relative_to");
            const Frame C = expressedIn.is_none()
                                ? B
                                : frameArg(model, expressedIn, "relative_velocity: expressed_in");
            const Eigen::VectorXd qv = qArg(s, q, "relative_velocity");
            const Eigen::VectorXd uv = uArg(s, u, "relative_velocity");
            MultibodyData& data = workspace(s);
            multibody::forwardKinematics(model, data, qv, uv);
            return Vector6(multibody::relativeVelocity(model, data, A, B, C).vector());
          },
          py::arg("frame"), py::arg("relative_to") = "world", py::arg("expressed_in") = py::none(),
          py::arg("q") = py::none(), py::arg("u") = py::none(),
          (std::string("V_BA_C = [ω_BA; v_BAo] (6 numbers, rad/s and m/s): the velocity of "
                       "`frame` A as an observer fixed in B = `relative_to` sees it, about A's "
                       "origin, expressed in C = `expressed_in` (None: in B). v_BAo is the "
                       "derivative in B of B's-origin-to-A's-origin.") +
           state)
              .c_str())
      .def(
          "relative_acceleration",
          [](MultibodySystem& s, py::object frame, py::object relativeTo, py::object expressedIn,
             py::object q, py::object u, py::object udot) {
            const MultibodyModel& model = s.model();
            const Frame A = frameArg(model, frame, "relative_acceleration: frame");
            const Frame B = frameArg(model, relativeTo, "relative_acceleration: relative_to");
            const Frame C = expressedIn.is_none() ? B
                                                  : frameArg(model, expressedIn,
                                                             "relative_acceleration: expressed_in");
            const Eigen::VectorXd qv = qArg(s, q, "relative_acceleration");
            const Eigen::VectorXd uv = uArg(s, u, "relative_acceleration");
            MultibodyData& data = workspace(s);
            if (udot.is_none()) {
              multibody::aba(model, data, qv, uv, Eigen::VectorXd::Zero(model.nu()));
            } else {
              multibody::rnea(model, data, qv, uv,
                              vectorArg(udot, "relative_acceleration: udot", model.nu(), "nu"));
            }
            return Vector6(multibody::relativeAcceleration(model, data, A, B, C).vector());
          },
          py::arg("frame"), py::arg("relative_to") = "world", py::arg("expressed_in") = py::none(),
          py::arg("q") = py::none(), py::arg("u") = py::none(), py::arg("udot") = py::none(),
          (std::string("A_BA_C = [α_BA; a_BAo] (6 numbers, rad/s² and m/s²): the acceleration "
                       "of `frame` relative to `relative_to`, both derivatives taken in B, about "
                       "A's origin, expressed in `expressed_in` (None: in B); the true "
                       "acceleration (a free-falling body has a = g). With `udot`, the "
                       "accelerations U̇ = udot; without, those of the passive system (gravity, "
                       "no generalized or body forces: forward_dynamics()).") +
           state)
              .c_str())
      .def(
          "frame_jacobian",
          [](MultibodySystem& s, py::object frame, py::object q) {
            const MultibodyModel& model = s.model();
            const Frame f = frameArg(model, frame, "frame_jacobian: frame");
            // The frame's host body and the frame origin on it.
            BodyIndex host = multibody::kWorldBody;
            Vector3 p = Vector3::Zero();
            switch (f.kind()) {
              case FrameKind::World:
                break;
              case FrameKind::Body:
                host = f.index();
                break;
              case FrameKind::Node:
                host = model.node(f.index()).body;
                p = model.node(f.index()).X_BN.translation();
                break;
              case FrameKind::HingeInboard:
                host = model.parent(f.index());
                p = model.X_PF(f.index()).translation();
                break;
              case FrameKind::HingeOutboard:
                host = f.index();
                p = model.X_BM(f.index()).translation();
                break;
            }
            MultibodyData& data = workspace(s);
            multibody::forwardKinematics(model, data, qArg(s, q, "frame_jacobian"));
            multibody::Matrix6X J(6, model.nu());
            multibody::frameJacobian(model, data, host, p, J);
            return Eigen::MatrixXd(J);
          },
          py::arg("frame"), py::arg("q") = py::none(),
          "J_W (6 x nu): J_W U = [ω; v], the angular velocity of `frame` and the velocity of its "
          "origin, both in the world frame, at `q` (None: the current Q).")
      .def(
          "energy_and_momentum",
          [](MultibodySystem& s, py::object q, py::object u) {
            return energyAndMomentum(s, q, u, "energy_and_momentum");
          },
          py::arg("q") = py::none(), py::arg("u") = py::none(),
          (std::string("Kinetic and potential energy, total mass, CM, linear and angular "
                       "momentum of the whole system (an EnergyAndMomentum).") +
           state)
              .c_str())
      .def(
          "kinetic_energy",
          [](MultibodySystem& s, py::object q, py::object u) {
            return energyAndMomentum(s, q, u, "kinetic_energy").kineticEnergy;
          },
          py::arg("q") = py::none(), py::arg("u") = py::none(),
          (std::string("Kinetic energy ½ Uᵀ M U (J).") + state).c_str())
      .def(
          "potential_energy",
          [](MultibodySystem& s, py::object q) {
            return energyAndMomentum(s, q, py::none(), "potential_energy").potentialEnergy;
          },
          py::arg("q") = py::none(),
          "Potential energy in the uniform gravity, -Σ m g·p_cm, zero at the world origin (J), "
          "at `q` (None: the current Q).")
      .def(
          "linear_momentum",
          [](MultibodySystem& s, py::object q, py::object u) {
            return energyAndMomentum(s, q, u, "linear_momentum").linearMomentum;
          },
          py::arg("q") = py::none(), py::arg("u") = py::none(),
          (std::string("Linear momentum L_W (kg·m/s, in W).") + state).c_str())
      .def(
          "angular_momentum",
          [](MultibodySystem& s, py::object about, py::object q, py::object u) {
            const EnergyAndMomentum e = energyAndMomentum(s, q, u, "angular_momentum");
            if (about.is_none()) return e.angularMomentum;
            const Vector3 p = vector3Arg(about, "angular_momentum: about");
            return Vector3(e.angularMomentum - p.cross(e.linearMomentum));
          },
          py::arg("about") = py::none(), py::arg("q") = py::none(), py::arg("u") = py::none(),
          (std::string("Angular momentum about the point `about` = p_WoP_W (m; None: the world "
                       "origin), in W (kg·m²/s).") +
           state)
              .c_str())
      .def(
          "center_of_mass",
          [](MultibodySystem& s, py::object q) {
            return energyAndMomentum(s, q, py::none(), "center_of_mass").centerOfMass;
          },
          py::arg("q") = py::none(), "The system CM p_WoScm_W (m) at `q` (None: the current Q).")
      .def(
          "mass_matrix",
          [](MultibodySystem& s, py::object q) {
            const Eigen::VectorXd qv = qArg(s, q, "mass_matrix");
            return Eigen::MatrixXd(multibody::crba(s.model(), workspace(s), qv));
          },
          py::arg("q") = py::none(),
          "The generalized mass matrix M(Q) (nu x nu, symmetric positive definite; CRBA) with "
          "kinetic energy ½ Uᵀ M U, at `q` (None: the current Q).")
      .def(
          "inverse_dynamics",
          [](MultibodySystem& s, py::object udot, py::object q, py::object u,
             py::object bodyForces) {
            const MultibodyModel& model = s.model();
            const Eigen::VectorXd qv = qArg(s, q, "inverse_dynamics");
            const Eigen::VectorXd uv = uArg(s, u, "inverse_dynamics");
            const Eigen::VectorXd a = vectorArg(udot, "inverse_dynamics: udot", model.nu(), "nu");
            const auto F = bodyForcesArg(model, bodyForces, "inverse_dynamics");
            return Eigen::VectorXd(multibody::rnea(model, workspace(s), qv, uv, a, F));
          },
          py::arg("udot"), py::arg("q") = py::none(), py::arg("u") = py::none(),
          py::arg("body_forces") = py::none(),
          (std::string("τ = M(Q) U̇ + C(Q, U) - external (RNEA): the generalized forces (N·m or N "
                       "per U entry) that give the accelerations `udot`, with gravity and the "
                       "external `body_forces` {body: [n (3); f (3)]}, each a spatial force on "
                       "the body about its origin Bo, expressed in B.") +
           state)
              .c_str())
      .def(
          "forward_dynamics",
          [](MultibodySystem& s, py::object tau, py::object q, py::object u,
             py::object bodyForces) {
            const MultibodyModel& model = s.model();
            const Eigen::VectorXd qv = qArg(s, q, "forward_dynamics");
            const Eigen::VectorXd uv = uArg(s, u, "forward_dynamics");
            const Eigen::VectorXd t =
                tau.is_none() ? Eigen::VectorXd(Eigen::VectorXd::Zero(model.nu()))
                              : vectorArg(tau, "forward_dynamics: tau", model.nu(), "nu");
            const auto F = bodyForcesArg(model, bodyForces, "forward_dynamics");
            return Eigen::VectorXd(multibody::aba(model, workspace(s), qv, uv, t, F));
          },
          py::arg("tau") = py::none(), py::arg("q") = py::none(), py::arg("u") = py::none(),
          py::arg("body_forces") = py::none(),
          (std::string("U̇ = M⁻¹ (τ - C(Q, U) + external) (ABA): the accelerations under the "
                       "generalized forces `tau` (None: zero), gravity and `body_forces` (as "
                       "inverse_dynamics). Every entry is free (prescribed flags are ignored).") +
           state)
              .c_str())
      .def(
          "forward_dynamics_derivatives",
          [](MultibodySystem& s, py::object tau, py::object q, py::object u,
             py::object bodyForces) {
            constexpr const char* kWhat = "forward_dynamics_derivatives";
            const MultibodyModel& model = s.model();
            const Eigen::VectorXd qv = qArg(s, q, kWhat);
            const Eigen::VectorXd uv = uArg(s, u, kWhat);
            const Eigen::VectorXd t =
                tau.is_none()
                    ? Eigen::VectorXd(Eigen::VectorXd::Zero(model.nu()))
                    : vectorArg(tau, "forward_dynamics_derivatives: tau", model.nu(), "nu");
            const auto F = bodyForcesArg(model, bodyForces, kWhat);
            multibody::AbaDerivativesWorkspace work(model);
            const int n = model.nu();
            Eigen::MatrixXd dq(n, n), du(n, n), dtau(n, n);
            multibody::abaDerivatives(model, workspace(s), work, qv, uv, t, F, dq, du, dtau);
            return py::make_tuple(dq, du, dtau);
          },
          py::arg("tau") = py::none(), py::arg("q") = py::none(), py::arg("u") = py::none(),
          py::arg("body_forces") = py::none(),
          (std::string("(dudot_dq, dudot_du, dudot_dtau): the partial derivatives of "
                       "forward_dynamics (same arguments), nu x nu each, by the analytic "
                       "recursion. Column k of dudot_dq is along the tangent direction of U "
                       "entry k (a quaternion turned about M's axes, F's for "
                       "FULL6DOF_INERTIAL; docs/multibody.md); dudot_dtau is M(Q)⁻¹.") +
           state)
              .c_str())
      .def(
          "compute_qdot",
          [](MultibodySystem& s, py::object q, py::object u) {
            const Eigen::VectorXd qv = qArg(s, q, "compute_qdot");
            const Eigen::VectorXd uv = uArg(s, u, "compute_qdot");
            Eigen::VectorXd qdot(s.model().nq());
            multibody::computeQdot(s.model(), qv, uv, qdot);
            return qdot;
          },
          py::arg("q") = py::none(), py::arg("u") = py::none(),
          "Q̇ = f(Q, U), the kinematic map of every hinge (quaternion rates for BALL and free "
          "hinges), at `q` and `u` (None: the current ones).");
}

}  // namespace

void bindMultibody(py::module_& m) {
  bindSpatialTypes(m);

  py::class_<MultibodySystem> c(
      m, "MultibodySystem",
      "The multibody system of a Simulation (Simulation.multibody): a tree of rigid bodies "
      "joined by hinges, with nodes, gravity and the coordinates Q and U that the simulation "
      "integrates (docs/multibody.md). Build the tree while the simulation is unlocked; "
      "mass properties, gravity, Q and U may change at any time between hops. Bodies, nodes "
      "and frames are given by name (or index). Spatial vectors are numpy arrays of 6 numbers "
      "[angular; linear]. Valid while its simulation lives.");
  bindStructure(c);
  bindIntrospection(c);
  bindCoordinates(c);
  bindQueries(c);
  bindMultibodyConstraints(c);

  auto sim = py::reinterpret_borrow<py::class_<Simulation>>(m.attr("Simulation"));
  sim.def_property_readonly(
      "multibody",
      [](py::object self) -> MultibodySystem& {
        MultibodySystem* system = &self.cast<Simulation&>().multibody();
        if (workspaces().find(system) == workspaces().end()) {
          // The query workspace goes with the Simulation's Python object (see workspaces()).
          workspaces().emplace(system, nullptr);
          py::weakref(self, py::cpp_function([system](py::handle ref) {
                        workspaces().erase(system);
                        ref.dec_ref();
                      }))
              .release();
        }
        return *system;
      },
      py::return_value_policy::reference_internal,
      "The MultibodySystem of this simulation: bodies, hinges, nodes, Q and U, frame "
      "queries, energies and dynamics. Valid while the simulation lives.");

  m.def(
      "cpu_kernels", [] { return std::string(cpuKernelsName(activeCpuKernels())); },
      "The compiled variant of the multibody kernels this process runs: 'x86-64-v3' (AVX2 and "
      "FMA) on CPUs that have it, 'generic' on others or when the environment variable "
      "HOPSIM_CPU_KERNELS is 'generic' (the same variant on every machine). The two agree to "
      "round-off, not bit for bit. Raises InputError if HOPSIM_CPU_KERNELS is not auto, "
      "generic or x86-64-v3, or asks for x86-64-v3 where it is not available.");
}

}  // namespace hopsim::python
