// The spanning tree of a mechanism: which joints and motors become hinges, which close loops.

#include <algorithm>
#include <numeric>

#include "hopsim/assemblies/mechanism_lowering.h"
#include "hopsim/signals/error.h"
#include "mechanism_elements.h"

namespace hopsim::mechanism {

namespace {

/// A joint or motor that may become a tree hinge.
struct Edge {
  TreeHinge::Source source;
  int index;
  int body1;  // index in Mechanism::bodies
  int body2;
};

/// Union-find over the bodies, with every fixed body in one set: the world.
class Components {
 public:
  explicit Components(const Mechanism& m) : parent_(m.bodies.size() + 1) {
    std::iota(parent_.begin(), parent_.end(), 0);
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      if (m.bodies[b].fixed) parent_[b] = world();
    }
  }
  int world() const { return static_cast<int>(parent_.size()) - 1; }
  int find(int b) {
    while (parent_[static_cast<std::size_t>(b)] != b) {
      b = parent_[static_cast<std::size_t>(b)] =
          parent_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(b)])];
    }
    return b;
  }
  /// Joins the sets of a and b; false if they were one already (the edge would close a loop).
  bool join(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    // The world stays the representative, so find(b) == world() means "reaches the ground".
    if (a == world()) std::swap(a, b);
    parent_[static_cast<std::size_t>(a)] = b;
    return true;
  }

 private:
  std::vector<int> parent_;
};

bool onTree(const Motor& motor) {
  return motor.kind == MotorKind::Rotation
             ? motor.support == MotorSupport::Revolute || motor.support == MotorSupport::Cylindrical
             : motor.support == MotorSupport::Prismatic;
}

bool onTree(const Joint& joint) {
  if (joint.bushing) return false;
  switch (joint.type) {
    case JointType::Lock:
    case JointType::Spherical:
    case JointType::Revolute:
    case JointType::Prismatic:
    case JointType::Universal:
      return true;
    case JointType::PointLine:
    case JointType::PointPlane:
      return false;
  }
  return false;
}

/// The hinge of a joint or motor whose child is body1 (childIsBody1) or body2, in the joint
/// frame F (= M at t = 0).
multibody::Hinge hingeFor(const Mechanism& m, const Edge& e, bool childIsBody1) {
  return e.source == TreeHinge::Source::Motor
             ? detail::motorHinge(m.motors[static_cast<std::size_t>(e.index)])
             : detail::jointHinge(m.joints[static_cast<std::size_t>(e.index)].type, childIsBody1);
}

RigidTransform frameOf(const Mechanism& m, const Edge& e) {
  return e.source == TreeHinge::Source::Motor ? m.motors[static_cast<std::size_t>(e.index)].X_WF
                                              : m.joints[static_cast<std::size_t>(e.index)].X_WF;
}

}  // namespace

namespace detail {

multibody::Hinge jointHinge(JointType type, bool childIsBody1) {
  const Vector3 z = Vector3::UnitZ();
  switch (type) {
    case JointType::Lock:
      return multibody::Hinge::locked();
    case JointType::Spherical:
      return multibody::Hinge::ball();
    case JointType::Revolute:
      return multibody::Hinge::pin(z);
    case JointType::Prismatic:
      return multibody::Hinge::slider(z);
    case JointType::Universal:
      // The cross pivots about body1's X and body2's Y (Chrono: X of marker 1 stays
      // perpendicular to Y of marker 2); the first pin is the parent's axis.
      return childIsBody1 ? multibody::Hinge::ujoint(Vector3::UnitY(), Vector3::UnitX())
                          : multibody::Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY());
    case JointType::PointLine:
    case JointType::PointPlane:
      break;
  }
  throw InputError("internal: a POINT_LINE or POINT_PLANE joint is no hinge");
}

multibody::Hinge motorHinge(const Motor& motor) {
  const Vector3 z = Vector3::UnitZ();
  switch (motor.support) {
    case MotorSupport::Revolute:
      return multibody::Hinge::pin(z);
    case MotorSupport::Cylindrical:
      return multibody::Hinge::cylindrical(z);
    case MotorSupport::Prismatic:
      return multibody::Hinge::slider(z);
    case MotorSupport::Spherical:
    case MotorSupport::Free:
      break;
  }
  throw InputError("internal: a SPHERICAL or FREE motor support is no hinge");
}

}  // namespace detail

LoweringPlan planMechanism(const Mechanism& m, const Placement& placement) {
  LoweringPlan plan;
  for (const Body& b : m.bodies) plan.X_WB.push_back(placement.X_WP * b.X_WR);

  // Candidate edges in order of preference: prescribed motors, force motors, joints.
  std::vector<Edge> edges;
  const auto endpoints = [&m](const std::string& b1, const std::string& b2,
                              const SourceLocation& where, const std::string& what) {
    const int i1 = m.bodyIndex(b1);
    const int i2 = m.bodyIndex(b2);
    if (i1 < 0 || i2 < 0) {
      throw InputError(
          locateMessage(where, what, "names an unknown body '" + (i1 < 0 ? b1 : b2) + "'"));
    }
    if (i1 == i2) {
      throw InputError(locateMessage(
          where, what, "body1 and body2 are both '" + b1 + "' (expected two different bodies)"));
    }
    return std::pair{i1, i2};
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < m.motors.size(); ++i) {
      const Motor& motor = m.motors[i];
      const auto [b1, b2] =
          endpoints(motor.body1, motor.body2, motor.where, "motor '" + motor.name + "'");
      if ((motor.actuation == Actuation::Force) != (pass == 1) || !onTree(motor)) continue;
      edges.push_back({TreeHinge::Source::Motor, static_cast<int>(i), b1, b2});
    }
  }
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& joint = m.joints[i];
    const auto [b1, b2] =
        endpoints(joint.body1, joint.body2, joint.where, "joint '" + joint.name + "'");
    if (onTree(joint)) edges.push_back({TreeHinge::Source::Joint, static_cast<int>(i), b1, b2});
  }

  // Kruskal in preference order: an edge joins the tree unless it closes a loop.
  Components components(m);
  std::vector<Edge> treeEdges;
  std::vector<bool> motorOnTree(m.motors.size(), false);
  for (const Edge& e : edges) {
    if (components.join(e.body1, e.body2)) {
      treeEdges.push_back(e);
      if (e.source == TreeHinge::Source::Motor)
        motorOnTree[static_cast<std::size_t>(e.index)] = true;
    } else if (e.source == TreeHinge::Source::Joint) {
      plan.cutJoints.push_back(e.index);
    }
  }
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    if (!onTree(m.joints[i]) && !m.joints[i].bushing) plan.cutJoints.push_back(static_cast<int>(i));
  }
  std::sort(plan.cutJoints.begin(), plan.cutJoints.end());
  for (std::size_t i = 0; i < m.motors.size(); ++i) {
    if (!motorOnTree[i]) plan.cutMotors.push_back(static_cast<int>(i));
  }

  // Orient the tree breadth-first from the world; each group that does not reach the world
  // hangs from its first body in file order by a FULL6DOF hinge.
  const std::size_t n = m.bodies.size();
  std::vector<bool> placed(n, false);
  std::vector<int> frontier;
  for (std::size_t b = 0; b < n; ++b) {
    if (m.bodies[b].fixed) {
      placed[b] = true;
      frontier.push_back(static_cast<int>(b));
    }
  }
  const auto grow = [&](std::vector<int> queue) {
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int p = queue[head];
      for (const Edge& e : treeEdges) {
        int child = -1;
        if (e.body1 == p && !placed[static_cast<std::size_t>(e.body2)]) child = e.body2;
        if (e.body2 == p && !placed[static_cast<std::size_t>(e.body1)]) child = e.body1;
        if (child < 0) continue;
        TreeHinge h;
        h.body = child;
        h.parent = m.bodies[static_cast<std::size_t>(p)].fixed ? -1 : p;
        h.source = e.source;
        h.index = e.index;
        h.childIsBody1 = child == e.body1;
        h.hinge = hingeFor(m, e, h.childIsBody1);
        const RigidTransform X_WF = placement.X_WP * frameOf(m, e);
        h.X_PF = h.parent < 0 ? X_WF : plan.X_WB[static_cast<std::size_t>(p)].inverse() * X_WF;
        h.X_CM = plan.X_WB[static_cast<std::size_t>(child)].inverse() * X_WF;
        plan.tree.push_back(h);
        placed[static_cast<std::size_t>(child)] = true;
        queue.push_back(child);
      }
    }
  };
  grow(frontier);
  for (std::size_t b = 0; b < n; ++b) {
    if (placed[b]) continue;
    TreeHinge h;
    h.body = static_cast<int>(b);
    h.hinge = multibody::Hinge::full6Dof();
    plan.tree.push_back(h);
    placed[b] = true;
    grow({static_cast<int>(b)});
  }
  return plan;
}

}  // namespace hopsim::mechanism
