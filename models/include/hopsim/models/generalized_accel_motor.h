#pragma once
/// @file
/// GeneralizedAccelMotor: prescribes the accelerations of a prescribed hinge or subhinge from a
/// signal, through a gear ratio (geared pins, gimbals, u-joints).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// GeneralizedAccelMotor's equations, conventions and choices:
/// docs/models/GeneralizedAccelMotor.md.
class GeneralizedAccelMotor final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> gearRatio =
        param<double>("gear_ratio")
            .unit("1")
            .defaultValue(1.0)
            .describe("hinge acceleration per unit of the input (joint side over motor side)");
    InKey<Eigen::VectorXd> accel = flowIn<Eigen::VectorXd>("accel").length("nu").describe(
        "commanded acceleration, one entry per attached rate (rad/s^2 or m/s^2)");
  };
  static const Declaration& declaration();

  explicit GeneralizedAccelMotor(std::string name) : MotorModel(std::move(name), declaration()) {}
  void setup() override;
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError when accel is not tied to nu entries or an attached rate is free.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  Eigen::VectorXd
      prescribed_;  // gear_ratio * accel, sized in setup() so preDeriv does not allocate
};

}  // namespace hopsim::models
