#pragma once
/// @file
/// ChronoMotor: a Chrono ROTATION or LINEAR motor on a one-rate hinge or subhinge, driven in
/// POSITION, SPEED or FORCE by a TimeFunction.

#include <string>

#include "hopsim/core/darts_model.h"
#include "hopsim/models/time_function_spec.h"

namespace hopsim::models {

/// ChronoMotor's equations, conventions and choices: docs/models/ChronoMotor.md.
class ChronoMotor final : public MotorModel {
 public:
  enum class Actuation { Position, Speed, Force };

  struct Declaration : TimeFunctionSpec {
    Declaration();
    ParamKey<std::string> actuation =
        param<std::string>("actuation").describe("POSITION, SPEED or FORCE (case-insensitive)");
    ParamKey<double> sign = param<double>("sign").unit("1").defaultValue(1.0).describe(
        "+1 or -1: the hinge coordinate is sign times Chrono's driven angle or offset");
    ContinuousStateKey<double> integral =
        continuousState<double>("integral")
            .defaultValue(0.0)
            .describe(
                "the integral of f from the start, rad or m (the SPEED motor's angle/offset)");
    DiscreteStateKey<double> setpointValue = discreteState<double>("setpoint_value")
                                                 .defaultValue(0.0)
                                                 .describe("CONTROLLER: the last setpoint sampled");
    DiscreteStateKey<double> setpointRate =
        discreteState<double>("setpoint_rate")
            .defaultValue(0.0)
            .describe("CONTROLLER: backward difference of the last two setpoints");
    DiscreteStateKey<double> setpointTime =
        discreteState<double>("setpoint_time")
            .unit("s")
            .defaultValue(0.0)
            .describe("CONTROLLER: time of the last setpoint sample");
    DiscreteStateKey<std::int64_t> setpointUpdates =
        discreteState<std::int64_t>("setpoint_updates")
            .defaultValue(std::int64_t{0})
            .describe("CONTROLLER: setpoint samples so far (0, 1, or 2 for several)");
    InKey<double> setpoint = flowIn<double>("setpoint")
                                 .describe(
                                     "the CONTROLLER function's value (rad, m, rad/s, m/s, N*m or "
                                     "N); ignored otherwise");
    OutKey<double> force = flowOut<double>("force").describe(
        "the generalized force the motor exerts along Chrono's angle/offset (N*m or N)");
  };
  static const Declaration& declaration();

  explicit ChronoMotor(std::string name) : MotorModel(std::move(name), declaration()) {}

  /// Whether the `actuation` param (POSITION or SPEED) needs the attached subhinge masked.
  /// @throws InputError for an unknown actuation.
  bool prescribedMotion() const;

  void processParams(double t) override;
  void startHop(double t0, double t1) override;
  void maskedCoordinates(double t) override;
  void preDeriv(double t) override;
  void postDeriv(double t) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError for a hinge with nu != 1 or a mask that does not fit the actuation;
  /// InputError for bad params.
  void attach(MultibodySystem& system) override;

 private:
  /// Parses and checks the params into actuation_, sign_ and function_.
  void configure();
  /// f at t, with the setpoint for a CONTROLLER.
  TimeFunction::Sample evaluate(double t);

  const Declaration& d_ = declaration();
  Actuation actuation_ = Actuation::Force;
  double sign_ = 1.0;
  TimeFunction function_;
};

}  // namespace hopsim::models
