#include "hopsim/models/spring_damper_motor.h"

namespace hopsim::models {

SpringDamperMotor::Declaration::Declaration()
    : ModelSpec("SpringDamperMotor", ModelKind::Motor,
                "A linear double-sided spring-damper on a 1-DOF hinge or subhinge (PIN, SLIDER): "
                "f = -K (q - q0) - C u, with q0 = unsprung_length, applied as the generalized "
                "force (N*m on a PIN, N on a SLIDER) in every derivative evaluation. No flows.") {}

const SpringDamperMotor::Declaration& SpringDamperMotor::declaration() {
  static const Declaration declaration;
  return declaration;
}

void SpringDamperMotor::checkHinge() const {
  requireDofs(1, "a 1-DOF hinge or subhinge (PIN, SLIDER)");
}

void SpringDamperMotor::coefficients(Eigen::Ref<Eigen::VectorXd> K, Eigen::Ref<Eigen::VectorXd> C,
                                     Eigen::Ref<Eigen::VectorXd> x0) const {
  K.setConstant(param(d_.stiffness));
  C.setConstant(param(d_.damping));
  x0.setConstant(param(d_.unsprung));
}

}  // namespace hopsim::models
