#pragma once
/// @file
/// MultibodyModel: what a multibody system is (bodies, hinges, topology, mass properties,
/// nodes, gravity), separate from what one evaluation computes (MultibodyData).

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/multibody/hinge.h"
#include "hopsim/core/multibody/hinge_kernel.h"
#include "hopsim/core/spatial/rigid_transform.h"
#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/core/spatial/spatial_transform.h"

namespace hopsim::multibody {

using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::SpatialTransform;

/// Index of a body in its model; the world (ground) body is 0, and a body's parent always has
/// a smaller index than the body (topological order).
using BodyIndex = int;
/// Index of a node in its model.
using NodeIndex = int;
/// The world body W, fixed in inertial space, root of the tree.
inline constexpr BodyIndex kWorldBody = 0;

/// A node: a frame N fixed on a body B, where sensors read and actuators apply forces.
struct Node {
  std::string name;     ///< unique among the model's nodes
  BodyIndex body{0};    ///< the body B it is fixed on
  RigidTransform X_BN;  ///< its pose in the body frame B (m)
};

/// Bounds of one hinge coordinate Q_k (rad or m): lower < upper, either may be infinite. Only
/// data: models that enforce them (soft stops) read them.
struct JointLimits {
  double lower;  ///< lowest allowed value (may be -inf)
  double upper;  ///< highest allowed value (may be +inf)
};

/// One body of a Subtree, as it was in its model.
struct SubtreeBody {
  std::string name;  ///< its name
  /// Its parent's index in Subtree::bodies; -1 for the subtree root (whose hinge, frames,
  /// prescribed flags and limits below are those it had to its old parent).
  int parent{-1};
  Hinge hinge;                                     ///< the hinge to its parent
  RigidTransform X_PF;                             ///< the hinge's inboard frame on the parent
  RigidTransform X_BM;                             ///< the hinge's outboard frame on the body
  SpatialInertia M_BBo_B;                          ///< mass properties about Bo in B
  std::vector<bool> prescribed;                    ///< per U entry of the hinge
  std::vector<std::optional<JointLimits>> limits;  ///< per Q entry of the hinge
};

/// One node of a Subtree.
struct SubtreeNode {
  std::string name;     ///< its name
  int body{0};          ///< the index in Subtree::bodies of the body it is fixed on
  RigidTransform X_BN;  ///< its pose on that body
};

/// A detached part of a tree (MultibodyModel::detachSubtree): its bodies in topological order
/// (root first, each parent before its children), each with its hinge and frames relative to
/// its parent in the subtree, and the nodes fixed on them. A value: it can be kept between
/// hops and attached again, to the same model or another (MultibodyModel::attachSubtree).
struct Subtree {
  std::vector<SubtreeBody> bodies;  ///< root first, topological order
  std::vector<SubtreeNode> nodes;   ///< in their old model's node order
};

/// A tree of rigid bodies joined by hinges (Featherstone's minimal coordinates, as Ndarts).
///
/// Frames of body B with parent P: the body frame B (mass properties are about Bo in B); the
/// hinge's inboard frame F, fixed on P at pose X_PF; the hinge's outboard frame M, fixed on B
/// at pose X_BM. The hinge moves M relative to F: X_PB = X_PF · X_FM(Q) · X_BM⁻¹.
///
/// Generalized coordinates: the system Q (nq entries) and U (nu entries) are the hinges' Q
/// and U concatenated in body order; qStart(b), uStart(b) locate body b's hinge. Mass
/// properties may be changed at any time (setMassProperties); the next evaluation uses them.
/// Building or editing the tree (addBody, removeBody, detachSubtree, attachSubtree) invalidates
/// MultibodyData built from the model: build a new one.
class MultibodyModel {
 public:
  /// A model holding only the world body "world", with zero gravity.
  MultibodyModel();

  /// Adds body `name` attached to `parent` by `hinge`, with mass properties M_BBo_B (about
  /// the body origin Bo, in B), the hinge's inboard frame at X_PF on the parent and its
  /// outboard frame at X_BM on the new body. Returns the new body's index.
  /// @throws InputError if the name is empty or taken, the parent does not exist, the mass
  /// is not finite and positive, the inertia is not valid or a pose is not a finite rigid
  /// transform.
  BodyIndex addBody(std::string_view name, BodyIndex parent, const SpatialInertia& M_BBo_B,
                    const Hinge& hinge, const RigidTransform& X_PF = RigidTransform(),
                    const RigidTransform& X_BM = RigidTransform());
  /// Same as addBody with the parent given by name. @throws InputError for an unknown parent.
  BodyIndex addBody(std::string_view name, std::string_view parent, const SpatialInertia& M_BBo_B,
                    const Hinge& hinge, const RigidTransform& X_PF = RigidTransform(),
                    const RigidTransform& X_BM = RigidTransform());
  /// Adds node `name` fixed on `body` at pose X_BN. @throws InputError if the name is empty
  /// or taken, the body does not exist or the pose is not a finite rigid transform.
  NodeIndex addNode(std::string_view name, BodyIndex body, const RigidTransform& X_BN);

  /// Replaces body b's mass properties M_BBo_B (mass kg, CM in B m, inertia about the CM in B
  /// kg·m²); the next evaluation uses them. @throws InputError for a bad body or invalid
  /// mass properties (the old ones are kept).
  void setMassProperties(BodyIndex b, const SpatialInertia& M_BBo_B);
  /// M_BBo_B as setMassProperties stores it (the inertia symmetrized).
  /// @throws InputError naming `what` where setMassProperties would refuse M_BBo_B.
  static SpatialInertia checkedMassProperties(const SpatialInertia& M_BBo_B, std::string_view what);
  /// Body b's mass properties M_BBo_B (about Bo, in B). The world has zero mass.
  const SpatialInertia& massProperties(BodyIndex b) const { return inertia_[idx(b)]; }
  /// Every body's mass properties (the world's first), to put back exactly with
  /// restoreMassProperties.
  const std::vector<SpatialInertia>& allMassProperties() const { return inertia_; }
  /// Puts back mass properties saved from allMassProperties() of this tree, bit for bit.
  void restoreMassProperties(const std::vector<SpatialInertia>& saved);

  /// Makes the U entries of subhinge `subhinge` of body b's hinge prescribed (true) or free
  /// (false). The dynamics takes a prescribed entry's U̇ as an input and returns the
  /// generalized force that motion needs (hybrid dynamics); free entries are computed as usual.
  /// @throws InputError for a bad body or subhinge index.
  void setPrescribed(BodyIndex b, int subhinge, bool prescribed);
  /// Makes every U entry of body b's hinge prescribed or free.
  void setPrescribed(BodyIndex b, bool prescribed);
  /// Whether system U entry k is prescribed (0 <= k < nu()).
  bool isPrescribed(int k) const { return prescribed_[static_cast<std::size_t>(k)] != 0; }
  /// Number of prescribed U entries.
  int prescribedCount() const { return prescribedCount_; }

  /// Sets limits on coordinate `coordinate` (0-based, within the hinge's Q) of body b's hinge:
  /// lower <= Q <= upper (rad or m), either bound infinite for a one-sided limit.
  /// @throws InputError for a bad body or coordinate, a NaN bound, lower >= upper or a
  /// quaternion coordinate (BALL, FULL6DOF, FULL6DOF_INERTIAL attitudes take no limits).
  void setJointLimits(BodyIndex b, int coordinate, double lower, double upper);
  /// Removes the limits of that coordinate (if any). @throws InputError for a bad coordinate.
  void clearJointLimits(BodyIndex b, int coordinate);
  /// The limits of that coordinate, if set. @throws InputError for a bad body or coordinate.
  std::optional<JointLimits> jointLimits(BodyIndex b, int coordinate) const;

  /// Removes body b (not the world) with its whole subtree and the nodes fixed on them. The
  /// remaining bodies and nodes keep their relative order (so topological order) and are
  /// re-indexed; Q, U, the prescribed flags and limits shrink with them. Returns the removed
  /// bodies' names in their old index order. @throws InputError for a bad body or the world.
  std::vector<std::string> removeBody(BodyIndex b);
  /// A copy of body b's subtree (b and all its descendants, their nodes) as a Subtree value;
  /// the model is unchanged. @throws InputError for a bad body or the world.
  Subtree subtree(BodyIndex b) const;
  /// subtree(b), then removeBody(b): the subtree leaves the model and is returned.
  Subtree detachSubtree(BodyIndex b);
  /// Adds `subtree` under `newParent`: its root joined by `rootHinge` with inboard frame X_PF
  /// on the new parent and outboard frame X_BM on the root, the other bodies with their own
  /// hinges, frames, mass properties, prescribed flags and limits, and its nodes. The new
  /// bodies are appended after the existing ones (topological order holds). The root's stored
  /// prescribed flags and limits are kept when rootHinge has the type of its stored hinge
  /// (the same Q and U layout); otherwise the new root hinge starts free and unlimited.
  /// Returns the new index of the root. @throws InputError, changing nothing, if the parent
  /// does not exist, the subtree is empty or malformed (bad parent indices, sizes of the
  /// flags or limits), a body or node name is empty or already used, or any value is invalid.
  BodyIndex attachSubtree(const Subtree& subtree, BodyIndex newParent, const Hinge& rootHinge,
                          const RigidTransform& X_PF = RigidTransform(),
                          const RigidTransform& X_BM = RigidTransform());

  /// Counts the changes of the tree (addBody, removeBody, detachSubtree, attachSubtree), so
  /// that MultibodyData built before one is refused even when the sizes still match.
  std::uint64_t structureRevision() const { return structureRevision_; }
  /// Counts the changes of any body's mass properties (setMassProperties,
  /// restoreMassProperties, and the tree edits, which add or remove some), so that quantities
  /// computed from them (the energies) can be cached until the next change.
  std::uint64_t massPropertiesRevision() const { return massPropertiesRevision_; }

  /// Sets the uniform gravitational acceleration g_W (m/s², in the world frame).
  /// @throws InputError if not finite.
  void setGravity(const Vector3& g_W);
  /// The uniform gravitational acceleration g_W (m/s², in W).
  const Vector3& gravity() const { return gravity_W_; }

  /// Number of bodies including the world (so 1 for an empty model).
  int bodyCount() const { return static_cast<int>(parent_.size()); }
  /// Size of the system Q.
  int nq() const { return nq_; }
  /// Size of the system U (degrees of freedom).
  int nu() const { return nu_; }
  /// Body b's name.
  const std::string& bodyName(BodyIndex b) const { return name_[idx(b)]; }
  /// The index of the body called `name`. @throws InputError if there is none.
  BodyIndex bodyIndex(std::string_view name) const;
  /// Body b's parent (-1 for the world).
  BodyIndex parent(BodyIndex b) const { return parent_[idx(b)]; }
  /// The hinge joining body b to its parent (LOCKED for the world).
  const Hinge& hinge(BodyIndex b) const { return hinge_[idx(b)]; }
  /// First index of body b's hinge in the system Q.
  int qStart(BodyIndex b) const { return qStart_[idx(b)]; }
  /// First index of body b's hinge in the system U.
  int uStart(BodyIndex b) const { return uStart_[idx(b)]; }
  /// Pose X_PF of body b's hinge inboard frame F in its parent's body frame P.
  const RigidTransform& X_PF(BodyIndex b) const { return X_PF_[idx(b)]; }
  /// Pose X_BM of body b's hinge outboard frame M in its own body frame B.
  const RigidTransform& X_BM(BodyIndex b) const { return X_BM_[idx(b)]; }
  /// X_MB = X_BM⁻¹, precomputed.
  const RigidTransform& X_MB(BodyIndex b) const { return X_MB_[idx(b)]; }
  /// Whether X_BM is the identity (then M = B and no transform is applied).
  bool outboardIsBodyFrame(BodyIndex b) const { return mIsB_[idx(b)] != 0; }
  /// The kernel the articulated-body recursion runs for each body (the world's first, LOCKED),
  /// chosen from its hinge, its frames and, when honourPrescribed, its prescribed flags:
  /// aba's (every entry free) or hybridDynamics' (the flags honoured). Kept up to date by
  /// addBody, setPrescribed and the tree edits.
  std::span<const HingeKernel> hingeKernels(bool honourPrescribed) const {
    return honourPrescribed ? hybridKernel_ : abaKernel_;
  }

  /// Number of nodes.
  int nodeCount() const { return static_cast<int>(nodes_.size()); }
  /// Node n. @throws InputError if n is out of range.
  const Node& node(NodeIndex n) const;
  /// The index of the node called `name`. @throws InputError if there is none.
  NodeIndex nodeIndex(std::string_view name) const;

  /// The neutral configuration: every hinge at zero angles/offsets, identity quaternions.
  Eigen::VectorXd neutralConfiguration() const;
  /// Throws InputError naming `where` unless b is a valid body index.
  void checkBody(BodyIndex b, std::string_view where) const;

 private:
  static std::size_t idx(BodyIndex b) { return static_cast<std::size_t>(b); }
  // Throws InputError naming `where` unless `coordinate` indexes body b's hinge Q.
  void checkCoordinate(BodyIndex b, int coordinate, std::string_view where) const;
  // Chooses body b's two kernels (hingeKernels) from its hinge, frames and prescribed flags.
  void selectHingeKernels(BodyIndex b);

  std::vector<std::string> name_;
  std::vector<BodyIndex> parent_;
  std::vector<Hinge> hinge_;
  std::vector<SpatialInertia> inertia_;
  std::vector<RigidTransform> X_PF_;
  std::vector<RigidTransform> X_BM_;
  std::vector<RigidTransform> X_MB_;
  std::vector<unsigned char> mIsB_;
  std::vector<HingeKernel> abaKernel_;     // per body, every U entry free
  std::vector<HingeKernel> hybridKernel_;  // per body, the prescribed flags honoured
  std::vector<int> qStart_;
  std::vector<int> uStart_;
  std::vector<unsigned char> prescribed_;  // per system U entry
  int prescribedCount_{0};
  std::vector<std::optional<JointLimits>> limits_;  // per system Q entry
  std::map<std::string, BodyIndex, std::less<>> bodyByName_;
  std::vector<Node> nodes_;
  std::map<std::string, NodeIndex, std::less<>> nodeByName_;
  Vector3 gravity_W_{Vector3::Zero()};
  int nq_{0};
  int nu_{0};
  std::uint64_t structureRevision_{0};
  std::uint64_t massPropertiesRevision_{0};
};

}  // namespace hopsim::multibody
