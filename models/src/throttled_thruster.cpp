#include "hopsim/models/throttled_thruster.h"

#include <algorithm>

#include "hopsim/signals/error.h"

namespace hopsim::models {

ThrottledThruster::Declaration::Declaration()
    : Fields("ThrottledThruster",
             "Throttleable thruster on a node: while on_off, F = min_level + clamp(command, 0, "
             "1) (max_level - min_level) (throttle), or clamp(command, min_level, max_level) "
             "with thrust_command; 0 while off or fuel_empty. Force F * axis (node axes), mass "
             "flow F / (isp g0) into fuel_used when burns_fuel. thrust and fuel_flow feed "
             "through from every input.") {}

const ThrottledThruster::Declaration& ThrottledThruster::declaration() {
  static const Declaration declaration;
  return declaration;
}

void ThrottledThruster::checkLevels() const {
  if (param(d_.maxLevel) < param(d_.minLevel)) {
    throw InputError(describe() + ": param max_level = " + describeValue(param(d_.maxLevel)) +
                     " N is below min_level = " + describeValue(param(d_.minLevel)) +
                     " N; expected max_level >= min_level");
  }
}

void ThrottledThruster::attach(MultibodySystem& system) {
  checkLevels();
  ThrusterBase::attach(system);
}

void ThrottledThruster::processParams(double t) {
  checkLevels();
  ThrusterBase::processParams(t);
}

double ThrottledThruster::commandedThrust(double /*t*/) {
  if (!in(d_.onOff)) return 0.0;
  const double lo = param(d_.minLevel), hi = param(d_.maxLevel);
  const double command = in(d_.command);
  if (param(d_.thrustCommand)) return std::clamp(command, lo, hi);
  return lo + std::clamp(command, 0.0, 1.0) * (hi - lo);
}

}  // namespace hopsim::models
