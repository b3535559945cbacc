#pragma once
/// @file
/// FialaTire: a tyre on hard ground with Fiala's brush-model longitudinal and lateral forces.

#include <Eigen/Core>

#include "hopsim/models/tyre_model.h"

namespace hopsim::models {

/// Fiala's longitudinal and lateral tyre forces at normal load Fz (N), slip ratio κ and slip
/// angle α (rad), for stiffnesses C_κ (N) and C_α (N/rad) and friction coefficients μ_max, μ_min.
Eigen::Vector2d fialaForces(double normalForce, double slipRatio, double slipAngle,
                            double longitudinalStiffness, double lateralStiffness, double muMax,
                            double muMin);

/// FialaTire's equations, conventions and choices: docs/models/FialaTire.md.
class FialaTire final : public TyreModel {
 public:
  struct Declaration : TyreDeclaration {
    Declaration();
    ParamKey<double> longitudinalStiffness = param<double>("longitudinal_tire_stiffness")
                                                 .unit("N")
                                                 .above(0.0)
                                                 .describe("C_κ, dFx/dκ at κ = 0");
    ParamKey<double> lateralStiffness = param<double>("lateral_tire_stiffness")
                                            .unit("N/rad")
                                            .above(0.0)
                                            .describe("C_α, -dFy/dα at α = 0");
    ParamKey<Eigen::VectorXd> frictionLimits =
        param<Eigen::VectorXd>("friction_limits")
            .length(2)
            .defaultValue(std::vector<double>{0.8, 0.6})
            .min(0.0)
            .describe("[μ_max, μ_min]: friction at no slip and at full slip");
    ParamKey<double> rollingResistance =
        param<double>("rolling_resistance_coeff")
            .unit("m")
            .defaultValue(0.0)
            .min(0.0)
            .describe("rr: the rolling resistance couple is rr Fz against the spin");
  };
  static const Declaration& declaration();

  explicit FialaTire(std::string name) : TyreModel(std::move(name), declaration()) {}

 private:
  Eigen::Vector2d forces(const TyreState& state) const override;
  double axleCouple(const TyreState& state) const override;

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
