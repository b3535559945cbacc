#pragma once
/// @file
/// ChronoForceMotor: a Chrono FORCE motor between two bodies that no tree hinge joins (a
/// spindle or guide FREE motor, or one on a cut joint): equal and opposite torques or forces
/// along the motor axis.

#include <string>

#include "hopsim/core/darts_model.h"
#include "hopsim/models/time_function_spec.h"

namespace hopsim::models {

/// A Chrono ROTATION or LINEAR FORCE motor (seed chrono-yaml-semantics A11) acting between the
/// node `node1` (Chrono's frame 1, fixed on body1) and the node `node2` (frame 2, on body2); the
/// two frames coincide at t = 0 and their Z axis is the motor axis. With f the TimeFunction of
/// `function`, `coefficients` and `repeat` (a CONTROLLER takes its value from the flowIn
/// `setpoint`, 0 until written) and Z2 the current z axis of frame 2 in the world:
///
/// - ROTATION: torque +f Z2 on body1 and -f Z2 on body2 (N·m);
/// - LINEAR: force +f Z2 on body1 at frame 1's origin p1 and -f Z2 on body2 at the same world
///   point p1 (N), so the pair has no net moment about p1.
///
/// The model adds no constraint: the joint that keeps the frames aligned (a spindle or guide)
/// is the lowering's business. `setpoint` must be tied even when the function is not a
/// CONTROLLER, as every port.
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
