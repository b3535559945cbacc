#pragma once
/// @file
/// PdController: a proportional-derivative controller with saturation.

#include <limits>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// PdController's equations, conventions and choices: docs/models/PdController.md.
class PdController final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> kp = param<double>("kp").unit("1").defaultValue(1.0).min(0.0).describe(
        "proportional gain, in u's unit per q's unit (N/m, N*m/rad)");
    ParamKey<double> kd = param<double>("kd").unit("1").defaultValue(0.0).min(0.0).describe(
        "derivative gain, in u's unit per qdot's unit (N*s/m, N*m*s/rad)");
    ParamKey<double> setpoint = param<double>("setpoint")
                                    .defaultValue(0.0)
                                    .describe("position setpoint for every element, in q's unit");
    ParamKey<double> rateSetpoint =
        param<double>("rate_setpoint")
            .defaultValue(0.0)
            .describe("rate setpoint for every element, in qdot's unit");
    ParamKey<double> limit =
        param<double>("limit")
            .defaultValue(std::numeric_limits<double>::infinity())
            .above(0.0)
            .describe("saturation: |u| <= limit for every element, in u's unit");
    InKey<Eigen::VectorXd> q =
        flowIn<Eigen::VectorXd>("q").length("n").describe("measured position");
    InKey<Eigen::VectorXd> qdot =
        flowIn<Eigen::VectorXd>("qdot").length("n").describe("measured rate");
    OutKey<Eigen::VectorXd> u =
        flowOut<Eigen::VectorXd>("u").length("n").feedsFrom(q, qdot).describe(
            "generalized force command");
  };
  static const Declaration& declaration();

  explicit PdController(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
