// MultibodyModel's topology edits between hops: removing, detaching and attaching subtrees.

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/signals/error.h"

namespace hopsim::multibody {
namespace {

// Keeps the entries of a per-body array whose body is not removed, in order.
template <class T>
void keepBodies(std::vector<T>& values, const std::vector<char>& removed) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (removed[i]) continue;
    if (out != i) values[out] = std::move(values[i]);  // never self-move: it may empty a string
    ++out;
  }
  values.resize(out);
}

// Keeps the slices [start[b], start[b] + size(b)) of a per-coordinate array for the bodies
// that are not removed, in order.
template <class T, class Size>
void keepSlices(std::vector<T>& values, const std::vector<int>& start, Size size,
                const std::vector<char>& removed) {
  std::size_t out = 0;
  for (std::size_t b = 1; b < removed.size(); ++b) {
    if (removed[b]) continue;
    const auto first = static_cast<std::size_t>(start[b]);
    for (std::size_t k = 0; k < static_cast<std::size_t>(size(b)); ++k) {
      values[out++] = values[first + k];
    }
  }
  values.resize(out);
}

}  // namespace

std::vector<std::string> MultibodyModel::removeBody(BodyIndex b) {
  constexpr const char* kWhere = "MultibodyModel::removeBody";
  checkBody(b, kWhere);
  if (b == kWorldBody) throw InputError(std::string(kWhere) + ": the world cannot be removed");

  // Parents precede children, so one forward sweep marks the whole subtree.
  const std::size_t n = name_.size();
  std::vector<char> removed(n, 0);
  removed[idx(b)] = 1;
  for (std::size_t i = idx(b) + 1; i < n; ++i) removed[i] = removed[idx(parent_[i])];
  std::vector<BodyIndex> newIndex(n, -1);
  std::vector<std::string> names;
  BodyIndex next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (removed[i]) {
      names.push_back(name_[i]);
    } else {
      newIndex[i] = next++;
    }
  }

  // Per-coordinate arrays first, while qStart_/uStart_ still describe the old layout.
  keepSlices(
      prescribed_, uStart_, [&](std::size_t i) { return hinge_[i].nu(); }, removed);
  keepSlices(
      limits_, qStart_, [&](std::size_t i) { return hinge_[i].nq(); }, removed);
  keepBodies(name_, removed);
  keepBodies(parent_, removed);
  keepBodies(hinge_, removed);
  keepBodies(inertia_, removed);
  keepBodies(X_PF_, removed);
  keepBodies(X_BM_, removed);
  keepBodies(X_MB_, removed);
  keepBodies(mIsB_, removed);
  keepBodies(abaKernel_, removed);
  keepBodies(hybridKernel_, removed);
  for (std::size_t i = 1; i < parent_.size(); ++i) parent_[i] = newIndex[idx(parent_[i])];

  // Layout, counts and name maps from the kept bodies.
  qStart_.assign(name_.size(), 0);
  uStart_.assign(name_.size(), 0);
  nq_ = nu_ = 0;
  bodyByName_.clear();
  bodyByName_.emplace(name_[0], kWorldBody);
  for (std::size_t i = 1; i < name_.size(); ++i) {
    qStart_[i] = nq_;
    uStart_[i] = nu_;
    nq_ += hinge_[i].nq();
    nu_ += hinge_[i].nu();
    bodyByName_.emplace(name_[i], static_cast<BodyIndex>(i));
  }
  prescribedCount_ = 0;
  for (const unsigned char flag : prescribed_) prescribedCount_ += flag;

  std::vector<Node> nodes;
  nodeByName_.clear();
  for (Node& node : nodes_) {
    if (removed[idx(node.body)]) continue;
    node.body = newIndex[idx(node.body)];
    nodeByName_.emplace(node.name, static_cast<NodeIndex>(nodes.size()));
    nodes.push_back(std::move(node));
  }
  nodes_ = std::move(nodes);
  ++structureRevision_;
  ++massPropertiesRevision_;
  return names;
}

Subtree MultibodyModel::subtree(BodyIndex b) const {
  constexpr const char* kWhere = "MultibodyModel::subtree";
  checkBody(b, kWhere);
  if (b == kWorldBody) {
    throw InputError(std::string(kWhere) +
                     ": the world is not part of a subtree (expected a body 1.." +
                     std::to_string(bodyCount() - 1) + ")");
  }
  Subtree s;
  std::vector<int> inSubtree(name_.size(), -1);  // old index -> index in s.bodies
  for (std::size_t i = idx(b); i < name_.size(); ++i) {
    const bool root = i == idx(b);
    if (!root && inSubtree[idx(parent_[i])] < 0) continue;
    inSubtree[i] = static_cast<int>(s.bodies.size());
    SubtreeBody body{name_[i],  root ? -1 : inSubtree[idx(parent_[i])],
                     hinge_[i], X_PF_[i],
                     X_BM_[i],  inertia_[i],
                     {},        {}};
    for (int k = 0; k < hinge_[i].nu(); ++k) {
      body.prescribed.push_back(prescribed_[static_cast<std::size_t>(uStart_[i] + k)] != 0);
    }
    for (int k = 0; k < hinge_[i].nq(); ++k) {
      body.limits.push_back(limits_[static_cast<std::size_t>(qStart_[i] + k)]);
    }
    s.bodies.push_back(std::move(body));
  }
  for (const Node& node : nodes_) {
    const int owner = inSubtree[idx(node.body)];
    if (owner >= 0) s.nodes.push_back(SubtreeNode{node.name, owner, node.X_BN});
  }
  return s;
}

Subtree MultibodyModel::detachSubtree(BodyIndex b) {
  Subtree s = subtree(b);
  removeBody(b);
  return s;
}

BodyIndex MultibodyModel::attachSubtree(const Subtree& subtree, BodyIndex newParent,
                                        const Hinge& rootHinge, const RigidTransform& X_PF,
                                        const RigidTransform& X_BM) {
  constexpr const char* kWhere = "MultibodyModel::attachSubtree";
  checkBody(newParent, kWhere);
  if (subtree.bodies.empty()) throw InputError(std::string(kWhere) + ": the subtree has no bodies");

  // Structure and names first, so that a clash is reported as such.
  std::set<std::string, std::less<>> bodyNames, nodeNames;
  for (std::size_t k = 0; k < subtree.bodies.size(); ++k) {
    const SubtreeBody& body = subtree.bodies[k];
    const std::string which =
        std::string(kWhere) + ": subtree body " + std::to_string(k) + " ('" + body.name + "')";
    const bool parentOk =
        k == 0 ? body.parent == -1 : body.parent >= 0 && body.parent < static_cast<int>(k);
    if (!parentOk) {
      throw InputError(which + " has parent index " + std::to_string(body.parent) +
                       (k == 0 ? " (expected -1 for the root)"
                               : " (expected the index of an earlier body of the subtree, 0.." +
                                     std::to_string(k - 1) + ")"));
    }
    if (body.name.empty()) throw InputError(which + ": the body name is empty");
    if (bodyByName_.find(body.name) != bodyByName_.end() || !bodyNames.insert(body.name).second) {
      throw InputError(which + ": a body of that name already exists (expected a unique name)");
    }
    if (static_cast<int>(body.prescribed.size()) != body.hinge.nu() ||
        static_cast<int>(body.limits.size()) != body.hinge.nq()) {
      throw InputError(which + " has " + std::to_string(body.prescribed.size()) +
                       " prescribed flags and " + std::to_string(body.limits.size()) +
                       " limits (expected one per U entry, " + std::to_string(body.hinge.nu()) +
                       ", and one per Q entry, " + std::to_string(body.hinge.nq()) +
                       ", of its hinge)");
    }
  }
  for (const SubtreeNode& node : subtree.nodes) {
    const std::string which = std::string(kWhere) + ": subtree node '" + node.name + "'";
    if (node.body < 0 || node.body >= static_cast<int>(subtree.bodies.size())) {
      throw InputError(which + " is on body " + std::to_string(node.body) + " (expected 0.." +
                       std::to_string(subtree.bodies.size() - 1) + ")");
    }
    if (nodeByName_.find(node.name) != nodeByName_.end() || !nodeNames.insert(node.name).second) {
      throw InputError(which + ": a node of that name already exists (expected a unique name)");
    }
  }

  // Built on a copy, which addBody, addNode and setJointLimits validate: on any error this
  // model is left as it was.
  MultibodyModel edited = *this;
  std::vector<BodyIndex> newIndex(subtree.bodies.size());
  try {
    for (std::size_t k = 0; k < subtree.bodies.size(); ++k) {
      const SubtreeBody& body = subtree.bodies[k];
      const bool root = k == 0;
      const BodyIndex b = edited.addBody(
          body.name, root ? newParent : newIndex[static_cast<std::size_t>(body.parent)],
          body.M_BBo_B, root ? rootHinge : body.hinge, root ? X_PF : body.X_PF,
          root ? X_BM : body.X_BM);
      newIndex[k] = b;
      if (root && rootHinge.type() != body.hinge.type()) continue;  // a new, free hinge
      for (std::size_t j = 0; j < body.prescribed.size(); ++j) {
        const bool flag = body.prescribed[j];
        edited.prescribed_[static_cast<std::size_t>(edited.uStart(b)) + j] = flag ? 1 : 0;
        edited.prescribedCount_ += flag ? 1 : 0;
      }
      edited.selectHingeKernels(b);
      for (std::size_t j = 0; j < body.limits.size(); ++j) {
        if (const auto& limits = body.limits[j]) {
          edited.setJointLimits(b, static_cast<int>(j), limits->lower, limits->upper);
        }
      }
    }
    for (const SubtreeNode& node : subtree.nodes) {
      edited.addNode(node.name, newIndex[static_cast<std::size_t>(node.body)], node.X_BN);
    }
  } catch (const InputError& e) {
    throw InputError(std::string(kWhere) + ": " + e.what());
  }
  *this = std::move(edited);
  return newIndex[0];
}

}  // namespace hopsim::multibody
