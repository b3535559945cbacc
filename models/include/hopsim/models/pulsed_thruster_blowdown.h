#pragma once
/// @file
/// PulsedThrusterBlowdown: a PulsedThruster fed by a blow-down tank, whose pressure falls as
/// the fuel leaves and the pressurant expands, and whose thrust level and specific impulse
/// follow that pressure.

#include "hopsim/models/pulsed_thruster.h"

namespace hopsim::models {

/// PulsedThrusterBlowdown's equations, conventions and choices:
/// docs/models/PulsedThrusterBlowdown.md.
class PulsedThrusterBlowdown final : public PulsedThruster {
 public:
  struct Declaration : PulsedThruster::Declaration {
    Declaration();
    ParamKey<double> tankVolume = param<double>("V_tank").unit("m^3").above(0.0).describe(
        "structural volume of the feeding tank (fuel and pressurant)");
    ParamKey<double> fuelDensity =
        param<double>("fuel_density").unit("kg/m^3").above(0.0).describe("propellant density");
    ParamKey<double> fuelMassInit =
        param<double>("fuel_mass_init")
            .unit("kg")
            .min(0.0)
            .describe("fuel in the tank when its pressure is p_tank_init");
    ParamKey<double> pressureInit =
        param<double>("p_tank_init").unit("Pa").above(0.0).describe("initial tank pressure");
    ParamKey<double> gamma = param<double>("gamma").defaultValue(1.0).min(1.0).describe(
        "polytropic exponent of the pressurant: 1 isothermal, cp/cv adiabatic");
    ParamKey<double> levelExp = param<double>("level_exp")
                                    .defaultValue(1.0)
                                    .describe("exponent of the thrust level's pressure law");
    ParamKey<double> ispExp = param<double>("isp_exp").defaultValue(0.0).describe(
        "exponent of the specific impulse's pressure law");
    DiscreteStateKey<double> pressureRatio =
        discreteState<double>("pressure_ratio")
            .defaultValue(1.0)
            .describe("p_tank / p_tank_init at the last sample");
    InKey<double> fuelMass = flowIn<double>("fuel_mass")
                                 .unit("kg")
                                 .describe(
                                     "fuel in the feeding tank, sampled at each I/O step start "
                                     "(FuelTank's fuel_remaining)");
    OutKey<double> pressureOut =
        flowOut<double>("p_tank").unit("Pa").noFeedThrough().describe("tank pressure");
    OutKey<double> levelOut = flowOut<double>("level_out")
                                  .unit("N")
                                  .noFeedThrough()
                                  .describe("thrust during a pulse at the tank pressure");
    OutKey<double> ispOut = flowOut<double>("isp_out").unit("s").noFeedThrough().describe(
        "specific impulse at the tank pressure");
  };
  static const Declaration& declaration();

  explicit PulsedThrusterBlowdown(std::string name)
      : PulsedThruster(std::move(name), declaration()) {}
  void processParams(double t) override;
  void startIoStep(double tStart, double tEnd) override;
  void updateFlowOuts(double t) override;

 protected:
  double pulseLevel() const override;
  double specificImpulse() const override;

 private:
  /// V_tank - fuel / fuel_density (m^3). @throws InputError naming `what` when not positive.
  double gasVolume(double fuel, const char* what) const;

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
