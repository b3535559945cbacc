#include "hopsim/models/bushing.h"

#include <tuple>

#include "two_node_force.h"

namespace hopsim::models {

using spatial::Matrix3;
using spatial::Vector3;

Bushing::Declaration::Declaration()
    : ModelSpec("Bushing", ModelKind::Darts,
                "Chrono's bushing: a diagonal spring-damper W = K s + D s' between marker A "
                "(node1, body1) and marker B (node2, body2), coincident at t = 0. s = [origin "
                "of A in B's axes; rotation vector of A relative to B, angle in [-pi, pi]], s' "
                "= [rate of that origin seen in B; angular velocity of A relative to B in B's "
                "axes], order x, y, z, rx, ry, rz. Body2 receives +W at B's origin and body1 -W "
                "at A's origin, in B's axes. Valid for small angles.") {
  // The outputs change only with the state.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const Bushing::Declaration& Bushing::declaration() {
  static const Declaration declaration;
  return declaration;
}

void Bushing::attach(MultibodySystem& system) {
  std::tie(node1_, node2_) =
      detail::resolveNodePair(*this, system.model(), param(d_.node1), param(d_.node2));
  DartsModel::attach(system);
}

Bushing::Load Bushing::load() const {
  const spatial::RigidTransform X_WA = multibody().nodePose(node1_);
  const spatial::RigidTransform X_WB = multibody().nodePose(node2_);
  const spatial::SpatialMotion V_WA = multibody().nodeVelocity(node1_);
  const spatial::SpatialMotion V_WB = multibody().nodeVelocity(node2_);
  const Matrix3& R_WB = X_WB.rotation();
  const Vector3 p_BA_W = X_WA.translation() - X_WB.translation();
  const Vector3 w_BA_W = V_WA.rotational() - V_WB.rotational();
  Load l;
  l.R_WB = R_WB;
  l.deflection.head<3>() = X_WB.inverseApplyToVector(p_BA_W);
  l.deflection.tail<3>() = spatial::rotationVectorFromQuaternion(
      spatial::quaternionFromRotation(Matrix3(R_WB.transpose() * X_WA.rotation())));
  // d/dt of p_BA seen in B: the relative velocity less B's rotation carrying the offset.
  Vector6 rate;
  rate.head<3>() = X_WB.inverseApplyToVector(V_WA.translational() - V_WB.translational() -
                                             V_WB.rotational().cross(p_BA_W));
  rate.tail<3>() = X_WB.inverseApplyToVector(w_BA_W);
  l.wrench = param(d_.stiffness).cwiseProduct(l.deflection) + param(d_.damping).cwiseProduct(rate);
  return l;
}

void Bushing::updateFlowOuts(double /*t*/) {
  const Load l = load();
  out(d_.deflection) = l.deflection;
  out(d_.wrench) = l.wrench;
}

void Bushing::preDeriv(double /*t*/) {
  const Load l = load();
  const Vector3 force = l.R_WB * l.wrench.head<3>();
  const Vector3 couple = l.R_WB * l.wrench.tail<3>();
  multibody().addNodeForce(node2_, force, couple, ForceFrame::World);
  multibody().addNodeForce(node1_, -force, -couple, ForceFrame::World);
}

}  // namespace hopsim::models
