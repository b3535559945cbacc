#pragma once
/// @file
/// HingeSpringDamper: the per-DOF linear spring-damper law shared by SpringDamperMotor,
/// GeneralizedSpringDamperMotor, UjointSpringDamper and BallJointSpringDamper.

#include <Eigen/Core>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// A motor applying, to each DOF i of the hinge or subhinge it is attached to,
/// f_i = -K_i (x_i - x0_i) - C_i u_i, with u the attached rates U and x the displacement
/// (the coordinates Q by default; BallJointSpringDamper uses roll/pitch/yaw). The derived
/// classes name the params and check the shape of the hinge; this base holds the law, so the
/// four models share one implementation. Not registered: it has no declaration of its own.
class HingeSpringDamper : public MotorModel {
 public:
  void processParams(double t) override;
  void preDeriv(double t) override;

 protected:
  HingeSpringDamper(std::string name, const ModelSpec& spec) : MotorModel(std::move(name), spec) {}

  /// Resolves the hinge, lets the derived class check it (checkHinge), and sizes the buffers
  /// to the attached rates so that preDeriv does not allocate.
  void attach(MultibodySystem& system) override;
  /// @throws ModelError when the attached hinge does not fit the model.
  virtual void checkHinge() const = 0;
  /// Writes K, C and x0 (one entry per attached rate) from the params.
  virtual void coefficients(Eigen::Ref<Eigen::VectorXd> K, Eigen::Ref<Eigen::VectorXd> C,
                            Eigen::Ref<Eigen::VectorXd> x0) const = 0;
  /// Writes the displacement x (one entry per attached rate); default: the coordinates Q.
  virtual void displacement(Eigen::Ref<Eigen::VectorXd> x) const;
  /// @throws ModelError unless the attachment has `dofs` coordinates and as many rates;
  /// `expected` names what fits (e.g. "a 1-DOF hinge such as PIN or SLIDER").
  void requireDofs(int dofs, const char* expected) const;
  /// @throws ModelError saying that the attached hinge is not `expected` and what it is.
  [[noreturn]] void refuseHinge(const char* expected) const;

 private:
  // K, C, x0 are derived from the params; x and f are working memory of preDeriv.
  Eigen::VectorXd stiffness_, damping_, free_, x_, f_;
};

}  // namespace hopsim::models
