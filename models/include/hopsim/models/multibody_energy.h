#pragma once
/// @file
/// MultibodyEnergy: the energy and momentum of the whole multibody system, for bookkeeping.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// MultibodyEnergy's equations, conventions and choices: docs/models/MultibodyEnergy.md.
class MultibodyEnergy final : public DartsModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    OutKey<double> kineticEnergy =
        flowOut<double>("kinetic_energy").unit("J").noFeedThrough().describe("Σ ½ Vᵀ M V");
    OutKey<double> potentialEnergy = flowOut<double>("potential_energy")
                                         .unit("J")
                                         .noFeedThrough()
                                         .describe("-Σ m g·p_cm, zero at the world origin");
    OutKey<Eigen::VectorXd> linearMomentum = flowOut<Eigen::VectorXd>("linear_momentum")
                                                 .length(3)
                                                 .unit("kg*m/s")
                                                 .noFeedThrough()
                                                 .describe("Σ m v_cm, world axes");
    OutKey<Eigen::VectorXd> angularMomentum = flowOut<Eigen::VectorXd>("angular_momentum")
                                                  .length(3)
                                                  .unit("kg*m^2/s")
                                                  .noFeedThrough()
                                                  .describe("about the world origin, world axes");
  };
  static const Declaration& declaration();

  explicit MultibodyEnergy(std::string name) : DartsModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
