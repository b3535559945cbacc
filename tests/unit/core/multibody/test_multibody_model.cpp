// Building a MultibodyModel: layout of Q and U, names, nodes, and precise InputErrors for bad
// input (bad parent, duplicate names, bad axes, invalid inertia, data of another model).

#include <doctest/doctest.h>

#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/signals/error.h"

namespace hopsim::multibody {
namespace {
const SpatialInertia kUnit =
    SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Matrix3::Identity());
}

TEST_CASE("multibody: hinge Q and U sizes and the system layout") {
  struct Expected {
    Hinge hinge;
    int nq, nu;
  };
  const Expected table[] = {{Hinge::locked(), 0, 0},
                            {Hinge::pin(Vector3::UnitX()), 1, 1},
                            {Hinge::slider(Vector3::UnitY()), 1, 1},
                            {Hinge::cylindrical(Vector3::UnitZ()), 2, 2},
                            {Hinge::ujoint(Vector3::UnitX(), Vector3::UnitY()), 2, 2},
                            {Hinge::gimbal(), 3, 3},
                            {Hinge::ball(), 4, 3},
                            {Hinge::planar(), 2, 2},
                            {Hinge::translational(), 3, 3},
                            {Hinge::full6Dof(), 7, 6},
                            {Hinge::full6DofInertial(), 7, 6}};
  MultibodyModel model;
  int nq = 0, nu = 0;
  for (const Expected& e : table) {
    CHECK(e.hinge.nq() == e.nq);
    CHECK(e.hinge.nu() == e.nu);
    CHECK((hingeTypeFromString(toString(e.hinge.type())) == e.hinge.type()));
    const BodyIndex b =
        model.addBody(std::string(toString(e.hinge.type())), model.bodyCount() - 1, kUnit, e.hinge);
    CHECK(model.qStart(b) == nq);
    CHECK(model.uStart(b) == nu);
    nq += e.nq;
    nu += e.nu;
  }
  CHECK(model.nq() == nq);
  CHECK(model.nu() == nu);
  CHECK(model.bodyIndex("BALL") == 7);
  CHECK((hingeTypeFromString("full6dof_inertial") == HingeType::Full6DofInertial));
}

TEST_CASE("multibody: bad building input is an InputError that says what and where") {
  MultibodyModel model;
  model.addBody("a", kWorldBody, kUnit, Hinge::pin(Vector3::UnitZ()));
  CHECK_THROWS_WITH_AS(model.addBody("b", 5, kUnit, Hinge::pin(Vector3::UnitZ())),
                       doctest::Contains("parent body index 5 does not exist"), InputError);
  CHECK_THROWS_WITH_AS(model.addBody("b", "nobody", kUnit, Hinge::ball()),
                       doctest::Contains("parent body 'nobody' does not exist"), InputError);
  CHECK_THROWS_WITH_AS(model.addBody("a", kWorldBody, kUnit, Hinge::ball()),
                       doctest::Contains("already exists"), InputError);
  CHECK_THROWS_WITH_AS(model.addBody("world", kWorldBody, kUnit, Hinge::ball()),
                       doctest::Contains("already exists"), InputError);
  CHECK_THROWS_AS(model.addBody("", kWorldBody, kUnit, Hinge::ball()), InputError);
  CHECK_THROWS_WITH_AS(Hinge::pin(Vector3::Zero()), doctest::Contains("PIN hinge: axis"),
                       InputError);
  CHECK_THROWS_AS(Hinge::slider(Vector3(NAN, 0, 0)), InputError);
  CHECK_THROWS_WITH_AS(Hinge::ujoint(Vector3::UnitX(), Vector3(-2, 0, 0)),
                       doctest::Contains("parallel"), InputError);
  CHECK_THROWS_AS(Hinge::translational(Vector3::UnitX(), Vector3::UnitY(), Vector3(1, 1, 0)),
                  InputError);
  CHECK_THROWS_WITH_AS(hingeTypeFromString("HINGE"), doctest::Contains("FULL6DOF_INERTIAL"),
                       InputError);
  // An invalid inertia (a negative principal moment) built with the unchecked factory. One that
  // only breaks the triangle inequality is accepted: the dynamics needs positive
  // semi-definiteness, and imported Chrono models may carry such moments.
  const SpatialInertia bad = SpatialInertia::fromCmInertiaUnchecked(
      1.0, Vector3::Zero(), Vector3(1.0, 1.0, -5.0).asDiagonal().toDenseMatrix());
  const SpatialInertia implausible = SpatialInertia::fromCmInertiaUnchecked(
      1.0, Vector3::Zero(), Vector3(1.0, 1.0, 5.0).asDiagonal().toDenseMatrix());
  CHECK_NOTHROW(MultibodyModel().addBody("c", kWorldBody, implausible, Hinge::ball()));
  CHECK_THROWS_WITH_AS(model.addBody("c", kWorldBody, bad, Hinge::ball()),
                       doctest::Contains("addBody('c')"), InputError);
  CHECK_THROWS_AS(model.setMassProperties(1, bad), InputError);
  CHECK(model.massProperties(1).isApprox(kUnit, 0.0));  // the old ones are kept
  CHECK_THROWS_AS(model.setMassProperties(0, kUnit), InputError);
  CHECK_THROWS_AS(
      model.addBody("d", kWorldBody, kUnit, Hinge::ball(),
                    RigidTransform(Matrix3(2.0 * Matrix3::Identity()), Vector3::Zero())),
      InputError);
  CHECK(model.bodyCount() == 2);  // nothing was added by the failed calls

  model.addNode("tip", 1, RigidTransform::fromTranslation(Vector3(1, 0, 0)));
  CHECK_THROWS_AS(model.addNode("tip", 1, RigidTransform()), InputError);
  CHECK_THROWS_WITH_AS(model.addNode("n", 9, RigidTransform()),
                       doctest::Contains("body index 9 does not exist"), InputError);
  CHECK(model.nodeIndex("tip") == 0);
  CHECK_THROWS_AS(model.nodeIndex("nope"), InputError);

  MultibodyData data(model);
  model.addBody("e", 1, kUnit, Hinge::slider(Vector3::UnitX()));
  const Eigen::VectorXd z = Eigen::VectorXd::Zero(model.nq());
  CHECK_THROWS_WITH_AS(aba(model, data, z, z, z), doctest::Contains("rebuild the data"),
                       InputError);
  MultibodyData fresh(model);
  CHECK_THROWS_WITH_AS(aba(model, fresh, Eigen::VectorXd::Zero(3), z, z),
                       doctest::Contains("q has 3 entries (expected 2)"), InputError);
}

TEST_CASE("multibody: node pose and velocity") {
  MultibodyModel model;
  model.addBody("arm", kWorldBody, kUnit, Hinge::pin(Vector3::UnitZ()),
                RigidTransform::fromTranslation(Vector3(0, 0, 1)));
  const NodeIndex tip = model.addNode("tip", 1, RigidTransform::fromTranslation(Vector3(2, 0, 0)));
  MultibodyData data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Constant(1, M_PI / 2),
                    Eigen::VectorXd::Constant(1, 3.0));
  CHECK(nodePose(model, data, tip).translation().isApprox(Vector3(0, 2, 1), 1e-15));
  const SpatialMotion V = nodeVelocity(model, data, tip);
  CHECK(V.rotational().isApprox(Vector3(0, 0, 3), 1e-15));
  CHECK(V.translational().isApprox(Vector3(-6, 0, 0), 1e-14));
}

TEST_CASE("multibody: prescribed flags cover exactly the chosen subhinge's U entries") {
  MultibodyModel model;
  const BodyIndex a = model.addBody("a", kWorldBody, kUnit, Hinge::gimbal());
  const BodyIndex b = model.addBody("b", a, kUnit, Hinge::full6Dof());
  CHECK(model.prescribedCount() == 0);
  model.setPrescribed(a, 1, true);
  CHECK(model.prescribedCount() == 1);
  CHECK(!model.isPrescribed(0));
  CHECK(model.isPrescribed(1));
  CHECK(!model.isPrescribed(2));
  model.setPrescribed(b, true);
  CHECK(model.prescribedCount() == 7);
  for (int k = 3; k < 9; ++k) CHECK(model.isPrescribed(k));
  model.setPrescribed(b, true);  // idempotent
  CHECK(model.prescribedCount() == 7);
  model.setPrescribed(a, 1, false);
  CHECK(model.prescribedCount() == 6);
  CHECK_THROWS_WITH_AS(model.setPrescribed(a, 3, true),
                       "MultibodyModel::setPrescribed: body 'a' has a GIMBAL hinge with 3 "
                       "subhinges; subhinge 3 does not exist",
                       InputError);
  CHECK_THROWS_AS(model.setPrescribed(7, true), InputError);
}

TEST_CASE(
    "multibody: the mass-properties revision counts every change of a body's mass "
    "properties and no other edit") {
  MultibodyModel model;
  std::uint64_t last = model.massPropertiesRevision();
  const auto changed = [&] {
    const bool moved = model.massPropertiesRevision() > last;
    last = model.massPropertiesRevision();
    return moved;
  };
  const BodyIndex a = model.addBody("a", kWorldBody, kUnit, Hinge::pin(Vector3::UnitX()));
  CHECK(changed());
  const std::vector<SpatialInertia> saved = model.allMassProperties();
  model.setMassProperties(a,
                          SpatialInertia::fromCmInertia(2.0, Vector3::Zero(), Matrix3::Identity()));
  CHECK(changed());
  model.restoreMassProperties(saved);
  CHECK(changed());
  CHECK(model.massProperties(a).mass() == 1.0);
  // A failed change changes nothing.
  CHECK_THROWS_AS(model.setMassProperties(a, SpatialInertia::fromCmInertiaUnchecked(
                                                 -1.0, Vector3::Zero(), Matrix3::Identity())),
                  InputError);
  CHECK(!changed());
  // Edits that leave every mass property as it was.
  model.setGravity(Vector3(0, 0, -9.81));
  model.addNode("tip", a, RigidTransform());
  model.setPrescribed(a, true);
  CHECK(!changed());
  // Tree edits add or remove mass.
  const BodyIndex b = model.addBody("b", a, kUnit, Hinge::pin(Vector3::UnitY()));
  CHECK(changed());
  const Subtree detached = model.detachSubtree(b);
  CHECK(changed());
  model.attachSubtree(detached, a, Hinge::pin(Vector3::UnitY()));
  CHECK(changed());
}

}  // namespace hopsim::multibody
