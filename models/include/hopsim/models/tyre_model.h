#pragma once
/// @file
/// TyreModel: what FialaTire and MagicFormulaTire share (declaration of the radial spring, the
/// contact inputs and the force outputs; computing the tyre's state, publishing and applying
/// its forces). The equations are in docs/models/FialaTire.md and MagicFormulaTire.md.

#include <Eigen/Core>
#include <optional>

#include "hopsim/core/darts_model.h"
#include "hopsim/models/tyre_contact.h"

namespace hopsim::models {

/// The fields both tyre models declare; each model's declaration adds its force law's params.
struct TyreDeclaration : ModelSpec {
  TyreDeclaration(const char* className, const char* doc);

  ParamKey<double> radius =
      param<double>("radius").unit("m").above(0.0).describe("unloaded radius r");
  ParamKey<double> normalStiffness =
      param<double>("normal_stiffness").unit("N/m").above(0.0).describe("kt, radial stiffness");
  ParamKey<double> normalDamping = param<double>("normal_damping")
                                       .unit("N*s/m")
                                       .defaultValue(0.0)
                                       .min(0.0)
                                       .describe("ct, radial damping");
  ParamKey<double> minSpeed = param<double>("min_speed")
                                  .unit("m/s")
                                  .defaultValue(0.1)
                                  .above(0.0)
                                  .describe("v_min, the slips' least denominator");
  InKey<double> penetration =
      flowIn<double>("penetration").unit("m").describe("δ of the hub below the surface");
  InKey<double> penetrationRate =
      flowIn<double>("penetration_rate").unit("m/s").describe("δ̇, > 0 while sinking");
  InKey<Eigen::VectorXd> normal =
      flowIn<Eigen::VectorXd>("normal").length(3).describe("unit surface normal n̂, world axes");
  OutKey<double> normalForce = flowOut<double>("normal_force")
                                   .unit("N")
                                   .feedsFrom(penetration, penetrationRate, normal)
                                   .describe("Fz along n̂");
  OutKey<double> longitudinalForce = flowOut<double>("longitudinal_force")
                                         .unit("N")
                                         .feedsFrom(penetration, penetrationRate, normal)
                                         .describe("Fx along e_x");
  OutKey<double> lateralForce = flowOut<double>("lateral_force")
                                    .unit("N")
                                    .feedsFrom(penetration, penetrationRate, normal)
                                    .describe("Fy along e_y");
  OutKey<double> slipRatio =
      flowOut<double>("slip_ratio").feedsFrom(penetration, normal).describe("κ");
  OutKey<double> slipAngle =
      flowOut<double>("slip_angle").unit("rad").feedsFrom(penetration, normal).describe("α");
};

/// A tyre on the hub node: the subclass gives the force law.
class TyreModel : public ActuatorModel {
 public:
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;

 protected:
  TyreModel(std::string name, const TyreDeclaration& declaration)
      : ActuatorModel(std::move(name), declaration), d_(declaration) {}

  /// [Fx, Fy] for the tyre's state.
  virtual Eigen::Vector2d forces(const TyreState& state) const = 0;
  /// A couple about the axle besides the forces' moment (rolling resistance); none by default.
  virtual double axleCouple(const TyreState& /*state*/) const { return 0.0; }

 private:
  std::optional<TyreState> state();

  const TyreDeclaration& d_;
};

}  // namespace hopsim::models
