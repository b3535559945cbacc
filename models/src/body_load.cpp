#include "hopsim/models/body_load.h"

#include "ascii_case.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::RigidTransform;
using spatial::Vector3;

BodyLoad::Declaration::Declaration()
    : TimeFunctionSpec(
          "BodyLoad", ModelKind::Actuator,
          "A Chrono body load on the node N at the body's COM (COM-frame axes). L = load "
          "* s(t), s a TimeFunction, or L = command when controlled. FORCE: F = L in N's "
          "axes (local_load) or world axes, applied at point: from the COM in N's axes "
          "(local_point) or at a world-fixed point p, with torque (p - r_com) x F about "
          "the COM. TORQUE: the couple L in N's or world axes.") {}

const BodyLoad::Declaration& BodyLoad::declaration() {
  static const Declaration declaration;
  return declaration;
}

void BodyLoad::attach(MultibodySystem& system) {
  ActuatorModel::attach(system);
  configure();
}

void BodyLoad::processParams(double /*t*/) { configure(); }

void BodyLoad::configure() {
  const std::string& type = param(d_.type);
  if (equalsIgnoringCase(type, "FORCE")) {
    force_ = true;
  } else if (equalsIgnoringCase(type, "TORQUE")) {
    force_ = false;
  } else {
    throw InputError(describe() + ": type '" + type + "' is unknown (expected FORCE or TORQUE)");
  }
  modulation_ =
      functionFromParams(param(d_.function), param(d_.coefficients), param(d_.repeat), describe());
}

void BodyLoad::preDeriv(double t) {
  const Vector3 L = param(d_.controlled) ? Vector3(in(d_.command))
                                         : Vector3(modulation_(t).value * param(d_.load));
  const RigidTransform X_WN = nodePose();
  const Vector3 L_W = param(d_.localLoad) ? Vector3(X_WN.rotation() * L) : L;
  if (!force_) {
    applyForce(Vector3::Zero(), L_W, ForceFrame::World);
    return;
  }
  const Vector3 p = param(d_.point);
  // The lever arm from the COM (the node origin) to the application point, in W.
  const Vector3 r_W =
      param(d_.localPoint) ? Vector3(X_WN.rotation() * p) : Vector3(p - X_WN.translation());
  applyForce(L_W, r_W.cross(L_W), ForceFrame::World);
}

}  // namespace hopsim::models
