#pragma once
/// @file
/// ContinuousIntegrator: integrates its input.

#include "hopsim/core/continuous_model.h"

namespace hopsim::models {

/// ContinuousIntegrator's equations, conventions and choices: docs/models/ContinuousIntegrator.md.
class ContinuousIntegrator final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    InKey<Eigen::VectorXd> u =
        flowIn<Eigen::VectorXd>("u").length("n").describe("integrand, in y's unit per second");
    ContinuousStateKey<Eigen::VectorXd> integral =
        continuousState<Eigen::VectorXd>("y").length("n").defaultValue(0.0).describe(
            "the integral; initially y0");
    OutKey<Eigen::VectorXd> y =
        flowOut<Eigen::VectorXd>("y").length("n").noFeedThrough().describe("the integral y");
  };
  static const Declaration& declaration();

  explicit ContinuousIntegrator(std::string name)
      : ContinuousModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;
  void postDeriv(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
