#pragma once
/// @file
/// The value types of the multibody bindings (spatial_types.cpp): RigidTransform,
/// SpatialInertia, HingeType, SubhingeType, Hinge and EnergyAndMomentum.

#include <pybind11/pybind11.h>

#include "hopsim/core/spatial/spatial_vector.h"

namespace hopsim::python {

namespace py = pybind11;

/// The scalars and vectors of computeEnergyAndMomentum, copied out of the workspace.
struct EnergyAndMomentum {
  double kineticEnergy;
  double potentialEnergy;
  double totalMass;
  spatial::Vector3 centerOfMass;
  spatial::Vector3 linearMomentum;
  spatial::Vector3 angularMomentum;  // about Wo, in W
};

/// Binds the value types; bindMultibody calls it before binding MultibodySystem, whose
/// signatures use them.
void bindSpatialTypes(py::module_& m);

}  // namespace hopsim::python
