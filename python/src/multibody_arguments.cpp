// The Python arguments of the multibody bindings (multibody.cpp, spatial_types.cpp), converted
// and checked: numbers to Eigen vectors and matrices (shape, finiteness), rotations and poses,
// bodies, nodes and frames given by name or index (with suggestions for unknown names), Q, U and
// body forces. Every bad argument raises a hopsim error naming the argument and what was expected.

#include "multibody_arguments.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim::python {
namespace {

using multibody::BodyIndex;
using multibody::Frame;
using multibody::MultibodyModel;
using multibody::NodeIndex;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialForce;
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

}  // namespace

/// A 1-D array of `n` finite numbers (any length for n < 0).
Eigen::VectorXd vectorArg(py::handle object, const std::string& what, Eigen::Index n,
                          const std::string& size) {
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

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

// ---- state and forces -------------------------------------------------------------------------

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

}  // namespace hopsim::python
