#pragma once
/// @file
/// RateGyro: a three-axis rate-integrating gyro on a node, with the InertialSensor error model.

#include "hopsim/models/inertial_sensor.h"

namespace hopsim::models {

/// Senses the angular velocity of its node relative to the world, in node axes,
/// x_N = R_WN^T omega_W, through the InertialSensor error model (docs/models/RateGyro.md):
/// outputs rate (average over the last sample period), angle, delta_angle, angle_counts and
/// delta_angle_counts, sampled at the model's I/O rate (Simulation::setModelRate).
class RateGyro final : public InertialSensor {
 public:
  struct Declaration : InertialSensorDeclaration {
    Declaration();
  };
  static const Declaration& declaration();

  explicit RateGyro(std::string name) : InertialSensor(std::move(name), declaration()) {}

 protected:
  spatial::Vector3 trueQuantity() const override;
};

}  // namespace hopsim::models
