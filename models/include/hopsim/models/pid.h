#pragma once
/// @file
/// Pid: a sampled PID controller with anti-windup, output limits and derivative on measurement.

#include <limits>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// Pid's equations, conventions and choices: docs/models/Pid.md.
class Pid final : public FlowModel {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> kp = param<double>("kp").unit("1").defaultValue(1.0).min(0.0).describe(
        "proportional gain, in u's unit per y's unit");
    ParamKey<double> ki = param<double>("ki").unit("1/s").defaultValue(0.0).min(0.0).describe(
        "integral gain, in u's unit per (y's unit * s)");
    ParamKey<double> kd = param<double>("kd").unit("s").defaultValue(0.0).min(0.0).describe(
        "derivative gain, in u's unit per (y's unit / s)");
    ParamKey<double> outputMin =
        param<double>("output_min").defaultValue(-kInf).describe("lower limit of u");
    ParamKey<double> outputMax =
        param<double>("output_max").defaultValue(kInf).describe("upper limit of u");
    InKey<double> r = flowIn<double>("r").describe("setpoint, in y's unit");
    InKey<double> y = flowIn<double>("y").describe("measurement");
    OutKey<double> u =
        flowOut<double>("u").noFeedThrough().describe("command held since the last sample");
    DiscreteStateKey<double> integral = discreteState<double>("integral")
                                            .defaultValue(0.0)
                                            .describe("integral term I, in u's unit");
    DiscreteStateKey<double> command =
        discreteState<double>("command").defaultValue(0.0).describe("u of the last sample");
    DiscreteStateKey<double> lastMeasurement =
        discreteState<double>("last_y").defaultValue(0.0).describe("y at the last sample");
    DiscreteStateKey<double> lastSampleTime =
        discreteState<double>("last_sample_time")
            .unit("s")
            .defaultValue(std::numeric_limits<double>::quiet_NaN())
            .describe("time of the last sample (NaN before the first)");
  };
  static const Declaration& declaration();

  explicit Pid(std::string name) : FlowModel(std::move(name), declaration()) {}
  /// @throws InputError when output_min exceeds output_max.
  void processParams(double t) override;
  /// Takes sample k at tStart.
  void startIoStep(double tStart, double tEnd) override;
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
