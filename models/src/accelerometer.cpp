#include "hopsim/models/accelerometer.h"

#include "specific_force.h"

namespace hopsim::models {

namespace {

constexpr InertialSensorTerms kAccelerometerTerms{
    .className = "Accelerometer",
    .doc =
        "Three-axis velocity-integrating accelerometer on a node: f_m = (1 + scale_factor) "
        ".* (C_SN f_N) + bias + b_rw + b_gm + b_d + w, with the specific force f_N = R_WN^T "
        "(a_W - g_W) (g_W: multibody gravity + param gravity), velocity' = f_m, and per "
        "sample the average specific force, velocity, delta velocity and counts "
        "floor(velocity / lsb); error states CONTINUOUS or DISCRETE, seeded noise.",
    .sensed = "specific_force",
    .sensedUnit = "m/s^2",
    .integral = "velocity",
    .integralUnit = "m/s",
    .noiseUnit = "m/s/sqrt(s)",
    .randomWalkUnit = "m/s^2/sqrt(s)",
    .driftUnit = "m/s^3",
    .defaultLsb = 1e-5,
};

}  // namespace

Accelerometer::Declaration::Declaration() : InertialSensorDeclaration(kAccelerometerTerms) {}

const Accelerometer::Declaration& Accelerometer::declaration() {
  static const Declaration declaration;
  return declaration;
}

spatial::Vector3 Accelerometer::trueQuantity() const {
  return specificForce(multibody(), node(), spatial::Vector3(param(d_.gravity)));
}

}  // namespace hopsim::models
