#include "hopsim/core/multibody/hinge.h"

#include <cctype>
#include <cmath>
#include <sstream>
#include <string>

#include "hopsim/core/multibody/hinge_kernel.h"
#include "hopsim/signals/error.h"

namespace hopsim::multibody {
namespace {

constexpr std::array<std::string_view, 11> kHingeNames{
    "LOCKED", "PIN",    "SLIDER",        "CYLINDRICAL", "UJOINT",           "GIMBAL",
    "BALL",   "PLANAR", "TRANSLATIONAL", "FULL6DOF",    "FULL6DOF_INERTIAL"};

constexpr std::array<std::string_view, kHingeKernelCount> kHingeKernelNames{
    "LOCKED",     "PIN_ABOUT_X", "PIN_ABOUT_Y",   "PIN_ABOUT_Z", "PIN_IN_BODY",
    "ONE_COLUMN", "TWO_COLUMNS", "THREE_COLUMNS", "SIX_COLUMNS", "PRESCRIBED"};

std::string describe(const Vector3& v) {
  std::ostringstream out;
  out << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
  return out.str();
}

// The unit vector along `axis`, or an InputError naming the hinge and the axis.
Vector3 unitAxis(const Vector3& axis, std::string_view hinge, std::string_view which) {
  const double n = axis.norm();
  if (!axis.allFinite() || !(n > 1e-12)) {
    throw InputError(std::string(hinge) + " hinge: " + std::string(which) + " " + describe(axis) +
                     " is not a usable axis (expected a finite non-zero vector)");
  }
  return axis / n;
}

void requireNotParallel(const Vector3& a, const Vector3& b, std::string_view hinge,
                        std::string_view which) {
  if (a.cross(b).norm() < 1e-9) {
    throw InputError(std::string(hinge) + " hinge: " + std::string(which) + " " + describe(a) +
                     " and " + describe(b) + " are parallel (expected independent axes)");
  }
}

// Which coordinate axis ±e_k `axis` is exactly, or -1.
int coordinateAxisOf(const Vector3& axis) {
  for (int k = 0; k < 3; ++k) {
    if (std::abs(axis[k]) == 1.0 && axis[(k + 1) % 3] == 0.0 && axis[(k + 2) % 3] == 0.0) {
      return k;
    }
  }
  return -1;
}

Subhinge sub(SubhingeType type, const Vector3& axis = Vector3::UnitZ()) {
  return Subhinge{type, axis, 0, 0, coordinateAxisOf(axis)};
}

}  // namespace

std::string_view toString(HingeType type) { return kHingeNames[static_cast<std::size_t>(type)]; }

std::string_view toString(HingeKernel kernel) {
  return kHingeKernelNames[static_cast<std::size_t>(kernel)];
}

HingeKernel selectHingeKernel(const Hinge& hinge, bool outboardIsBodyFrame, bool anyPrescribed) {
  if (anyPrescribed) return HingeKernel::Prescribed;
  switch (hinge.nu()) {
    case 0:
      return HingeKernel::Locked;
    case 1:
      break;
    case 2:
      return HingeKernel::TwoColumns;
    case 3:
      return HingeKernel::ThreeColumns;
    default:
      return HingeKernel::SixColumns;
  }
  if (hinge.type() != HingeType::Pin || !outboardIsBodyFrame) return HingeKernel::OneColumn;
  switch (hinge.subhinge(0).coordinateAxis) {
    case 0:
      return HingeKernel::PinAboutX;
    case 1:
      return HingeKernel::PinAboutY;
    case 2:
      return HingeKernel::PinAboutZ;
    default:
      return HingeKernel::PinInBody;
  }
}

HingeType hingeTypeFromString(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (std::size_t i = 0; i < kHingeNames.size(); ++i) {
    if (upper == kHingeNames[i]) return static_cast<HingeType>(i);
  }
  std::string valid;
  for (const auto n : kHingeNames) valid += (valid.empty() ? "" : ", ") + std::string(n);
  throw InputError("hinge type '" + std::string(name) + "' is unknown (expected one of " + valid +
                   ")");
}

Hinge::Hinge(HingeType type, std::initializer_list<Subhinge> subhinges) : type_(type) {
  for (const Subhinge& s : subhinges) {
    Subhinge placed = s;
    placed.qOffset = nq_;
    placed.uOffset = nu_;
    switch (s.type) {
      case SubhingeType::Pin:
      case SubhingeType::Slider:
        nq_ += 1;
        nu_ += 1;
        break;
      case SubhingeType::Ball:
        nq_ += 4;
        nu_ += 3;
        break;
      case SubhingeType::Free:
      case SubhingeType::FreeInertial:
        nq_ += 7;
        nu_ += 6;
        break;
    }
    subhinges_[static_cast<std::size_t>(count_++)] = placed;
  }
}

Hinge Hinge::locked() { return Hinge(HingeType::Locked, {}); }

Hinge Hinge::pin(const Vector3& axis) {
  return Hinge(HingeType::Pin, {sub(SubhingeType::Pin, unitAxis(axis, "PIN", "axis"))});
}

Hinge Hinge::slider(const Vector3& axis) {
  return Hinge(HingeType::Slider, {sub(SubhingeType::Slider, unitAxis(axis, "SLIDER", "axis"))});
}

Hinge Hinge::cylindrical(const Vector3& axis) {
  const Vector3 n = unitAxis(axis, "CYLINDRICAL", "axis");
  return Hinge(HingeType::Cylindrical, {sub(SubhingeType::Slider, n), sub(SubhingeType::Pin, n)});
}

Hinge Hinge::ujoint(const Vector3& axis1, const Vector3& axis2) {
  const Vector3 n1 = unitAxis(axis1, "UJOINT", "axis1");
  const Vector3 n2 = unitAxis(axis2, "UJOINT", "axis2");
  requireNotParallel(n1, n2, "UJOINT", "axis1 and axis2");
  return Hinge(HingeType::Ujoint, {sub(SubhingeType::Pin, n1), sub(SubhingeType::Pin, n2)});
}

Hinge Hinge::gimbal(const Vector3& axis1, const Vector3& axis2, const Vector3& axis3) {
  const Vector3 n1 = unitAxis(axis1, "GIMBAL", "axis1");
  const Vector3 n2 = unitAxis(axis2, "GIMBAL", "axis2");
  const Vector3 n3 = unitAxis(axis3, "GIMBAL", "axis3");
  requireNotParallel(n1, n2, "GIMBAL", "axis1 and axis2");
  requireNotParallel(n2, n3, "GIMBAL", "axis2 and axis3");
  return Hinge(HingeType::Gimbal, {sub(SubhingeType::Pin, n1), sub(SubhingeType::Pin, n2),
                                   sub(SubhingeType::Pin, n3)});
}

Hinge Hinge::ball() { return Hinge(HingeType::Ball, {sub(SubhingeType::Ball)}); }

Hinge Hinge::planar(const Vector3& axis1, const Vector3& axis2) {
  const Vector3 n1 = unitAxis(axis1, "PLANAR", "axis1");
  const Vector3 n2 = unitAxis(axis2, "PLANAR", "axis2");
  requireNotParallel(n1, n2, "PLANAR", "axis1 and axis2");
  return Hinge(HingeType::Planar, {sub(SubhingeType::Slider, n1), sub(SubhingeType::Slider, n2)});
}

Hinge Hinge::translational(const Vector3& axis1, const Vector3& axis2, const Vector3& axis3) {
  const Vector3 n1 = unitAxis(axis1, "TRANSLATIONAL", "axis1");
  const Vector3 n2 = unitAxis(axis2, "TRANSLATIONAL", "axis2");
  const Vector3 n3 = unitAxis(axis3, "TRANSLATIONAL", "axis3");
  if (std::abs(n1.cross(n2).dot(n3)) < 1e-9) {
    throw InputError("TRANSLATIONAL hinge: axes " + describe(n1) + ", " + describe(n2) + ", " +
                     describe(n3) + " are linearly dependent (expected three independent axes)");
  }
  return Hinge(HingeType::Translational,
               {sub(SubhingeType::Slider, n1), sub(SubhingeType::Slider, n2),
                sub(SubhingeType::Slider, n3)});
}

Hinge Hinge::full6Dof() { return Hinge(HingeType::Full6Dof, {sub(SubhingeType::Free)}); }

Hinge Hinge::full6DofInertial() {
  return Hinge(HingeType::Full6DofInertial, {sub(SubhingeType::FreeInertial)});
}

void Hinge::neutralConfiguration(double* q) const {
  for (int k = 0; k < count_; ++k) {
    const Subhinge& s = subhinges_[static_cast<std::size_t>(k)];
    double* qs = q + s.qOffset;
    switch (s.type) {
      case SubhingeType::Pin:
      case SubhingeType::Slider:
        qs[0] = 0.0;
        break;
      case SubhingeType::Ball:
        qs[0] = 1.0;
        qs[1] = qs[2] = qs[3] = 0.0;
        break;
      case SubhingeType::Free:
      case SubhingeType::FreeInertial:
        qs[0] = 1.0;
        for (int i = 1; i < 7; ++i) qs[i] = 0.0;
        break;
    }
  }
}

}  // namespace hopsim::multibody
