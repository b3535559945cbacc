#pragma once
/// @file
/// Steering4WFlow: the four steering angles of a 4-wheel-steer rover for a motion command.

#include <cstdint>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// Chassis frame: origin midway between the four wheels, x forward, y left. The bogey-side
/// wheels are at x = s L/2 and the rocker-side wheels at x = -s L/2 (s = bogey_front, +1 or
/// -1), the left wheels at y = W/2, the right ones at y = -W/2 (L = wheel_front_rear_dist,
/// W = wheel_left_right_dist). The turn center lies on the steering center line
/// x_c = s wheel_center_bias, at y = radius for a move (mode ±1) and y = 0 for a turn in
/// place (mode 0). Each wheel (x_w, y_w) is steered so that it rolls perpendicular to the line
/// from the turn center (Ackermann for all four wheels):
///   steer = atan((x_w - x_c) / (y_c - y_w)),  + turns the wheel left, in [-pi/2, pi/2],
/// and all angles are 0 for a straight move (mode ±1, radius 0). A wheel at the turn center
/// itself gets 0. Stateless, with feed-through from both inputs.
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
