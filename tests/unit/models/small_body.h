#pragma once
// A body for the hinge-model tests: a mass whose inertia about its center is small but not zero.

#include "hopsim/core/spatial/spatial_inertia.h"

namespace hopsim::test {

/// Mass m (kg) at cm (m, in B) with a spherical inertia of 1e-3 m kg m² about the center.
inline spatial::SpatialInertia pointMass(double m, const spatial::Vector3& cm) {
  return spatial::SpatialInertia::fromCmInertia(m, cm, 1e-3 * m * spatial::Matrix3::Identity());
}

}  // namespace hopsim::test
