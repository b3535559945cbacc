#include "hopsim/core/multibody/multibody_model.h"

#include <cmath>
#include <sstream>
#include <string>

#include "hopsim/core/spatial/rotation.h"
#include "hopsim/core/spatial/rotational_inertia.h"
#include "hopsim/signals/error.h"

namespace hopsim::multibody {
namespace {

void checkPose(const RigidTransform& X, std::string_view what) {
  if (!X.rotation().allFinite() || !X.translation().allFinite() ||
      !spatial::isRotation(X.rotation(), 1e-9)) {
    throw InputError(std::string(what) +
                     " is not a rigid transform (expected a finite rotation matrix and a finite "
                     "translation)");
  }
}

// Re-validates mass properties given by the caller (SpatialInertia has an unchecked factory)
// for what the dynamics needs: a positive mass, a finite CM, a positive semi-definite inertia.
// The triangle inequality is the input layers' plausibility check (body params, fromCmInertia):
// Chrono files may break it, and Chrono integrates them as given. `what()` builds the name for
// the message only when a check fails: a model may set mass properties in every derivative
// evaluation (FuelTank), where building a string would allocate.
template <class Describe>
SpatialInertia checkedInertia(const SpatialInertia& M, Describe&& what) {
  const Matrix3 I = M.rotationalInertiaAboutCm();
  try {
    SpatialInertia::pointMass(M.mass(), M.comPosition(), {});  // checks the mass and the CM
    spatial::checkRotationalInertia(I, {}, false);
  } catch (const InputError&) {  // the same checks again, to throw with the name
    SpatialInertia::pointMass(M.mass(), M.comPosition(), what());
    spatial::checkRotationalInertia(I, what(), false);
    throw;
  }
  return SpatialInertia::fromCmInertiaUnchecked(M.mass(), M.comPosition(),
                                                0.5 * (I + I.transpose()));
}

}  // namespace

MultibodyModel::MultibodyModel() {
  name_.emplace_back("world");
  parent_.push_back(-1);
  hinge_.push_back(Hinge::locked());
  inertia_.push_back(SpatialInertia::Zero());
  X_PF_.emplace_back();
  X_BM_.emplace_back();
  X_MB_.emplace_back();
  mIsB_.push_back(1);
  abaKernel_.push_back(HingeKernel::Locked);
  hybridKernel_.push_back(HingeKernel::Locked);
  qStart_.push_back(0);
  uStart_.push_back(0);
  bodyByName_.emplace("world", kWorldBody);
}

void MultibodyModel::checkBody(BodyIndex b, std::string_view where) const {
  if (b < 0 || b >= bodyCount()) {
    throw InputError(std::string(where) + ": body index " + std::to_string(b) +
                     " does not exist (expected 0.." + std::to_string(bodyCount() - 1) + ")");
  }
}

BodyIndex MultibodyModel::addBody(std::string_view name, BodyIndex parent,
                                  const SpatialInertia& M_BBo_B, const Hinge& hinge,
                                  const RigidTransform& X_PF, const RigidTransform& X_BM) {
  const std::string where = "MultibodyModel::addBody('" + std::string(name) + "')";
  if (name.empty()) throw InputError("MultibodyModel::addBody: the body name is empty");
  if (bodyByName_.find(name) != bodyByName_.end()) {
    throw InputError(where + ": a body of that name already exists (expected a unique name)");
  }
  if (parent < 0 || parent >= bodyCount()) {
    throw InputError(where + ": parent body index " + std::to_string(parent) +
                     " does not exist (expected 0.." + std::to_string(bodyCount() - 1) + ")");
  }
  const SpatialInertia M = checkedInertia(M_BBo_B, [&] { return where + " mass properties"; });
  checkPose(X_PF, where + " inboard frame X_PF");
  checkPose(X_BM, where + " outboard frame X_BM");

  const BodyIndex b = bodyCount();
  name_.emplace_back(name);
  parent_.push_back(parent);
  hinge_.push_back(hinge);
  inertia_.push_back(M);
  X_PF_.push_back(X_PF);
  X_BM_.push_back(X_BM);
  X_MB_.push_back(X_BM.inverse());
  mIsB_.push_back(X_BM.isApprox(RigidTransform::Identity(), 0.0) ? 1 : 0);
  qStart_.push_back(nq_);
  uStart_.push_back(nu_);
  nq_ += hinge.nq();
  nu_ += hinge.nu();
  prescribed_.resize(static_cast<std::size_t>(nu_), 0);
  limits_.resize(static_cast<std::size_t>(nq_));
  abaKernel_.emplace_back();
  hybridKernel_.emplace_back();
  selectHingeKernels(b);
  bodyByName_.emplace(std::string(name), b);
  ++structureRevision_;
  ++massPropertiesRevision_;
  return b;
}

BodyIndex MultibodyModel::addBody(std::string_view name, std::string_view parent,
                                  const SpatialInertia& M_BBo_B, const Hinge& hinge,
                                  const RigidTransform& X_PF, const RigidTransform& X_BM) {
  const auto it = bodyByName_.find(parent);
  if (it == bodyByName_.end()) {
    throw InputError("MultibodyModel::addBody('" + std::string(name) + "'): parent body '" +
                     std::string(parent) + "' does not exist");
  }
  return addBody(name, it->second, M_BBo_B, hinge, X_PF, X_BM);
}

NodeIndex MultibodyModel::addNode(std::string_view name, BodyIndex body,
                                  const RigidTransform& X_BN) {
  const std::string where = "MultibodyModel::addNode('" + std::string(name) + "')";
  if (name.empty()) throw InputError("MultibodyModel::addNode: the node name is empty");
  if (nodeByName_.find(name) != nodeByName_.end()) {
    throw InputError(where + ": a node of that name already exists (expected a unique name)");
  }
  checkBody(body, where);
  checkPose(X_BN, where + " pose X_BN");
  const NodeIndex n = nodeCount();
  nodes_.push_back(Node{std::string(name), body, X_BN});
  nodeByName_.emplace(std::string(name), n);
  return n;
}

void MultibodyModel::setMassProperties(BodyIndex b, const SpatialInertia& M_BBo_B) {
  checkBody(b, "MultibodyModel::setMassProperties");
  if (b == kWorldBody) {
    throw InputError("MultibodyModel::setMassProperties: the world body has no mass properties");
  }
  inertia_[idx(b)] = checkedInertia(M_BBo_B, [&] {
    return "MultibodyModel::setMassProperties('" + name_[idx(b)] + "') mass properties";
  });
  ++massPropertiesRevision_;
}

SpatialInertia MultibodyModel::checkedMassProperties(const SpatialInertia& M_BBo_B,
                                                     std::string_view what) {
  return checkedInertia(M_BBo_B, [what] { return std::string(what); });
}

void MultibodyModel::restoreMassProperties(const std::vector<SpatialInertia>& saved) {
  if (saved.size() != inertia_.size()) {
    throw InputError("MultibodyModel::restoreMassProperties: saved for " +
                     std::to_string(saved.size()) + " bodies, the tree has " +
                     std::to_string(inertia_.size()));
  }
  inertia_ = saved;  // checked when they were set
  ++massPropertiesRevision_;
}

void MultibodyModel::setPrescribed(BodyIndex b, int subhinge, bool prescribed) {
  constexpr const char* kWhere = "MultibodyModel::setPrescribed";
  checkBody(b, kWhere);
  const Hinge& h = hinge_[idx(b)];
  if (subhinge < 0 || subhinge >= h.subhingeCount()) {
    throw InputError(std::string(kWhere) + ": body '" + name_[idx(b)] + "' has a " +
                     std::string(toString(h.type())) + " hinge with " +
                     std::to_string(h.subhingeCount()) + " subhinges; subhinge " +
                     std::to_string(subhinge) + " does not exist");
  }
  const int first = uStart(b) + h.subhinge(subhinge).uOffset;
  for (int k = first; k < first + h.subhingeNu(subhinge); ++k) {
    auto& flag = prescribed_[static_cast<std::size_t>(k)];
    prescribedCount_ += (prescribed ? 1 : 0) - flag;
    flag = prescribed ? 1 : 0;
  }
  selectHingeKernels(b);
}

void MultibodyModel::selectHingeKernels(BodyIndex b) {
  const Hinge& h = hinge_[idx(b)];
  bool anyPrescribed = false;
  for (int k = uStart(b); k < uStart(b) + h.nu(); ++k) anyPrescribed |= isPrescribed(k);
  abaKernel_[idx(b)] = selectHingeKernel(h, outboardIsBodyFrame(b), false);
  hybridKernel_[idx(b)] = selectHingeKernel(h, outboardIsBodyFrame(b), anyPrescribed);
}

void MultibodyModel::setPrescribed(BodyIndex b, bool prescribed) {
  checkBody(b, "MultibodyModel::setPrescribed");
  for (int k = 0; k < hinge_[idx(b)].subhingeCount(); ++k) setPrescribed(b, k, prescribed);
}

void MultibodyModel::checkCoordinate(BodyIndex b, int coordinate, std::string_view where) const {
  checkBody(b, where);
  const Hinge& h = hinge_[idx(b)];
  if (coordinate < 0 || coordinate >= h.nq()) {
    throw InputError(std::string(where) + ": body '" + name_[idx(b)] + "' has a " +
                     std::string(toString(h.type())) + " hinge with " + std::to_string(h.nq()) +
                     " Q coordinates; coordinate " + std::to_string(coordinate) +
                     " does not exist");
  }
}

void MultibodyModel::setJointLimits(BodyIndex b, int coordinate, double lower, double upper) {
  constexpr const char* kWhere = "MultibodyModel::setJointLimits";
  checkCoordinate(b, coordinate, kWhere);
  const Hinge& h = hinge_[idx(b)];
  const std::string which = std::string(kWhere) + ": body '" + name_[idx(b)] + "' coordinate " +
                            std::to_string(coordinate);
  for (int k = 0; k < h.subhingeCount(); ++k) {
    const Subhinge& s = h.subhinge(k);
    const bool hasQuaternion = s.type == SubhingeType::Ball || s.type == SubhingeType::Free ||
                               s.type == SubhingeType::FreeInertial;
    if (hasQuaternion && coordinate >= s.qOffset && coordinate < s.qOffset + 4) {
      throw InputError(which + " is a quaternion component of its " +
                       std::string(toString(h.type())) +
                       " hinge (expected an angle or offset coordinate; attitudes take no limits)");
    }
  }
  if (std::isnan(lower) || std::isnan(upper) || !(lower < upper)) {
    std::ostringstream os;
    os << which << ": limits [" << lower << ", " << upper
       << "] are not valid (expected lower < upper, each finite or infinite, not NaN)";
    throw InputError(os.str());
  }
  limits_[static_cast<std::size_t>(qStart(b) + coordinate)] = JointLimits{lower, upper};
}

void MultibodyModel::clearJointLimits(BodyIndex b, int coordinate) {
  checkCoordinate(b, coordinate, "MultibodyModel::clearJointLimits");
  limits_[static_cast<std::size_t>(qStart(b) + coordinate)].reset();
}

std::optional<JointLimits> MultibodyModel::jointLimits(BodyIndex b, int coordinate) const {
  checkCoordinate(b, coordinate, "MultibodyModel::jointLimits");
  return limits_[static_cast<std::size_t>(qStart(b) + coordinate)];
}

void MultibodyModel::setGravity(const Vector3& g_W) {
  if (!g_W.allFinite()) throw InputError("MultibodyModel::setGravity: gravity is not finite");
  gravity_W_ = g_W;
}

BodyIndex MultibodyModel::bodyIndex(std::string_view name) const {
  const auto it = bodyByName_.find(name);
  if (it == bodyByName_.end()) {
    throw InputError("MultibodyModel: no body named '" + std::string(name) + "'");
  }
  return it->second;
}

const Node& MultibodyModel::node(NodeIndex n) const {
  if (n < 0 || n >= nodeCount()) {
    throw InputError("MultibodyModel::node: node index " + std::to_string(n) +
                     " does not exist (the model has " + std::to_string(nodeCount()) + " nodes)");
  }
  return nodes_[static_cast<std::size_t>(n)];
}

NodeIndex MultibodyModel::nodeIndex(std::string_view name) const {
  const auto it = nodeByName_.find(name);
  if (it == nodeByName_.end()) {
    throw InputError("MultibodyModel: no node named '" + std::string(name) + "'");
  }
  return it->second;
}

Eigen::VectorXd MultibodyModel::neutralConfiguration() const {
  Eigen::VectorXd q(nq_);
  for (BodyIndex b = 1; b < bodyCount(); ++b)
    hinge_[idx(b)].neutralConfiguration(q.data() + qStart(b));
  return q;
}

}  // namespace hopsim::multibody
