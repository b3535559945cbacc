#pragma once
/// @file
/// SecondOrderResponse: a saturated second-order filter (GeneralSGModels::SecondOrderResponse).

#include <limits>

#include "hopsim/core/continuous_model.h"

namespace hopsim::models {

/// SecondOrderResponse's equations, conventions and choices: docs/models/SecondOrderResponse.md.
class SecondOrderResponse final : public ContinuousModel {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> Fc = param<double>("Fc").unit("Hz").defaultValue(1.0).above(0.0).describe(
        "natural (roll-off) frequency; w_n = 2 pi Fc");
    ParamKey<double> damping =
        param<double>("damping").unit("1").defaultValue(0.7).min(0.0).describe(
            "damping ratio zeta");
    ParamKey<double> inputMin =
        param<double>("InputMin").defaultValue(-kInf).describe("lower clamp of u, in u's unit");
    ParamKey<double> inputMax =
        param<double>("InputMax").defaultValue(kInf).describe("upper clamp of u, in u's unit");
    ParamKey<double> stateMin =
        param<double>("StateMin").defaultValue(-kInf).describe("lower bound of x1 (u's unit)");
    ParamKey<double> stateMax =
        param<double>("StateMax").defaultValue(kInf).describe("upper bound of x1 (u's unit)");
    ParamKey<double> stateDerivMin = param<double>("StateDerivMin")
                                         .defaultValue(-kInf)
                                         .describe("lower bound of x2 (u's unit per second)");
    ParamKey<double> stateDerivMax = param<double>("StateDerivMax")
                                         .defaultValue(kInf)
                                         .describe("upper bound of x2 (u's unit per second)");
    ParamKey<double> state2ndDerivMin =
        param<double>("State2ndDerivMin")
            .defaultValue(-kInf)
            .describe("lower clamp of x2' (u's unit per second squared)");
    ParamKey<double> state2ndDerivMax =
        param<double>("State2ndDerivMax")
            .defaultValue(kInf)
            .describe("upper clamp of x2' (u's unit per second squared)");
    ContinuousStateKey<double> x1 =
        continuousState<double>("x1").defaultValue(0.0).describe("the filtered value");
    ContinuousStateKey<double> x2 =
        continuousState<double>("x2").defaultValue(0.0).describe("its rate");
    InKey<double> u = flowIn<double>("u").describe("input command");
    OutKey<double> state = flowOut<double>("state").noFeedThrough().describe("x1");
    OutKey<double> stateDeriv = flowOut<double>("stateDeriv").noFeedThrough().describe("x2");
    OutKey<double> state2ndDeriv =
        flowOut<double>("state2ndDeriv").feedsFrom(u).describe("x2', after the clamps and limits");
  };
  static const Declaration& declaration();

  explicit SecondOrderResponse(std::string name)
      : ContinuousModel(std::move(name), declaration()) {}
  /// @throws InputError when a Min param exceeds its Max.
  void processParams(double t) override;
  void startIntegrationStep(double t0, double t1) override;
  void updateFlowOuts(double t) override;
  void postDeriv(double t) override;

 private:
  /// x1' and x2' of the current states and input, with the clamps and state limits.
  struct Rates {
    double x1dot, x2dot;
  };
  Rates rates();

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
