#pragma once
/// @file
/// PointMassGravity: the Newtonian field of a point mass (or a spherical planet) on one body.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// PointMassGravity's equations, conventions and choices: docs/models/PointMassGravity.md.
class PointMassGravity final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> mu = param<double>("mu")
                              .unit("m^3/s^2")
                              .defaultValue(3.986004418e14)
                              .above(0.0)
                              .describe("gravitational parameter G M (default: Earth, EGM2008)");
    ParamKey<Eigen::VectorXd> center =
        param<Eigen::VectorXd>("center").length(3).unit("m").defaultValue(0.0).describe(
            "world position of the attracting mass");
    OutKey<Eigen::VectorXd> linearAccel =
        flowOut<Eigen::VectorXd>("linearAccel")
            .length(3)
            .unit("m/s^2")
            .noFeedThrough()
            .describe("gravitational acceleration -mu r/|r|^3 at the body's CM, world axes");
    OutKey<double> potential = flowOut<double>("potential")
                                   .unit("J/kg")
                                   .noFeedThrough()
                                   .describe("potential energy per unit mass U = -mu/|r|");
  };
  static const Declaration& declaration();

  explicit PointMassGravity(std::string name) : ActuatorModel(std::move(name), declaration()) {}

  void preDeriv(double t) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError when the node is on the world body.
  void attach(MultibodySystem& system) override;

 private:
  /// r = p_cm - center (m, world axes) for the current kinematics. @throws NumericalError at
  /// r = 0, where the field is singular.
  spatial::Vector3 offsetFromCenter() const;

  const Declaration& d_ = declaration();
  MultibodySystem::BodyIndex body_ = -1;
};

}  // namespace hopsim::models
