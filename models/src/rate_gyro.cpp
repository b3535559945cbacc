#include "hopsim/models/rate_gyro.h"

namespace hopsim::models {

namespace {

constexpr InertialSensorTerms kGyroTerms{
    .className = "RateGyro",
    .doc =
        "Three-axis rate-integrating gyro on a node: omega_m = (1 + scale_factor) .* (C_SN "
        "omega_N) + bias + b_rw + b_gm + b_d + w, with omega_N the node's angular velocity "
        "in node axes, angle' = omega_m, and per sample the average rate, angle, delta angle "
        "and counts floor(angle / lsb); error states CONTINUOUS or DISCRETE, seeded noise.",
    .sensed = "rate",
    .sensedUnit = "rad/s",
    .integral = "angle",
    .integralUnit = "rad",
    .noiseUnit = "rad/sqrt(s)",
    .randomWalkUnit = "rad/s/sqrt(s)",
    .driftUnit = "rad/s^2",
    .defaultLsb = 1e-6,
};

}  // namespace

RateGyro::Declaration::Declaration() : InertialSensorDeclaration(kGyroTerms) {}

const RateGyro::Declaration& RateGyro::declaration() {
  static const Declaration declaration;
  return declaration;
}

spatial::Vector3 RateGyro::trueQuantity() const {
  return nodePose().rotation().transpose() * nodeVelocity().rotational();
}

}  // namespace hopsim::models
