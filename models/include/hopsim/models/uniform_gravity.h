#pragma once
/// @file
/// UniformGravity: a uniform gravity field on one body.

#include <vector>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// UniformGravity's equations, conventions and choices: docs/models/UniformGravity.md.
class UniformGravity final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<Eigen::VectorXd> g =
        param<Eigen::VectorXd>("g")
            .length(3)
            .unit("m/s^2")
            .defaultValue(std::vector<double>{0.0, 0.0, -9.80665})
            .describe("gravitational acceleration, world axes (default: standard gravity down z)");
  };
  static const Declaration& declaration();

  explicit UniformGravity(std::string name) : ActuatorModel(std::move(name), declaration()) {}

  void preDeriv(double t) override;

 protected:
  /// @throws ModelError when the node is on the world body.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  MultibodySystem::BodyIndex body_ = -1;
};

}  // namespace hopsim::models
