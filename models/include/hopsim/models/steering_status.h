#pragma once
/// @file
/// SteeringStatus: whether every steering angle has reached its command.

#include <cstdint>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// SteeringStatus's equations, conventions and choices: docs/models/SteeringStatus.md.
class SteeringStatus final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> epsilon =
        param<double>("epsilon").unit("rad").defaultValue(0.01).above(0.0).describe(
            "tolerance on every angle: done when all errors are below it");
    InKey<Eigen::VectorXd> steerAngle = flowIn<Eigen::VectorXd>("steer_angle")
                                            .length("dimension")
                                            .unit("rad")
                                            .describe("current steering angles");
    InKey<Eigen::VectorXd> steerAngleDesired = flowIn<Eigen::VectorXd>("steer_angle_d")
                                                   .length("dimension")
                                                   .unit("rad")
                                                   .describe("commanded steering angles");
    OutKey<std::int64_t> steerStatus =
        flowOut<std::int64_t>("steer_status")
            .feedsFrom(steerAngle, steerAngleDesired)
            .describe("1 when every angle is within epsilon of its command, else 0");
  };
  static const Declaration& declaration();

  explicit SteeringStatus(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
