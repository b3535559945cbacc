#include "hopsim/models/external_single_dof_disturbance.h"

#include <string_view>

#include "enum_name.h"

namespace hopsim::models {
namespace {

constexpr std::string_view kAxisNames[] = {"MX", "MY", "MZ", "FX", "FY", "FZ", "IGNORE"};

}  // namespace

ExternalSingleDofDisturbance::Declaration::Declaration()
    : ModelSpec("ExternalSingleDofDisturbance", ModelKind::Actuator,
                "Applies the flowIn dof as a pure torque about (MX, MY, MZ) or a pure force along "
                "(FX, FY, FZ) one axis of its node, at the node origin; IGNORE (the default) "
                "applies nothing.") {}

const ExternalSingleDofDisturbance::Declaration& ExternalSingleDofDisturbance::declaration() {
  static const Declaration declaration;
  return declaration;
}

void ExternalSingleDofDisturbance::attach(MultibodySystem& system) {
  ActuatorModel::attach(system);
  processParams(0.0);
}

void ExternalSingleDofDisturbance::processParams(double /*t*/) {
  axis_ =
      static_cast<Axis>(detail::parseEnumName(*this, "activeDof", param(d_.activeDof), kAxisNames));
}

void ExternalSingleDofDisturbance::preDeriv(double /*t*/) {
  if (axis_ == Axis::Ignore) return;
  const int k = static_cast<int>(axis_);
  const spatial::Vector3 along = in(d_.dof) * spatial::Vector3::Unit(k % 3);
  if (k < 3) {
    applyForce(spatial::Vector3::Zero(), along, ForceFrame::Node);
  } else {
    applyForce(along, spatial::Vector3::Zero(), ForceFrame::Node);
  }
}

}  // namespace hopsim::models
