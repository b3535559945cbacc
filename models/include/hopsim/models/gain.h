#pragma once
/// @file
/// Gain: a scalar gain on a vector signal.

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// Gain's equations, conventions and choices: docs/models/Gain.md.
class Gain final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> k = param<double>("k").unit("1").defaultValue(1.0).describe("gain");
    InKey<Eigen::VectorXd> u = flowIn<Eigen::VectorXd>("u").length("n").describe("input u");
    OutKey<Eigen::VectorXd> y =
        flowOut<Eigen::VectorXd>("y").length("n").feedsFrom(u).describe("output y = k u");
  };
  static const Declaration& declaration();

  explicit Gain(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
