#pragma once
/// @file
/// ArcTraj: chassis linear and angular velocity from a rover motion command.

#include <cstdint>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// ArcTraj's equations, conventions and choices: docs/models/ArcTraj.md.
class ArcTraj final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> nominalLinearVelocity =
        param<double>("nominal_linear_velocity")
            .unit("m/s")
            .defaultValue(0.1)
            .min(0.0)
            .describe("chassis speed of a forward or reverse move");
    ParamKey<double> nominalAngularVelocity =
        param<double>("nominal_angular_velocity")
            .unit("rad/s")
            .defaultValue(0.1)
            .describe("yaw rate of a turn in place (+: left, counter-clockwise seen from above)");
    InKey<std::int64_t> mode =
        flowIn<std::int64_t>("mode").describe("0 turn in place, 1 forward, -1 reverse");
    InKey<double> radius =
        flowIn<double>("radius").unit("m").describe("turn radius: 0 straight, > 0 left, < 0 right");
    OutKey<double> linearVelocity = flowOut<double>("linear_velocity")
                                        .unit("m/s")
                                        .feedsFrom(mode, radius)
                                        .describe("chassis speed, + forward");
    OutKey<double> angularVelocity = flowOut<double>("angular_velocity")
                                         .unit("rad/s")
                                         .feedsFrom(mode, radius)
                                         .describe("chassis yaw rate, + left");
  };
  static const Declaration& declaration();

  explicit ArcTraj(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
