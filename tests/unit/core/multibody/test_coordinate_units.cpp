// The units of hinge coordinates Q and rates U, element by element, against the layouts that
// hinge.h documents for each hinge type.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hopsim/core/multibody/coordinate_units.h"
#include "hopsim/signals/error.h"

namespace hopsim::test {
namespace {

using multibody::CoordinatePart;
using multibody::Hinge;

std::vector<std::string> unitsOf(const Hinge& h, CoordinatePart part) {
  std::vector<std::string> out;
  const int n = part == CoordinatePart::Q ? h.nq() : h.nu();
  for (int i = 0; i < n; ++i) out.emplace_back(multibody::coordinateUnit(h, part, i));
  return out;
}

using Units = std::vector<std::string>;

}  // namespace

TEST_CASE("coordinateUnit follows each hinge's Q and U layout") {
  CHECK(unitsOf(Hinge::pin({1, 0, 0}), CoordinatePart::Q) == Units{"rad"});
  CHECK(unitsOf(Hinge::pin({1, 0, 0}), CoordinatePart::U) == Units{"rad/s"});
  CHECK(unitsOf(Hinge::slider({0, 0, 1}), CoordinatePart::Q) == Units{"m"});
  CHECK(unitsOf(Hinge::slider({0, 0, 1}), CoordinatePart::U) == Units{"m/s"});
  // [Slider(n), Pin(n)]: Q = [d; θ].
  CHECK(unitsOf(Hinge::cylindrical({0, 0, 1}), CoordinatePart::Q) == Units{"m", "rad"});
  CHECK(unitsOf(Hinge::cylindrical({0, 0, 1}), CoordinatePart::U) == Units{"m/s", "rad/s"});
  CHECK(unitsOf(Hinge::gimbal(), CoordinatePart::Q) == Units{"rad", "rad", "rad"});
  CHECK(unitsOf(Hinge::ball(), CoordinatePart::Q) == Units{"1", "1", "1", "1"});
  CHECK(unitsOf(Hinge::ball(), CoordinatePart::U) == Units{"rad/s", "rad/s", "rad/s"});
  const Units freeQ{"1", "1", "1", "1", "m", "m", "m"};
  const Units freeU{"rad/s", "rad/s", "rad/s", "m/s", "m/s", "m/s"};
  for (const Hinge& h : {Hinge::full6Dof(), Hinge::full6DofInertial()}) {
    CHECK(unitsOf(h, CoordinatePart::Q) == freeQ);
    CHECK(unitsOf(h, CoordinatePart::U) == freeU);
  }
}

TEST_CASE("commonCoordinateUnit is the shared unit, or empty when the elements differ") {
  CHECK(multibody::commonCoordinateUnit(Hinge::gimbal(), CoordinatePart::Q) == "rad");
  CHECK(multibody::commonCoordinateUnit(Hinge::translational(), CoordinatePart::U) == "m/s");
  CHECK(multibody::commonCoordinateUnit(Hinge::ball(), CoordinatePart::Q) == "1");
  CHECK(multibody::commonCoordinateUnit(Hinge::cylindrical({0, 0, 1}), CoordinatePart::Q) == "");
  CHECK(multibody::commonCoordinateUnit(Hinge::full6Dof(), CoordinatePart::U) == "");
  CHECK(multibody::commonCoordinateUnit(Hinge::locked(), CoordinatePart::Q) == "");
}

TEST_CASE("coordinateUnit names the hinge and the bad element") {
  try {
    (void)multibody::coordinateUnit(Hinge::pin({1, 0, 0}), CoordinatePart::U, 1);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "PIN hinge: U has 1 elements, so element 1 does not exist");
  }
  CHECK_THROWS_AS((void)multibody::coordinateUnit(Hinge::ball(), CoordinatePart::Q, -1),
                  InputError);
}

}  // namespace hopsim::test
