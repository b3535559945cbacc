#pragma once
/// @file
/// Accelerometer: a three-axis velocity-integrating accelerometer on a node, with the
/// InertialSensor error model.

#include <vector>

#include "hopsim/models/inertial_sensor.h"

namespace hopsim::models {

/// Accelerometer's equations, conventions and choices: docs/models/Accelerometer.md.
class Accelerometer final : public InertialSensor {
 public:
  struct Declaration : InertialSensorDeclaration {
    Declaration();
    ParamKey<Eigen::VectorXd> gravity =
        param<Eigen::VectorXd>("gravity").length(3).unit("m/s^2").defaultValue(0.0).describe(
            "gravitational acceleration acting on the node besides the multibody "
            "system's own gravity (world axes): the field of a UniformGravity model");
  };
  static const Declaration& declaration();

  explicit Accelerometer(std::string name) : InertialSensor(std::move(name), declaration()) {}

 protected:
  spatial::Vector3 trueQuantity() const override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
