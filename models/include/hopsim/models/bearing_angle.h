#pragma once
/// @file
/// BearingAngle: the angle between a node-fixed vector and an inertial vector.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// BearingAngle's equations, conventions and choices: docs/models/BearingAngle.md.
class BearingAngle final : public SensorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<Eigen::VectorXd> bodyVec =
        param<Eigen::VectorXd>("body_vec")
            .length(3)
            .defaultValue(std::vector<double>{1.0, 0.0, 0.0})
            .describe("vector fixed in the node, node axes (any non-zero length; m or unitless)");
    ParamKey<Eigen::VectorXd> celestVec =
        param<Eigen::VectorXd>("celest_vec")
            .length(3)
            .defaultValue(std::vector<double>{1.0, 0.0, 0.0})
            .describe(
                "vector to the celestial body, world axes (any non-zero length; m or unitless)");
    OutKey<double> angle = flowOut<double>("angle").unit("rad").noFeedThrough().describe(
        "angle between R_WN body_vec and celest_vec, in [0, pi]");
  };
  static const Declaration& declaration();

  explicit BearingAngle(std::string name) : SensorModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
