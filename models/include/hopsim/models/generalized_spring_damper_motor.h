#pragma once
/// @file
/// GeneralizedSpringDamperMotor: a linear spring-damper on every DOF of a hinge
/// (GeneralSGModels).

#include "hopsim/models/hinge_spring_damper.h"

namespace hopsim::models {

/// GeneralizedSpringDamperMotor's equations, conventions and choices:
/// docs/models/GeneralizedSpringDamperMotor.md.
class GeneralizedSpringDamperMotor final : public HingeSpringDamper {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<Eigen::VectorXd> stiffness =
        param<Eigen::VectorXd>("K").length("dofs").min(0.0).describe(
            "spring coefficient per hinge DOF (N*m/rad or N/m); its length is the number of DOFs");
    ParamKey<Eigen::VectorXd> damping =
        param<Eigen::VectorXd>("C").length("dofs").defaultValue(0.0).min(0.0).describe(
            "damping coefficient per hinge DOF (N*m*s/rad or N*s/m)");
    ParamKey<Eigen::VectorXd> zeroGen =
        param<Eigen::VectorXd>("zero_gen")
            .length("dofs")
            .defaultValue(0.0)
            .describe("the coordinate per hinge DOF at which its spring is relaxed (rad or m)");
  };
  static const Declaration& declaration();

  explicit GeneralizedSpringDamperMotor(std::string name)
      : HingeSpringDamper(std::move(name), declaration()) {}

 protected:
  /// @throws ModelError when nq != nu or K's length is not the attached nu.
  void checkHinge() const override;
  void coefficients(Eigen::Ref<Eigen::VectorXd> K, Eigen::Ref<Eigen::VectorXd> C,
                    Eigen::Ref<Eigen::VectorXd> x0) const override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
