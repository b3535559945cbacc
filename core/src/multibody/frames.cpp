#include "hopsim/core/multibody/frames.h"

#include <string>

#include "hinge_kernels.h"
#include "hopsim/signals/error.h"

namespace hopsim::multibody {
namespace {

// Where a frame is: fixed on body `host` at pose X_HF.
struct Attachment {
  BodyIndex host{kWorldBody};
  RigidTransform X_HF;
};

[[noreturn]] void throwNoSuchFrame(const MultibodyModel& model, const Frame& f,
                                   std::string_view where, std::string_view role) {
  const std::string what =
      std::string(where) + (role.empty() ? ": " : ": frame " + std::string(role) + ": ");
  switch (f.kind()) {
    case FrameKind::Node:
      throw InputError(what + "node index " + std::to_string(f.index()) +
                       " does not exist (the model has " + std::to_string(model.nodeCount()) +
                       " nodes)");
    case FrameKind::HingeInboard:
    case FrameKind::HingeOutboard:
      throw InputError(what + "hinge frame of body index " + std::to_string(f.index()) +
                       " does not exist (expected a body 1.." +
                       std::to_string(model.bodyCount() - 1) + "; the world has no hinge)");
    default:
      throw InputError(what + "body index " + std::to_string(f.index()) +
                       " does not exist (expected 0.." + std::to_string(model.bodyCount() - 1) +
                       ")");
  }
}

Attachment attachment(const MultibodyModel& model, const Frame& f, std::string_view where,
                      std::string_view role) {
  const int i = f.index();
  switch (f.kind()) {
    case FrameKind::World:
      return {};
    case FrameKind::Body:
      if (i < 0 || i >= model.bodyCount()) throwNoSuchFrame(model, f, where, role);
      return {i, RigidTransform()};
    case FrameKind::Node: {
      if (i < 0 || i >= model.nodeCount()) throwNoSuchFrame(model, f, where, role);
      const Node& node = model.node(i);
      return {node.body, node.X_BN};
    }
    case FrameKind::HingeInboard:
      if (i < 1 || i >= model.bodyCount()) throwNoSuchFrame(model, f, where, role);
      return {model.parent(i), model.X_PF(i)};
    case FrameKind::HingeOutboard:
      if (i < 1 || i >= model.bodyCount()) throwNoSuchFrame(model, f, where, role);
      return {i, model.X_BM(i)};
  }
  throwNoSuchFrame(model, f, where, role);
}

// The motion of a frame F in W, all vectors in W: pose, angular velocity ω, velocity of Fo,
// angular acceleration α and (classical) acceleration of Fo. Only the levels asked for are set.
struct FrameMotion {
  Matrix3 R_WF;
  Vector3 p_WoFo_W;
  Vector3 w;
  Vector3 v;
  Vector3 alpha;
  Vector3 a;
};

enum class Level { Pose, Velocity, Acceleration };

FrameMotion frameMotion(const MultibodyData& data, const Attachment& at, Level level) {
  const auto h = static_cast<std::size_t>(at.host);
  const RigidTransform& X_WH = data.X_WB[h];
  const Matrix3& R_WH = X_WH.rotation();
  FrameMotion m;
  m.R_WF = R_WH * at.X_HF.rotation();
  const Vector3 r = R_WH * at.X_HF.translation();  // p_HoFo_W
  m.p_WoFo_W = X_WH.translation() + r;
  if (level == Level::Pose) return m;

  // F is fixed on H: same angular velocity, and the velocity field of H evaluated at Fo.
  const SpatialMotion& V = data.V_WB_B[h];
  m.w = R_WH * V.rotational();
  m.v = R_WH * V.translational() + m.w.cross(r);
  if (level == Level::Velocity) return m;

  // The true spatial acceleration of H: the data's minus the world's fictitious one (-g after
  // aba/rnea) seen at Ho in H. Its linear part is the rate of the velocity field at a fixed
  // point, so Fo's acceleration is that field's value at Fo plus ω × v_Fo.
  const SpatialMotion A = data.A_WB_B[h] - SpatialTransform(X_WH).inverseApply(data.A_WB_B[0]);
  m.alpha = R_WH * A.rotational();
  m.a = R_WH * A.translational() + m.alpha.cross(r) + m.w.cross(m.v);
  return m;
}

// Velocity of A relative to B, about Ao, in W (see relativeVelocity).
void relativeRates(const FrameMotion& A, const FrameMotion& B, Vector3& w_BA, Vector3& v_BA) {
  const Vector3 r = A.p_WoFo_W - B.p_WoFo_W;
  w_BA = A.w - B.w;
  v_BA = A.v - B.v - B.w.cross(r);
}

// What relativeVelocity and relativeAcceleration start from: the motions of A and B up to
// `level`, the pose of C (whose axes the result is expressed in), and A's velocity relative to B.
struct RelativeMotion {
  FrameMotion a, b, c;
  Vector3 w_BA, v_BA;
};

RelativeMotion relativeMotion(const MultibodyModel& model, const MultibodyData& data,
                              const Frame& A, const Frame& B, const Frame& C, const char* where,
                              Level level) {
  detail::checkData(model, data, where);
  RelativeMotion m;
  m.a = frameMotion(data, attachment(model, A, where, "A"), level);
  m.b = frameMotion(data, attachment(model, B, where, "B"), level);
  m.c = frameMotion(data, attachment(model, C, where, "C"), Level::Pose);
  relativeRates(m.a, m.b, m.w_BA, m.v_BA);
  return m;
}

// A spatial vector given by its parts in W, expressed in C.
SpatialMotion inFrame(const FrameMotion& C, const Vector3& rotational_W,
                      const Vector3& translational_W) {
  return SpatialMotion(C.R_WF.transpose() * rotational_W, C.R_WF.transpose() * translational_W);
}

}  // namespace

Frame frameByName(const MultibodyModel& model, std::string_view name) {
  if (name == "world") return Frame::world();
  const auto colon = name.find(':');
  const std::string_view scheme = name.substr(0, colon == std::string_view::npos ? 0 : colon);
  const std::string_view rest =
      colon == std::string_view::npos ? std::string_view() : name.substr(colon + 1);
  const std::string where = "frameByName('" + std::string(name) + "')";
  try {
    if (scheme == "body") return Frame::body(model.bodyIndex(rest));
    if (scheme == "node") return Frame::node(model.nodeIndex(rest));
    if (scheme == "inboard" || scheme == "outboard") {
      const BodyIndex b = model.bodyIndex(rest);
      if (b == kWorldBody) throw InputError("the world has no hinge");
      return scheme == "inboard" ? Frame::hingeInboard(b) : Frame::hingeOutboard(b);
    }
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  throw InputError(where +
                   ": expected \"world\", \"body:<body>\", \"node:<node>\", \"inboard:<body>\" or "
                   "\"outboard:<body>\"");
}

std::string frameName(const MultibodyModel& model, const Frame& frame) {
  attachment(model, frame, "frameName", "");
  switch (frame.kind()) {
    case FrameKind::World:
      return "world";
    case FrameKind::Body:
      return "body:" + model.bodyName(frame.index());
    case FrameKind::Node:
      return "node:" + model.node(frame.index()).name;
    case FrameKind::HingeInboard:
      return "inboard:" + model.bodyName(frame.index());
    case FrameKind::HingeOutboard:
      return "outboard:" + model.bodyName(frame.index());
  }
  return {};
}

RigidTransform relativePose(const MultibodyModel& model, const MultibodyData& data, const Frame& A,
                            const Frame& B) {
  constexpr const char* kWhere = "relativePose";
  detail::checkData(model, data, kWhere);
  const Attachment a = attachment(model, A, kWhere, "A");
  const Attachment b = attachment(model, B, kWhere, "B");
  const RigidTransform X_WA = data.X_WB[static_cast<std::size_t>(a.host)] * a.X_HF;
  const RigidTransform X_WB = data.X_WB[static_cast<std::size_t>(b.host)] * b.X_HF;
  return X_WB.inverse() * X_WA;
}

SpatialMotion relativeVelocity(const MultibodyModel& model, const MultibodyData& data,
                               const Frame& A, const Frame& B, const Frame& C) {
  const RelativeMotion m =
      relativeMotion(model, data, A, B, C, "relativeVelocity", Level::Velocity);
  return inFrame(m.c, m.w_BA, m.v_BA);
}

SpatialMotion relativeAcceleration(const MultibodyModel& model, const MultibodyData& data,
                                   const Frame& A, const Frame& B, const Frame& C) {
  const RelativeMotion m =
      relativeMotion(model, data, A, B, C, "relativeAcceleration", Level::Acceleration);
  const FrameMotion &a = m.a, &b = m.b;
  // Derivatives taken in B of ω_BA and of v_BAo (themselves rates seen in B): the world-frame
  // derivative minus ω_WB × (·), which yields the transport and Coriolis terms.
  const Vector3 r = a.p_WoFo_W - b.p_WoFo_W;
  const Vector3 alpha = a.alpha - b.alpha - b.w.cross(a.w);
  const Vector3 acc =
      a.a - b.a - b.alpha.cross(r) - b.w.cross(b.w.cross(r)) - 2.0 * b.w.cross(m.v_BA);
  return inFrame(m.c, alpha, acc);
}

}  // namespace hopsim::multibody
