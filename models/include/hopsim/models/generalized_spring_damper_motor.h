#pragma once
/// @file
/// GeneralizedSpringDamperMotor: a linear spring-damper on every DOF of a hinge
/// (GeneralSGModels).

#include "hopsim/models/hinge_spring_damper.h"

namespace hopsim::models {

/// f_i = -K_i (q_i - zero_gen_i) - C_i u_i on each DOF of the hinge or subhinge it is attached
/// to (seed 29.13), for hinges whose coordinates are their DOFs (PIN, SLIDER, CYLINDRICAL,
/// UJOINT, GIMBAL, PLANAR, TRANSLATIONAL; a quaternion is not a displacement: a BALL takes
/// BallJointSpringDamper). K fixes the number of DOFs; C and zero_gen default to zeros of that
/// length; lock() checks the length against the attached nu. Units per DOF: N*m/rad and
/// N*m*s/rad for rotations, N/m and N*s/m for translations. No flows.
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
