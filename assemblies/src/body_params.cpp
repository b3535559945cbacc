#include "hopsim/assemblies/body_params.h"

#include <cmath>
#include <sstream>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/core/spatial/rotational_inertia.h"
#include "hopsim/signals/error.h"

namespace hopsim {

namespace {

using multibody::Hinge;
using multibody::HingeType;
using spatial::Vector3;

constexpr double kUnitNormTolerance = 1e-6;

/// How many axes a hinge type takes (the subhinges that have one).
std::size_t axisCount(HingeType type) {
  switch (type) {
    case HingeType::Pin:
    case HingeType::Slider:
    case HingeType::Cylindrical:
      return 1;
    case HingeType::Ujoint:
    case HingeType::Planar:
      return 2;
    case HingeType::Gimbal:
    case HingeType::Translational:
      return 3;
    default:
      return 0;
  }
}

/// Axis k of `axes` (3 numbers each), or `fallback` when no axes were given.
Vector3 axisOr(const std::vector<double>& axes, std::size_t k, const Vector3& fallback) {
  if (axes.empty()) return fallback;
  return Vector3(axes[3 * k], axes[3 * k + 1], axes[3 * k + 2]);
}

/// The hinge of `type` about `axes` (empty: the defaults of hinge.h, z for a single axis).
/// @throws InputError from the factories for zero or parallel axes.
Hinge makeHinge(HingeType type, const std::vector<double>& axes) {
  const Vector3 x = Vector3::UnitX(), y = Vector3::UnitY(), z = Vector3::UnitZ();
  switch (type) {
    case HingeType::Locked:
      return Hinge::locked();
    case HingeType::Pin:
      return Hinge::pin(axisOr(axes, 0, z));
    case HingeType::Slider:
      return Hinge::slider(axisOr(axes, 0, z));
    case HingeType::Cylindrical:
      return Hinge::cylindrical(axisOr(axes, 0, z));
    case HingeType::Ujoint:
      return Hinge::ujoint(axisOr(axes, 0, x), axisOr(axes, 1, y));
    case HingeType::Gimbal:
      return Hinge::gimbal(axisOr(axes, 0, x), axisOr(axes, 1, y), axisOr(axes, 2, z));
    case HingeType::Ball:
      return Hinge::ball();
    case HingeType::Planar:
      return Hinge::planar(axisOr(axes, 0, x), axisOr(axes, 1, y));
    case HingeType::Translational:
      return Hinge::translational(axisOr(axes, 0, x), axisOr(axes, 1, y), axisOr(axes, 2, z));
    case HingeType::Full6Dof:
      return Hinge::full6Dof();
    case HingeType::Full6DofInertial:
      return Hinge::full6DofInertial();
  }
  throw ModelError("makeHinge: unhandled hinge type");
}

/// The inertia tensor about the CM: moments on the diagonal, products (the tensor's own
/// entries) off it.
spatial::Matrix3 cmInertiaTensor(const std::vector<double>& moments,
                                 const std::vector<double>& products) {
  spatial::Matrix3 I;
  I << moments[0], products[0], products[1],  //
      products[0], moments[1], products[2],   //
      products[1], products[2], moments[2];
  return I;
}

const BodyParams& bodyKeys(const ParamSet& body) {
  const auto* keys = dynamic_cast<const BodyParams*>(&body.schema());
  if (keys == nullptr) throw ModelError("'" + body.path() + "' is not a BodyParams set");
  return *keys;
}

const HingeParams& hingeKeys(const ParamSet& hinge) {
  const auto* keys = dynamic_cast<const HingeParams*>(&hinge.schema());
  if (keys == nullptr) throw ModelError("'" + hinge.path() + "' is not a HingeParams set");
  return *keys;
}

std::string formatNorm(double norm) {
  std::ostringstream os;
  os.precision(10);
  os << norm;
  return os.str();
}

/// Checks that the quaternions inside a hinge's Q (BALL, FULL6DOF*: the first four entries)
/// are unit, so an initial attitude typed wrong is not silently renormalized away.
void checkHingeQuaternion(const ParamSet& set, HingeType type, const std::vector<double>& q) {
  const bool hasQuaternion =
      type == HingeType::Ball || type == HingeType::Full6Dof || type == HingeType::Full6DofInertial;
  if (!hasQuaternion) return;
  const double norm = Eigen::Vector4d(q[0], q[1], q[2], q[3]).norm();
  if (std::abs(norm - 1.0) > kUnitNormTolerance) {
    set.fail("q", "the quaternion q[0..3] of a " + std::string(multibody::toString(type)) +
                      " hinge is not unit (norm " + formatNorm(norm) + ")");
  }
}

}  // namespace

ParamCheck unitQuaternionCheck() {
  return {"UnitQuaternion", [](const ParamValue& value) -> std::string {
            const auto* q = std::get_if<std::vector<double>>(&value);
            if (q == nullptr || q->size() != 4) return "is not a quaternion of 4 numbers";
            const double norm = Eigen::Vector4d((*q)[0], (*q)[1], (*q)[2], (*q)[3]).norm();
            if (std::abs(norm - 1.0) <= kUnitNormTolerance) return "";
            return "is not a unit quaternion (norm " + formatNorm(norm) + ")";
          }};
}

NodeParams::NodeParams() {
  setDoc(
      "A node: a frame N fixed on a body, where sensors read and actuators apply forces, "
      "given by its origin and orientation in the body frame B.");
}

HingeParams::HingeParams() {
  setDoc(
      "The hinge between a body and its parent: its type and axes, the inboard frame F on "
      "the parent and the outboard frame M on the body that it joins, and the initial "
      "hinge coordinates Q and rates U.");
}

void HingeParams::validate(const ParamSet& set) const {
  HingeType hingeType{};
  try {
    hingeType = multibody::hingeTypeFromString(set[type]);
  } catch (const InputError& e) {
    set.fail("type", e.what());
  }
  const std::size_t nAxes = axisCount(hingeType);
  if (set.has(axes)) {
    const std::vector<double>& given = set[axes];
    if (given.size() != 3 * nAxes) {
      set.fail("axes", "a " + std::string(multibody::toString(hingeType)) + " hinge takes " +
                           std::to_string(nAxes) + " axes (" + std::to_string(3 * nAxes) +
                           " numbers), got " + std::to_string(given.size()) + " numbers");
    }
    for (std::size_t k = 0; k < nAxes; ++k) {
      if (axisOr(given, k, Vector3::Zero()).norm() == 0.0) {
        set.fail("axes", "axis " + std::to_string(k + 1) + " is zero");
      }
    }
  }
  Hinge hinge;
  try {
    hinge = makeHinge(hingeType, set.has(axes) ? set[axes] : std::vector<double>{});
  } catch (const InputError& e) {
    set.fail("axes", e.what());
  }
  const auto checkSize = [&](const char* field, const SchemaKey<std::vector<double>>& key,
                             int expected, const char* what) {
    if (!set.has(key)) return;
    const std::size_t size = set[key].size();
    if (size != static_cast<std::size_t>(expected)) {
      set.fail(field, "a " + std::string(multibody::toString(hingeType)) + " hinge has " +
                          std::to_string(expected) + " " + what + ", got " + std::to_string(size));
    }
  };
  checkSize("q", q, hinge.nq(), "coordinates Q");
  checkSize("u", u, hinge.nu(), "rates U");
  if (set.has(q)) checkHingeQuaternion(set, hingeType, set[q]);
}

BodyParams::BodyParams() {
  setDoc(
      "A rigid body: its mass, center of mass and inertia tensor about the center of mass "
      "(in the body frame B), the hinge joining it to its parent body, and its nodes.");
}

void BodyParams::validate(const ParamSet& set) const {
  try {
    spatial::checkRotationalInertia(cmInertiaTensor(set[inertia], set[products]),
                                    "inertia tensor about the CM (inertia and products)");
  } catch (const InputError& e) {
    set.fail("inertia", e.what());
  }
}

spatial::SpatialInertia bodyInertia(const ParamSet& body) {
  const BodyParams& keys = bodyKeys(body);
  const std::vector<double>& cm = body[keys.cm];
  return spatial::SpatialInertia::fromCmInertia(
      body[keys.mass], Vector3(cm[0], cm[1], cm[2]),
      cmInertiaTensor(body[keys.inertia], body[keys.products]), body.path());
}

multibody::Hinge bodyHinge(const ParamSet& hinge) {
  const HingeParams& keys = hingeKeys(hinge);
  return makeHinge(multibody::hingeTypeFromString(hinge[keys.type]),
                   hinge.has(keys.axes) ? hinge[keys.axes] : std::vector<double>{});
}

spatial::RigidTransform poseFrom(const std::vector<double>& position,
                                 const std::vector<double>& quaternion) {
  const spatial::Quaternion q(quaternion[0], quaternion[1], quaternion[2], quaternion[3]);
  return spatial::RigidTransform::fromQuaternion(q.normalized(),
                                                 Vector3(position[0], position[1], position[2]));
}

// ---- the Assembly helpers that build from BodyParams ----------------------------------------

MultibodySystem::BodyIndex Assembly::addBody(const std::string& name, const ParamSet& body,
                                             std::optional<std::string> parent) {
  const BodyParams& keys = bodyKeys(body);
  const ParamSet& hinge = body[keys.hinge];
  const HingeParams& h = hingeKeys(hinge);
  const MultibodySystem::BodyIndex b =
      addBody(name, bodyInertia(body), bodyHinge(hinge),
              poseFrom(hinge[h.inboardPosition], hinge[h.inboardOrientation]),
              poseFrom(hinge[h.outboardPosition], hinge[h.outboardOrientation]), std::move(parent));
  const RecordList& nodes = body[keys.nodes];
  const NodeParams& n = *schemaOf<NodeParams>();
  multibody::MultibodyModel& tree = sim().multibody().editModel();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const ParamSet& node = nodes.sets[i];
    tree.addNode(nodes.names[i], b, poseFrom(node[n.position], node[n.orientation]));
  }
  return b;
}

void Assembly::setBodyState(const std::string& name, const ParamSet& body) {
  const ParamSet& hinge = body[bodyKeys(body).hinge];
  const HingeParams& h = hingeKeys(hinge);
  MultibodySystem& mb = sim().multibody();
  const MultibodySystem::BodyIndex b = mb.model().bodyIndex(name);
  // HingeParams::validate has checked the sizes against the hinge type the body was built with.
  if (hinge.has(h.q)) {
    const std::vector<double>& q = hinge[h.q];
    mb.q(b) = Eigen::Map<const Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(q.size()));
  }
  if (hinge.has(h.u)) {
    const std::vector<double>& u = hinge[h.u];
    mb.u(b) = Eigen::Map<const Eigen::VectorXd>(u.data(), static_cast<Eigen::Index>(u.size()));
  }
}

}  // namespace hopsim
