#pragma once
/// @file
/// SingleTrapezoidalProfile: a trapezoidal velocity profile for a commanded coordinate change
/// (GeneralSGModels), as a flow model evaluated in closed form.

#include <cstdint>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// SingleTrapezoidalProfile's equations, conventions and choices:
/// docs/models/SingleTrapezoidalProfile.md.
class SingleTrapezoidalProfile final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<bool> relativeMode =
        param<bool>("relativeMode")
            .defaultValue(false)
            .describe("wrap the target by 2π so that a move goes the shortest way round (angles)");
    DiscreteStateKey<double> endCoord =
        discreteState<double>("end_coord").defaultValue(0.0).describe("the target of the plan");
    DiscreteStateKey<double> prevProfileCoord =
        discreteState<double>("prev_profile_coord")
            .defaultValue(0.0)
            .describe("the end of the last completed profile, origin of the next commanded change");
    DiscreteStateKey<double> planTime = discreteState<double>("plan_time")
                                            .unit("s")
                                            .defaultValue(0.0)
                                            .describe("when the current plan started");
    DiscreteStateKey<double> planCoord =
        discreteState<double>("plan_coord")
            .defaultValue(0.0)
            .describe("the coordinate when the current plan started");
    DiscreteStateKey<double> planRate = discreteState<double>("plan_rate")
                                            .defaultValue(0.0)
                                            .describe("the rate when the current plan started");
    DiscreteStateKey<double> planAccel =
        discreteState<double>("plan_accel")
            .defaultValue(0.0)
            .describe("the acceleration bound of the current plan (0: at rest)");
    DiscreteStateKey<double> planMaxVel = discreteState<double>("plan_max_vel")
                                              .defaultValue(0.0)
                                              .describe("the speed bound of the current plan");
    DiscreteStateKey<double> commandCoord =
        discreteState<double>("command_coord")
            .defaultValue(0.0)
            .describe("the last commanded change, to recognise a new one");
    InKey<double> accel = flowIn<double>("accel").describe("acceleration bound a (> 0)");
    InKey<double> maxVel =
        flowIn<double>("maxVel").describe("speed bound v (>= 0; 0 brakes to rest)");
    InKey<double> coord = flowIn<double>("coord").describe("commanded coordinate change Δ");
    OutKey<double> profileCoord =
        flowOut<double>("profile_coord")
            .noFeedThrough()
            .describe("the profile's coordinate (the seed's output coord)");
    OutKey<double> profileRate =
        flowOut<double>("profile_rate").noFeedThrough().describe("its rate (the seed's rate)");
    OutKey<double> profileAccel = flowOut<double>("profile_accel")
                                      .noFeedThrough()
                                      .describe("its acceleration (the seed's output accel)");
    OutKey<std::int64_t> status = flowOut<std::int64_t>("status").noFeedThrough().describe(
        "0 while moving, 1 when the profile is done");
  };
  static const Declaration& declaration();

  explicit SingleTrapezoidalProfile(std::string name) : FlowModel(std::move(name), declaration()) {}
  /// @throws InputError for a non-positive accel or a negative maxVel when a command changes.
  void startIoStep(double tStart, double tEnd) override;
  void updateFlowOuts(double t) override;

 private:
  /// The profile at time t.
  struct Sample {
    double coord, rate, accel;
    bool done;
  };
  Sample sample(double t) const;

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
