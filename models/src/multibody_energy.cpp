#include "hopsim/models/multibody_energy.h"

namespace hopsim::models {

MultibodyEnergy::Declaration::Declaration()
    : ModelSpec("MultibodyEnergy", ModelKind::Darts,
                "The whole multibody system's kinetic energy, potential energy in uniform "
                "gravity (zero at the world origin), linear momentum and angular momentum about "
                "the world origin (world axes).") {
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const MultibodyEnergy::Declaration& MultibodyEnergy::declaration() {
  static const Declaration declaration;
  return declaration;
}

void MultibodyEnergy::updateFlowOuts(double /*t*/) {
  const MultibodySystem& system = multibody();
  const multibody::MultibodyModel& tree = system.model();
  const auto& data = system.data();
  const spatial::Vector3& g = tree.gravity();
  double kinetic = 0.0, potential = 0.0;
  spatial::Vector3 linear = spatial::Vector3::Zero(), angular = spatial::Vector3::Zero();
  for (int b = 1; b < tree.bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const auto& X = data.X_WB[i];
    const spatial::Vector6& V = data.V_WB_B[i].vector();
    // Spatial momentum about Bo in B: [angular; linear].
    const spatial::Vector6 h = (tree.massProperties(b) * data.V_WB_B[i]).vector();
    kinetic += 0.5 * V.dot(h);
    const double m = tree.massProperties(b).mass();
    potential -= m * g.dot(X * tree.massProperties(b).comPosition());
    const spatial::Vector3 L = X.applyToVector(h.tail<3>());
    linear += L;
    angular += X.applyToVector(h.head<3>()) + X.translation().cross(L);
  }
  out(d_.kineticEnergy) = kinetic;
  out(d_.potentialEnergy) = potential;
  out(d_.linearMomentum) = linear;
  out(d_.angularMomentum) = angular;
}

}  // namespace hopsim::models
