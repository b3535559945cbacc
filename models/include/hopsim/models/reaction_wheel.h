#pragma once
/// @file
/// ReactionWheel: a motor-driven wheel on a 1-DOF hinge with bearing friction (none,
/// Coulomb + viscous, LuGre or Dahl), overspeed protection, a power switch and a tachometer.

#include <cstdint>
#include <utility>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// ReactionWheel's equations, conventions and choices: docs/models/ReactionWheel.md.
class ReactionWheel final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> frictionModel =
        param<std::string>("k_friction_model")
            .defaultValue(std::string("NONE"))
            .describe("NONE, COULOMB_VISCOUS, LUGRE or DAHL (any case)");
    ParamKey<double> torqueConstant = param<double>("k_mtr_trq_constant")
                                          .unit("N*m/A")
                                          .defaultValue(0.03)
                                          .min(0.0)
                                          .describe("motor torque per ampere");
    ParamKey<double> coulomb = param<double>("k_coulomb")
                                   .unit("N*m")
                                   .defaultValue(1e-3)
                                   .above(0.0)
                                   .describe("Coulomb (sliding) friction torque");
    ParamKey<double> staticTorque =
        param<double>("k_static")
            .unit("N*m")
            .defaultValue(1.5e-3)
            .min(0.0)
            .describe("static (breakaway) friction torque, >= k_coulomb for LUGRE");
    ParamKey<double> viscous = param<double>("k_viscous")
                                   .unit("N*m*s/rad")
                                   .defaultValue(1e-6)
                                   .min(0.0)
                                   .describe("viscous friction coefficient");
    ParamKey<double> stribeckVelocity = param<double>("k_stribeck_vel")
                                            .unit("rad/s")
                                            .defaultValue(0.1)
                                            .above(0.0)
                                            .describe("Stribeck velocity (LUGRE)");
    ParamKey<double> stribeckExponent = param<double>("k_stribeck_exp")
                                            .defaultValue(2.0)
                                            .above(0.0)
                                            .describe("Stribeck exponent (LUGRE)");
    ParamKey<double> lugreStiffness = param<double>("k_lugre_stiff")
                                          .unit("N*m/rad")
                                          .defaultValue(1.0)
                                          .above(0.0)
                                          .describe("bristle stiffness sigma0 (LUGRE)");
    ParamKey<double> lugreDamping = param<double>("k_lugre_damp")
                                        .unit("N*m*s/rad")
                                        .defaultValue(0.0)
                                        .min(0.0)
                                        .describe("bristle damping sigma1 (LUGRE)");
    ParamKey<double> dahlStiffness = param<double>("k_dahl_stiff")
                                         .unit("N*m/rad")
                                         .defaultValue(1.0)
                                         .above(0.0)
                                         .describe("rest stiffness (DAHL)");
    ParamKey<double> dahlExponent =
        param<double>("k_dahl_exp").defaultValue(1.0).above(0.0).describe("Dahl exponent (DAHL)");
    ParamKey<double> disableSpeed = param<double>("k_disable_spd")
                                        .unit("rad/s")
                                        .defaultValue(600.0)
                                        .above(0.0)
                                        .describe("|omega| above which the motor is disabled");
    ParamKey<double> enableSpeed =
        param<double>("k_enable_spd")
            .unit("rad/s")
            .defaultValue(550.0)
            .min(0.0)
            .describe("|omega| below which a disabled motor is enabled again (< k_disable_spd)");
    ParamKey<std::int64_t> pulsesPerRev = param<std::int64_t>("k_tach_pulses_per_rev")
                                              .defaultValue(std::int64_t{64})
                                              .min(1.0)
                                              .describe("tachometer pulses per wheel revolution");
    ParamKey<double> tachPeriod = param<double>("k_tach_read_period")
                                      .unit("s")
                                      .defaultValue(0.1)
                                      .above(0.0)
                                      .describe("tachometer read period");
    ContinuousStateKey<double> z =
        continuousState<double>("Z").unit("rad").defaultValue(0.0).describe(
            "mean bristle deflection (LUGRE, DAHL; constant otherwise)");
    DiscreteStateKey<bool> powerState =
        discreteState<bool>("power_state")
            .defaultValue(true)
            .describe("the wheel is powered (ON); takes power_cmd at each hop start");
    DiscreteStateKey<bool> overspeed =
        discreteState<bool>("overspeed")
            .defaultValue(false)
            .describe("the motor is disabled by overspeed (hysteresis between the two speeds)");
    DiscreteStateKey<std::int64_t> tachPulses =
        discreteState<std::int64_t>("tach_pulses")
            .defaultValue(std::int64_t{0})
            .describe("pulse count P at the last tachometer read");
    DiscreteStateKey<std::int64_t> tachReads = discreteState<std::int64_t>("tach_reads")
                                                   .defaultValue(std::int64_t{0})
                                                   .describe("number of tachometer reads so far");
    DiscreteStateKey<double> tachStart = discreteState<double>("tach_start")
                                             .unit("s")
                                             .defaultValue(0.0)
                                             .describe("time of the first tachometer read");
    DiscreteStateKey<double> tachSpeed = discreteState<double>("tach_speed")
                                             .unit("rad/s")
                                             .defaultValue(0.0)
                                             .describe("speed from the last read");
    InKey<double> current = flowIn<double>("mtr_current").unit("A").describe("motor current");
    InKey<bool> powerCmd = flowIn<bool>("power_cmd").describe("wheel power command (true = ON)");
    OutKey<double> torque = flowOut<double>("trq_output")
                                .unit("N*m")
                                .feedsFrom(current)
                                .describe("tau_m - tau_f, the torque on the wheel");
    OutKey<double> tach = flowOut<double>("wheel_tach")
                              .unit("rad/s")
                              .noFeedThrough()
                              .describe("tachometer speed from the pulse count");
  };
  static const Declaration& declaration();

  /// The friction models, in the order of their names.
  enum class Friction : std::uint8_t { None, CoulombViscous, LuGre, Dahl };

  explicit ReactionWheel(std::string name) : MotorModel(std::move(name), declaration()) {}

  void processParams(double t) override;
  void startIoStep(double tStart, double tEnd) override;
  void startHop(double t0, double t1) override;
  void preDeriv(double t) override;
  void postDeriv(double t) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError when the attached (sub)hinge does not have exactly one DOF.
  void attach(MultibodySystem& system) override;

 private:
  /// tau_f and Z' at the current state for a motor torque tau_m.
  struct FrictionState {
    double torque, zRate;
  };
  FrictionState friction(double motorTorque) const;
  /// tau_m from the current, the power state and overspeed.
  double motorTorque();
  /// Reads the tachometer when a read is due at the I/O step start t.
  /// @throws ModelError when a read instant fell inside the previous I/O step.
  void readTachometer(double t);
  /// Parses the friction model and checks the relations between params.
  void configure();

  const Declaration& d_ = declaration();
  Friction friction_ = Friction::None;
};

}  // namespace hopsim::models
