#pragma once
/// @file
/// ExternalForceTorque: a 6-DOF external force and torque on a node, from signals.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// ExternalForceTorque's equations, conventions and choices: docs/models/ExternalForceTorque.md.
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
