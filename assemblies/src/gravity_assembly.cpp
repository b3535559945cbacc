#include "hopsim/assemblies/gravity_assembly.h"

namespace hopsim {

GravityAssembly::Params::Params() {
  setDoc("The gravity acceleration of the multibody system, in the world frame.");
}

void GravityAssembly::bindParams() {
  const std::vector<double>& g = params()[schemaOf<Params>()->g];
  sim().multibody().setGravity(spatial::Vector3(g[0], g[1], g[2]));
}

}  // namespace hopsim
