#include "hopsim/core/multibody/hinge_forces.h"

#include "hinge_kernels.h"

namespace hopsim::multibody {

void hingeForces(const MultibodyModel& model, const MultibodyData& data,
                 std::span<const SpatialForce> F_ext_B, std::span<SpatialForce> F_M) {
  constexpr const char* kWhere = "hingeForces";
  detail::checkData(model, data, kWhere);
  detail::checkForces(F_ext_B, model, kWhere);
  detail::checkSize(static_cast<Eigen::Index>(F_M.size()), model.bodyCount(), kWhere,
                    "the output F_M (one per body)");
  const int n = model.bodyCount();
  const SpatialMotion& A_world = data.A_WB_B[0];
  // Each body's own Newton-Euler force, about Bo in B: what the hinge must supply if the body
  // had no children.
  F_M[0] = SpatialForce();
  for (BodyIndex b = 1; b < n; ++b) {
    const auto i = static_cast<std::size_t>(b);
    const SpatialTransform X_WB(data.X_WB[i]);
    const SpatialMotion& V = data.V_WB_B[i];
    const SpatialMotion A = data.A_WB_B[i] - X_WB.inverseApply(A_world);  // true acceleration
    const Vector3 g_B = data.X_WB[i].rotation().transpose() * model.gravity();
    const SpatialInertia& M = model.massProperties(b);
    // Gravity acts on the mass as a force M [0; g]; moving it to the left side gives M (A - g).
    SpatialForce F = M.newtonEulerForce(A - SpatialMotion(Vector3::Zero(), g_B), V);
    if (!F_ext_B.empty()) F -= F_ext_B[i];
    F_M[i] = F;
  }
  // Leaves to root: a hinge also carries what its body's children's hinges take from the body.
  // Children have larger indices, so F_M[b] is complete when b is reached.
  for (BodyIndex b = n - 1; b >= 1; --b) {
    const auto i = static_cast<std::size_t>(b);
    const BodyIndex p = model.parent(b);
    if (p != kWorldBody) {
      F_M[static_cast<std::size_t>(p)] += SpatialTransform(data.X_PB[i]).apply(F_M[i]);
    }
    if (!model.outboardIsBodyFrame(b)) F_M[i] = SpatialTransform(model.X_MB(b)).apply(F_M[i]);
  }
}

std::vector<SpatialForce> hingeForces(const MultibodyModel& model, const MultibodyData& data,
                                      std::span<const SpatialForce> F_ext_B) {
  std::vector<SpatialForce> F_M(static_cast<std::size_t>(model.bodyCount()));
  hingeForces(model, data, F_ext_B, F_M);
  return F_M;
}

}  // namespace hopsim::multibody
