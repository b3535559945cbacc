#include "hopsim/core/darts_model.h"

#include <algorithm>

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {

MultibodySystem& DartsModel::multibody() const {
  if (multibody_ == nullptr) {
    throw ModelError(describe() +
                     ": the multibody system is reachable once the simulation is "
                     "locked (from setup() on)");
  }
  return *multibody_;
}

void DartsModel::attach(MultibodySystem& system) { multibody_ = &system; }

void NodeModel::attach(MultibodySystem& system) {
  const multibody::MultibodyModel& tree = system.model();
  if (nodeName_.empty()) {
    throw ModelError(describe() +
                     " is attached to no node; call attachToNode(name) before "
                     "lock()");
  }
  std::vector<std::string> names;
  for (int n = 0; n < tree.nodeCount(); ++n) {
    if (tree.node(n).name == nodeName_) {
      node_ = n;
      DartsModel::attach(system);
      return;
    }
    names.push_back(tree.node(n).name);
  }
  throw ModelError(describe() + " is attached to node '" + nodeName_ + "', which does not exist" +
                   didYouMean(nodeName_, names));
}

void HingeModel::attach(MultibodySystem& system) {
  const multibody::MultibodyModel& tree = system.model();
  if (bodyName_.empty()) {
    throw ModelError(describe() +
                     " is attached to no hinge; call attachToHinge(body) before "
                     "lock()");
  }
  std::vector<std::string> names;
  for (int b = 1; b < tree.bodyCount(); ++b) names.push_back(tree.bodyName(b));
  if (std::find(names.begin(), names.end(), bodyName_) == names.end()) {
    throw ModelError(describe() + " is attached to the hinge of body '" + bodyName_ +
                     "', which does not exist" + didYouMean(bodyName_, names));
  }
  const MultibodySystem::BodyIndex b = tree.bodyIndex(bodyName_);
  const multibody::Hinge& h = tree.hinge(b);
  if (subhinge_ < -1 || subhinge_ >= h.subhingeCount()) {
    throw ModelError(
        describe() + " is attached to subhinge " + std::to_string(subhinge_) + " of body '" +
        bodyName_ + "', whose " + std::string(multibody::toString(h.type())) + " hinge has " +
        std::to_string(h.subhingeCount()) + " subhinges (expected -1 for the whole hinge or 0.." +
        std::to_string(h.subhingeCount() - 1) + ")");
  }
  body_ = b;
  if (subhinge_ == -1) {
    q0_ = tree.qStart(b);
    u0_ = tree.uStart(b);
    nq_ = h.nq();
    nu_ = h.nu();
  } else {
    q0_ = tree.qStart(b) + h.subhinge(subhinge_).qOffset;
    u0_ = tree.uStart(b) + h.subhinge(subhinge_).uOffset;
    nq_ = h.subhingeNq(subhinge_);
    nu_ = h.subhingeNu(subhinge_);
  }
  DartsModel::attach(system);
}

namespace {
// The message is built only on failure: these run in every derivative evaluation.
void checkCount(Eigen::Index given, int expected, const char* what, const Model& model) {
  if (given != expected) [[unlikely]] {
    throw InputError(model.describe() + " " + what + ": " + std::to_string(given) +
                     " values given for " + std::to_string(expected) + " attached U entries");
  }
}
}  // namespace

void MotorModel::applyGeneralizedForce(const Eigen::Ref<const Eigen::VectorXd>& f) const {
  checkCount(f.size(), rateCount(), "applyGeneralizedForce", *this);
  for (int k = 0; k < rateCount(); ++k) multibody().addGeneralizedForce(uStart() + k, f[k]);
}

void MotorModel::prescribeAcceleration(const Eigen::Ref<const Eigen::VectorXd>& udot) const {
  checkCount(udot.size(), rateCount(), "prescribeAcceleration", *this);
  for (int k = 0; k < rateCount(); ++k) {
    multibody().setPrescribedAcceleration(uStart() + k, udot[k]);
  }
}

}  // namespace hopsim
