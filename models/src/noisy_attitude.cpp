#include "hopsim/models/noisy_attitude.h"

namespace hopsim::models {

NoisyAttitude::Declaration::Declaration()
    : AttitudeErrorDeclaration(
          "NoisyAttitude",
          "Noisy attitude of a node: noisy_attitude = q_WN ⊗ e, with the error quaternion e "
          "drawn at each sample as the normalized sum of the identity, a uniform initial error, "
          "a uniform drift and random walk, and uniform white noise; seeded, no feed-through.") {}

const NoisyAttitude::Declaration& NoisyAttitude::declaration() {
  static const Declaration declaration;
  return declaration;
}

void NoisyAttitude::updateFlowOuts(double /*t*/) { writeNoisyAttitude(nodePose().quaternion()); }

}  // namespace hopsim::models
