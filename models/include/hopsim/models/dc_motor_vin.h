#pragma once
/// @file
/// DCMotorVin: an ideal DC motor driven by a voltage, on a 1-DOF hinge (GeneralSGModels).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// DCMotorVin's equations, conventions and choices: docs/models/DCMotorVin.md.
class DCMotorVin final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> kt = param<double>("K_t").unit("N*m/A").above(0.0).describe(
        "torque constant, equal to the back-emf constant in V*s/rad");
    ParamKey<double> resistance =
        param<double>("R").unit("Ohm").above(0.0).describe("winding resistance");
    ParamKey<double> damping = param<double>("damping")
                                   .unit("N*m*s/rad")
                                   .defaultValue(0.0)
                                   .min(0.0)
                                   .describe("viscous damping b of the motor shaft");
    ParamKey<double> gearRatio =
        param<double>("gear_ratio")
            .unit("1")
            .defaultValue(1.0)
            .describe("N: motor shaft turns per hinge turn (nonzero; negative reverses)");
    InKey<double> voltage =
        flowIn<double>("voltage").unit("V").describe("voltage across the motor");
    OutKey<double> current =
        flowOut<double>("current").unit("A").feedsFrom(voltage).describe("current draw i");
    OutKey<double> torque = flowOut<double>("torque").unit("N*m").feedsFrom(voltage).describe(
        "motor shaft torque τ_m (the hinge receives N τ_m)");
    OutKey<double> power =
        flowOut<double>("power").unit("W").feedsFrom(voltage).describe("electrical power V i");
  };
  static const Declaration& declaration();

  explicit DCMotorVin(std::string name) : MotorModel(std::move(name), declaration()) {}
  /// @throws InputError for a zero gear ratio.
  void processParams(double t) override;
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError unless the attachment has one coordinate and one rate.
  void attach(MultibodySystem& system) override;

 private:
  struct Electrical {
    double current, torque;  // i (A) and τ_m (N*m)
  };
  /// i and τ_m at voltage V and the current hinge rate.
  Electrical electrical(double V) const;

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
