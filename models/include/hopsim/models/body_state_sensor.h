#pragma once
/// @file
/// BodyStateSensor: the world position, orientation, velocity and angular velocity of a node.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Outputs the state of the node N it is attached to, all in the world frame W: the position
/// of N's origin, the unit quaternion q_WN (scalar first [e0, e1, e2, e3], e0 >= 0), the velocity
/// of N's origin and the angular velocity, in world axes. Attached to a node at a body's
/// reference frame, these are Chrono's body position, rotation, linear and angular velocity.
/// The outputs are the multibody state, so the model has no feed-through; its declared output
/// granularity is the hop boundaries (lock() adds the derivative evaluations when a
/// ContinuousModel reads them).
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
