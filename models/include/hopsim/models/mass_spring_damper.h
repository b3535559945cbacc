#pragma once
/// @file
/// MassSpringDamper: a forced, damped linear oscillator.

#include "hopsim/core/continuous_model.h"

namespace hopsim::models {

/// MassSpringDamper's equations, conventions and choices: docs/models/MassSpringDamper.md.
class MassSpringDamper final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> m =
        param<double>("m").unit("kg").defaultValue(1.0).min(0.0).describe("mass; must be > 0");
    ParamKey<double> k =
        param<double>("k").unit("N/m").defaultValue(1.0).min(0.0).describe("spring stiffness");
    ParamKey<double> c = param<double>("c").unit("N*s/m").defaultValue(0.0).min(0.0).describe(
        "viscous damping coefficient");
    ContinuousStateKey<double> x =
        continuousState<double>("x").unit("m").defaultValue(0.0).describe(
            "position of the mass, 0 at the spring's rest length");
    ContinuousStateKey<double> v =
        continuousState<double>("v").unit("m/s").defaultValue(0.0).describe("velocity, x'");
    InKey<double> force = flowIn<double>("F").unit("N").describe("force applied to the mass");
    OutKey<double> position =
        flowOut<double>("x").unit("m").noFeedThrough().describe("position, the state x");
    OutKey<double> velocity =
        flowOut<double>("v").unit("m/s").noFeedThrough().describe("velocity, the state v");
  };
  static const Declaration& declaration();

  explicit MassSpringDamper(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  /// @throws InputError when the mass is not positive.
  void processParams(double t) override;
  void updateFlowOuts(double t) override;
  void postDeriv(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
