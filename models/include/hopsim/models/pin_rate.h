#pragma once
/// @file
/// PinRate: the quantized rate of a hinge's first degree of freedom, sampled at the model's
/// rate (GeneralSGModels::PinRate).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// PinRate's equations, conventions and choices: docs/models/PinRate.md.
class PinRate final : public EncoderModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> lsb =
        param<double>("rate_lsb")
            .unit("rad/s")
            .defaultValue(0.0)
            .min(0.0)
            .describe("rate per count (rad/s, or m/s on a slider); 0 = ideal, unquantized");
    DiscreteStateKey<double> sampledRate =
        discreteState<double>("rate").unit("rad/s").defaultValue(0.0).describe("the last sample");
    DiscreteStateKey<std::int64_t> sampledCounts = discreteState<std::int64_t>("counts")
                                                       .defaultValue(std::int64_t{0})
                                                       .describe("the last sample in counts");
    OutKey<double> rate =
        flowOut<double>("rate").unit("rad/s").noFeedThrough().describe("quantized U[0]");
    OutKey<std::int64_t> counts =
        flowOut<std::int64_t>("counts").noFeedThrough().describe("floor(U[0] / rate_lsb)");
  };
  static const Declaration& declaration();

  explicit PinRate(std::string name) : EncoderModel(std::move(name), declaration()) {}
  void startIoStep(double tStart, double tEnd) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError when the attachment has no degree of freedom.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
