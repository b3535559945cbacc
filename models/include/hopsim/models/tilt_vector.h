#pragma once
/// @file
/// TiltVector: a vector fixed in a node, re-expressed in world axes.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// TiltVector's equations, conventions and choices: docs/models/TiltVector.md.
class TiltVector final : public SensorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<Eigen::VectorXd> tvec =
        param<Eigen::VectorXd>("tvec")
            .length(3)
            .defaultValue(std::vector<double>{0.0, 0.0, -1.0})
            .describe("the tilt vector fixed in the node, in node axes (dimensionless)");
    OutKey<Eigen::VectorXd> tvecGlobal =
        flowOut<Eigen::VectorXd>("tvec_global")
            .length(3)
            .noFeedThrough()
            .describe("tvec in world axes, R_WN tvec (dimensionless)");
  };
  static const Declaration& declaration();

  explicit TiltVector(std::string name) : SensorModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
