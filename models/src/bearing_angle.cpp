#include "hopsim/models/bearing_angle.h"

#include <cmath>

#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {

using spatial::Vector3;

BearingAngle::Declaration::Declaration()
    : ModelSpec("BearingAngle", ModelKind::Sensor,
                "Angle in [0, pi] between the node-fixed vector body_vec (node axes) and the "
                "inertial vector celest_vec (world axes): with a = R_WN body_vec and b = "
                "celest_vec, angle = atan2(|a x b|, a . b), accurate near 0 and pi. No "
                "feed-through.") {
  // The output changes only with the multibody state.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const BearingAngle::Declaration& BearingAngle::declaration() {
  static const Declaration declaration;
  return declaration;
}

void BearingAngle::processParams(double /*t*/) {
  // A zero vector has no direction: the angle would be atan2(0, 0) = 0, silently.
  for (const auto& [key, field] :
       {std::pair{d_.bodyVec, "body_vec"}, std::pair{d_.celestVec, "celest_vec"}}) {
    const Vector3 v = param(key);
    if (!(v.norm() > 0.0) || !v.allFinite()) {
      throw InputError("models." + name() + ".params." + field + ": value " +
                       describeValue(Value(std::vector<double>{v.x(), v.y(), v.z()})) +
                       " must be a finite non-zero vector (it gives a direction)");
    }
  }
}

void BearingAngle::updateFlowOuts(double /*t*/) {
  const Vector3 a = nodePose().rotation() * Vector3(param(d_.bodyVec));
  const Vector3 b = param(d_.celestVec);
  out(d_.angle) = std::atan2(a.cross(b).norm(), a.dot(b));
}

}  // namespace hopsim::models
