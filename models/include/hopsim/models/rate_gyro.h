#pragma once
/// @file
/// RateGyro: a three-axis rate-integrating gyro on a node, with the InertialSensor error model.

#include "hopsim/models/inertial_sensor.h"

namespace hopsim::models {

/// RateGyro's equations, conventions and choices: docs/models/RateGyro.md.
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
