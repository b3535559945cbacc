#pragma once
/// @file
/// BallEncoder: the quaternion and Euler angles of a ball hinge, quantized and sampled at the
/// model's rate (DshellCommonModels::BallEncoder).

#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/spatial/rotation.h"

namespace hopsim::models {

/// BallEncoder's equations, conventions and choices: docs/models/BallEncoder.md.
class BallEncoder final : public EncoderModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> sequence =
        param<std::string>("EulerSequence")
            .defaultValue(std::string("ZYX"))
            .describe("XYZ, XZY, YXZ, YZX, ZXY, ZYX, XYX, XZX, YXY, YZY, ZXZ or ZYZ (intrinsic)");
    ParamKey<double> lsb = param<double>("angle_lsb")
                               .unit("rad")
                               .defaultValue(0.0)
                               .min(0.0)
                               .describe("angle per count; 0 = ideal, unquantized");
    DiscreteStateKey<Eigen::VectorXd> sampledRotation =
        discreteState<Eigen::VectorXd>("rotation")
            .length(4)
            .defaultValue(std::vector<double>{1.0, 0.0, 0.0, 0.0})
            .describe("the last sampled q_FM (identity before the first sample)");
    DiscreteStateKey<Eigen::VectorXd> sampledAngles =
        discreteState<Eigen::VectorXd>("angles").length(3).unit("rad").defaultValue(0.0).describe(
            "the last sampled angles");
    DiscreteStateKey<IntVector> sampledCounts = discreteState<IntVector>("counts")
                                                    .length(3)
                                                    .defaultValue(std::int64_t{0})
                                                    .describe("the last sampled angles in counts");
    OutKey<Eigen::VectorXd> rotation = flowOut<Eigen::VectorXd>("rotation")
                                           .length(4)
                                           .noFeedThrough()
                                           .describe("q_FM, scalar first");
    OutKey<double> angle1 =
        flowOut<double>("angle1").unit("rad").noFeedThrough().describe("first-axis rotation");
    OutKey<double> angle2 =
        flowOut<double>("angle2").unit("rad").noFeedThrough().describe("second-axis rotation");
    OutKey<double> angle3 =
        flowOut<double>("angle3").unit("rad").noFeedThrough().describe("third-axis rotation");
    OutKey<IntVector> counts = flowOut<IntVector>("counts").length(3).noFeedThrough().describe(
        "floor(angle_i / angle_lsb)");
  };
  static const Declaration& declaration();

  explicit BallEncoder(std::string name) : EncoderModel(std::move(name), declaration()) {}
  /// @throws InputError for an unknown EulerSequence.
  void processParams(double t) override;
  void startIoStep(double tStart, double tEnd) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError unless the attachment is a quaternion (nq = 4, nu = 3).
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  spatial::EulerSequence sequence_ = spatial::EulerSequence::ZYX;
};

}  // namespace hopsim::models
