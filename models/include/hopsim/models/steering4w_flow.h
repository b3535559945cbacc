#pragma once
/// @file
/// Steering4WFlow: the four steering angles of a 4-wheel-steer rover for a motion command.

#include <cstdint>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// Steering4WFlow's equations, conventions and choices: docs/models/Steering4WFlow.md.
class Steering4WFlow final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> wheelFrontRearDist = param<double>("wheel_front_rear_dist")
                                              .unit("m")
                                              .defaultValue(1.0)
                                              .above(0.0)
                                              .describe("L, between front and rear wheels");
    ParamKey<double> wheelLeftRightDist = param<double>("wheel_left_right_dist")
                                              .unit("m")
                                              .defaultValue(1.0)
                                              .above(0.0)
                                              .describe("W, between left and right wheels");
    ParamKey<double> wheelCenterBias =
        param<double>("wheel_center_bias")
            .unit("m")
            .defaultValue(0.0)
            .describe("offset of the steering center line from midway, + towards the bogey side");
    ParamKey<std::int64_t> bogeyFront =
        param<std::int64_t>("bogey_front")
            .defaultValue(std::int64_t{1})
            .bounds(-1.0, 1.0)
            .describe("+1: the bogey side is the front (+x); -1: the rocker side is");
    InKey<std::int64_t> mode =
        flowIn<std::int64_t>("mode").describe("0 turn in place, 1 forward, -1 reverse");
    InKey<double> radius = flowIn<double>("radius").unit("m").describe(
        "turn radius: 0 straight, > 0 left, < 0 right (moves only)");
    OutKey<double> steerBogeyLeft = flowOut<double>("steer_bogey_left")
                                        .unit("rad")
                                        .feedsFrom(mode, radius)
                                        .describe("left bogey-side wheel");
    OutKey<double> steerBogeyRight = flowOut<double>("steer_bogey_right")
                                         .unit("rad")
                                         .feedsFrom(mode, radius)
                                         .describe("right bogey-side wheel");
    OutKey<double> steerRockerLeft = flowOut<double>("steer_rocker_left")
                                         .unit("rad")
                                         .feedsFrom(mode, radius)
                                         .describe("left rocker-side wheel");
    OutKey<double> steerRockerRight = flowOut<double>("steer_rocker_right")
                                          .unit("rad")
                                          .feedsFrom(mode, radius)
                                          .describe("right rocker-side wheel");
  };
  static const Declaration& declaration();

  explicit Steering4WFlow(std::string name) : FlowModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
