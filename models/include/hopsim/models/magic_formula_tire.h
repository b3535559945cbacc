#pragma once
/// @file
/// MagicFormulaTire: a tyre on hard ground with Pacejka's Magic Formula forces.

#include <Eigen/Core>

#include "hopsim/models/tyre_model.h"

namespace hopsim::models {

/// Pacejka's Magic Formula D sin(C atan(B x - E (B x - atan(B x)))) for the coefficients
/// [B, C, D, E].
double magicFormula(const Eigen::Vector4d& coefficients, double x);

/// MagicFormulaTire's equations, parameter sets, conventions and choices:
/// docs/models/MagicFormulaTire.md.
class MagicFormulaTire final : public TyreModel {
 public:
  struct Declaration : TyreDeclaration {
    Declaration();
    ParamKey<std::string> surface =
        param<std::string>("surface")
            .defaultValue(std::string("DRY_TARMAC"))
            .describe("DRY_TARMAC, WET_TARMAC, SNOW, ICE (published sets) or CUSTOM, any case");
    ParamKey<Eigen::VectorXd> longitudinalCoefficients =
        param<Eigen::VectorXd>("longitudinal_coefficients")
            .length(4)
            .defaultValue(std::vector<double>{10.0, 1.9, 1.0, 0.97})
            .describe("CUSTOM: [B, C, D, E] of Fx / Fz against κ");
    ParamKey<Eigen::VectorXd> lateralCoefficients =
        param<Eigen::VectorXd>("lateral_coefficients")
            .length(4)
            .defaultValue(std::vector<double>{10.0, 1.9, 1.0, 0.97})
            .describe("CUSTOM: [B, C, D, E] of -Fy / Fz against α (rad)");
  };
  static const Declaration& declaration();

  explicit MagicFormulaTire(std::string name) : TyreModel(std::move(name), declaration()) {}

  void processParams(double t) override;

 private:
  Eigen::Vector2d forces(const TyreState& state) const override;

  const Declaration& d_ = declaration();
  Eigen::Vector4d longitudinal_, lateral_;  // the coefficients in use, from `surface`
};

}  // namespace hopsim::models
