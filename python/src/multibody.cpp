// The multibody system from Python: build trees procedurally (bodies, hinges, nodes), query
// frames, energies and momenta, the mass matrix and the dynamics (docs/multibody.md, "From
// Python"). The C++ engine is the authority: each method converts its arguments, calls the
// engine and converts the result. Spatial vectors travel as numpy arrays of 6 numbers
// [angular; linear], poses as RigidTransform, quaternions scalar first, as in C++.
//
// The queries evaluate the engine's algorithms on a workspace (MultibodyData) kept per
// MultibodySystem in this file, not on the simulation's own data: a query must not disturb what
// the models read inside a hop, and it may ask about any Q and U, not only the integrated ones.

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bindings.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/frames.h"
#include "hopsim/core/multibody/jacobian.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/multibody/rnea.h"
#include "hopsim/core/multibody_system.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim::python {
namespace {

using multibody::BodyIndex;
using multibody::Frame;
using multibody::FrameKind;
using multibody::Hinge;
using multibody::HingeType;
using multibody::MultibodyData;
using multibody::MultibodyModel;
using multibody::NodeIndex;
using multibody::SubhingeType;
using spatial::Matrix3;
using spatial::Quaternion;
using spatial::RigidTransform;
using spatial::SpatialForce;
using spatial::SpatialInertia;
using spatial::SpatialMotion;
using spatial::Vector3;
using spatial::Vector6;

// ---- numeric arguments ------------------------------------------------------------------------

/// "a list [1, 'x']": the Python type and a short repr, for messages.
std::string describeObject(py::handle object) {
  std::string text = py::repr(object).cast<std::string>();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return std::string("a ") + Py_TYPE(object.ptr())->tp_name + " " + text;
}

std::string shapeText(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(a.shape(i));
  }
  return s + (a.ndim() == 1 ? ",)" : ")");
}

/// `object` as a C-contiguous float64 array. Accepts numpy arrays and (nested) sequences of
/// ints and floats; anything else (strings, None, bools, mixed objects) is a TypeMismatchError
/// naming `what` and the `expected` shape.
py::array_t<double> numericArray(py::handle object, const std::string& what,
                                 const std::string& expected) {
  const auto mismatch = [&] {
    return TypeMismatchError(what + ": expected " + expected + ", got " + describeObject(object));
  };
  if (object.is_none() || py::isinstance<py::str>(object) || py::isinstance<py::bytes>(object)) {
    throw mismatch();
  }
  // The array as it is (no cast), to refuse strings and objects numpy would happily convert.
  const py::array raw = py::array::ensure(object);  // clears the Python error on failure
  if (!raw) throw mismatch();
  const char kind = raw.dtype().kind();
  if (kind != 'i' && kind != 'u' && kind != 'f') throw mismatch();
  return py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(raw);
}

/// A 1-D array of `n` finite numbers (any length for n < 0).
Eigen::VectorXd vectorArg(py::handle object, const std::string& what, Eigen::Index n,
                          const std::string& size = "") {
  const std::string expected = n < 0 ? "a 1-D array of numbers"
                                     : "a vector of " + (size.empty() ? "" : size + " = ") +
                                           std::to_string(n) + " numbers (shape (" +
                                           std::to_string(n) + ",))";
  const py::array_t<double> a = numericArray(object, what, expected);
  if (a.ndim() != 1 || (n >= 0 && a.shape(0) != n)) {
    throw InputError(what + ": expected " + expected + ", got an array of shape " + shapeText(a));
  }
  Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXd>(a.data(), a.shape(0));
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      throw InputError(what + ": element " + std::to_string(i) + " is " +
                       py::repr(py::float_(v[i])).cast<std::string>() +
                       "; expected finite numbers");
    }
  }
  return v;
}

Vector3 vector3Arg(py::handle object, const std::string& what) {
  return vectorArg(object, what, 3);
}

Vector6 vector6Arg(py::handle object, const std::string& what) {
  return vectorArg(object, what, 6);
}

/// A rows x cols matrix of finite numbers.
Eigen::MatrixXd matrixArg(py::handle object, const std::string& what, Eigen::Index rows,
                          Eigen::Index cols) {
  const std::string shape = "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
  const std::string expected =
      "a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix (shape " + shape + ")";
  const py::array_t<double> a = numericArray(object, what, expected);
  if (a.ndim() != 2 || a.shape(0) != rows || a.shape(1) != cols) {
    throw InputError(what + ": expected " + expected + ", got an array of shape " + shapeText(a));
  }
  // numpy is row-major; Eigen's default column-major.
  Eigen::MatrixXd m =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          a.data(), rows, cols);
  if (!m.allFinite())
    throw InputError(what + ": expected finite numbers, got " + describeObject(object));
  return m;
}

Matrix3 matrix3Arg(py::handle object, const std::string& what) {
  return matrixArg(object, what, 3, 3);
}

/// A rotation matrix, checked orthonormal with determinant +1 to 1e-9.
Matrix3 rotationArg(py::handle object, const std::string& what) {
  const Matrix3 R = matrix3Arg(object, what);
  if (!spatial::isRotation(R, 1e-9)) {
    std::ostringstream os;
    os << what << ": not a rotation matrix (max |RᵀR - 1| = "
       << (R.transpose() * R - Matrix3::Identity()).cwiseAbs().maxCoeff()
       << ", det R = " << R.determinant()
       << "); expected an orthonormal 3x3 matrix with determinant +1 (to 1e-9)";
    throw InputError(os.str());
  }
  return R;
}

RigidTransform poseArg(py::handle object, const std::string& what) {
  if (object.is_none()) return RigidTransform();
  if (py::isinstance<RigidTransform>(object)) return object.cast<RigidTransform>();
  throw TypeMismatchError(what + ": expected a RigidTransform (or None for the identity), got " +
                          describeObject(object));
}

// ---- names ------------------------------------------------------------------------------------

std::vector<std::string> bodyNames(const MultibodyModel& model) {
  std::vector<std::string> names;
  for (BodyIndex b = 0; b < model.bodyCount(); ++b) names.push_back(model.bodyName(b));
  return names;
}

std::vector<std::string> nodeNames(const MultibodyModel& model) {
  std::vector<std::string> names;
  for (NodeIndex n = 0; n < model.nodeCount(); ++n) names.push_back(model.node(n).name);
  return names;
}

// Lookups by name without allocating (the model's own lookups throw without suggestions).
BodyIndex findBody(const MultibodyModel& model, std::string_view name) {
  for (BodyIndex b = 0; b < model.bodyCount(); ++b) {
    if (model.bodyName(b) == name) return b;
  }
  return -1;
}

NodeIndex findNode(const MultibodyModel& model, std::string_view name) {
  for (NodeIndex n = 0; n < model.nodeCount(); ++n) {
    if (model.node(n).name == name) return n;
  }
  return -1;
}

/// " (did you mean ...?)", or the list of names when none is close (at most 12 of them).
std::string suggestions(const std::string& wanted, const std::vector<std::string>& names,
                        const std::string& kind) {
  const std::string close = didYouMean(wanted, names);
  if (!close.empty()) return close;
  if (names.empty()) return " (there are no " + kind + "s)";
  std::string list;
  for (std::size_t i = 0; i < names.size() && i < 12; ++i) {
    list += (i > 0 ? ", '" : "'") + names[i] + "'";
  }
  if (names.size() > 12) list += ", ...";
  return " (the " + kind + "s are " + list + ")";
}

bool isInteger(py::handle object) {
  return py::isinstance<py::int_>(object) && !py::isinstance<py::bool_>(object);
}

/// A body given by name or index; the world is "world" or 0.
BodyIndex bodyArg(const MultibodyModel& model, py::handle body, const std::string& what) {
  if (isInteger(body)) {
    const auto b = body.cast<long long>();
    if (b < 0 || b >= model.bodyCount()) {
      throw InputError(what + ": body index " + std::to_string(b) +
                       " does not exist (expected 0.." + std::to_string(model.bodyCount() - 1) +
                       ", 0 being the world)");
    }
    return static_cast<BodyIndex>(b);
  }
  if (py::isinstance<py::str>(body)) {
    const auto name = body.cast<std::string>();
    const BodyIndex b = findBody(model, name);
    if (b < 0) {
      throw NotFoundError(what + ": no body named '" + name + "'" +
                          suggestions(name, bodyNames(model), "body"));
    }
    return b;
  }
  throw TypeMismatchError(what + ": a body is given by name (str) or index (int), got " +
                          describeObject(body));
}

/// A body other than the world.
BodyIndex movingBodyArg(const MultibodyModel& model, py::handle body, const std::string& what) {
  const BodyIndex b = bodyArg(model, body, what);
  if (b == multibody::kWorldBody) {
    throw InputError(what +
                     ": the world has no hinge, coordinates or mass properties; expected "
                     "one of the other bodies");
  }
  return b;
}

NodeIndex nodeArg(const MultibodyModel& model, py::handle node, const std::string& what) {
  if (isInteger(node)) {
    const auto n = node.cast<long long>();
    if (n < 0 || n >= model.nodeCount()) {
      throw InputError(what + ": node index " + std::to_string(n) +
                       " does not exist (the model has " + std::to_string(model.nodeCount()) +
                       " nodes)");
    }
    return static_cast<NodeIndex>(n);
  }
  if (py::isinstance<py::str>(node)) {
    const auto name = node.cast<std::string>();
    const NodeIndex n = findNode(model, name);
    if (n < 0) {
      throw NotFoundError(what + ": no node named '" + name + "'" +
                          suggestions(name, nodeNames(model), "node"));
    }
    return n;
  }
  throw TypeMismatchError(what + ": a node is given by name (str) or index (int), got " +
                          describeObject(node));
}

/// Every frame name a query accepts, for suggestions.
std::vector<std::string> frameNames(const MultibodyModel& model) {
  std::vector<std::string> names{"world"};
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    names.push_back(model.bodyName(b));
    names.push_back("body:" + model.bodyName(b));
    names.push_back("inboard:" + model.bodyName(b));
    names.push_back("outboard:" + model.bodyName(b));
  }
  for (NodeIndex n = 0; n < model.nodeCount(); ++n) {
    names.push_back(model.node(n).name);
    names.push_back("node:" + model.node(n).name);
  }
  return names;
}

/// A frame: "world", "body:<b>", "node:<n>", "inboard:<b>", "outboard:<b>", a bare body or node
/// name (when it names only one of them), or a body index.
Frame frameArg(const MultibodyModel& model, py::handle frame, const std::string& what) {
  if (isInteger(frame)) return Frame::body(bodyArg(model, frame, what));
  if (!py::isinstance<py::str>(frame)) {
    throw TypeMismatchError(what +
                            ": a frame is given by name ('world', 'body:<body>', "
                            "'node:<node>', 'inboard:<body>', 'outboard:<body>' or a bare "
                            "body or node name) or by body index, got " +
                            describeObject(frame));
  }
  const auto name = frame.cast<std::string>();
  if (name == "world") return Frame::world();
  const auto colon = name.find(':');
  if (colon != std::string::npos) {
    const std::string scheme = name.substr(0, colon);
    const std::string rest = name.substr(colon + 1);
    if (scheme == "body") return Frame::body(bodyArg(model, py::str(rest), what));
    if (scheme == "node") return Frame::node(nodeArg(model, py::str(rest), what));
    if (scheme == "inboard" || scheme == "outboard") {
      const BodyIndex b = movingBodyArg(model, py::str(rest), what);
      return scheme == "inboard" ? Frame::hingeInboard(b) : Frame::hingeOutboard(b);
    }
    throw NotFoundError(what + ": no frame '" + name + "'" + didYouMean(name, frameNames(model)) +
                        "; expected 'world', 'body:<body>', 'node:<node>', 'inboard:<body>' "
                        "or 'outboard:<body>'");
  }
  const BodyIndex b = findBody(model, name);
  const NodeIndex n = findNode(model, name);
  if (b >= 0 && n >= 0) {
    throw InputError(what + ": '" + name + "' names both a body and a node; write 'body:" + name +
                     "' or 'node:" + name + "'");
  }
  if (b >= 0) return Frame::body(b);
  if (n >= 0) return Frame::node(n);
  throw NotFoundError(what + ": no frame '" + name + "' (neither a body nor a node)" +
                      didYouMean(name, frameNames(model)));
}

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

/// The Q to evaluate at: `q`, or the system's current Q.
Eigen::VectorXd qArg(MultibodySystem& system, py::handle q, const std::string& what) {
  if (q.is_none()) return system.q();
  return vectorArg(q, what + ": q", system.model().nq(), "nq");
}

Eigen::VectorXd uArg(MultibodySystem& system, py::handle u, const std::string& what) {
  if (u.is_none()) return system.u();
  return vectorArg(u, what + ": u", system.model().nu(), "nu");
}

/// External forces {body: [n; f] about Bo in B} as one SpatialForce per body (empty for None).
std::vector<SpatialForce> bodyForcesArg(const MultibodyModel& model, py::handle forces,
                                        const std::string& what) {
  std::vector<SpatialForce> F;
  if (forces.is_none()) return F;
  if (!py::isinstance<py::dict>(forces)) {
    throw TypeMismatchError(what +
                            ": body_forces: expected a dict {body: [n (3); f (3)]} or None, got " +
                            describeObject(forces));
  }
  F.assign(static_cast<std::size_t>(model.bodyCount()), SpatialForce());
  for (const auto& [key, value] : forces.cast<py::dict>()) {
    const std::string where = what + ": body_forces[" + py::repr(key).cast<std::string>() + "]";
    const BodyIndex b = movingBodyArg(model, key, where);
    F[static_cast<std::size_t>(b)] += SpatialForce(vector6Arg(value, where));
  }
  return F;
}

// ---- results ----------------------------------------------------------------------------------

/// The scalars and vectors of computeEnergyAndMomentum, copied out of the workspace.
struct EnergyAndMomentum {
  double kineticEnergy;
  double potentialEnergy;
  double totalMass;
  Vector3 centerOfMass;
  Vector3 linearMomentum;
  Vector3 angularMomentum;  // about Wo, in W
};

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

std::string formatVector(const Eigen::VectorXd& v) {
  std::ostringstream os;
  os.precision(6);
  os << "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) os << (i > 0 ? ", " : "") << v[i];
  os << "]";
  return os.str();
}

std::string hingeRepr(const Hinge& h) {
  std::string text = "Hinge(" + std::string(multibody::toString(h.type()));
  for (int k = 0; k < h.subhingeCount(); ++k) {
    const auto type = h.subhinge(k).type;
    if (type == SubhingeType::Pin || type == SubhingeType::Slider) {
      text += (k == 0 ? ", axes=" : ", ") + formatVector(h.subhinge(k).axis);
    }
  }
  return text + ")";
}

// ---- bindings ---------------------------------------------------------------------------------

void bindRigidTransform(py::module_& m) {
  py::class_<RigidTransform>(
      m, "RigidTransform",
      "The pose X_AB of a frame B in a frame A: the rotation R_AB (3x3, its columns are B's axes "
      "expressed in A, so v_A = R_AB v_B) and the translation p_AoBo_A (m, B's origin from A's, "
      "in A). `X_AB @ X_BC` composes to X_AC; `X_AB @ p_B` maps a point from B to A. "
      "Quaternions are scalar first, [e0, e1, e2, e3] = [cos(θ/2), sin(θ/2) n].")
      .def(py::init([](py::object rotation, py::object translation) {
             return RigidTransform(
                 rotation.is_none() ? Matrix3(Matrix3::Identity())
                                    : rotationArg(rotation, "RigidTransform: rotation"),
                 translation.is_none() ? Vector3(Vector3::Zero())
                                       : vector3Arg(translation, "RigidTransform: translation"));
           }),
           py::arg("rotation") = py::none(), py::arg("translation") = py::none(),
           "X_AB from R_AB (3x3 rotation matrix, checked orthonormal with det +1 to 1e-9; None: "
           "identity) and p_AoBo_A (3 numbers, m; None: zero).")
      .def_static("identity", &RigidTransform::Identity, "The identity pose.")
      .def_static(
          "from_translation",
          [](py::object p) {
            return RigidTransform::fromTranslation(vector3Arg(p, "from_translation: translation"));
          },
          py::arg("translation"), "A pure translation p_AoBo_A (m).")
      .def_static(
          "from_rotation",
          [](py::object R) {
            return RigidTransform::fromRotation(rotationArg(R, "from_rotation: rotation"));
          },
          py::arg("rotation"), "A pure rotation R_AB.")
      .def_static(
          "from_quaternion",
          [](py::object q, py::object p) {
            const Quaternion qv = spatial::normalizeQuaternion(
                vectorArg(q, "from_quaternion: quaternion", 4), "from_quaternion: quaternion");
            return RigidTransform::fromQuaternion(
                qv, p.is_none() ? Vector3(Vector3::Zero())
                                : vector3Arg(p, "from_quaternion: translation"));
          },
          py::arg("quaternion"), py::arg("translation") = py::none(),
          "X_AB from q_AB, scalar first [e0, e1, e2, e3] (normalized here), and p_AoBo_A (m).")
      .def_static(
          "from_axis_angle",
          [](py::object axis, double angle, py::object p) {
            return RigidTransform(
                spatial::rotationFromAxisAngle(vector3Arg(axis, "from_axis_angle: axis"), angle),
                p.is_none() ? Vector3(Vector3::Zero())
                            : vector3Arg(p, "from_axis_angle: translation"));
          },
          py::arg("axis"), py::arg("angle"), py::arg("translation") = py::none(),
          "B rotated from A by `angle` (rad, right hand) about `axis` (need not be unit), with "
          "origin at p_AoBo_A (m).")
      .def_static(
          "from_euler",
          [](const std::string& sequence, py::object angles, bool intrinsic, py::object p) {
            return RigidTransform(
                spatial::rotationFromEuler(
                    spatial::eulerSequenceFromString(sequence),
                    vector3Arg(angles, "from_euler: angles"),
                    intrinsic ? spatial::EulerAxes::Intrinsic : spatial::EulerAxes::Extrinsic),
                p.is_none() ? Vector3(Vector3::Zero()) : vector3Arg(p, "from_euler: translation"));
          },
          py::arg("sequence"), py::arg("angles"), py::arg("intrinsic") = true,
          py::arg("translation") = py::none(),
          "R_AB from three angles (rad) of an Euler/Cardan sequence ('XYZ', 'ZXZ', ...): "
          "intrinsic (body-fixed axes, R = R_i(a) R_j(b) R_k(c); a GIMBAL hinge) or extrinsic "
          "(space-fixed axes, R = R_k(c) R_j(b) R_i(a)).")
      .def_static(
          "from_matrix",
          [](py::object T) {
            const Eigen::MatrixXd H = matrixArg(T, "from_matrix: matrix", 4, 4);
            if (H.row(3) != Eigen::RowVector4d(0, 0, 0, 1)) {
              throw InputError("from_matrix: matrix: the last row is " +
                               formatVector(H.row(3).transpose()) +
                               "; expected [0, 0, 0, 1] (a homogeneous transform)");
            }
            return RigidTransform(rotationArg(py::cast(Matrix3(H.topLeftCorner<3, 3>())),
                                              "from_matrix: matrix[:3, :3]"),
                                  Vector3(H.topRightCorner<3, 1>()));
          },
          py::arg("matrix"), "X_AB from its 4x4 homogeneous matrix [[R_AB, p_AoBo_A], [0, 1]].")
      .def_property_readonly(
          "rotation", [](const RigidTransform& X) { return X.rotation(); }, "R_AB (3x3, a copy).")
      .def_property_readonly(
          "translation", [](const RigidTransform& X) { return X.translation(); },
          "p_AoBo_A (m, a copy).")
      .def_property_readonly("quaternion", &RigidTransform::quaternion,
                             "q_AB scalar first [e0, e1, e2, e3], canonical (e0 >= 0).")
      .def_property_readonly("matrix", &RigidTransform::matrix,
                             "The 4x4 homogeneous matrix [[R_AB, p_AoBo_A], [0, 0, 0, 1]].")
      .def("inverse", &RigidTransform::inverse, "X_BA = X_AB⁻¹.")
      .def(
          "__matmul__",
          [](const RigidTransform& X, py::object other) -> py::object {
            if (py::isinstance<RigidTransform>(other)) {
              return py::cast(X * other.cast<RigidTransform>());
            }
            return py::cast(X.applyToPoint(vector3Arg(other, "RigidTransform @ point")));
          },
          py::arg("other"),
          "X_AB @ X_BC is the composition X_AC; X_AB @ p_BoQ_B is the point p_AoQ_A (m).")
      .def(
          "apply_to_point",
          [](const RigidTransform& X, py::object p) {
            return X.applyToPoint(vector3Arg(p, "apply_to_point: point"));
          },
          py::arg("point"), "p_AoQ_A = R_AB p_BoQ_B + p_AoBo_A (m).")
      .def(
          "apply_to_vector",
          [](const RigidTransform& X, py::object v) {
            return X.applyToVector(vector3Arg(v, "apply_to_vector: vector"));
          },
          py::arg("vector"), "A free vector re-expressed from B to A: v_A = R_AB v_B.")
      .def("is_approx", &RigidTransform::isApprox, py::arg("other"), py::arg("tolerance") = 1e-12,
           "Whether both poses agree within `tolerance` (max-abs over R and over p in m).")
      .def("__repr__", [](const RigidTransform& X) {
        return "RigidTransform(quaternion=" + formatVector(X.quaternion()) +
               ", translation=" + formatVector(X.translation()) + ")";
      });
}

void bindSpatialInertia(py::module_& m) {
  py::class_<SpatialInertia>(
      m, "SpatialInertia",
      "The mass properties of a rigid body about its body frame origin Bo, in B's axes: the "
      "mass m (kg), the CM position p_BoBcm_B (m) and the rotational inertia about the CM "
      "I_Bcm_B (kg·m², the tensor [[Ixx, -Pxy, -Pxz], ...] with products Pxy = +∫xy dm).")
      .def(py::init([](double mass, py::object com, py::object inertia) {
             return SpatialInertia::fromCmInertia(
                 mass,
                 com.is_none() ? Vector3(Vector3::Zero()) : vector3Arg(com, "SpatialInertia: com"),
                 inertia.is_none() ? Matrix3(Matrix3::Zero())
                                   : matrix3Arg(inertia, "SpatialInertia: inertia"),
                 "SpatialInertia");
           }),
           py::arg("mass"), py::arg("com") = py::none(), py::arg("inertia") = py::none(),
           "A body of `mass` (kg, finite and positive) with its CM at `com` = p_BoBcm_B (m; "
           "None: at Bo) and the inertia tensor `inertia` ABOUT THE CM in B's axes (kg·m²; "
           "None: zero, a point mass). Raises InputError for invalid values (negative or "
           "non-symmetric inertia, triangle inequality violated).")
      .def_static(
          "from_origin_inertia",
          [](double mass, py::object com, py::object inertia) {
            return SpatialInertia::fromOriginInertia(
                mass, vector3Arg(com, "from_origin_inertia: com"),
                matrix3Arg(inertia, "from_origin_inertia: inertia"), "from_origin_inertia");
          },
          py::arg("mass"), py::arg("com"), py::arg("inertia"),
          "A body whose inertia tensor is given about the body frame origin Bo (kg·m²; the "
          "seed's `inertia` parameter): I_Bcm = I_BBo + m c̃c̃.")
      .def_static(
          "point_mass",
          [](double mass, py::object p) {
            return SpatialInertia::pointMass(mass, vector3Arg(p, "point_mass: position"),
                                             "point_mass");
          },
          py::arg("mass"), py::arg("position") = Vector3(Vector3::Zero()),
          "A point mass (kg) at p_BoQ_B (m).")
      .def_property_readonly("mass", &SpatialInertia::mass, "m (kg).")
      .def_property_readonly(
          "com", [](const SpatialInertia& M) { return M.comPosition(); }, "p_BoBcm_B (m).")
      .def_property_readonly(
          "inertia", [](const SpatialInertia& M) { return M.rotationalInertiaAboutCm(); },
          "I_Bcm_B, the inertia tensor about the CM in B's axes (kg·m²).")
      .def_property_readonly("inertia_about_origin", &SpatialInertia::rotationalInertiaAboutOrigin,
                             "I_BBo_B, the inertia tensor about Bo in B's axes (kg·m²).")
      .def_property_readonly("matrix", &SpatialInertia::matrix,
                             "The 6x6 matrix [[I_BBo_B, m c̃], [-m c̃, m 1]] acting on [ω; v_Bo].")
      .def(
          "transformed",
          [](const SpatialInertia& M, const RigidTransform& X_AB) { return M.transformed(X_AB); },
          py::arg("X_AB"),
          "The same body's mass properties about Ao in A, for X_AB the pose of B in A.")
      .def(
          "__add__", [](const SpatialInertia& a, const SpatialInertia& b) { return a + b; },
          "The composite of two bodies given about the same point in the same frame.")
      .def("__repr__", [](const SpatialInertia& M) {
        std::ostringstream os;
        os.precision(6);
        const Matrix3 I = M.rotationalInertiaAboutCm();
        os << "SpatialInertia(mass=" << M.mass() << ", com=" << formatVector(M.comPosition())
           << ", inertia diag=" << formatVector(I.diagonal()) << ")";
        return os.str();
      });
}

void bindHinges(py::module_& m) {
  py::enum_<HingeType>(m, "HingeType", "The hinge types (docs/multibody.md, Hinges).")
      .value("LOCKED", HingeType::Locked)
      .value("PIN", HingeType::Pin)
      .value("SLIDER", HingeType::Slider)
      .value("CYLINDRICAL", HingeType::Cylindrical)
      .value("UJOINT", HingeType::Ujoint)
      .value("GIMBAL", HingeType::Gimbal)
      .value("BALL", HingeType::Ball)
      .value("PLANAR", HingeType::Planar)
      .value("TRANSLATIONAL", HingeType::Translational)
      .value("FULL6DOF", HingeType::Full6Dof)
      .value("FULL6DOF_INERTIAL", HingeType::Full6DofInertial);
  py::enum_<SubhingeType>(m, "SubhingeType", "The elementary joints hinges are made of.")
      .value("PIN", SubhingeType::Pin)
      .value("SLIDER", SubhingeType::Slider)
      .value("BALL", SubhingeType::Ball)
      .value("FREE", SubhingeType::Free)
      .value("FREE_INERTIAL", SubhingeType::FreeInertial);

  const auto axis = [](py::object a, const char* what) { return vector3Arg(a, what); };
  py::class_<Hinge>(
      m, "Hinge",
      "A hinge: the joint between a body and its parent, a chain of subhinges moving the "
      "hinge's outboard frame M (on the body) relative to its inboard frame F (on the parent). "
      "Axes are in the inboard frame of their subhinge (the first in F) and are normalized. Q and "
      "U of each type: docs/multibody.md, Hinges (angles rad, offsets m, quaternions scalar "
      "first).")
      .def_static("locked", &Hinge::locked, "LOCKED: no degree of freedom, M = F.")
      .def_static(
          "pin", [=](py::object a) { return Hinge::pin(axis(a, "Hinge.pin: axis")); },
          py::arg("axis"), "PIN: rotation θ (rad) about `axis` (in F). Q = [θ], U = [θ̇].")
      .def_static(
          "slider", [=](py::object a) { return Hinge::slider(axis(a, "Hinge.slider: axis")); },
          py::arg("axis"), "SLIDER: translation d (m) along `axis` (in F). Q = [d], U = [ḋ].")
      .def_static(
          "cylindrical",
          [=](py::object a) { return Hinge::cylindrical(axis(a, "Hinge.cylindrical: axis")); },
          py::arg("axis"), "CYLINDRICAL: translation then rotation along/about `axis`. Q = [d, θ].")
      .def_static(
          "ujoint",
          [=](py::object a1, py::object a2) {
            return Hinge::ujoint(axis(a1, "Hinge.ujoint: axis1"), axis(a2, "Hinge.ujoint: axis2"));
          },
          py::arg("axis1"), py::arg("axis2"),
          "UJOINT: θ1 about axis1 (in F), then θ2 about axis2 (in the rotated frame).")
      .def_static(
          "gimbal",
          [=](py::object a1, py::object a2, py::object a3) {
            return Hinge::gimbal(axis(a1, "Hinge.gimbal: axis1"), axis(a2, "Hinge.gimbal: axis2"),
                                 axis(a3, "Hinge.gimbal: axis3"));
          },
          py::arg("axis1") = Vector3(Vector3::UnitX()),
          py::arg("axis2") = Vector3(Vector3::UnitY()),
          py::arg("axis3") = Vector3(Vector3::UnitZ()),
          "GIMBAL: three successive rotations, R_FM = R(n1, θ1) R(n2, θ2) R(n3, θ3) (default "
          "x, y, z: intrinsic XYZ).")
      .def_static("ball", &Hinge::ball, "BALL: free rotation. Q = q_FM (4), U = ω_FM_M (3).")
      .def_static(
          "planar",
          [=](py::object a1, py::object a2) {
            return Hinge::planar(axis(a1, "Hinge.planar: axis1"), axis(a2, "Hinge.planar: axis2"));
          },
          py::arg("axis1") = Vector3(Vector3::UnitX()),
          py::arg("axis2") = Vector3(Vector3::UnitY()),
          "PLANAR: translations along axis1 then axis2 (in F; no rotation).")
      .def_static(
          "translational",
          [=](py::object a1, py::object a2, py::object a3) {
            return Hinge::translational(axis(a1, "Hinge.translational: axis1"),
                                        axis(a2, "Hinge.translational: axis2"),
                                        axis(a3, "Hinge.translational: axis3"));
          },
          py::arg("axis1") = Vector3(Vector3::UnitX()),
          py::arg("axis2") = Vector3(Vector3::UnitY()),
          py::arg("axis3") = Vector3(Vector3::UnitZ()),
          "TRANSLATIONAL: translations along three axes (in F).")
      .def_static("full6dof", &Hinge::full6Dof,
                  "FULL6DOF: Q = [q_FM (4); p_FoMo_F (3)], U = [ω_FM_M; v_FMo_M] (rates in M).")
      .def_static("full6dof_inertial", &Hinge::full6DofInertial,
                  "FULL6DOF_INERTIAL: Q = [q_FM; p_FoMo_F], U = [ω_FM_F; v_FMo_F] (rates in F).")
      .def_property_readonly("type", &Hinge::type, "The HingeType.")
      .def_property_readonly("nq", &Hinge::nq, "Number of coordinates Q.")
      .def_property_readonly("nu", &Hinge::nu, "Number of rates U (degrees of freedom).")
      .def_property_readonly("subhinge_count", &Hinge::subhingeCount, "Number of subhinges.")
      .def_property_readonly(
          "subhinge_types",
          [](const Hinge& h) {
            std::vector<SubhingeType> types;
            for (int k = 0; k < h.subhingeCount(); ++k) types.push_back(h.subhinge(k).type);
            return types;
          },
          "The SubhingeType of each subhinge, in chain order.")
      .def_property_readonly(
          "axes",
          [](const Hinge& h) {
            std::vector<Vector3> axes;
            for (int k = 0; k < h.subhingeCount(); ++k) axes.push_back(h.subhinge(k).axis);
            return axes;
          },
          "The unit axis of each subhinge, in its inboard frame (unused for BALL and free "
          "subhinges).")
      .def("__repr__", &hingeRepr);
}

py::class_<EnergyAndMomentum> bindEnergyAndMomentum(py::module_& m) {
  py::class_<EnergyAndMomentum> c(
      m, "EnergyAndMomentum",
      "Energies and momenta of a multibody system at one state (MultibodySystem."
      "energy_and_momentum). Potential energy is that of the uniform gravity, zero at the world "
      "origin; vectors are in the world frame W.");
  c.def_readonly("kinetic_energy", &EnergyAndMomentum::kineticEnergy, "Kinetic energy (J).")
      .def_readonly("potential_energy", &EnergyAndMomentum::potentialEnergy,
                    "Potential energy in gravity, -Σ m g·p_cm (J).")
      .def_property_readonly(
          "total_energy",
          [](const EnergyAndMomentum& e) { return e.kineticEnergy + e.potentialEnergy; },
          "kinetic_energy + potential_energy (J).")
      .def_readonly("total_mass", &EnergyAndMomentum::totalMass, "Sum of the bodies' masses (kg).")
      .def_readonly("center_of_mass", &EnergyAndMomentum::centerOfMass,
                    "The system CM p_WoScm_W (m).")
      .def_readonly("linear_momentum", &EnergyAndMomentum::linearMomentum, "L_W (kg·m/s).")
      .def_readonly("angular_momentum", &EnergyAndMomentum::angularMomentum,
                    "H about the world origin Wo, in W (kg·m²/s).")
      .def(
          "angular_momentum_about",
          [](const EnergyAndMomentum& e, py::object point) {
            // H_P = Σ (r - p) × m v = H_Wo - p × L.
            const Vector3 p = vector3Arg(point, "angular_momentum_about: point");
            return Vector3(e.angularMomentum - p.cross(e.linearMomentum));
          },
          py::arg("point"),
          "Angular momentum about the point p_WoP_W (m), in W: H_Wo - p × L (kg·m²/s).")
      .def("__repr__", [](const EnergyAndMomentum& e) {
        std::ostringstream os;
        os.precision(10);
        os << "EnergyAndMomentum(kinetic_energy=" << e.kineticEnergy
           << ", potential_energy=" << e.potentialEnergy
           << ", linear_momentum=" << formatVector(e.linearMomentum)
           << ", angular_momentum=" << formatVector(e.angularMomentum) << ")";
        return os.str();
      });
  return c;
}

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
  bindRigidTransform(m);
  bindSpatialInertia(m);
  bindHinges(m);
  bindEnergyAndMomentum(m);

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
}

}  // namespace hopsim::python
