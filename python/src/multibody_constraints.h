#pragma once
/// @file
/// The constraints of the multibody system from Python (multibody_constraints.cpp): cut joints,
/// DISTANCE, REVOLUTE-SPHERICAL, REVOLUTE-TRANSLATIONAL, POINT_LINE and POINT_PLANE, their
/// residuals, Jacobian, projection and the forces of the last derivative evaluation.

#include <pybind11/pybind11.h>

#include "hopsim/core/multibody_system.h"

namespace hopsim::python {

/// Adds the constraint methods to the MultibodySystem class (called by bindMultibody).
void bindMultibodyConstraints(pybind11::class_<MultibodySystem>& c);

}  // namespace hopsim::python
