#pragma once
/// @file
/// BodyLoad: a Chrono body load (FORCE or TORQUE), constant, modulated by a TimeFunction, or
/// commanded by a load controller.

#include <string>

#include "hopsim/core/darts_model.h"
#include "hopsim/models/time_function_spec.h"

namespace hopsim::models {

/// A Chrono `body_loads` or `load_controllers` entry (seed chrono-yaml-semantics A13), attached
/// to a node N at the body's centre of mass with the COM frame's orientation ("local" in
/// Chrono means this frame). The load vector L is `load` × s(t), s the modulation TimeFunction
/// of `function`, `coefficients` and `repeat` (a CONTROLLER modulation has no setpoint here, so
/// s = 0), or, when `controlled`, the flowIn `command` as it is (Chrono's load controller: no
/// modulation).
///
/// - FORCE: F = L in N's axes when `local_load`, else in world axes (a fixed world direction).
///   Applied at `point`: with `local_point`, a point fixed on the body, given from the COM in
///   N's axes; otherwise a point fixed in the world (it does not move with the body), the
///   torque about the COM being (p - r_com) × F.
/// - TORQUE: a couple L in N's axes when `local_load`, else in world axes; `point` is unused.
///
/// `command` must be tied even when the load is not controlled, as every port.
class BodyLoad final : public ActuatorModel {
 public:
  struct Declaration : TimeFunctionSpec {
    Declaration();
    ParamKey<std::string> type =
        param<std::string>("type").describe("FORCE or TORQUE (case-insensitive)");
    ParamKey<Eigen::VectorXd> load =
        param<Eigen::VectorXd>("load").length(3).defaultValue(0.0).describe(
            "the load vector, scaled by s(t) (N or N*m)");
    ParamKey<bool> localLoad =
        param<bool>("local_load")
            .defaultValue(true)
            .describe("the load is in the COM frame's axes (true) or in world axes (false)");
    ParamKey<Eigen::VectorXd> point =
        param<Eigen::VectorXd>("point").length(3).unit("m").defaultValue(0.0).describe(
            "FORCE: the application point");
    ParamKey<bool> localPoint = param<bool>("local_point")
                                    .defaultValue(true)
                                    .describe(
                                        "point is from the COM in the COM frame's axes (true) or "
                                        "fixed in the world (false)");
    ParamKey<bool> controlled =
        param<bool>("controlled")
            .defaultValue(false)
            .describe("the load vector is the flowIn command (a load controller), not load * s(t)");
    InKey<Eigen::VectorXd> command = flowIn<Eigen::VectorXd>("command").length(3).describe(
        "the load vector when controlled (N or N*m, axes as local_load)");
  };
  static const Declaration& declaration();

  explicit BodyLoad(std::string name) : ActuatorModel(std::move(name), declaration()) {}

  void processParams(double t) override;
  void preDeriv(double t) override;

 protected:
  /// @throws InputError for bad params.
  void attach(MultibodySystem& system) override;

 private:
  /// Parses and checks type and the modulation function.
  void configure();

  const Declaration& d_ = declaration();
  bool force_ = true;
  TimeFunction modulation_;
};

}  // namespace hopsim::models
