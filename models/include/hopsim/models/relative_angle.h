#pragma once
/// @file
/// RelativeAngle: the unwrapped direction angle, in the XY plane, of the vector between two
/// points (MBSE's RelativeAngleAbsoluteDOF as an output).

#include <limits>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// RelativeAngle's equations, conventions and choices: docs/models/RelativeAngle.md.
class RelativeAngle final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> initial = param<double>("initial").unit("rad").defaultValue(0.0).describe(
        "the angle the first output is closest to (its branch of atan2)");
    InKey<Eigen::VectorXd> from =
        flowIn<Eigen::VectorXd>("from").length(3).describe("the vector's start, world (m)");
    InKey<Eigen::VectorXd> to =
        flowIn<Eigen::VectorXd>("to").length(3).describe("the vector's end, world (m)");
    OutKey<double> angle =
        flowOut<double>("angle").unit("rad").feedsFrom(from, to).describe("θ, unwrapped");
    DiscreteStateKey<double> accepted =
        discreteState<double>("accepted")
            .unit("rad")
            .defaultValue(std::numeric_limits<double>::quiet_NaN())
            .describe("θ at the last hop end (NaN before the first: `initial` is used)");
  };
  static const Declaration& declaration();

  explicit RelativeAngle(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;
  /// Accepts θ at the hop end as the reference of the next unwrapping.
  void endHop(double t0, double t1) override;

 private:
  /// θ from the current inputs and the reference.
  double unwrapped();

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
