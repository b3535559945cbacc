#include "hopsim/models/hinge_spring_damper.h"

#include "hinge_attachment.h"

namespace hopsim::models {

void HingeSpringDamper::attach(MultibodySystem& system) {
  MotorModel::attach(system);
  checkHinge();
  const Eigen::Index n = rateCount();
  for (Eigen::VectorXd* v : {&stiffness_, &damping_, &free_, &x_, &f_}) v->setZero(n);
}

void HingeSpringDamper::requireDofs(int dofs, const char* expected) const {
  if (coordinateCount() != dofs || rateCount() != dofs) refuseHinge(expected);
}

void HingeSpringDamper::refuseHinge(const char* expected) const {
  detail::refuseHinge(*this, multibody().model(), body(), subhinge(), expected, coordinateCount(),
                      rateCount());
}

void HingeSpringDamper::processParams(double /*t*/) { coefficients(stiffness_, damping_, free_); }

void HingeSpringDamper::displacement(Eigen::Ref<Eigen::VectorXd> x) const { x = coordinates(); }

void HingeSpringDamper::preDeriv(double /*t*/) {
  displacement(x_);
  f_.array() = -stiffness_.array() * (x_ - free_).array() - damping_.array() * rates().array();
  applyGeneralizedForce(f_);
}

}  // namespace hopsim::models
