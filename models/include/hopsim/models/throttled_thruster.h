#pragma once
/// @file
/// ThrottledThruster: a thruster whose thrust follows a throttle or thrust command, clamped to
/// its range.

#include "hopsim/models/thruster_base.h"

namespace hopsim::models {

/// ThrottledThruster's equations, conventions and choices: docs/models/ThrottledThruster.md.
class ThrottledThruster final : public ThrusterBase {
 public:
  struct Declaration : Fields {
    Declaration();
    ParamKey<double> minLevel = param<double>("min_level")
                                    .unit("N")
                                    .defaultValue(0.0)
                                    .min(0.0)
                                    .describe("thrust at throttle 0 (the lowest while on)");
    ParamKey<double> maxLevel =
        param<double>("max_level")
            .unit("N")
            .min(0.0)
            .describe("thrust at throttle 1 (the highest); at least min_level");
    ParamKey<bool> thrustCommand =
        param<bool>("thrust_command")
            .defaultValue(false)
            .describe("command is a thrust in N (true) or a throttle fraction in [0, 1] (false)");
    InKey<bool> onOff = flowIn<bool>("on_off").describe("fire (true) or not");
    InKey<double> command = flowIn<double>("command").describe(
        "throttle fraction (clamped to [0, 1]) or thrust in N (clamped to [min_level, "
        "max_level]), per thrust_command");
  };
  static const Declaration& declaration();

  explicit ThrottledThruster(std::string name) : ThrusterBase(std::move(name), declaration()) {}

  void processParams(double t) override;

 protected:
  double commandedThrust(double t) override;
  /// Checks the params. @throws InputError when max_level < min_level.
  void attach(MultibodySystem& system) override;

 private:
  /// @throws InputError naming the model when max_level < min_level.
  void checkLevels() const;

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
