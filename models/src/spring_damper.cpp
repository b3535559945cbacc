#include "hopsim/models/spring_damper.h"

#include <tuple>

#include "two_node_force.h"

namespace hopsim::models {

using spatial::Vector3;

SpringDamper::Declaration::Declaration()
    : ModelSpec("SpringDamper", ModelKind::Darts,
                "A linear double-sided spring-damper between the origins p1 of from_node and p2 "
                "of to_node (on different bodies): r = p2 - p1, L = |r|, u = r / L, L' = u.(v2 - "
                "v1); F1 = (K (L - L0) + C L') u acts on from_node at p1 and F2 = -F1 on to_node "
                "at p2, so a stretched or separating spring pulls the nodes together. No force at "
                "L = 0, where u is undefined. No flows.") {}

const SpringDamper::Declaration& SpringDamper::declaration() {
  static const Declaration declaration;
  return declaration;
}

void SpringDamper::attach(MultibodySystem& system) {
  std::tie(from_, to_) = detail::resolveNodePair(*this, system.model(), param(d_.fromNode),
                                                 param(d_.toNode), "from_node", "to_node");
  DartsModel::attach(system);
}

void SpringDamper::preDeriv(double /*t*/) {
  const Vector3 r =
      multibody().nodePose(to_).translation() - multibody().nodePose(from_).translation();
  const double length = r.norm();
  // The direction is undefined at L = 0; the spring then passes through zero force by symmetry
  // of the two sides, so no force is the continuous choice for L0 = 0 and a bounded one else.
  if (!(length > 0.0)) return;
  const Vector3 u = r / length;
  const double speed = u.dot(multibody().nodeVelocity(to_).translational() -
                             multibody().nodeVelocity(from_).translational());
  const double tension =
      param(d_.stiffness) * (length - param(d_.unsprungLength)) + param(d_.damping) * speed;
  const Vector3 f1 = tension * u;
  multibody().addNodeForce(from_, f1, Vector3::Zero(), ForceFrame::World);
  multibody().addNodeForce(to_, -f1, Vector3::Zero(), ForceFrame::World);
}

}  // namespace hopsim::models
