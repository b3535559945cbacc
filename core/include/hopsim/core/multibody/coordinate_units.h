#pragma once
/// @file
/// The SI units of a hinge's coordinates Q and rates U, element by element, for the variable
/// tree, the recorder's columns and everything that carries them (units sidecars, HDF5
/// attributes, DataFrames, plots).

#include <cstdint>
#include <string_view>

#include "hopsim/core/multibody/hinge.h"

namespace hopsim::multibody {

/// Which of a hinge's vectors: the coordinates Q or the rates U.
enum class CoordinatePart : std::uint8_t { Q, U };

/// The unit of element `i` of `hinge`'s Q or U: a PIN's angle "rad" and rate "rad/s", a
/// SLIDER's offset "m" and rate "m/s", a quaternion element "1" (dimensionless), and for BALL,
/// FULL6DOF and FULL6DOF_INERTIAL the rates "rad/s" (angular) then "m/s" (linear).
/// @throws InputError if `i` is not an element of that vector.
std::string_view coordinateUnit(const Hinge& hinge, CoordinatePart part, int i);

/// The unit every element of `hinge`'s Q or U shares ("rad" for a GIMBAL's Q), or "" when
/// they differ (a CYLINDRICAL's Q is [m; rad]) or there is none (LOCKED).
std::string_view commonCoordinateUnit(const Hinge& hinge, CoordinatePart part);

}  // namespace hopsim::multibody
