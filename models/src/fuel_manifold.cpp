#include "hopsim/models/fuel_manifold.h"

#include "hopsim/signals/error.h"

namespace hopsim::models {

FuelManifold::Declaration::Declaration()
    : ModelSpec("FuelManifold", ModelKind::Continuous,
                "Shares the thrusters' total draw D = sum(thruster_flow) among the tanks not "
                "empty by weight: tank_flow[j] = w_j D / sum_{k not empty} w_k (0 for empty "
                "tanks); fuel_empty = 1 when every tank with w > 0 is empty. Feed-through: "
                "tank_flow from thruster_flow and tank_empty, fuel_empty from tank_empty.") {}

const FuelManifold::Declaration& FuelManifold::declaration() {
  static const Declaration declaration;
  return declaration;
}

void FuelManifold::checkWeights() const {
  if (!(param(d_.drawWeights).sum() > 0.0)) {
    throw InputError(describe() +
                     ": param draw_weights sums to 0; expected at least one positive weight");
  }
}

void FuelManifold::setup() { checkWeights(); }

void FuelManifold::processParams(double /*t*/) { checkWeights(); }

void FuelManifold::updateFlowOuts(double /*t*/) {
  const auto weights = param(d_.drawWeights);
  const auto empty = in(d_.tankEmpty);
  double available = 0.0;
  for (Eigen::Index j = 0; j < weights.size(); ++j) {
    if (empty[static_cast<std::size_t>(j)] == 0) available += weights[j];
  }
  const double draw = in(d_.thrusterFlow).sum();
  auto flows = out(d_.tankFlow);
  for (Eigen::Index j = 0; j < weights.size(); ++j) {
    const bool feeds = available > 0.0 && empty[static_cast<std::size_t>(j)] == 0;
    flows[j] = feeds ? weights[j] / available * draw : 0.0;
  }
  out(d_.fuelEmpty) = available > 0.0 ? 0 : 1;
}

}  // namespace hopsim::models
