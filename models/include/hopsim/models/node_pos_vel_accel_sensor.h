#pragma once
/// @file
/// NodePosVelAccelSensor: the truth IMU of a node — pose, velocities and accelerations, in the
/// world frame and in the node frame, with the specific force it would sense.

#include <vector>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// NodePosVelAccelSensor's equations, conventions and choices:
/// docs/models/NodePosVelAccelSensor.md.
class NodePosVelAccelSensor final : public SensorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<Eigen::VectorXd> gravity =
        param<Eigen::VectorXd>("gravity").length(3).unit("m/s^2").defaultValue(0.0).describe(
            "gravitational acceleration on the node besides the multibody system's "
            "own gravity, world axes (for bodySensedAccel)");
    OutKey<Eigen::VectorXd> pos = vector3("pos", "m", "position of the node origin, world axes");
    OutKey<Eigen::VectorXd> vel =
        vector3("vel", "m/s", "velocity of the node origin in W, world axes");
    OutKey<Eigen::VectorXd> accel =
        vector3("accel", "m/s^2", "acceleration of the node origin in W, world axes");
    OutKey<Eigen::VectorXd> quat =
        flowOut<Eigen::VectorXd>("quat").length(4).noFeedThrough().describe(
            "q_WN, unit quaternion, scalar first [e0, e1, e2, e3], e0 >= 0");
    OutKey<Eigen::VectorXd> omega =
        vector3("omega", "rad/s", "angular velocity of the node in W, world axes");
    OutKey<Eigen::VectorXd> bodyOmega =
        vector3("bodyOmega", "rad/s", "angular velocity of the node in W, node axes");
    OutKey<Eigen::VectorXd> alpha =
        vector3("alpha", "rad/s^2", "angular acceleration of the node in W, node axes");
    OutKey<Eigen::VectorXd> bodyVel =
        vector3("bodyVel", "m/s", "velocity of the node origin in W, node axes");
    OutKey<Eigen::VectorXd> bodySensedAccel =
        vector3("bodySensedAccel", "m/s^2", "specific force R_WN^T (accel - g_W), node axes");

   private:
    FieldDeclarator<FieldRole::FlowOut, Eigen::VectorXd> vector3(std::string name, std::string unit,
                                                                 std::string description) {
      auto field = flowOut<Eigen::VectorXd>(std::move(name));
      field.length(3).unit(std::move(unit)).noFeedThrough().describe(std::move(description));
      return field;
    }
  };
  static const Declaration& declaration();

  explicit NodePosVelAccelSensor(std::string name) : SensorModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
