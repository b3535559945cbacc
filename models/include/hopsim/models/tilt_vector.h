#pragma once
/// @file
/// TiltVector: a vector fixed in a node, re-expressed in world axes.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Outputs tvec_global = R_WN tvec, the node-fixed vector tvec (node axes) in world axes (the
/// seed's idealized tilt sensor: with tvec the node's "down" direction, tvec_global is where it
/// points now). The vector is rotated as given, not normalized. The output depends on the node
/// orientation only, so the model has no feed-through; its declared output granularity is the
/// hop boundaries (lock() adds the derivative evaluations when a ContinuousModel reads it).
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
