#include "hopsim/models/pd_controller.h"

namespace hopsim::models {

PdController::Declaration::Declaration()
    : ModelSpec("PdController", ModelKind::Flow,
                "A saturated proportional-derivative controller on n coordinates: "
                "u = clamp(-kp (q - setpoint) - kd (qdot - rate_setpoint), -limit, limit), "
                "element by element.") {}

const PdController::Declaration& PdController::declaration() {
  static const Declaration declaration;
  return declaration;
}

void PdController::updateFlowOuts(double /*t*/) {
  const double limit = param(d_.limit);
  out(d_.u) = (-param(d_.kp) * (in(d_.q).array() - param(d_.setpoint)) -
               param(d_.kd) * (in(d_.qdot).array() - param(d_.rateSetpoint)))
                  .cwiseMax(-limit)
                  .cwiseMin(limit)
                  .matrix();
}

}  // namespace hopsim::models
