#include "hopsim/models/tilt_vector.h"

namespace hopsim::models {

TiltVector::Declaration::Declaration()
    : ModelSpec("TiltVector", ModelKind::Sensor,
                "The node-fixed vector tvec (node axes) in world axes: tvec_global = R_WN tvec, "
                "not normalized, with no feed-through.") {
  // The output changes only with the multibody state.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const TiltVector::Declaration& TiltVector::declaration() {
  static const Declaration declaration;
  return declaration;
}

void TiltVector::updateFlowOuts(double /*t*/) {
  out(d_.tvecGlobal) = nodePose().rotation() * spatial::Vector3(param(d_.tvec));
}

}  // namespace hopsim::models
