// Joint limits as model data: set, read, clear, one-sided limits, and the InputErrors for bad
// bodies, coordinates, values and quaternion coordinates.

#include <doctest/doctest.h>

#include <limits>

#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/signals/error.h"

namespace hopsim::multibody {
namespace {
const SpatialInertia kUnit =
    SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), Matrix3::Identity());
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("joint limits: set, read back, one-sided and cleared, per coordinate") {
  MultibodyModel model;
  const BodyIndex arm = model.addBody("arm", kWorldBody, kUnit, Hinge::gimbal());
  const BodyIndex base = model.addBody("base", kWorldBody, kUnit, Hinge::full6Dof());
  CHECK_FALSE(model.jointLimits(arm, 1).has_value());
  model.setJointLimits(arm, 1, -0.5, 1.25);
  model.setJointLimits(arm, 2, -kInf, 0.0);
  model.setJointLimits(base, 6, 0.0, kInf);  // a translation of a FULL6DOF hinge
  CHECK_FALSE(model.jointLimits(arm, 0).has_value());
  REQUIRE(model.jointLimits(arm, 1).has_value());
  CHECK(model.jointLimits(arm, 1)->lower == -0.5);
  CHECK(model.jointLimits(arm, 1)->upper == 1.25);
  CHECK(model.jointLimits(arm, 2)->lower == -kInf);
  CHECK(model.jointLimits(base, 6)->upper == kInf);
  CHECK_FALSE(model.jointLimits(base, 5).has_value());
  model.setJointLimits(arm, 1, 0.0, 0.1);  // replaced
  CHECK(model.jointLimits(arm, 1)->upper == 0.1);
  model.clearJointLimits(arm, 1);
  CHECK_FALSE(model.jointLimits(arm, 1).has_value());
  // Later bodies do not shift earlier limits.
  model.addBody("tip", arm, kUnit, Hinge::pin(Vector3::UnitX()));
  CHECK(model.jointLimits(arm, 2)->upper == 0.0);
  CHECK(model.jointLimits(base, 6)->lower == 0.0);
}

TEST_CASE("joint limits: bad input is an InputError naming the body, coordinate and values") {
  MultibodyModel model;
  const BodyIndex ball = model.addBody("ball", kWorldBody, kUnit, Hinge::ball());
  const BodyIndex pin = model.addBody("pin", ball, kUnit, Hinge::pin(Vector3::UnitZ()));
  const BodyIndex free = model.addBody("free", kWorldBody, kUnit, Hinge::full6DofInertial());
  CHECK_THROWS_WITH_AS(model.setJointLimits(pin, 0, 1.0, 0.5),
                       doctest::Contains("MultibodyModel::setJointLimits: body 'pin' coordinate 0: "
                                         "limits [1, 0.5] are not valid (expected lower < upper"),
                       InputError);
  CHECK_THROWS_WITH_AS(model.setJointLimits(pin, 0, 0.5, 0.5), doctest::Contains("[0.5, 0.5]"),
                       InputError);
  CHECK_THROWS_WITH_AS(model.setJointLimits(pin, 0, std::nan(""), 1.0),
                       doctest::Contains("not NaN"), InputError);
  CHECK_THROWS_WITH_AS(model.setJointLimits(pin, 0, kInf, kInf), doctest::Contains("[inf, inf]"),
                       InputError);
  CHECK_THROWS_WITH_AS(model.setJointLimits(pin, 1, 0.0, 1.0),
                       doctest::Contains("body 'pin' has a PIN hinge with 1 Q coordinates; "
                                         "coordinate 1 does not exist"),
                       InputError);
  CHECK_THROWS_WITH_AS(model.setJointLimits(ball, 2, -1.0, 1.0),
                       doctest::Contains("body 'ball' coordinate 2 is a quaternion component of "
                                         "its BALL hinge"),
                       InputError);
  CHECK_THROWS_WITH_AS(model.setJointLimits(free, 3, -1.0, 1.0),
                       doctest::Contains("quaternion component of its FULL6DOF_INERTIAL hinge"),
                       InputError);
  model.setJointLimits(free, 4, -1.0, 1.0);  // its translation may be limited
  CHECK_THROWS_WITH_AS(model.setJointLimits(kWorldBody, 0, 0.0, 1.0),
                       doctest::Contains("body 'world' has a LOCKED hinge with 0 Q coordinates"),
                       InputError);
  CHECK_THROWS_WITH_AS(
      model.jointLimits(9, 0),
      doctest::Contains("MultibodyModel::jointLimits: body index 9 does not exist"), InputError);
  CHECK_THROWS_WITH_AS(model.clearJointLimits(pin, -1),
                       doctest::Contains("coordinate -1 does not exist"), InputError);
  CHECK_FALSE(model.jointLimits(pin, 0).has_value());  // failed calls changed nothing
}

}  // namespace hopsim::multibody
