#include "hopsim/models/pulsed_thruster_blowdown.h"

#include <cmath>
#include <sstream>

#include "hopsim/signals/error.h"

namespace hopsim::models {

PulsedThrusterBlowdown::Declaration::Declaration()
    : PulsedThruster::Declaration(
          "PulsedThrusterBlowdown",
          "PulsedThruster fed by a blow-down tank: at each I/O step start the pressure ratio "
          "p_tank / p_tank_init = ((V_tank - fuel_mass_init / fuel_density) / (V_tank - "
          "fuel_mass / fuel_density))^gamma is sampled, and pulses use the thrust level * "
          "ratio^level_exp and the specific impulse isp * ratio^isp_exp (level and isp are the "
          "values at p_tank_init).") {}

const PulsedThrusterBlowdown::Declaration& PulsedThrusterBlowdown::declaration() {
  static const Declaration declaration;
  return declaration;
}

double PulsedThrusterBlowdown::gasVolume(double fuel, const char* what) const {
  const double volume = param(d_.tankVolume) - fuel / param(d_.fuelDensity);
  if (!(volume > 0.0)) {
    std::ostringstream message;
    message << describe() << ": " << what << " = " << fuel << " kg of fuel at "
            << param(d_.fuelDensity) << " kg/m^3 fills the tank's V_tank = " << param(d_.tankVolume)
            << " m^3; expected less fuel than the tank holds, leaving room for the pressurant";
    throw InputError(message.str());
  }
  return volume;
}

void PulsedThrusterBlowdown::processParams(double t) {
  PulsedThruster::processParams(t);
  gasVolume(param(d_.fuelMassInit), "fuel_mass_init");
}

void PulsedThrusterBlowdown::startIoStep(double tStart, double tEnd) {
  // The pressure first, so that a pulse starting now has the level of this sample.
  const double ratio =
      gasVolume(param(d_.fuelMassInit), "fuel_mass_init") / gasVolume(in(d_.fuelMass), "fuel_mass");
  state(d_.pressureRatio) = std::pow(ratio, param(d_.gamma));
  PulsedThruster::startIoStep(tStart, tEnd);
}

double PulsedThrusterBlowdown::pulseLevel() const {
  return param(d_.level) * std::pow(state(d_.pressureRatio), param(d_.levelExp));
}

double PulsedThrusterBlowdown::specificImpulse() const {
  return param(d_.isp) * std::pow(state(d_.pressureRatio), param(d_.ispExp));
}

void PulsedThrusterBlowdown::updateFlowOuts(double t) {
  PulsedThruster::updateFlowOuts(t);
  out(d_.pressureOut) = param(d_.pressureInit) * state(d_.pressureRatio);
  out(d_.levelOut) = pulseLevel();
  out(d_.ispOut) = specificImpulse();
}

}  // namespace hopsim::models
