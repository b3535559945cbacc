#pragma once
/// @file
/// ComputePlanePenetration: how deep a node is below a fixed plane, how fast it sinks, and the
/// plane's normal.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// ComputePlanePenetration's equations, conventions and choices:
/// docs/models/ComputePlanePenetration.md.
class ComputePlanePenetration final : public SensorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<Eigen::VectorXd> point = param<Eigen::VectorXd>("point")
                                          .length(3)
                                          .unit("m")
                                          .defaultValue(std::vector<double>{0.0, 0.0, 0.0})
                                          .describe("a point of the plane, world frame");
    ParamKey<Eigen::VectorXd> normal =
        param<Eigen::VectorXd>("normal")
            .length(3)
            .defaultValue(std::vector<double>{0.0, 0.0, 1.0})
            .describe("the plane's outward normal, world axes (any non-zero length)");
    OutKey<double> penetration =
        flowOut<double>("penetration")
            .unit("m")
            .noFeedThrough()
            .describe("δ = (point - p)·n̂: depth of the node below the plane, negative above");
    OutKey<double> penetrationRate = flowOut<double>("penetration_rate")
                                         .unit("m/s")
                                         .noFeedThrough()
                                         .describe("δ̇ = -v·n̂, positive while sinking");
    OutKey<Eigen::VectorXd> contactNormal =
        flowOut<Eigen::VectorXd>("normal").length(3).noFeedThrough().describe(
            "n̂, the unit outward normal of the plane (world axes)");
  };
  static const Declaration& declaration();

  explicit ComputePlanePenetration(std::string name)
      : SensorModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
  spatial::Vector3 unitNormal_ = spatial::Vector3::UnitZ();  // n̂, from the param
};

}  // namespace hopsim::models
