#include "hopsim/models/cm_frame_state_sensor.h"

#include <array>
#include <cmath>
#include <numbers>
#include <sstream>
#include <string_view>

#include "enum_name.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::Matrix3;
using spatial::Vector3;

namespace {

constexpr std::array<std::string_view, 4> kFrameNames = {"VELOCITY_ALIGN", "LVLH", "UVW", "CW"};
constexpr std::array<std::string_view, 3> kCenterNames = {"FIXED", "COMPONENT", "COMPOSITE"};
constexpr std::array<std::string_view, 2> kVelocityNames = {"INERTIAL", "RELATIVE"};
constexpr std::array<std::string_view, 2> kModuloNames = {"ZERO_TO_TWO_PI", "MINUS_PI_TO_PI"};

/// The matrix whose columns are the frame's axes x, y, z (R_WF).
Matrix3 fromAxes(const Vector3& x, const Vector3& y, const Vector3& z) {
  Matrix3 R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = z;
  return R;
}

/// a in [0, 2 pi) or [-pi, pi).
double wrapAngle(double a, bool zeroToTwoPi) {
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  const double offset = zeroToTwoPi ? 0.0 : std::numbers::pi;
  double w = a + offset - kTwoPi * std::floor((a + offset) / kTwoPi);
  if (w >= kTwoPi) w = 0.0;  // a tiny negative a + offset rounds up to 2 pi
  return w - offset;
}

}  // namespace

CmFrameStateSensor::Declaration::Declaration()
    : ModelSpec("CmFrameStateSensor", ModelKind::Sensor,
                "A node's attitude q_FN and Euler angles relative to an orbital frame F "
                "(VELOCITY_ALIGN, LVLH, UVW or CW) at the node origin, its body's CM or its "
                "vehicle's CM, oriented by that point's position and inertial or "
                "planet-relative velocity; no feed-through.") {}

const CmFrameStateSensor::Declaration& CmFrameStateSensor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void CmFrameStateSensor::processParams(double /*t*/) {
  frameType_ = static_cast<FrameType>(
      detail::parseEnumName(*this, "frameType", param(d_.frameType), kFrameNames));
  centerOfMass_ = static_cast<CenterOfMass>(
      detail::parseEnumName(*this, "centerOfMassType", param(d_.centerOfMassType), kCenterNames));
  relative_ = detail::parseEnumName(*this, "velocityReference", param(d_.velocityReference),
                                    kVelocityNames) == 1;
  zeroToTwoPi_ =
      detail::parseEnumName(*this, "angleModulo", param(d_.angleModulo), kModuloNames) == 0;
  try {
    sequence_ = spatial::eulerSequenceFromString(param(d_.eulerSequence));
  } catch (const InputError& e) {
    throw InputError("models." + name() + ".params.eulerSequence: " + e.what());
  }
}

Matrix3 CmFrameStateSensor::frameRotation(FrameType type, const Vector3& r, const Vector3& v) {
  const Vector3 h = r.cross(v);
  // Relative to the frame's scale, so that a frame is refused only where its axes are lost to
  // rounding.
  if (!(h.norm() > 1e-12 * r.norm() * v.norm()) || !std::isfinite(h.norm())) {
    std::ostringstream message;
    message << "the " << kFrameNames[static_cast<std::size_t>(type)]
            << " frame needs a position and a velocity that are nonzero and not parallel; r = ["
            << r.transpose() << "] m, v = [" << v.transpose() << "] m/s";
    throw InputError(message.str());
  }
  const Vector3 radial = r.normalized(), normal = h.normalized();
  switch (type) {
    case FrameType::VelocityAlign: {
      // x along v, z toward the planet centre in the plane of r and v.
      const Vector3 x = v.normalized();
      const Vector3 z = -(radial - radial.dot(x) * x).normalized();
      return fromAxes(x, z.cross(x), z);
    }
    case FrameType::Lvlh:
      // z to nadir, y against the orbit normal, x completing (along v on a circular orbit).
      return fromAxes(normal.cross(radial), -normal, -radial);
    case FrameType::Uvw:
    case FrameType::Cw:
      // Radial, along-track, orbit normal (Hill's frame of the Clohessy-Wiltshire equations).
      return fromAxes(radial, normal.cross(radial), normal);
  }
  return Matrix3::Identity();
}

std::pair<Vector3, Vector3> CmFrameStateSensor::originState() const {
  const MultibodySystem& system = multibody();
  const multibody::MultibodyModel& tree = system.model();
  const auto& data = system.data();
  // Position and velocity in W of body b's CM.
  const auto cmOf = [&](multibody::BodyIndex b) {
    const auto i = static_cast<std::size_t>(b);
    const Vector3 c = tree.massProperties(b).comPosition();
    const auto& V = data.V_WB_B[i];
    const Vector3 v_B = V.translational() + V.rotational().cross(c);
    return std::pair<Vector3, Vector3>(data.X_WB[i] * c, data.X_WB[i].applyToVector(v_B));
  };
  const multibody::BodyIndex body = tree.node(node()).body;
  switch (centerOfMass_) {
    case CenterOfMass::Fixed:
      return {nodePose().translation(), nodeVelocity().translational()};
    case CenterOfMass::Component:
      return cmOf(body);
    case CenterOfMass::Composite:
      break;
  }
  // The vehicle: the subtree of the node's body's ancestor that is a child of the world.
  const auto rootOf = [&](multibody::BodyIndex b) {
    while (tree.parent(b) != multibody::kWorldBody) b = tree.parent(b);
    return b;
  };
  const multibody::BodyIndex root = rootOf(body);
  double mass = 0.0;
  Vector3 moment = Vector3::Zero(), momentum = Vector3::Zero();
  for (multibody::BodyIndex b = root; b < tree.bodyCount(); ++b) {
    if (rootOf(b) != root) continue;
    const double m = tree.massProperties(b).mass();
    const auto [p, v] = cmOf(b);
    mass += m;
    moment += m * p;
    momentum += m * v;
  }
  return {moment / mass, momentum / mass};
}

void CmFrameStateSensor::updateFlowOuts(double /*t*/) {
  auto [r, v] = originState();
  if (relative_) v -= Vector3(param(d_.planetRate)).cross(r);
  Matrix3 R_WF;
  try {
    R_WF = frameRotation(frameType_, r, v);
  } catch (const InputError& e) {
    throw InputError(describe() + ": " + e.what());
  }
  const Matrix3 R_FN = R_WF.transpose() * nodePose().rotation();
  out(d_.quat) = spatial::quaternionFromRotation(R_FN);
  const Vector3 euler = spatial::eulerFromRotation(sequence_, R_FN);
  auto angles = out(d_.angles);
  for (int i = 0; i < 3; ++i) angles[i] = wrapAngle(euler[i], zeroToTwoPi_);
  out(d_.framePosition) = r;
  out(d_.frameVelocity) = v;
}

}  // namespace hopsim::models
