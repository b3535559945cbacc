#include "hopsim/models/ball_joint_spring_damper.h"

#include "hopsim/core/spatial/rotation.h"

namespace hopsim::models {

BallJointSpringDamper::Declaration::Declaration()
    : ModelSpec("BallJointSpringDamper", ModelKind::Motor,
                "Torsional spring-dampers on a BALL hinge: with roll, pitch, yaw the intrinsic "
                "Z-Y-X angles of the hinge rotation (R_FM = Rz(yaw) Ry(pitch) Rx(roll)) and w the "
                "hinge rate in the child frame, tau = -[K_x roll, K_y pitch, K_z yaw] - [C_x w_x, "
                "C_y w_y, C_z w_z], applied as the generalized force in every derivative "
                "evaluation. No flows.") {}

const BallJointSpringDamper::Declaration& BallJointSpringDamper::declaration() {
  static const Declaration declaration;
  return declaration;
}

void BallJointSpringDamper::checkHinge() const {
  // Four coordinates and three rates is a BALL and nothing else (FULL6DOF has 7 and 6).
  if (coordinateCount() != 4 || rateCount() != 3) {
    refuseHinge("a BALL hinge or subhinge (nq = 4, nu = 3)");
  }
}

void BallJointSpringDamper::coefficients(Eigen::Ref<Eigen::VectorXd> K,
                                         Eigen::Ref<Eigen::VectorXd> C,
                                         Eigen::Ref<Eigen::VectorXd> x0) const {
  K << param(d_.kx), param(d_.ky), param(d_.kz);
  C << param(d_.cx), param(d_.cy), param(d_.cz);
  x0.setZero();
}

void BallJointSpringDamper::displacement(Eigen::Ref<Eigen::VectorXd> x) const {
  const spatial::Quaternion q = coordinates();
  // eulerFromRotation returns the angles in the order of the sequence: (yaw, pitch, roll).
  const spatial::Vector3 zyx = spatial::eulerFromRotation(
      spatial::EulerSequence::ZYX, spatial::rotationFromQuaternion(q.normalized()));
  x << zyx[2], zyx[1], zyx[0];
}

}  // namespace hopsim::models
