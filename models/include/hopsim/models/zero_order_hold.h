#pragma once
/// @file
/// ZeroOrderHold: samples at its own I/O rate and holds (a rate transition).

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// ZeroOrderHold's equations, conventions and choices: docs/models/ZeroOrderHold.md.
class ZeroOrderHold final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    InKey<Eigen::VectorXd> u = flowIn<Eigen::VectorXd>("u").length("n").describe("input");
    OutKey<Eigen::VectorXd> y =
        flowOut<Eigen::VectorXd>("y").length("n").noFeedThrough().describe("held sample");
    DiscreteStateKey<Eigen::VectorXd> held =
        discreteState<Eigen::VectorXd>("held").length("n").defaultValue(0.0).describe(
            "sample taken at the I/O step start");
    DiscreteStateKey<std::int64_t> samples = discreteState<std::int64_t>("samples")
                                                 .defaultValue(std::int64_t{0})
                                                 .describe("number of samples taken");
  };
  static const Declaration& declaration();

  explicit ZeroOrderHold(std::string name) : FlowModel(std::move(name), declaration()) {}
  void startIoStep(double tStart, double tEnd) override;
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
