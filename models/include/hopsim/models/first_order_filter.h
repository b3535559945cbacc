#pragma once
/// @file
/// FirstOrderFilter: a continuous first-order lag.

#include "hopsim/core/continuous_model.h"

namespace hopsim::models {

/// FirstOrderFilter's equations, conventions and choices: docs/models/FirstOrderFilter.md.
class FirstOrderFilter final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> tau =
        param<double>("tau").unit("s").defaultValue(1.0).above(0.0).describe("time constant");
    InKey<Eigen::VectorXd> u = flowIn<Eigen::VectorXd>("u").length("n").describe("input");
    ContinuousStateKey<Eigen::VectorXd> state =
        continuousState<Eigen::VectorXd>("y").length("n").defaultValue(0.0).describe(
            "the filtered value, in u's unit; initially y0");
    OutKey<Eigen::VectorXd> y =
        flowOut<Eigen::VectorXd>("y").length("n").noFeedThrough().describe("the filtered value");
  };
  static const Declaration& declaration();

  explicit FirstOrderFilter(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;
  void postDeriv(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
