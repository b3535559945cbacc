// Changing the tree between hops: removeBody, detachSubtree and attachSubtree keep names,
// indices, Q/U layout, prescribed flags, limits and nodes consistent; a tree edited this way
// has the same dynamics (ABA) as the same tree built directly; a failed attach changes nothing.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/signals/error.h"
#include "multibody_test_support.h"

namespace hopsim::multibody {
namespace {

const SpatialInertia kUnit =
    SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Matrix3::Identity());

// A body or node described by names, so a tree can be built in any order.
struct BodySpec {
  std::string name, parent;
  Hinge hinge;
  RigidTransform X_PF, X_BM;
  SpatialInertia M;
};
struct NodeSpec {
  std::string name, body;
  RigidTransform X_BN;
};

MultibodyModel build(const std::vector<BodySpec>& bodies, const std::vector<NodeSpec>& nodes) {
  MultibodyModel model;
  model.setGravity(Vector3(0.2, 0.1, -9.81));
  for (const BodySpec& b : bodies) model.addBody(b.name, b.parent, b.M, b.hinge, b.X_PF, b.X_BM);
  for (const NodeSpec& n : nodes) model.addNode(n.name, model.bodyIndex(n.body), n.X_BN);
  return model;
}

// Body "b<k>" of a random tree: a random parent among b1..b<k-1> or the world, a hinge of the
// type k + seed in kAllHingeTypes, random frames and mass properties.
BodySpec randomBody(test::Random& rnd, int k, unsigned seed) {
  const int parent = rnd.integer(0, k - 1);
  const auto type = static_cast<std::size_t>((k + static_cast<int>(seed)) % 11);
  return {"b" + std::to_string(k),
          parent == 0 ? "world" : "b" + std::to_string(parent),
          rnd.hinge(test::kAllHingeTypes[type]),
          rnd.pose(),
          rnd.pose(),
          rnd.inertia()};
}

// Max |ABA(A) - ABA(B)| at one random state, for models with the same Q/U layout.
double abaDifference(const MultibodyModel& A, const MultibodyModel& B, test::Random& rnd) {
  REQUIRE(A.nq() == B.nq());
  REQUIRE(A.nu() == B.nu());
  if (A.nu() == 0) return 0.0;  // nothing moves
  MultibodyData dA(A), dB(B);
  const Eigen::VectorXd q = rnd.configuration(A);
  const Eigen::VectorXd u = rnd.vectorX(A.nu());
  const Eigen::VectorXd tau = rnd.vectorX(A.nu());
  const Eigen::VectorXd udotA = aba(A, dA, q, u, tau);
  const Eigen::VectorXd udotB = aba(B, dB, q, u, tau);
  return (udotA - udotB).cwiseAbs().maxCoeff() / (1 + udotA.cwiseAbs().maxCoeff());
}

// The example tree: world - a(PIN) - b(BALL) - c(SLIDER); a - d(GIMBAL); world - e(FULL6DOF)
// - f(PIN), with nodes on a, b, c, f.
struct Example {
  Example() {
    const Vector3 x = Vector3::UnitX();
    a = model.addBody("a", kWorldBody, kUnit, Hinge::pin(x));
    b = model.addBody("b", a, kUnit, Hinge::ball(), RigidTransform::fromTranslation({0, 0, -1}));
    c = model.addBody("c", b, kUnit, Hinge::slider(x));
    d = model.addBody("d", a, kUnit, Hinge::gimbal());
    e = model.addBody("e", kWorldBody, kUnit, Hinge::full6Dof());
    f = model.addBody("f", e, kUnit, Hinge::pin(x));
    model.addNode("onA", a, RigidTransform());
    model.addNode("onB", b, RigidTransform());
    model.addNode("onC", c, RigidTransform());
    model.addNode("onF", f, RigidTransform());
    model.setPrescribed(b, true);
    model.setPrescribed(d, 1, true);
    model.setPrescribed(f, true);
    model.setJointLimits(a, 0, -1.0, 1.0);
    model.setJointLimits(c, 0, 0.0, 0.5);
    model.setJointLimits(d, 2, -0.1, 0.1);
    model.setJointLimits(e, 5, -2.0, 2.0);
  }
  MultibodyModel model;
  BodyIndex a, b, c, d, e, f;
};

}  // namespace

TEST_CASE("tree editing: removeBody removes the subtree and re-indexes the rest") {
  Example ex;
  MultibodyModel& model = ex.model;
  const std::vector<std::string> removed = model.removeBody(ex.b);
  CHECK(removed == std::vector<std::string>{"b", "c"});
  REQUIRE(model.bodyCount() == 5);
  const std::vector<std::string> names{"world", "a", "d", "e", "f"};
  const std::vector<BodyIndex> parents{-1, 0, 1, 0, 3};
  const std::vector<int> qStart{0, 0, 1, 4, 11}, uStart{0, 0, 1, 4, 10};
  for (BodyIndex k = 0; k < 5; ++k) {
    CAPTURE(k);
    CHECK(model.bodyName(k) == names[static_cast<std::size_t>(k)]);
    CHECK(model.bodyIndex(names[static_cast<std::size_t>(k)]) == k);
    CHECK(model.parent(k) == parents[static_cast<std::size_t>(k)]);
    CHECK(model.qStart(k) == qStart[static_cast<std::size_t>(k)]);
    CHECK(model.uStart(k) == uStart[static_cast<std::size_t>(k)]);
  }
  CHECK(model.nq() == 12);
  CHECK(model.nu() == 11);
  CHECK((model.hinge(2).type() == HingeType::Gimbal));
  CHECK_THROWS_AS(model.bodyIndex("b"), InputError);
  CHECK_THROWS_AS(model.bodyIndex("c"), InputError);
  // Prescribed flags: d's second subhinge (U 2) and f's PIN (U 10).
  CHECK(model.prescribedCount() == 2);
  for (int k = 0; k < model.nu(); ++k) CHECK(model.isPrescribed(k) == (k == 2 || k == 10));
  // Limits moved with their bodies.
  CHECK(model.jointLimits(1, 0)->upper == 1.0);
  CHECK(model.jointLimits(2, 2)->lower == -0.1);
  CHECK(model.jointLimits(3, 5)->lower == -2.0);
  CHECK_FALSE(model.jointLimits(3, 4).has_value());
  // Nodes on b and c are gone, the others re-indexed onto the new body indices.
  REQUIRE(model.nodeCount() == 2);
  CHECK(model.node(0).name == "onA");
  CHECK(model.node(0).body == 1);
  CHECK(model.node(1).name == "onF");
  CHECK(model.node(1).body == 4);
  CHECK(model.nodeIndex("onF") == 1);
  CHECK_THROWS_AS(model.nodeIndex("onB"), InputError);
  // Names of removed bodies and nodes are free again.
  model.addBody("b", kWorldBody, kUnit, Hinge::slider(Vector3::UnitY()));
  model.addNode("onB", model.bodyIndex("b"), RigidTransform());
  CHECK(model.nq() == 13);
  CHECK_THROWS_WITH_AS(model.removeBody(kWorldBody),
                       doctest::Contains("MultibodyModel::removeBody: the world cannot be removed"),
                       InputError);
  CHECK_THROWS_WITH_AS(model.removeBody(17), doctest::Contains("body index 17 does not exist"),
                       InputError);
}

TEST_CASE("tree editing: data built before an edit is refused") {
  Example ex;
  MultibodyData data(ex.model);
  ex.model.removeBody(ex.d);
  CHECK_THROWS_WITH_AS(
      aba(ex.model, data, ex.model.neutralConfiguration(), Eigen::VectorXd::Zero(ex.model.nu()),
          Eigen::VectorXd::Zero(ex.model.nu())),
      doctest::Contains("rebuild the data"), InputError);
  // Same sizes after the edits (a PIN replaced by a SLIDER): still refused.
  MultibodyData same(ex.model);
  ex.model.removeBody(ex.model.bodyIndex("f"));
  ex.model.addBody("g", kWorldBody, kUnit, Hinge::slider(Vector3::UnitZ()));
  CHECK(same.nu == ex.model.nu());
  CHECK_THROWS_WITH_AS(
      aba(ex.model, same, ex.model.neutralConfiguration(), Eigen::VectorXd::Zero(ex.model.nu()),
          Eigen::VectorXd::Zero(ex.model.nu())),
      doctest::Contains("aba: the MultibodyData was built before the model's tree "
                        "was last changed"),
      InputError);
}

TEST_CASE("tree editing: detached subtrees carry bodies, frames, flags, limits and nodes") {
  Example ex;
  const Subtree s = ex.model.detachSubtree(ex.b);
  REQUIRE(s.bodies.size() == 2);
  CHECK(s.bodies[0].name == "b");
  CHECK(s.bodies[0].parent == -1);
  CHECK((s.bodies[0].hinge.type() == HingeType::Ball));
  CHECK((s.bodies[0].X_PF.translation() - Vector3(0, 0, -1)).norm() == 0.0);
  CHECK(s.bodies[0].prescribed == std::vector<bool>{true, true, true});
  CHECK(s.bodies[1].name == "c");
  CHECK(s.bodies[1].parent == 0);
  CHECK(s.bodies[1].prescribed == std::vector<bool>{false});
  REQUIRE(s.bodies[1].limits.size() == 1);
  CHECK(s.bodies[1].limits[0]->upper == 0.5);
  REQUIRE(s.nodes.size() == 2);
  CHECK(s.nodes[0].name == "onB");
  CHECK(s.nodes[0].body == 0);
  CHECK(s.nodes[1].body == 1);
  CHECK(ex.model.bodyCount() == 5);

  // Attached under f with a BALL hinge again: the root keeps its flags; c keeps its limits.
  const BodyIndex f = ex.model.bodyIndex("f");
  const BodyIndex root = ex.model.attachSubtree(s, f, Hinge::ball());
  CHECK(root == 5);
  CHECK(ex.model.bodyName(6) == "c");
  CHECK(ex.model.parent(5) == f);
  CHECK(ex.model.parent(6) == 5);
  CHECK(ex.model.uStart(5) == 11);
  for (int k = 11; k < 14; ++k) CHECK(ex.model.isPrescribed(k));
  CHECK_FALSE(ex.model.isPrescribed(14));
  CHECK(ex.model.prescribedCount() == 5);
  CHECK(ex.model.jointLimits(6, 0)->lower == 0.0);
  CHECK(ex.model.node(ex.model.nodeIndex("onC")).body == 6);
  CHECK(ex.model.nodeCount() == 4);

  // Under a hinge of another type the root starts free and unlimited.
  Example again;
  const Subtree t = again.model.detachSubtree(again.b);
  const BodyIndex r = again.model.attachSubtree(t, kWorldBody, Hinge::pin(Vector3::UnitY()));
  CHECK_FALSE(again.model.isPrescribed(again.model.uStart(r)));
  CHECK(again.model.prescribedCount() == 2);
}

TEST_CASE("tree editing: an attached subtree moves as the same tree built directly") {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    test::Random rnd(seed + 300);
    // A random tree of 16 bodies with every hinge type and a node per body.
    std::vector<BodySpec> bodies;
    std::vector<NodeSpec> nodes;
    for (int k = 1; k <= 16; ++k) {
      bodies.push_back(randomBody(rnd, k, seed));
      nodes.push_back({"n" + std::to_string(k), "b" + std::to_string(k), rnd.pose()});
    }
    // Detach the subtree of a random body and attach it under a body outside it.
    const std::string rootName = "b" + std::to_string(rnd.integer(2, 16));
    std::vector<std::string> inSubtree{rootName};
    for (const BodySpec& b : bodies) {
      if (std::find(inSubtree.begin(), inSubtree.end(), b.parent) != inSubtree.end()) {
        inSubtree.push_back(b.name);
      }
    }
    auto isIn = [&](const std::string& name) {
      return std::find(inSubtree.begin(), inSubtree.end(), name) != inSubtree.end();
    };
    std::vector<std::string> outside{"world"};
    for (const BodySpec& b : bodies) {
      if (!isIn(b.name)) outside.push_back(b.name);
    }
    const std::string newParent =
        outside[static_cast<std::size_t>(rnd.integer(0, static_cast<int>(outside.size()) - 1))];
    const Hinge newHinge =
        rnd.hinge(test::kAllHingeTypes[static_cast<std::size_t>(rnd.integer(0, 10))]);
    const RigidTransform X_PF = rnd.pose(), X_BM = rnd.pose();

    MultibodyModel edited = build(bodies, nodes);
    const Subtree s = edited.detachSubtree(edited.bodyIndex(rootName));
    CHECK(s.bodies.size() == inSubtree.size());
    edited.attachSubtree(s, edited.bodyIndex(newParent), newHinge, X_PF, X_BM);

    // The same tree built directly: the other bodies in order, then the subtree's.
    std::vector<BodySpec> directBodies;
    std::vector<NodeSpec> directNodes;
    for (const BodySpec& b : bodies) {
      if (!isIn(b.name)) directBodies.push_back(b);
    }
    for (const BodySpec& b : bodies) {
      if (!isIn(b.name)) continue;
      directBodies.push_back(b);
      if (b.name == rootName) directBodies.back() = {b.name, newParent, newHinge, X_PF, X_BM, b.M};
    }
    for (const NodeSpec& n : nodes) {
      if (!isIn(n.body)) directNodes.push_back(n);
    }
    for (const NodeSpec& n : nodes) {
      if (isIn(n.body)) directNodes.push_back(n);
    }
    const MultibodyModel direct = build(directBodies, directNodes);

    CAPTURE(seed);
    REQUIRE(edited.bodyCount() == direct.bodyCount());
    for (BodyIndex b = 0; b < direct.bodyCount(); ++b) {
      CHECK(edited.bodyName(b) == direct.bodyName(b));
      CHECK(edited.parent(b) == direct.parent(b));
      CHECK(edited.qStart(b) == direct.qStart(b));
      CHECK(edited.uStart(b) == direct.uStart(b));
    }
    REQUIRE(edited.nodeCount() == direct.nodeCount());
    for (NodeIndex n = 0; n < direct.nodeCount(); ++n) {
      CHECK(edited.node(n).name == direct.node(n).name);
      CHECK(edited.node(n).body == direct.node(n).body);
    }
    CHECK(abaDifference(edited, direct, rnd) < 1e-12);
  }
}

TEST_CASE("tree editing: removing a subtree leaves the dynamics of the tree without it") {
  for (unsigned seed = 1; seed <= 8; ++seed) {
    test::Random rnd(seed + 400);
    std::vector<BodySpec> bodies;
    for (int k = 1; k <= 14; ++k) {
      bodies.push_back(randomBody(rnd, k, seed));
    }
    MultibodyModel edited = build(bodies, {});
    const std::vector<std::string> removed =
        edited.removeBody(edited.bodyIndex("b" + std::to_string(rnd.integer(1, 14))));
    std::vector<BodySpec> kept;
    for (const BodySpec& b : bodies) {
      if (std::find(removed.begin(), removed.end(), b.name) == removed.end()) kept.push_back(b);
    }
    const MultibodyModel direct = build(kept, {});
    CAPTURE(seed);
    REQUIRE(edited.bodyCount() == direct.bodyCount());
    CHECK(abaDifference(edited, direct, rnd) < 1e-12);
  }
}

TEST_CASE("tree editing: a failed attach is an InputError and changes nothing") {
  Example ex;
  const Subtree s = ex.model.subtree(ex.b);  // b and c stay in the model: their names clash
  const MultibodyModel before = ex.model;
  auto unchanged = [&] {
    CHECK(ex.model.bodyCount() == before.bodyCount());
    CHECK(ex.model.nq() == before.nq());
    CHECK(ex.model.nu() == before.nu());
    CHECK(ex.model.nodeCount() == before.nodeCount());
    CHECK(ex.model.prescribedCount() == before.prescribedCount());
  };
  CHECK_THROWS_WITH_AS(ex.model.attachSubtree(s, ex.f, Hinge::ball()),
                       doctest::Contains("MultibodyModel::attachSubtree: subtree body 0 ('b'): a "
                                         "body of that name already exists"),
                       InputError);
  unchanged();
  Subtree renamed = s;
  renamed.bodies[0].name = "b2";
  renamed.bodies[1].name = "c2";
  CHECK_THROWS_WITH_AS(ex.model.attachSubtree(renamed, ex.f, Hinge::ball()),
                       doctest::Contains("subtree node 'onB': a node of that name already exists"),
                       InputError);
  unchanged();
  renamed.nodes[0].name = "onB2";
  renamed.nodes[1].name = "onC2";
  Subtree bad = renamed;
  bad.bodies[1].parent = 1;
  CHECK_THROWS_WITH_AS(ex.model.attachSubtree(bad, ex.f, Hinge::ball()),
                       doctest::Contains("subtree body 1 ('c2') has parent index 1 (expected the "
                                         "index of an earlier body of the subtree, 0..0)"),
                       InputError);
  bad = renamed;
  bad.bodies[1].prescribed.push_back(true);
  CHECK_THROWS_WITH_AS(ex.model.attachSubtree(bad, ex.f, Hinge::ball()),
                       doctest::Contains("has 2 prescribed flags and 1 limits (expected one per U "
                                         "entry, 1, and one per Q entry, 1, of its hinge)"),
                       InputError);
  bad = renamed;
  bad.bodies[1].limits[0] = JointLimits{1.0, -1.0};  // found only while building the copy
  CHECK_THROWS_WITH_AS(
      ex.model.attachSubtree(bad, ex.f, Hinge::ball()),
      doctest::Contains("MultibodyModel::attachSubtree: MultibodyModel::setJointLimits"),
      InputError);
  unchanged();
  bad = renamed;
  bad.bodies[1].X_BM = RigidTransform(2.0 * Matrix3::Identity(), Vector3::Zero());
  CHECK_THROWS_WITH_AS(ex.model.attachSubtree(bad, ex.f, Hinge::ball()),
                       doctest::Contains("outboard frame X_BM is not a rigid transform"),
                       InputError);
  unchanged();
  CHECK_THROWS_WITH_AS(
      ex.model.attachSubtree(renamed, 42, Hinge::ball()),
      doctest::Contains("MultibodyModel::attachSubtree: body index 42 does not exist"), InputError);
  CHECK_THROWS_WITH_AS(ex.model.attachSubtree(Subtree{}, ex.f, Hinge::ball()),
                       doctest::Contains("the subtree has no bodies"), InputError);
  unchanged();
  // The renamed copy attaches: the model now holds both.
  ex.model.attachSubtree(renamed, ex.f, Hinge::ball());
  CHECK(ex.model.bodyCount() == before.bodyCount() + 2);
  CHECK(ex.model.nodeCount() == before.nodeCount() + 2);
}

}  // namespace hopsim::multibody
