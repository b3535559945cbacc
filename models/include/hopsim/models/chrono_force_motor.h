#pragma once
/// @file
/// ChronoForceMotor: a Chrono FORCE motor between two bodies that no tree hinge joins (a
/// spindle or guide FREE motor, or one on a cut joint): equal and opposite torques or forces
/// along the motor axis.

#include <string>

#include "hopsim/core/darts_model.h"
#include "hopsim/models/time_function_spec.h"

namespace hopsim::models {

/// ChronoForceMotor's equations, conventions and choices: docs/models/ChronoForceMotor.md.
class ChronoForceMotor final : public DartsModel {
 public:
  struct Declaration : TimeFunctionSpec {
    Declaration();
    ParamKey<std::string> kind =
        param<std::string>("kind").describe("ROTATION or LINEAR (case-insensitive)");
    ParamKey<std::string> node1 =
        param<std::string>("node1").describe("the node of frame 1, fixed on body1");
    ParamKey<std::string> node2 = param<std::string>("node2").describe(
        "the node of frame 2, fixed on body2; its z axis is the motor axis");
    InKey<double> setpoint =
        flowIn<double>("setpoint")
            .describe("the CONTROLLER function's value (N*m or N); ignored otherwise");
  };
  static const Declaration& declaration();

  explicit ChronoForceMotor(std::string name) : DartsModel(std::move(name), declaration()) {}

  void processParams(double t) override;
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError for an unknown node; InputError for bad params.
  void attach(MultibodySystem& system) override;

 private:
  /// Parses and checks kind and the function.
  void configure();

  const Declaration& d_ = declaration();
  bool rotation_ = true;
  MultibodySystem::NodeIndex node1_ = -1, node2_ = -1;
  TimeFunction function_;
};

}  // namespace hopsim::models
