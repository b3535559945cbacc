#pragma once
/// @file
/// PrescribedMotionMotor: makes a masked hinge or subhinge follow commanded coordinates, rates
/// and accelerations through a gear ratio (geared pins driven by angle, prescribed u-joints).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// PrescribedMotionMotor's equations, conventions and choices:
/// docs/models/PrescribedMotionMotor.md.
class PrescribedMotionMotor final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> gearRatio =
        param<double>("gear_ratio")
            .unit("1")
            .defaultValue(1.0)
            .describe("hinge motion per unit of the inputs (joint side over motor side)");
    InKey<Eigen::VectorXd> angle = flowIn<Eigen::VectorXd>("angle").length("nu").describe(
        "commanded coordinates, one per attached rate (rad or m)");
    InKey<Eigen::VectorXd> angVel =
        flowIn<Eigen::VectorXd>("angVel").length("nu").describe("commanded rates (rad/s or m/s)");
    InKey<Eigen::VectorXd> angAccel = flowIn<Eigen::VectorXd>("angAccel")
                                          .length("nu")
                                          .describe("commanded accelerations (rad/s^2 or m/s^2)");
  };
  static const Declaration& declaration();

  explicit PrescribedMotionMotor(std::string name) : MotorModel(std::move(name), declaration()) {}
  void setup() override;
  void maskedCoordinates(double t) override;
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError when an input is not tied to nu entries, the attachment has nq != nu
  /// or an attached rate is not masked.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  Eigen::VectorXd prescribed_;  // gear_ratio * angAccel, sized in setup()
};

}  // namespace hopsim::models
