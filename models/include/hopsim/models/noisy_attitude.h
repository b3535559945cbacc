#pragma once
/// @file
/// NoisyAttitude: a node's attitude multiplied by a seeded error quaternion (initial error,
/// white noise, drift and random walk), as a star tracker or attitude estimate would report it.

#include "hopsim/models/attitude_error_sensor.h"

namespace hopsim::models {

/// NoisyAttitude's equations, conventions and choices: docs/models/NoisyAttitude.md.
class NoisyAttitude final : public AttitudeErrorSensor {
 public:
  struct Declaration : AttitudeErrorDeclaration {
    Declaration();
  };
  static const Declaration& declaration();

  explicit NoisyAttitude(std::string name) : AttitudeErrorSensor(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;
};

}  // namespace hopsim::models
