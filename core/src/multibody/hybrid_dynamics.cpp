#include "hopsim/core/multibody/hybrid_dynamics.h"

#include "articulated_body.h"
#include "hinge_kernels.h"

namespace hopsim::multibody {

const Eigen::VectorXd& articulatedBodyDynamics(
    const MultibodyModel& model, MultibodyData& data, const Eigen::Ref<const Eigen::VectorXd>& tau,
    const Eigen::Ref<const Eigen::VectorXd>& udotPrescribed,
    std::span<const SpatialForce> F_ext_B) {
  constexpr const char* kWhere = "articulatedBodyDynamics";
  detail::checkData(model, data, kWhere);
  detail::checkSize(tau.size(), model.nu(), kWhere, "tau");
  detail::checkSize(udotPrescribed.size(), model.nu(), kWhere, "udotPrescribed");
  detail::checkForces(F_ext_B, model, kWhere);
  detail::articulatedBodyAlgorithm(model, data, nullptr, nullptr, tau, udotPrescribed.data(),
                                   F_ext_B);
  return data.udot;
}

const Eigen::VectorXd& hybridDynamics(const MultibodyModel& model, MultibodyData& data,
                                      const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& u,
                                      const Eigen::Ref<const Eigen::VectorXd>& tau,
                                      const Eigen::Ref<const Eigen::VectorXd>& udotPrescribed,
                                      std::span<const SpatialForce> F_ext_B) {
  constexpr const char* kWhere = "hybridDynamics";
  detail::checkData(model, data, kWhere);
  detail::checkSize(q.size(), model.nq(), kWhere, "q");
  detail::checkSize(u.size(), model.nu(), kWhere, "u");
  detail::checkSize(tau.size(), model.nu(), kWhere, "tau");
  detail::checkSize(udotPrescribed.size(), model.nu(), kWhere, "udotPrescribed");
  detail::checkForces(F_ext_B, model, kWhere);
  detail::articulatedBodyAlgorithm(model, data, q.data(), u.data(), tau, udotPrescribed.data(),
                                   F_ext_B);
  return data.udot;
}

}  // namespace hopsim::multibody
