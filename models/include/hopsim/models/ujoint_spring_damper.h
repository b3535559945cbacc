#pragma once
/// @file
/// UjointSpringDamper: a linear spring-damper on the two angles of a U-joint (GeneralSGModels).

#include "hopsim/models/hinge_spring_damper.h"

namespace hopsim::models {

/// UjointSpringDamper's equations, conventions and choices: docs/models/UjointSpringDamper.md.
class UjointSpringDamper final : public HingeSpringDamper {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<Eigen::VectorXd> stiffness =
        param<Eigen::VectorXd>("K").unit("N*m/rad").length(2).defaultValue(0.0).min(0.0).describe(
            "spring constants of the two angles");
    ParamKey<Eigen::VectorXd> damping = param<Eigen::VectorXd>("C")
                                            .unit("N*m*s/rad")
                                            .length(2)
                                            .defaultValue(0.0)
                                            .min(0.0)
                                            .describe("damping constants of the two angles");
  };
  static const Declaration& declaration();

  explicit UjointSpringDamper(std::string name)
      : HingeSpringDamper(std::move(name), declaration()) {}

 protected:
  /// @throws ModelError unless the attachment has two coordinates and two rates.
  void checkHinge() const override;
  void coefficients(Eigen::Ref<Eigen::VectorXd> K, Eigen::Ref<Eigen::VectorXd> C,
                    Eigen::Ref<Eigen::VectorXd> x0) const override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
