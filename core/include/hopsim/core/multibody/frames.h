#pragma once
/// @file
/// Frame queries: the pose, velocity and acceleration of any frame of a multibody model
/// relative to any other, expressed in a third (the seed's Frame2Frame).

#include <cstdint>
#include <string>
#include <string_view>

#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"

namespace hopsim::multibody {

/// What a Frame names.
enum class FrameKind : std::uint8_t {
  World,          ///< the world frame W (= the world body's frame)
  Body,           ///< body b's frame B
  Node,           ///< node n's frame N, fixed on its body at X_BN
  HingeInboard,   ///< body b's hinge inboard frame F, fixed on b's parent at X_PF(b)
  HingeOutboard,  ///< body b's hinge outboard frame M, fixed on b at X_BM(b)
};

/// A frame of a MultibodyModel, by kind and index (a small value; it is checked against the
/// model when a query uses it). Every frame is fixed on one body, its host: a node on its body,
/// F on the parent of the hinge's body, M on the hinge's body, W on the world body.
///
/// By name (frameByName): "world", "body:<body>", "node:<node>", "inboard:<body>" (F of that
/// body's hinge) and "outboard:<body>" (its M); frameName gives the name back. A Frame holds
/// indices, so after the tree is edited (removeBody, attachSubtree) look it up again by name.
class Frame {
 public:
  /// The world frame W.
  Frame() = default;
  /// The world frame W (also what Frame() names).
  static Frame world() { return Frame(); }
  /// Body b's frame B; Frame::body(kWorldBody) is Frame::world().
  static Frame body(BodyIndex b) { return b == kWorldBody ? Frame() : Frame(FrameKind::Body, b); }
  /// Node n's frame N.
  static Frame node(NodeIndex n) { return Frame(FrameKind::Node, n); }
  /// The inboard frame F of body b's hinge (b > 0), fixed on b's parent.
  static Frame hingeInboard(BodyIndex b) { return Frame(FrameKind::HingeInboard, b); }
  /// The outboard frame M of body b's hinge (b > 0), fixed on b.
  static Frame hingeOutboard(BodyIndex b) { return Frame(FrameKind::HingeOutboard, b); }

  /// What it names.
  FrameKind kind() const { return kind_; }
  /// The body index (Body, HingeInboard, HingeOutboard), node index (Node) or 0 (World).
  int index() const { return index_; }

  friend bool operator==(const Frame&, const Frame&) = default;

 private:
  Frame(FrameKind kind, int index) : kind_(kind), index_(index) {}

  FrameKind kind_{FrameKind::World};
  int index_{0};
};

/// The frame called `name` in the scheme of Frame ("world", "body:arm", "node:tip",
/// "inboard:arm", "outboard:arm"). @throws InputError for a name that fits no scheme or names
/// no body/node of the model, or a hinge frame of the world.
Frame frameByName(const MultibodyModel& model, std::string_view name);
/// The name of `frame` in that scheme. Allocates. @throws InputError as the queries.
std::string frameName(const MultibodyModel& model, const Frame& frame);

/// X_BA: the pose of frame A in frame B (R_BA, p_BoAo_B), from data.X_WB of the last
/// forwardKinematics (or rnea/aba). Does not allocate.
/// @throws InputError if data was not built for model or a frame does not exist.
RigidTransform relativePose(const MultibodyModel& model, const MultibodyData& data, const Frame& A,
                            const Frame& B);

/// V_BA_C: the spatial velocity of frame A relative to frame B, as an observer fixed in B sees
/// it, about A's origin Ao, expressed in frame C: [ω_BA; v_BAo] with ω_BA = ω_WA - ω_WB and
/// v_BAo = d/dt_B p_BoAo (the derivative taken in B). Equivalently V_WA - V_WB with both taken
/// about Ao; hence V_AB = -(V_BA shifted to Bo). From data.X_WB and data.V_WB_B of the last
/// forwardKinematics with U (or rnea/aba). Does not allocate. @throws InputError as above.
SpatialMotion relativeVelocity(const MultibodyModel& model, const MultibodyData& data,
                               const Frame& A, const Frame& B, const Frame& C);

/// A_BA_C: the acceleration of frame A relative to frame B, as an observer fixed in B sees it,
/// about Ao, expressed in C: [α_BA; a_BAo] with α_BA = d/dt_B ω_BA and a_BAo = d²/dt²_B p_BoAo
/// (so A_BA_B is the time derivative of the components of V_BA_B). A moving B's transport and
/// Coriolis terms are removed: a_BAo = a_WAo - a_WBo - α_WB × r - ω_WB × (ω_WB × r)
/// - 2 ω_WB × v_BAo (r = p_BoAo), α_BA = α_WA - α_WB - ω_WB × ω_WA.
///
/// Reads data.A_WB_B as filled by aba or rnea, which give the world the fictitious acceleration
/// -g (gravity as an upward acceleration of the world) and so offset every body's acceleration
/// by -g; the query subtracts the world's entry data.A_WB_B[0] from every body's, so it
/// returns the true (inertial) acceleration. Does not allocate. @throws InputError as above.
SpatialMotion relativeAcceleration(const MultibodyModel& model, const MultibodyData& data,
                                   const Frame& A, const Frame& B, const Frame& C);

}  // namespace hopsim::multibody
