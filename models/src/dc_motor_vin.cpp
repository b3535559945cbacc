#include "hopsim/models/dc_motor_vin.h"

#include <string>

#include "hinge_attachment.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

DCMotorVin::Declaration::Declaration()
    : ModelSpec("DCMotorVin", ModelKind::Motor,
                "Ideal DC motor with voltage input and zero inductance on a 1-DOF hinge, geared "
                "with ratio N: w_m = N w_hinge, i = (V - K_t w_m) / R, tau_m = K_t i - b w_m, the "
                "hinge receives N tau_m, power = V i. Current, torque and power feed through "
                "from the voltage.") {
  // The outputs change with the hinge rate and the voltage: at hop boundaries by default;
  // lock() adds the derivative sweeps when a ContinuousModel reads them.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const DCMotorVin::Declaration& DCMotorVin::declaration() {
  static const Declaration declaration;
  return declaration;
}

void DCMotorVin::attach(MultibodySystem& system) {
  MotorModel::attach(system);
  if (coordinateCount() != 1 || rateCount() != 1) {
    detail::refuseHinge(*this, system.model(), body(), subhinge(),
                        "a 1-DOF hinge or subhinge (PIN, SLIDER)", coordinateCount(), rateCount());
  }
}

void DCMotorVin::processParams(double /*t*/) {
  if (param(d_.gearRatio) == 0.0) {
    throw InputError(describe() + ": gear_ratio must be nonzero (motor turns per hinge turn)");
  }
}

DCMotorVin::Electrical DCMotorVin::electrical(double V) const {
  const double shaftRate = param(d_.gearRatio) * rates()[0];
  const double current = (V - param(d_.kt) * shaftRate) / param(d_.resistance);
  return {current, param(d_.kt) * current - param(d_.damping) * shaftRate};
}

void DCMotorVin::updateFlowOuts(double /*t*/) {
  const double V = in(d_.voltage);
  const Electrical e = electrical(V);
  out(d_.current) = e.current;
  out(d_.torque) = e.torque;
  out(d_.power) = V * e.current;
}

void DCMotorVin::preDeriv(double /*t*/) {
  multibody().addGeneralizedForce(uStart(),
                                  param(d_.gearRatio) * electrical(in(d_.voltage)).torque);
}

}  // namespace hopsim::models
