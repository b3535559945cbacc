#pragma once
/// @file
/// HingeKernel: which specialized code the articulated-body recursion runs for a body, chosen
/// once per body by its MultibodyModel (when the body is added, its prescribed flags change or
/// the tree is edited), so that the recursion's passes do not test hinge types, frames and
/// prescribed flags at every body of every call.

#include <cstdint>
#include <string_view>

namespace hopsim::multibody {

class Hinge;

/// A body's kernel in the articulated-body recursion (aba, hybridDynamics,
/// articulatedBodyDynamics). Each names the shape of the hinge's motion subspace the recursion
/// exploits; the passes switch once per body on it and run fixed-size algebra.
enum class HingeKernel : std::uint8_t {
  Locked,        ///< no U entry (LOCKED): the parent carries the body rigidly
  PinAboutX,     ///< PIN about ±x of F, outboard frame M = B: a two-column pose, S_B = [n; 0]
  PinAboutY,     ///< the same about ±y
  PinAboutZ,     ///< the same about ±z
  PinInBody,     ///< PIN about any other axis with M = B: S_B = [n; 0]
  OneColumn,     ///< any other hinge with one U entry (SLIDER; a PIN with M ≠ B)
  TwoColumns,    ///< two U entries, all free (CYLINDRICAL, UJOINT, PLANAR)
  ThreeColumns,  ///< three U entries, all free (GIMBAL, BALL, TRANSLATIONAL)
  SixColumns,    ///< six U entries, all free (FULL6DOF, FULL6DOF_INERTIAL)
  /// Hybrid dynamics only: some U entry of the hinge is prescribed. Each entry is tested for
  /// its flag (the general form every other kernel specializes).
  Prescribed,
};

/// The number of HingeKernel values.
inline constexpr int kHingeKernelCount = 10;

/// "LOCKED", "PIN_ABOUT_X", ..., "PRESCRIBED".
std::string_view toString(HingeKernel kernel);

/// The kernel for a hinge whose outboard frame is (or is not) the body frame, with or without a
/// prescribed U entry.
HingeKernel selectHingeKernel(const Hinge& hinge, bool outboardIsBodyFrame, bool anyPrescribed);

}  // namespace hopsim::multibody
