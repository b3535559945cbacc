#pragma once
/// @file
/// SineWave: a sinusoidal source.

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// SineWave's equations, conventions and choices: docs/models/SineWave.md.
class SineWave final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> amplitude =
        param<double>("amplitude").defaultValue(1.0).describe("amplitude, in the output's unit");
    ParamKey<double> frequency =
        param<double>("frequency").unit("Hz").defaultValue(1.0).min(0.0).describe("frequency");
    ParamKey<double> phase =
        param<double>("phase").unit("rad").defaultValue(0.0).describe("phase at t = 0");
    ParamKey<double> offset =
        param<double>("offset").defaultValue(0.0).describe("constant added to the wave");
    OutKey<double> y = flowOut<double>("y").describe("the wave at the update time");
  };
  static const Declaration& declaration();

  explicit SineWave(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
