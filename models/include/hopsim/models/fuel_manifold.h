#pragma once
/// @file
/// FuelManifold: the fuel drawn by several thrusters, shared among several tanks by weight.

#include <string>

#include "hopsim/core/continuous_model.h"

namespace hopsim::models {

/// FuelManifold's equations, conventions and choices: docs/models/FuelManifold.md.
class FuelManifold final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<Eigen::VectorXd> drawWeights =
        param<Eigen::VectorXd>("draw_weights")
            .length("m")
            .min(0.0)
            .describe(
                "share of the draw each tank takes (normalized over the tanks not empty; their sum "
                "must be positive)");
    InKey<Eigen::VectorXd> thrusterFlow = flowIn<Eigen::VectorXd>("thruster_flow")
                                              .length("n")
                                              .unit("kg/s")
                                              .describe("the thrusters' fuel_flow outputs");
    InKey<IntVector> tankEmpty = flowIn<IntVector>("tank_empty")
                                     .length("m")
                                     .describe("the tanks' empty outputs (nonzero: empty)");
    OutKey<Eigen::VectorXd> tankFlow = flowOut<Eigen::VectorXd>("tank_flow")
                                           .length("m")
                                           .unit("kg/s")
                                           .feedsFrom(thrusterFlow, tankEmpty)
                                           .describe("the draw on each tank (their fuel_flow)");
    OutKey<std::int64_t> fuelEmpty =
        flowOut<std::int64_t>("fuel_empty")
            .feedsFrom(tankEmpty)
            .describe("1 when no tank can feed the thrusters (their fuel_empty)");
  };
  static const Declaration& declaration();

  explicit FuelManifold(std::string name) : ContinuousModel(std::move(name), declaration()) {}

  void setup() override;
  void processParams(double t) override;
  void updateFlowOuts(double t) override;

 private:
  /// @throws InputError naming the model when the weights sum to zero.
  void checkWeights() const;

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
