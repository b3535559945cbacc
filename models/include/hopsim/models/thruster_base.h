#pragma once
/// @file
/// ThrusterBase: what every thruster shares — a thrust along a fixed node axis, gated by the
/// feeding tank's empty flag, and the fuel it burns (mass flow and the fuel-used state).

#include <string>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Standard gravity g0 (m/s^2), which turns a specific impulse in seconds into an exhaust
/// velocity: mdot = F / (isp g0).
inline constexpr double kStandardGravity = 9.80665;

/// The common part of the thruster classes (FixedThruster, PulsedThruster, ThrottledThruster),
/// attached to a node N. A derived class says how large the thrust is now
/// (commandedThrust); this base applies F = thrust * axis at N (axis in N's axes, normalized),
/// zero while the input `fuel_empty` is nonzero, and integrates the fuel it burns:
/// d(fuel_used)/dt = F / (isp g0) when burns_fuel. Outputs: the thrust, the mass flow and
/// fuel_used. fuel_used is a continuous state, so it is never fed through: a tank reading the
/// flow and a thruster reading the tank's flag close their loop without a break.
class ThrusterBase : public ActuatorModel {
 public:
  /// The fields every thruster class has; each class's Declaration derives from it.
  struct Fields : ModelSpec {
    Fields(std::string className, std::string doc);
    ParamKey<Eigen::VectorXd> axis =
        param<Eigen::VectorXd>("axis")
            .length(3)
            .defaultValue(std::vector<double>{0.0, 0.0, 1.0})
            .describe(
                "direction of the force on the vehicle, in the node's axes (normalized; "
                "must not be zero)");
    ParamKey<double> isp =
        param<double>("isp").unit("s").above(0.0).describe("specific impulse (vacuum)");
    ParamKey<bool> burnsFuel =
        param<bool>("burns_fuel")
            .defaultValue(true)
            .describe("whether the thrust consumes fuel (false: fuel_flow stays 0)");
    ContinuousStateKey<double> fuelUsed =
        continuousState<double>("fuel_used")
            .unit("kg")
            .defaultValue(0.0)
            .describe("fuel burned so far, the integral of fuel_flow");
    InKey<std::int64_t> fuelEmpty =
        flowIn<std::int64_t>("fuel_empty")
            .describe(
                "nonzero when the feeding tank is empty: no thrust, no flow (FuelTank's `empty`)");
    OutKey<double> thrust = flowOut<double>("thrust").unit("N").describe("thrust magnitude now");
    OutKey<double> fuelFlow =
        flowOut<double>("fuel_flow").unit("kg/s").describe("mass flow F / (isp g0) now");
    OutKey<double> fuelUsedOut =
        flowOut<double>("fuel_used").unit("kg").noFeedThrough().describe("the state fuel_used");
  };

  void processParams(double t) override;
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;
  void postDeriv(double t) override;

 protected:
  ThrusterBase(std::string name, const Fields& fields)
      : ActuatorModel(std::move(name), fields), f_(fields) {}

  /// The thrust magnitude (N, >= 0) the class's command asks for at t, before the fuel check;
  /// called in every derivative evaluation and output update, so it must not change state.
  virtual double commandedThrust(double t) = 0;
  /// The specific impulse (s) now: the param isp; a class whose isp varies overrides it.
  virtual double specificImpulse() const { return param(f_.isp); }

  /// Checks the params. @throws InputError for a zero axis.
  void attach(MultibodySystem& system) override;

 private:
  /// Normalizes the axis. @throws InputError naming the model when it is zero or not finite.
  void configure();
  /// The thrust now: commandedThrust, or 0 when the tank is empty.
  double thrustNow(double t);
  /// The mass flow for `thrust` (kg/s).
  double massFlow(double thrust) const;

  const Fields& f_;
  spatial::Vector3 axis_ = spatial::Vector3::UnitZ();
};

}  // namespace hopsim::models
