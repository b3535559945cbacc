#include "hopsim/models/pid.h"

#include <algorithm>
#include <cmath>

#include "hopsim/signals/error.h"

namespace hopsim::models {

Pid::Declaration::Declaration()
    : ModelSpec("Pid", ModelKind::Flow,
                "Sampled PID at the model's I/O rate: e = r - y, I += ki e dt, "
                "D = -kd dy/dt (backward difference of the measurement), u = clamp(kp e + I + D, "
                "output_min, output_max), with conditional-integration anti-windup; u is held "
                "between samples (no feed-through).") {
  // u changes only when a sample is taken, at an I/O step start.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const Pid::Declaration& Pid::declaration() {
  static const Declaration declaration;
  return declaration;
}

void Pid::processParams(double /*t*/) {
  if (param(d_.outputMin) > param(d_.outputMax)) {
    throw InputError("models." + name() +
                     ".params.output_min = " + describeValue(Value(param(d_.outputMin))) +
                     " exceeds output_max = " + describeValue(Value(param(d_.outputMax))) +
                     " (expected output_min <= output_max)");
  }
}

void Pid::startIoStep(double tStart, double /*tEnd*/) {
  const double y = in(d_.y);
  const double e = in(d_.r) - y;
  const double previous = state(d_.lastSampleTime);
  const double dt = std::isnan(previous) ? 0.0 : tStart - previous;
  const double derivative = dt > 0.0 ? -param(d_.kd) * (y - state(d_.lastMeasurement)) / dt : 0.0;
  const double step = param(d_.ki) * e * dt;
  const double proportional = param(d_.kp) * e;
  const double lower = param(d_.outputMin);
  const double upper = param(d_.outputMax);
  const double unlimited = proportional + state(d_.integral) + step + derivative;
  // Conditional integration: no integral growth that drives a saturated output further out.
  const bool windsUp = (unlimited > upper && step > 0.0) || (unlimited < lower && step < 0.0);
  if (!windsUp) state(d_.integral) += step;
  state(d_.command) = std::clamp(proportional + state(d_.integral) + derivative, lower, upper);
  state(d_.lastMeasurement) = y;
  state(d_.lastSampleTime) = tStart;
}

void Pid::updateFlowOuts(double /*t*/) { out(d_.u) = state(d_.command); }

}  // namespace hopsim::models
