#include "hopsim/core/multibody/coordinate_units.h"

#include <string>

#include "hopsim/signals/error.h"

namespace hopsim::multibody {

namespace {

/// The unit of element `k` of one subhinge's Q or U (k counts from the subhinge's offset).
std::string_view subhingeUnit(SubhingeType type, CoordinatePart part, int k) {
  const bool q = part == CoordinatePart::Q;
  switch (type) {
    case SubhingeType::Pin:
      return q ? "rad" : "rad/s";
    case SubhingeType::Slider:
      return q ? "m" : "m/s";
    case SubhingeType::Ball:
      return q ? "1" : "rad/s";
    case SubhingeType::Free:
    case SubhingeType::FreeInertial:
      // Q = [quaternion (4); position (3)], U = [angular (3); linear (3)].
      if (q) return k < 4 ? "1" : "m";
      return k < 3 ? "rad/s" : "m/s";
  }
  return "";
}

}  // namespace

std::string_view coordinateUnit(const Hinge& hinge, CoordinatePart part, int i) {
  const bool q = part == CoordinatePart::Q;
  const int n = q ? hinge.nq() : hinge.nu();
  if (i < 0 || i >= n) {
    throw InputError(std::string(toString(hinge.type())) + " hinge: " + (q ? "Q" : "U") + " has " +
                     std::to_string(n) + " elements, so element " + std::to_string(i) +
                     " does not exist");
  }
  // The last subhinge whose offset is at or before i holds element i.
  int k = hinge.subhingeCount() - 1;
  const auto offset = [&](int s) {
    return q ? hinge.subhinge(s).qOffset : hinge.subhinge(s).uOffset;
  };
  while (offset(k) > i) --k;
  return subhingeUnit(hinge.subhinge(k).type, part, i - offset(k));
}

std::string_view commonCoordinateUnit(const Hinge& hinge, CoordinatePart part) {
  const int n = part == CoordinatePart::Q ? hinge.nq() : hinge.nu();
  if (n == 0) return "";
  const std::string_view first = coordinateUnit(hinge, part, 0);
  for (int i = 1; i < n; ++i) {
    if (coordinateUnit(hinge, part, i) != first) return "";
  }
  return first;
}

}  // namespace hopsim::multibody
