#pragma once
/// @file
/// Bushing: Chrono's compliant joint (bushing_data of the YAML parser, ChLoadBodyBodyBushing):
/// a diagonal 6-DOF spring-damper between a marker on each of two bodies.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Bushing's equations, conventions and choices: docs/models/Bushing.md.
class Bushing final : public DartsModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> node1 = param<std::string>("node1").describe("marker A, on body1");
    ParamKey<std::string> node2 = param<std::string>("node2").describe("marker B, on body2");
    ParamKey<Eigen::VectorXd> stiffness =
        param<Eigen::VectorXd>("stiffness")
            .length(6)
            .defaultValue(0.0)
            .min(0.0)
            .describe(
                "diagonal of K, [x, y, z, rx, ry, rz] (N/m for x, y, z; N*m/rad for rx, ry, "
                "rz)");
    ParamKey<Eigen::VectorXd> damping =
        param<Eigen::VectorXd>("damping").length(6).defaultValue(0.0).min(0.0).describe(
            "diagonal of D, [x, y, z, rx, ry, rz] (N*s/m; N*m*s/rad)");
    OutKey<Eigen::VectorXd> deflection =
        flowOut<Eigen::VectorXd>("deflection")
            .length(6)
            .noFeedThrough()
            .describe("s = [p (m); φ (rad)], A relative to B in B's axes");
    OutKey<Eigen::VectorXd> wrench =
        flowOut<Eigen::VectorXd>("wrench").length(6).noFeedThrough().describe(
            "W = [force (N); couple (N*m)] on body2, in B's axes");
  };
  static const Declaration& declaration();

  explicit Bushing(std::string name) : DartsModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError for an unknown node or both nodes on one body.
  void attach(MultibodySystem& system) override;

 private:
  using Vector6 = spatial::Vector6;
  /// s and W of the current state, and B's orientation in W.
  struct Load {
    Vector6 deflection, wrench;
    spatial::Matrix3 R_WB;
  };
  Load load() const;

  const Declaration& d_ = declaration();
  MultibodySystem::NodeIndex node1_ = -1, node2_ = -1;
};

}  // namespace hopsim::models
