#pragma once
/// @file
/// SingleTrapezoidalProfile: a trapezoidal velocity profile for a commanded coordinate change
/// (GeneralSGModels), as a flow model evaluated in closed form.

#include <cstdint>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// Moves a coordinate by the commanded change with bounded acceleration and speed (seed
/// 29.22): accelerate at ±a to the peak speed w <= maxVel, coast at w, decelerate at ∓a to rest
/// at end_coord; the first two phases may be empty. Rest to rest over D = |Δ|:
/// T = D/v + v/a when D >= v²/a, else T = 2 sqrt(D/a) with the peak sqrt(a D).
///
/// Port names are unique across inputs and outputs, so the seed's outputs coord, rate and
/// accel are profile_coord, profile_rate and profile_accel here.
///
/// Commands are sampled at the start of each of the model's I/O steps (its rate). A change of
/// the input `coord` is a new move: end_coord = prev_profile_coord + Δ, where
/// prev_profile_coord is the end of the last completed profile (so a change mid-move
/// re-targets relative to where the current move started). A change of `accel` or `maxVel`
/// alone re-plans the current move to the same end. Either re-plan starts from the profile's
/// current coordinate and rate, which stay continuous. maxVel = 0 brakes to rest at ±a. The
/// plan (its start time, coordinate and rate) is kept in discrete states, and the outputs are
/// the closed form of the plan at the time they are computed.
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
