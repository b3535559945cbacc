#pragma once
/// @file
/// Accelerometer: a three-axis velocity-integrating accelerometer on a node, with the
/// InertialSensor error model.

#include <vector>

#include "hopsim/models/inertial_sensor.h"

namespace hopsim::models {

/// Senses the specific force of its node in node axes, f_N = R_WN^T (a_W - g_W), where a_W is
/// the node origin's acceleration relative to the world as the multibody dynamics computes it
/// (MultibodySystem::nodeAcceleration, gravity included as the motion it causes) and
/// g_W = the multibody system's gravity + the param `gravity` (for fields applied as forces by
/// a gravity model, which the multibody system does not know as gravity). A body at rest on
/// the ground under g = (0, 0, -9.81) reads f = (0, 0, +9.81); in free fall it reads 0.
/// Outputs specific_force (average over the last sample period), velocity, delta_velocity,
/// velocity_counts and delta_velocity_counts (docs/models/Accelerometer.md).
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
