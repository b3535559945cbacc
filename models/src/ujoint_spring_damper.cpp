#include "hopsim/models/ujoint_spring_damper.h"

namespace hopsim::models {

UjointSpringDamper::Declaration::Declaration()
    : ModelSpec("UjointSpringDamper", ModelKind::Motor,
                "A linear double-sided spring-damper on the two angles of a UJOINT: tau_i = "
                "-K_i theta_i - C_i theta_i', relaxed at theta = 0, applied as generalized forces "
                "in every derivative evaluation. No flows.") {}

const UjointSpringDamper::Declaration& UjointSpringDamper::declaration() {
  static const Declaration declaration;
  return declaration;
}

void UjointSpringDamper::checkHinge() const { requireDofs(2, "a 2-DOF hinge such as UJOINT"); }

void UjointSpringDamper::coefficients(Eigen::Ref<Eigen::VectorXd> K, Eigen::Ref<Eigen::VectorXd> C,
                                      Eigen::Ref<Eigen::VectorXd> x0) const {
  K = param(d_.stiffness);
  C = param(d_.damping);
  x0.setZero();
}

}  // namespace hopsim::models
