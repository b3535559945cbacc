#include "hopsim/models/fixed_thruster.h"

namespace hopsim::models {

FixedThruster::Declaration::Declaration()
    : Fields("FixedThruster",
             "On/off thruster on a node: F = level * axis (node axes, axis normalized) while "
             "on_off and not fuel_empty, else 0; mass flow F / (isp g0), g0 = 9.80665 m/s^2, "
             "integrated into the state fuel_used when burns_fuel. thrust and fuel_flow feed "
             "through from on_off and fuel_empty; fuel_used is a state.") {}

const FixedThruster::Declaration& FixedThruster::declaration() {
  static const Declaration declaration;
  return declaration;
}

double FixedThruster::commandedThrust(double /*t*/) { return in(d_.onOff) ? param(d_.level) : 0.0; }

}  // namespace hopsim::models
