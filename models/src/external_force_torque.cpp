#include "hopsim/models/external_force_torque.h"

#include <string_view>

#include "enum_name.h"

namespace hopsim::models {
namespace {

// In the order of ForceFrame.
constexpr std::string_view kFrameNames[] = {"NODE", "BODY", "INERTIAL"};
static_assert(static_cast<int>(ForceFrame::Node) == 0 && static_cast<int>(ForceFrame::Body) == 1 &&
              static_cast<int>(ForceFrame::World) == 2);

}  // namespace

ExternalForceTorque::Declaration::Declaration()
    : ModelSpec("ExternalForceTorque", ModelKind::Actuator,
                "Applies the flowIns force (N, at the node origin) and torque (N*m) to its node, "
                "both expressed in frame: NODE, BODY or INERTIAL axes.") {}

const ExternalForceTorque::Declaration& ExternalForceTorque::declaration() {
  static const Declaration declaration;
  return declaration;
}

void ExternalForceTorque::attach(MultibodySystem& system) {
  ActuatorModel::attach(system);
  processParams(0.0);
}

void ExternalForceTorque::processParams(double /*t*/) {
  frame_ =
      static_cast<ForceFrame>(detail::parseEnumName(*this, "frame", param(d_.frame), kFrameNames));
}

void ExternalForceTorque::preDeriv(double /*t*/) {
  applyForce(in(d_.force), in(d_.torque), frame_);
}

}  // namespace hopsim::models
