#pragma once
/// @file
/// SpringDamperMotor: a linear spring-damper on a 1-DOF hinge (GeneralSGModels).

#include "hopsim/models/hinge_spring_damper.h"

namespace hopsim::models {

/// SpringDamperMotor's equations, conventions and choices: docs/models/SpringDamperMotor.md.
class SpringDamperMotor final : public HingeSpringDamper {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> stiffness =
        param<double>("K").unit("N*m/rad").defaultValue(0.0).min(0.0).describe(
            "spring constant K (N/m on a SLIDER)");
    ParamKey<double> damping = param<double>("C")
                                   .unit("N*m*s/rad")
                                   .defaultValue(0.0)
                                   .min(0.0)
                                   .describe("damping constant C (N*s/m on a SLIDER)");
    ParamKey<double> unsprung =
        param<double>("unsprung_length")
            .unit("rad")
            .defaultValue(0.0)
            .describe("the coordinate q0 at which the spring is relaxed (m on a SLIDER)");
  };
  static const Declaration& declaration();

  explicit SpringDamperMotor(std::string name)
      : HingeSpringDamper(std::move(name), declaration()) {}

 protected:
  /// @throws ModelError unless the attachment has one coordinate and one rate.
  void checkHinge() const override;
  void coefficients(Eigen::Ref<Eigen::VectorXd> K, Eigen::Ref<Eigen::VectorXd> C,
                    Eigen::Ref<Eigen::VectorXd> x0) const override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
