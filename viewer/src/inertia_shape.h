#pragma once
// The shape a body is drawn with when its model gives none: the box of its inertia.

#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/viewer/scene.h"

namespace hopsim::viewer {

/// The uniform box with the body's mass and rotational inertia about its centre of mass: edges
/// along the principal axes, a_i = sqrt(6 (I_j + I_k - I_i) / m). An edge the inertia leaves
/// at zero (a rod, a plate, a point mass) is `minimumEdge`; a massless body is a cube of it.
Shape inertiaBox(const spatial::SpatialInertia& inertia, double minimumEdge);

}  // namespace hopsim::viewer
