#pragma once
/// @file
/// UserClock: a vehicle or site clock, published as signals (DshellCommonModels::UserClock).

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// UserClock's equations, conventions and choices: docs/models/UserClock.md.
class UserClock final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<IntVector> baseTime =
        param<IntVector>("baseTime")
            .length(2)
            .defaultValue(std::int64_t{0})
            .describe("clock value at simulation time 0: [seconds, nanoseconds]");
    ParamKey<double> offset =
        param<double>("offset").unit("s").defaultValue(0.0).describe("added to simulation time");
    OutKey<double> time =
        flowOut<double>("time").unit("s").describe("clock value as seconds (double)");
    OutKey<IntVector> clockTime =
        flowOut<IntVector>("clockTime")
            .length(2)
            .describe("clock value as [seconds, nanoseconds in 0..999999999]");
  };
  static const Declaration& declaration();

  explicit UserClock(std::string name) : FlowModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
