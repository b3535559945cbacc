#pragma once
/// @file
/// JointForceTorqueSensor: the force and torque a hinge transmits between its two bodies
/// (GeneralSGModels::JointForceTorqueSensor).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// JointForceTorqueSensor's equations, conventions and choices:
/// docs/models/JointForceTorqueSensor.md.
class JointForceTorqueSensor final : public EncoderModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> senseMode =
        param<std::string>("senseMode")
            .defaultValue(std::string("BODY"))
            .describe(
                "BODY: the parent's force on the body; PARENT: the body's force on its parent");
    OutKey<Eigen::VectorXd> force =
        flowOut<Eigen::VectorXd>("force").length(3).unit("N").noFeedThrough().describe(
            "joint force, in M");
    OutKey<Eigen::VectorXd> torque =
        flowOut<Eigen::VectorXd>("torque").length(3).unit("N*m").noFeedThrough().describe(
            "joint torque about Mo, in M");
  };
  static const Declaration& declaration();

  explicit JointForceTorqueSensor(std::string name)
      : EncoderModel(std::move(name), declaration()) {}
  /// @throws InputError for a senseMode other than BODY or PARENT.
  void processParams(double t) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError for a subhinge attachment.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  double sign_ = 1.0;  // +1 BODY, -1 PARENT
};

}  // namespace hopsim::models
