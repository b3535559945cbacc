#pragma once
/// @file
/// SoftJointStop: Hunt-Crossley joint limits on a 1-DOF hinge (GeneralSGModels).

#include <cstdint>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// SoftJointStop's equations, conventions and choices: docs/models/SoftJointStop.md.
class SoftJointStop final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> k = param<double>("k").unit("N*m/rad").defaultValue(0.0).min(0.0).describe(
        "stiffness, N*m/rad^n: the static torque at 1 rad of penetration "
        "(the declared unit is that of n = 1: give other n in "
        "SI numbers)");
    ParamKey<double> alpha =
        param<double>("alpha")
            .unit("N*m*s/rad^2")
            .defaultValue(0.0)
            .min(0.0)
            .describe(
                "Hunt-Crossley damping, N*m*s/rad^(n+1): δⁿ alpha δ' of torque "
                "(the declared unit is that of n = 1)");
    ParamKey<double> n = param<double>("n").unit("1").defaultValue(1.0).above(0.0).describe(
        "exponent of the penetration");
    ParamKey<double> lower =
        param<double>("lower_bound").unit("rad").describe("lower bound of θ (m on a SLIDER)");
    ParamKey<double> upper = param<double>("upper_bound")
                                 .unit("rad")
                                 .describe("upper bound of θ, above lower_bound (m on a SLIDER)");
    DiscreteStateKey<std::int64_t> contacts =
        discreteState<std::int64_t>("contacts")
            .defaultValue(std::int64_t{0})
            .describe("number of contact onsets at either stop");
    OutKey<double> torque = flowOut<double>("torque").unit("N*m").noFeedThrough().describe(
        "the stop's generalized force on the hinge (N on a SLIDER)");
    CrossingKey upperContact = zeroCrossing("upper", CrossingDirection::Either)
                                   .describe("θ - upper_bound: the upper stop is reached or left");
    CrossingKey lowerContact = zeroCrossing("lower", CrossingDirection::Either)
                                   .describe("lower_bound - θ: the lower stop is reached or left");
  };
  static const Declaration& declaration();

  explicit SoftJointStop(std::string name) : MotorModel(std::move(name), declaration()) {}
  /// @throws InputError unless lower_bound < upper_bound.
  void processParams(double t) override;
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;
  double crossingResidual(CrossingKey c, double t) override;
  void onCrossing(CrossingKey c, double t) override;

 protected:
  /// @throws ModelError unless the attachment has one coordinate and one rate.
  void attach(MultibodySystem& system) override;

 private:
  /// The stop's torque at the current coordinate and rate.
  double torqueNow() const;

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
