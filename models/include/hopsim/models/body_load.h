#pragma once
/// @file
/// BodyLoad: a Chrono body load (FORCE or TORQUE), constant, modulated by a TimeFunction, or
/// commanded by a load controller.

#include <string>

#include "hopsim/core/darts_model.h"
#include "hopsim/models/time_function_spec.h"

namespace hopsim::models {

/// BodyLoad's equations, conventions and choices: docs/models/BodyLoad.md.
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
