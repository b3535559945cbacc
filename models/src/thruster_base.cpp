#include "hopsim/models/thruster_base.h"

#include <cmath>
#include <vector>

#include "hopsim/signals/error.h"

namespace hopsim::models {

ThrusterBase::Fields::Fields(std::string className, std::string doc)
    : ModelSpec(std::move(className), ModelKind::Actuator, std::move(doc)) {}

void ThrusterBase::configure() {
  const spatial::Vector3 axis(param(f_.axis));
  const double length = axis.norm();
  if (!(length > 0.0) || !std::isfinite(length)) {
    throw InputError(describe() + ": param axis = " +
                     describeValue(std::vector<double>{axis.x(), axis.y(), axis.z()}) +
                     " is not a direction; expected a finite nonzero vector in the node's axes");
  }
  axis_ = axis / length;
}

void ThrusterBase::attach(MultibodySystem& system) {
  configure();
  ActuatorModel::attach(system);
}

void ThrusterBase::processParams(double /*t*/) { configure(); }

double ThrusterBase::thrustNow(double t) {
  return in(f_.fuelEmpty) != 0 ? 0.0 : commandedThrust(t);
}

double ThrusterBase::massFlow(double thrust) const {
  return param(f_.burnsFuel) ? thrust / (specificImpulse() * kStandardGravity) : 0.0;
}

void ThrusterBase::updateFlowOuts(double t) {
  const double thrust = thrustNow(t);
  out(f_.thrust) = thrust;
  out(f_.fuelFlow) = massFlow(thrust);
  out(f_.fuelUsedOut) = state(f_.fuelUsed);
}

void ThrusterBase::preDeriv(double t) {
  applyForce(thrustNow(t) * axis_, spatial::Vector3::Zero(), ForceFrame::Node);
}

void ThrusterBase::postDeriv(double t) { derivative(f_.fuelUsed) = massFlow(thrustNow(t)); }

}  // namespace hopsim::models
