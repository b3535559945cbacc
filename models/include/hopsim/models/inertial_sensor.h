#pragma once
/// @file
/// InertialSensor: the error model RateGyro and Accelerometer share (three sense axes on a node,
/// bias, scale factor, misalignment, white noise, bias random walk, Gauss-Markov bias
/// instability, bias drift, quantized counts at the sensor rate, CONTINUOUS or DISCRETE error
/// states). The physics note is docs/models/RateGyro.md.

#include <cstdint>
#include <string>
#include <vector>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// What differs between the two sensors' declarations: class name, documentation, the names
/// and units of the sensed quantity x (rate or specific force) and of its integral (angle or
/// velocity), and the default count resolution.
struct InertialSensorTerms {
  const char* className;
  const char* doc;
  const char* sensed;          ///< "rate" / "specific_force"
  const char* sensedUnit;      ///< "rad/s" / "m/s^2"
  const char* integral;        ///< "angle" / "velocity"
  const char* integralUnit;    ///< "rad" / "m/s"
  const char* noiseUnit;       ///< white-noise density: integral per sqrt(s)
  const char* randomWalkUnit;  ///< bias random walk: sensed unit per sqrt(s)
  const char* driftUnit;       ///< bias drift: sensed unit per s
  double defaultLsb;           ///< integral per count
};

/// The declaration both sensors derive from. Sense axes: row i of `misalignment` (C_SN) is
/// sense axis i in node axes. With x_N the true quantity in node axes,
///   x_m = (1 + scale_factor) .* (C_SN x_N) + bias + b_rw + b_gm + b_d + w,
/// integral' = x_m, and each sample publishes the integral, its increment over the period, the
/// average x over it and the counts floor(integral / lsb) wrapped to count_bits.
struct InertialSensorDeclaration : ModelSpec {
  explicit InertialSensorDeclaration(const InertialSensorTerms& terms);

  const InertialSensorTerms terms;

  // ---- params ---------------------------------------------------------------------------
  ParamKey<Eigen::VectorXd> misalignment =
      param<Eigen::VectorXd>("misalignment")
          .length(9)
          .defaultValue(std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1})
          .describe(
              "C_SN, row-major 3x3: row i is sense axis i in node axes (identity: the node axes; "
              "small off-diagonal terms are misalignments, non-unit rows are not normalized)");
  ParamKey<Eigen::VectorXd> scaleFactor = param<Eigen::VectorXd>("scale_factor")
                                              .length(3)
                                              .unit("1")
                                              .defaultValue(0.0)
                                              .above(-1.0)
                                              .describe("scale-factor error per axis");
  ParamKey<Eigen::VectorXd> bias = param<Eigen::VectorXd>("bias")
                                       .length(3)
                                       .unit(terms.sensedUnit)
                                       .defaultValue(0.0)
                                       .describe("constant bias per axis");
  ParamKey<double> noiseDensity =
      param<double>("white_noise_density")
          .unit(terms.noiseUnit)
          .defaultValue(0.0)
          .min(0.0)
          .describe(
              "white-noise density N (angle / velocity random walk): the integral gains "
              "variance N^2 h per period h, a sample of x variance N^2 / h");
  ParamKey<double> biasRandomWalk =
      param<double>("bias_random_walk")
          .unit(terms.randomWalkUnit)
          .defaultValue(0.0)
          .min(0.0)
          .describe(
              "bias random walk K (rate / acceleration random walk): b_rw gains variance "
              "K^2 h per period h");
  ParamKey<double> biasInstability =
      param<double>("bias_instability")
          .unit(terms.sensedUnit)
          .defaultValue(0.0)
          .min(0.0)
          .describe("steady-state standard deviation of the first-order Gauss-Markov bias b_gm");
  ParamKey<double> correlationTime = param<double>("bias_correlation_time")
                                         .unit("s")
                                         .defaultValue(3600.0)
                                         .above(0.0)
                                         .describe("correlation time tau of b_gm");
  ParamKey<Eigen::VectorXd> driftRate = param<Eigen::VectorXd>("bias_drift_rate")
                                            .length(3)
                                            .unit(terms.driftUnit)
                                            .defaultValue(0.0)
                                            .describe("deterministic bias drift b_d' per axis");
  ParamKey<double> lsb = param<double>("lsb")
                             .unit(terms.integralUnit)
                             .defaultValue(terms.defaultLsb)
                             .above(0.0)
                             .describe("integral per count (quantization step)");
  ParamKey<std::int64_t> countBits =
      param<std::int64_t>("count_bits")
          .defaultValue(std::int64_t{32})
          .bounds(2, 64)
          .describe("width of the signed count registers; counts wrap modulo 2^count_bits");
  ParamKey<std::int64_t> seed = param<std::int64_t>("seed")
                                    .defaultValue(std::int64_t{1})
                                    .describe("seed of the noise stream, used at the first sample");
  ParamKey<std::string> stateType =
      param<std::string>("state_type")
          .defaultValue(std::string("CONTINUOUS"))
          .describe(
              "CONTINUOUS: the error states are integrated, driven by noise held over each "
              "sample period; DISCRETE: they are updated at each sample by their exact "
              "discrete-time transition and held between samples");

  // ---- continuous states (x_m is always integrated: it carries the true motion) -----------
  ContinuousStateKey<Eigen::VectorXd> integralState =
      continuousState<Eigen::VectorXd>(terms.integral)
          .length(3)
          .unit(terms.integralUnit)
          .defaultValue(0.0)
          .describe("measured integral of x_m per axis");
  ContinuousStateKey<Eigen::VectorXd> randomWalkBias = continuousState<Eigen::VectorXd>("rw_bias")
                                                           .length(3)
                                                           .unit(terms.sensedUnit)
                                                           .defaultValue(0.0)
                                                           .describe("bias random walk b_rw");
  ContinuousStateKey<Eigen::VectorXd> markovBias = continuousState<Eigen::VectorXd>("gm_bias")
                                                       .length(3)
                                                       .unit(terms.sensedUnit)
                                                       .defaultValue(0.0)
                                                       .describe("Gauss-Markov bias b_gm");
  ContinuousStateKey<Eigen::VectorXd> driftBias = continuousState<Eigen::VectorXd>("drift_bias")
                                                      .length(3)
                                                      .unit(terms.sensedUnit)
                                                      .defaultValue(0.0)
                                                      .describe("drifting bias b_d");

  // ---- discrete states ------------------------------------------------------------------
  DiscreteStateKey<std::int64_t> stream =
      discreteState<std::int64_t>("noise_stream")
          .defaultValue(std::int64_t{0})
          .describe("RandomStream state (set from seed at the first sample)");
  DiscreteStateKey<Eigen::VectorXd> forcing =
      discreteState<Eigen::VectorXd>("noise_forcing")
          .length(9)
          .defaultValue(0.0)
          .describe(
              "CONTINUOUS: noise held over the current period, [w (3), b_rw' (3), b_gm' "
              "noise (3)]");
  DiscreteStateKey<std::int64_t> samples = discreteState<std::int64_t>("samples")
                                               .defaultValue(std::int64_t{0})
                                               .describe("number of samples taken");
  DiscreteStateKey<double> sampleTime = discreteState<double>("sample_time")
                                            .unit("s")
                                            .defaultValue(0.0)
                                            .describe("time of the last sample");
  DiscreteStateKey<Eigen::VectorXd> sampledIntegral =
      discreteState<Eigen::VectorXd>("sampled_integral")
          .length(3)
          .unit(terms.integralUnit)
          .defaultValue(0.0)
          .describe("integral at the last sample");
  DiscreteStateKey<Eigen::VectorXd> sampledDelta =
      discreteState<Eigen::VectorXd>("sampled_delta")
          .length(3)
          .unit(terms.integralUnit)
          .defaultValue(0.0)
          .describe("integral increment over the last period");
  DiscreteStateKey<Eigen::VectorXd> sampledAverage =
      discreteState<Eigen::VectorXd>("sampled_average")
          .length(3)
          .unit(terms.sensedUnit)
          .defaultValue(0.0)
          .describe("average x_m over the last period");
  DiscreteStateKey<IntVector> sampledCounts = discreteState<IntVector>("sampled_counts")
                                                  .length(3)
                                                  .defaultValue(std::int64_t{0})
                                                  .describe("counts at the last sample");
  DiscreteStateKey<IntVector> sampledDeltaCounts =
      discreteState<IntVector>("sampled_delta_counts")
          .length(3)
          .defaultValue(std::int64_t{0})
          .describe("count increment over the last period (wrapped)");

  // ---- outputs: the last sample, held between samples --------------------------------------
  OutKey<Eigen::VectorXd> sensedOut =
      flowOut<Eigen::VectorXd>(terms.sensed)
          .length(3)
          .unit(terms.sensedUnit)
          .noFeedThrough()
          .describe("average measured x over the last sample period (0 before the first ends)");
  OutKey<Eigen::VectorXd> integralOut = flowOut<Eigen::VectorXd>(terms.integral)
                                            .length(3)
                                            .unit(terms.integralUnit)
                                            .noFeedThrough()
                                            .describe("measured integral at the last sample");
  OutKey<Eigen::VectorXd> deltaOut =
      flowOut<Eigen::VectorXd>(std::string("delta_") + terms.integral)
          .length(3)
          .unit(terms.integralUnit)
          .noFeedThrough()
          .describe("increment of the integral over the last sample period");
  OutKey<IntVector> countsOut = flowOut<IntVector>(std::string(terms.integral) + "_counts")
                                    .length(3)
                                    .noFeedThrough()
                                    .describe("floor(integral / lsb), wrapped to count_bits");
  OutKey<IntVector> deltaCountsOut =
      flowOut<IntVector>(std::string("delta_") + terms.integral + "_counts")
          .length(3)
          .noFeedThrough()
          .describe("count increment over the last sample period, wrapped to count_bits");
};

/// The sensor model shared by RateGyro and Accelerometer: a SensorModel whose true quantity
/// x_N (node axes, evaluated in postDeriv) the derived class supplies. Give it its sample rate
/// with Simulation::setModelRate; without one it samples at the simulation's I/O rate.
class InertialSensor : public SensorModel {
 public:
  void processParams(double t) override;
  /// The sample at the start of each I/O step: DISCRETE error-state transitions for the
  /// period that ended, the outputs latched, CONTINUOUS noise drawn for the period starting.
  void startIoStep(double tStart, double tEnd) override;
  void postDeriv(double t) override;
  void updateFlowOuts(double t) override;

 protected:
  InertialSensor(std::string name, const InertialSensorDeclaration& declaration)
      : SensorModel(std::move(name), declaration), d_(declaration) {}

  /// The true sensed quantity at the current derivative evaluation, in node axes.
  virtual spatial::Vector3 trueQuantity() const = 0;

 private:
  /// Applies the exact discrete-time transitions over a period of length h and adds the white
  /// noise's integral: DISCRETE mode.
  void advanceDiscreteErrors(double h, const spatial::Vector3& white, const spatial::Vector3& walk,
                             const spatial::Vector3& markov);
  /// Latches the outputs at a sample taken at t.
  void latchSample(double t);

  const InertialSensorDeclaration& d_;
  // Param-derived caches (set in processParams).
  spatial::Matrix3 senseAxes_ = spatial::Matrix3::Identity();
  bool discrete_ = false;
};

}  // namespace hopsim::models
