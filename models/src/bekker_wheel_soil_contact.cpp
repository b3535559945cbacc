#include "hopsim/models/bekker_wheel_soil_contact.h"

#include <algorithm>

#include "hopsim/models/wheel_frame.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::Vector3;

BekkerWheelSoilContact::Declaration::Declaration()
    : ModelSpec("BekkerWheelSoilContact", ModelKind::Actuator,
                "Rigid wheel (hub at the node, axle along its y axis) on deformable soil: "
                "Bekker-Wong normal stress σ(θ) and Janosi-Hanamoto shear τ(θ) = (c + σ tan "
                "phi)(1 - exp(-j/K)) from the slip displacement j, integrated over the contact "
                "angle from θ2 to the entry angle θ1 = acos(1 - z/r) with sinkage z = r + δ: "
                "normal force, drawbar pull, lateral force and resisting torque, applied at the "
                "hub. Soil from the `soil` input (a TerrainPenetration's).") {}

const BekkerWheelSoilContact::Declaration& BekkerWheelSoilContact::declaration() {
  static const Declaration declaration;
  return declaration;
}

void BekkerWheelSoilContact::processParams(double /*t*/) {
  if (param(d_.quadratureIntervals) % 2 != 0) {
    throw InputError("models." + name() + ".params.quadrature_intervals: value " +
                     std::to_string(param(d_.quadratureIntervals)) +
                     " must be even (Simpson's rule)");
  }
}

BekkerWheelSoilContact::Contact BekkerWheelSoilContact::evaluate() {
  Contact contact;
  const double r = param(d_.radius);
  contact.sinkage = r + in(d_.penetration);
  const Vector3 n = in(d_.normal);
  const auto frame = wheelFrame(nodePose(), nodeVelocity(), n);
  if (!frame) return contact;
  const auto coeffs = param(d_.maxStressAngleCoeffs);
  const BekkerWheelShape wheel{.radius = r,
                               .width = param(d_.width),
                               .c1 = coeffs[0],
                               .c2 = coeffs[1],
                               .exitRatio = param(d_.exitAngleRatio),
                               .intervals = static_cast<int>(param(d_.quadratureIntervals)),
                               .restSpeed = param(d_.restSpeed)};
  const BekkerSoil soil = BekkerSoil::fromValues(in(d_.soil).data());
  contact.forces =
      bekkerWongForces(soil, wheel, contact.sinkage, {frame->vx, frame->vy, frame->spinRate});
  if (!(contact.sinkage > 0.0)) return contact;
  // The damping acts only while the wheel is in the soil, and the soil never pulls.
  contact.normalForce =
      std::max(contact.forces.normalForce + param(d_.soilDamping) * in(d_.penetrationRate), 0.0);
  contact.force = contact.normalForce * n + contact.forces.drawbarPull * frame->longitudinal +
                  contact.forces.lateralForce * frame->lateral;
  contact.torque = -contact.forces.torque * frame->axle;
  return contact;
}

void BekkerWheelSoilContact::updateFlowOuts(double /*t*/) {
  const Contact contact = evaluate();
  out(d_.sinkage) = contact.sinkage;
  out(d_.normalForce) = contact.normalForce;
  out(d_.drawbarPull) = contact.forces.drawbarPull;
  out(d_.lateralForce) = contact.forces.lateralForce;
  out(d_.resistiveTorque) = contact.forces.torque;
  out(d_.slip) = contact.forces.slip;
}

void BekkerWheelSoilContact::preDeriv(double /*t*/) {
  const Contact contact = evaluate();
  if (contact.normalForce == 0.0 && contact.force.isZero()) return;
  applyForce(contact.force, contact.torque, ForceFrame::World);
}

}  // namespace hopsim::models
