#pragma once
/// @file
/// PulsedThruster: a thruster fired for a commanded on-time, its pulse ended at the exact
/// instant by a zero crossing.

#include "hopsim/models/thruster_base.h"

namespace hopsim::models {

/// PulsedThruster's equations, conventions and choices: docs/models/PulsedThruster.md.
class PulsedThruster : public ThrusterBase {
 public:
  struct Declaration : Fields {
    Declaration();
    /// The fields of a class derived from PulsedThruster, which adds its own after these.
    Declaration(std::string className, std::string doc);
    ParamKey<double> level =
        param<double>("level").unit("N").min(0.0).describe("thrust during a pulse");
    ParamKey<double> minCommandedTime =
        param<double>("min_commanded_time")
            .unit("s")
            .defaultValue(0.0)
            .min(0.0)
            .describe("shorter commands are ignored (the valve's minimum impulse bit)");
    DiscreteStateKey<bool> thrusting =
        discreteState<bool>("thrusting").defaultValue(false).describe("a pulse is in progress");
    DiscreteStateKey<double> offTime = discreteState<double>("off_time")
                                           .unit("s")
                                           .defaultValue(0.0)
                                           .describe("when the pulse in progress ends");
    InKey<double> onTimeCmd = flowIn<double>("on_time_cmd")
                                  .unit("s")
                                  .describe("pulse length, sampled at each I/O step start");
    CrossingKey pulseEnd = zeroCrossing("pulse_end", CrossingDirection::Falling)
                               .describe("the pulse in progress reaches off_time");
  };
  static const Declaration& declaration();

  explicit PulsedThruster(std::string name) : PulsedThruster(std::move(name), declaration()) {}

  void startIoStep(double tStart, double tEnd) override;
  void startHop(double t0, double t1) override;
  double crossingResidual(CrossingKey c, double t) override;
  void onCrossing(CrossingKey c, double t) override;

 protected:
  PulsedThruster(std::string name, const Declaration& declaration)
      : ThrusterBase(std::move(name), declaration), d_(declaration) {}
  double commandedThrust(double t) override;
  /// The thrust during a pulse (N): the param level; a class whose level varies overrides it.
  virtual double pulseLevel() const { return param(d_.level); }

 private:
  const Declaration& d_;
};

}  // namespace hopsim::models
