#pragma once
/// @file
/// GimbalEncoder: the quantized angles of a gimbal-like hinge, sampled at the model's rate
/// (GeneralSGModels::GimbalEncoder).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// GimbalEncoder's equations, conventions and choices: docs/models/GimbalEncoder.md.
class GimbalEncoder final : public EncoderModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> lsb = param<double>("angle_lsb")
                               .unit("rad")
                               .defaultValue(0.0)
                               .min(0.0)
                               .describe("angle per count; 0 = ideal, unquantized");
    DiscreteStateKey<Eigen::VectorXd> sampledAngles =
        discreteState<Eigen::VectorXd>("angles").length(3).unit("rad").defaultValue(0.0).describe(
            "the last sample");
    DiscreteStateKey<IntVector> sampledCounts = discreteState<IntVector>("counts")
                                                    .length(3)
                                                    .defaultValue(std::int64_t{0})
                                                    .describe("the last sample in counts");
    OutKey<Eigen::VectorXd> angle =
        flowOut<Eigen::VectorXd>("angle").length(3).unit("rad").noFeedThrough().describe(
            "quantized Q[0..2], zero-padded");
    OutKey<IntVector> counts =
        flowOut<IntVector>("counts").length(3).noFeedThrough().describe("floor(Q[i] / angle_lsb)");
  };
  static const Declaration& declaration();

  explicit GimbalEncoder(std::string name) : EncoderModel(std::move(name), declaration()) {}
  void startIoStep(double tStart, double tEnd) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError for more than three coordinates or a quaternion.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
