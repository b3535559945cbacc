#include "hopsim/models/steering_status.h"

namespace hopsim::models {

SteeringStatus::Declaration::Declaration()
    : ModelSpec("SteeringStatus", ModelKind::Flow,
                "steer_status = 1 when max_i |steer_angle_i - steer_angle_d_i| < epsilon (every "
                "steering angle has reached its command), else 0.") {}

const SteeringStatus::Declaration& SteeringStatus::declaration() {
  static const Declaration declaration;
  return declaration;
}

void SteeringStatus::updateFlowOuts(double /*t*/) {
  // all() of an empty vector is true (nothing left to steer); a NaN error is never below
  // epsilon, so an undefined angle keeps the status at "still steering".
  const bool done =
      ((in(d_.steerAngle) - in(d_.steerAngleDesired)).array().abs() < param(d_.epsilon)).all();
  out(d_.steerStatus) = done ? 1 : 0;
}

}  // namespace hopsim::models
