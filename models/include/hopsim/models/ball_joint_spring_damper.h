#pragma once
/// @file
/// BallJointSpringDamper: torsional spring-dampers about the three axes of a ball joint
/// (GeneralSGModels).

#include "hopsim/models/hinge_spring_damper.h"

namespace hopsim::models {

/// BallJointSpringDamper's equations, conventions and choices:
/// docs/models/BallJointSpringDamper.md.
class BallJointSpringDamper final : public HingeSpringDamper {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> kx = param<double>("K_x").unit("N*m/rad").defaultValue(0.0).min(0.0).describe(
        "spring constant of the roll (about x)");
    ParamKey<double> ky = param<double>("K_y").unit("N*m/rad").defaultValue(0.0).min(0.0).describe(
        "spring constant of the pitch (about y)");
    ParamKey<double> kz = param<double>("K_z").unit("N*m/rad").defaultValue(0.0).min(0.0).describe(
        "spring constant of the yaw (about z)");
    ParamKey<double> cx = param<double>("C_x")
                              .unit("N*m*s/rad")
                              .defaultValue(0.0)
                              .min(0.0)
                              .describe("damping constant of ω_x");
    ParamKey<double> cy = param<double>("C_y")
                              .unit("N*m*s/rad")
                              .defaultValue(0.0)
                              .min(0.0)
                              .describe("damping constant of ω_y");
    ParamKey<double> cz = param<double>("C_z")
                              .unit("N*m*s/rad")
                              .defaultValue(0.0)
                              .min(0.0)
                              .describe("damping constant of ω_z");
  };
  static const Declaration& declaration();

  explicit BallJointSpringDamper(std::string name)
      : HingeSpringDamper(std::move(name), declaration()) {}

 protected:
  /// @throws ModelError unless the attachment is a BALL hinge or subhinge.
  void checkHinge() const override;
  void coefficients(Eigen::Ref<Eigen::VectorXd> K, Eigen::Ref<Eigen::VectorXd> C,
                    Eigen::Ref<Eigen::VectorXd> x0) const override;
  /// (roll, pitch, yaw) of the hinge quaternion.
  void displacement(Eigen::Ref<Eigen::VectorXd> x) const override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
