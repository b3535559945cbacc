#include "hopsim/models/compute_plane_penetration.h"

#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {

using spatial::Vector3;

ComputePlanePenetration::Declaration::Declaration()
    : ModelSpec("ComputePlanePenetration", ModelKind::Sensor,
                "Penetration of the attached node into the fixed plane through `point` with "
                "outward unit normal n̂ = normal/|normal|: δ = (point - p)·n̂, δ̇ = -v·n̂ (p, v "
                "the node origin's world position and velocity), and n̂. No feed-through.") {
  // The outputs change only with the multibody state.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const ComputePlanePenetration::Declaration& ComputePlanePenetration::declaration() {
  static const Declaration declaration;
  return declaration;
}

void ComputePlanePenetration::processParams(double /*t*/) {
  const Vector3 n = param(d_.normal);
  if (!(n.norm() > 0.0) || !n.allFinite()) {
    throw InputError("models." + name() + ".params.normal: value " +
                     describeValue(Value(std::vector<double>{n.x(), n.y(), n.z()})) +
                     " must be a finite non-zero vector (it gives the plane's direction)");
  }
  unitNormal_ = n.normalized();
}

void ComputePlanePenetration::updateFlowOuts(double /*t*/) {
  const Vector3 p = nodePose().translation();
  const Vector3 v = nodeVelocity().translational();
  out(d_.penetration) = (Vector3(param(d_.point)) - p).dot(unitNormal_);
  out(d_.penetrationRate) = -v.dot(unitNormal_);
  out(d_.contactNormal) = unitNormal_;
}

}  // namespace hopsim::models
