#include "hopsim/models/generalized_spring_damper_motor.h"

#include <string>

#include "hopsim/signals/error.h"

namespace hopsim::models {

GeneralizedSpringDamperMotor::Declaration::Declaration()
    : ModelSpec("GeneralizedSpringDamperMotor", ModelKind::Motor,
                "A linear double-sided spring-damper on every DOF of a hinge or subhinge whose "
                "coordinates are its DOFs (not BALL or FULL6DOF): f_i = -K_i (q_i - zero_gen_i) - "
                "C_i u_i, applied as generalized forces in every derivative evaluation. The "
                "length of K is the number of DOFs and must equal the attached nu. No flows.") {}

const GeneralizedSpringDamperMotor::Declaration& GeneralizedSpringDamperMotor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void GeneralizedSpringDamperMotor::checkHinge() const {
  if (coordinateCount() != rateCount()) {
    refuseHinge(
        "a hinge whose coordinates are its DOFs (nq = nu; use BallJointSpringDamper for a BALL)");
  }
  const auto dofs = param(d_.stiffness).size();
  if (dofs != rateCount()) {
    throw ModelError(describe() + ": params K, C and zero_gen have " + std::to_string(dofs) +
                     " entries but the attached hinge of body '" + bodyName() + "' has " +
                     std::to_string(rateCount()) + " DOFs");
  }
}

void GeneralizedSpringDamperMotor::coefficients(Eigen::Ref<Eigen::VectorXd> K,
                                                Eigen::Ref<Eigen::VectorXd> C,
                                                Eigen::Ref<Eigen::VectorXd> x0) const {
  K = param(d_.stiffness);
  C = param(d_.damping);
  x0 = param(d_.zeroGen);
}

}  // namespace hopsim::models
