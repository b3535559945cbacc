#pragma once
/// @file
/// AttitudeErrorSensor: the common part of the noisy attitude sensors (NoisyAttitude,
/// NoisyNodePosVelAccelSensor): a node's true attitude multiplied by a seeded error quaternion
/// with an initial error, white noise, drift and random walk, updated at each sample.

#include <cstdint>
#include <string>
#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/spatial/rotation.h"

namespace hopsim::models {

/// The declaration shared by the noisy attitude sensors: the seed's params and the error
/// process's discrete states. A derived class adds its own outputs.
struct AttitudeErrorDeclaration : ModelSpec {
  AttitudeErrorDeclaration(const char* className, const char* doc);

  ParamKey<bool> noiseSwitch =
      param<bool>("noise_switch")
          .defaultValue(true)
          .describe("false: no error, the output is the true attitude; true: noise included");
  ParamKey<std::int64_t> seed = param<std::int64_t>("seed")
                                    .defaultValue(std::int64_t{1})
                                    .describe("seed of the noise stream, used at the first sample");
  ParamKey<double> sigInitError =
      param<double>("sig_init_error")
          .min(0.0)
          .defaultValue(0.0)
          .describe("half-width of the uniform initial error on each error-quaternion element");
  ParamKey<double> sigAttNoise =
      param<double>("sig_att_noise")
          .min(0.0)
          .defaultValue(0.0)
          .describe("half-width of the uniform white noise on each element, drawn per sample");
  ParamKey<double> sigGyroDrift =
      param<double>("sig_gyro_drift")
          .unit("1/s")
          .min(0.0)
          .defaultValue(0.0)
          .describe("drift: the random walk steps by sig_gyro_drift h [-1, 1] per period h");
  ParamKey<double> gyroRandomWalk =
      param<double>("gyro_random_walk")
          .unit("1/sqrt(s)")
          .min(0.0)
          .defaultValue(0.0)
          .describe("random walk: it steps by gyro_random_walk sqrt(h) [-1, 1] per period h");

  DiscreteStateKey<Eigen::VectorXd> errorOut =
      discreteState<Eigen::VectorXd>("error_out")
          .length(4)
          .defaultValue(std::vector<double>{1, 0, 0, 0})
          .describe("error quaternion of the last sample, scalar first, e0 >= 0");
  DiscreteStateKey<Eigen::VectorXd> initialError =
      discreteState<Eigen::VectorXd>("initial_error")
          .length(4)
          .defaultValue(std::vector<double>{1, 0, 0, 0})
          .describe("identity plus the initial error, drawn at the first sample");
  DiscreteStateKey<Eigen::VectorXd> driftRandState =
      discreteState<Eigen::VectorXd>("drift_rand_state")
          .length(4)
          .defaultValue(0.0)
          .describe("random-walk term added to each element");
  DiscreteStateKey<std::int64_t> stream =
      discreteState<std::int64_t>("noise_stream")
          .defaultValue(std::int64_t{0})
          .describe("RandomStream state (set from seed at the first sample)");
  DiscreteStateKey<std::int64_t> samples = discreteState<std::int64_t>("samples")
                                               .defaultValue(std::int64_t{0})
                                               .describe("number of samples taken");
  DiscreteStateKey<double> sampleTime = discreteState<double>("sample_time")
                                            .unit("s")
                                            .defaultValue(0.0)
                                            .describe("time of the last sample");

  OutKey<Eigen::VectorXd> noiseLevel =
      flowOut<Eigen::VectorXd>("noise_level")
          .length(4)
          .noFeedThrough()
          .describe("error quaternion e applied to the true attitude (identity when off)");
  OutKey<Eigen::VectorXd> noisyAttitude =
      flowOut<Eigen::VectorXd>("noisy_attitude")
          .length(4)
          .noFeedThrough()
          .describe("q_WN ⊗ e, unit quaternion, scalar first, e0 >= 0");
};

/// The noisy attitude sensors' error process; equations in docs/models/NoisyAttitude.md.
class AttitudeErrorSensor : public SensorModel {
 public:
  /// Takes a sample: draws the error quaternion for the step that starts.
  void startIoStep(double tStart, double tEnd) override;

 protected:
  AttitudeErrorSensor(std::string name, const AttitudeErrorDeclaration& spec)
      : SensorModel(std::move(name), spec), d_(spec) {}

  /// Writes noise_level and noisy_attitude; `q_WN` is the node's true attitude.
  void writeNoisyAttitude(const spatial::Quaternion& q_WN);

 private:
  const AttitudeErrorDeclaration& d_;
};

}  // namespace hopsim::models
