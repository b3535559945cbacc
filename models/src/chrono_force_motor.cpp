#include "hopsim/models/chrono_force_motor.h"

#include <tuple>

#include "ascii_case.h"
#include "hopsim/signals/error.h"
#include "two_node_force.h"

namespace hopsim::models {

using spatial::RigidTransform;
using spatial::Vector3;

ChronoForceMotor::Declaration::Declaration()
    : TimeFunctionSpec(
          "ChronoForceMotor", ModelKind::Darts,
          "A Chrono FORCE motor between node1 (frame 1 on body1) and node2 (frame 2 on "
          "body2), with f a TimeFunction (CONTROLLER: the flowIn setpoint) and Z2 frame "
          "2's z axis: ROTATION applies torque +f Z2 to body1 and -f Z2 to body2; LINEAR "
          "applies force +f Z2 to body1 at frame 1's origin p1 and -f Z2 to body2 at the "
          "same world point p1.") {}

const ChronoForceMotor::Declaration& ChronoForceMotor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void ChronoForceMotor::attach(MultibodySystem& system) {
  std::tie(node1_, node2_) =
      detail::resolveNodePair(*this, system.model(), param(d_.node1), param(d_.node2));
  DartsModel::attach(system);
  configure();
}

void ChronoForceMotor::processParams(double /*t*/) { configure(); }

void ChronoForceMotor::configure() {
  const std::string& kind = param(d_.kind);
  if (equalsIgnoringCase(kind, "ROTATION")) {
    rotation_ = true;
  } else if (equalsIgnoringCase(kind, "LINEAR")) {
    rotation_ = false;
  } else {
    throw InputError(describe() + ": kind '" + kind + "' is unknown (expected ROTATION or LINEAR)");
  }
  function_ =
      functionFromParams(param(d_.function), param(d_.coefficients), param(d_.repeat), describe());
}

void ChronoForceMotor::preDeriv(double t) {
  TimeFunction::Setpoint setpoint;
  if (function_.isController() &&
      binding(FieldRole::FlowIn, d_.setpoint.index).signal().everWritten()) {
    setpoint.value = in(d_.setpoint);
  }
  const double f = function_(t, setpoint).value;
  MultibodySystem& system = multibody();
  const RigidTransform X_WF2 = system.nodePose(node2_);
  const Vector3 load = f * X_WF2.rotation().col(2);
  if (rotation_) {
    system.addNodeForce(node1_, Vector3::Zero(), load, ForceFrame::World);
    system.addNodeForce(node2_, Vector3::Zero(), -load, ForceFrame::World);
  } else {
    // -load at p1 is -load at node2's origin p2 plus the couple (p1 - p2) x (-load).
    const Vector3 p1 = system.nodePose(node1_).translation();
    system.addNodeForce(node1_, load, Vector3::Zero(), ForceFrame::World);
    system.addNodeForce(node2_, -load, (p1 - X_WF2.translation()).cross(-load), ForceFrame::World);
  }
}

}  // namespace hopsim::models
