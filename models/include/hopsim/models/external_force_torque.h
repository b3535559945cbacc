#pragma once
/// @file
/// ExternalForceTorque: a 6-DOF external force and torque on a node, from signals.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Applies the flowIns `force` (N) at the node origin and `torque` (N*m), both expressed in
/// `frame`: NODE (the node's axes, turning with the body), BODY (the axes of the body the node
/// is on) or INERTIAL (world axes, a fixed direction). The 6-DOF counterpart of
/// ExternalSingleDofDisturbance, for disturbances and actuators driven by other models. (The
/// Chrono lowering's BodyLoad is a different thing: one load kind per instance, at the centre
/// of mass, modulated by a time function or a load controller.)
class ExternalForceTorque final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> frame = param<std::string>("frame")
                                      .defaultValue(std::string("NODE"))
                                      .describe(
                                          "NODE, BODY or INERTIAL (any case): the axes of "
                                          "force and torque");
    InKey<Eigen::VectorXd> force =
        flowIn<Eigen::VectorXd>("force").length(3).unit("N").describe("force at the node origin");
    InKey<Eigen::VectorXd> torque =
        flowIn<Eigen::VectorXd>("torque").length(3).unit("N*m").describe("couple");
  };
  static const Declaration& declaration();

  explicit ExternalForceTorque(std::string name) : ActuatorModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void preDeriv(double t) override;

 protected:
  /// @throws InputError for an unknown frame.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  ForceFrame frame_ = ForceFrame::Node;  // parsed from frame
};

}  // namespace hopsim::models
