#pragma once
/// @file
/// GeneralizedForceMotor: applies a scaled generalized force to a hinge or subhinge.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// GeneralizedForceMotor's equations, conventions and choices:
/// docs/models/GeneralizedForceMotor.md.
class GeneralizedForceMotor final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> scale = param<double>("scale").unit("1").defaultValue(1.0).describe(
        "factor applied to the input force");
    InKey<Eigen::VectorXd> force = flowIn<Eigen::VectorXd>("force").length("nu").describe(
        "generalized force, one entry per attached rate (N*m or N)");
  };
  static const Declaration& declaration();

  explicit GeneralizedForceMotor(std::string name) : MotorModel(std::move(name), declaration()) {}
  void setup() override;
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError when force is tied to a signal whose length is not the attached nu.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  Eigen::VectorXd applied_;  // scale * force, sized in setup() so preDeriv does not allocate
};

}  // namespace hopsim::models
