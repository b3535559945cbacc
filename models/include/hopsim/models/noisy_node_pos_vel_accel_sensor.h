#pragma once
/// @file
/// NoisyNodePosVelAccelSensor: NoisyAttitude's noisy attitude of a node, with the node's true
/// attitude and the specific force it senses.

#include "hopsim/models/attitude_error_sensor.h"

namespace hopsim::models {

/// NoisyNodePosVelAccelSensor's equations, conventions and choices:
/// docs/models/NoisyNodePosVelAccelSensor.md.
class NoisyNodePosVelAccelSensor final : public AttitudeErrorSensor {
 public:
  struct Declaration : AttitudeErrorDeclaration {
    Declaration();
    ParamKey<Eigen::VectorXd> gravity =
        param<Eigen::VectorXd>("gravity").length(3).unit("m/s^2").defaultValue(0.0).describe(
            "gravitational acceleration on the node besides the multibody system's own "
            "gravity, world axes (for bodySensedAccel_truth)");
    OutKey<Eigen::VectorXd> quatTruth =
        flowOut<Eigen::VectorXd>("quat_truth")
            .length(4)
            .noFeedThrough()
            .describe("q_WN, the true attitude, scalar first, e0 >= 0");
    OutKey<Eigen::VectorXd> sensedAccelTruth =
        flowOut<Eigen::VectorXd>("bodySensedAccel_truth")
            .length(3)
            .unit("m/s^2")
            .noFeedThrough()
            .describe("true specific force R_WN^T (accel - g_W), node axes");
  };
  static const Declaration& declaration();

  explicit NoisyNodePosVelAccelSensor(std::string name)
      : AttitudeErrorSensor(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
