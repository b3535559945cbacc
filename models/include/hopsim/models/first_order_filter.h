#pragma once
/// @file
/// FirstOrderFilter: the continuous first-order lag tau y' = u - y.

#include "hopsim/core/continuous_model.h"

namespace hopsim::models {

/// A first-order low-pass filter on a vector, element by element: tau y' = u - y, so a step of
/// u from y0 gives y(t) = u + (y0 - u) exp(-t / tau). It is continuous (y is a continuous state,
/// initially 0 or as set): an input from a ContinuousModel is filtered to the integrator's
/// accuracy, one from a FlowModel is held over each hop. The output is the state, so the model
/// has no feed-through and closes loops without a break; it also serves as a first-order plant
/// with unit gain. For a discrete filter stepped at an I/O rate, see the LowPass of
/// examples/custom_model.cpp.
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
