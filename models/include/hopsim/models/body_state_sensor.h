#pragma once
/// @file
/// BodyStateSensor: the world position, orientation, velocity and angular velocity of a node.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// BodyStateSensor's equations, conventions and choices: docs/models/BodyStateSensor.md.
class BodyStateSensor final : public SensorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    OutKey<Eigen::VectorXd> position = flowOut<Eigen::VectorXd>("position")
                                           .length(3)
                                           .unit("m")
                                           .noFeedThrough()
                                           .describe("world position of the node origin");
    OutKey<Eigen::VectorXd> orientation =
        flowOut<Eigen::VectorXd>("orientation")
            .length(4)
            .noFeedThrough()
            .describe("q_WN, unit quaternion, scalar first [e0, e1, e2, e3]");
    OutKey<Eigen::VectorXd> velocity =
        flowOut<Eigen::VectorXd>("velocity")
            .length(3)
            .unit("m/s")
            .noFeedThrough()
            .describe("velocity of the node origin in W, world axes");
    OutKey<Eigen::VectorXd> angularVelocity =
        flowOut<Eigen::VectorXd>("angular_velocity")
            .length(3)
            .unit("rad/s")
            .noFeedThrough()
            .describe("angular velocity of the node in W, world axes");
  };
  static const Declaration& declaration();

  explicit BodyStateSensor(std::string name) : SensorModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
