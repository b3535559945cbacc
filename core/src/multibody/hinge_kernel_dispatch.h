#pragma once
// Private: the compile-time shape of each HingeKernel and the one switch per body that turns the
// kernel the model chose into a template argument, so that each pass of the articulated-body
// recursion runs code specialized for it. Not installed.

#include <type_traits>

#include "hopsim/core/multibody/hinge_kernel.h"

namespace hopsim::multibody::detail {

template <HingeKernel K>
using KernelTag = std::integral_constant<HingeKernel, K>;

// k for a PIN about ±e_k with M = B, -1 for the other kernels.
constexpr int coordinateAxisOf(HingeKernel kernel) {
  switch (kernel) {
    case HingeKernel::PinAboutX:
      return 0;
    case HingeKernel::PinAboutY:
      return 1;
    case HingeKernel::PinAboutZ:
      return 2;
    default:
      return -1;
  }
}

// Whether the kernel's S_B is [n; 0]: a PIN whose outboard frame M is the body frame.
constexpr bool isPinInBodyFrameKernel(HingeKernel kernel) {
  return kernel >= HingeKernel::PinAboutX && kernel <= HingeKernel::PinInBody;
}

// The free columns of the kernel's motion subspace; -1 for Prescribed, whose count is known
// only per entry.
constexpr int freeColumnsOf(HingeKernel kernel) {
  switch (kernel) {
    case HingeKernel::Locked:
      return 0;
    case HingeKernel::TwoColumns:
      return 2;
    case HingeKernel::ThreeColumns:
      return 3;
    case HingeKernel::SixColumns:
      return 6;
    case HingeKernel::Prescribed:
      return -1;
    default:
      return 1;
  }
}

// Calls f(KernelTag<kernel>{}).
template <class F>
void withHingeKernel(HingeKernel kernel, F&& f) {
  switch (kernel) {
    case HingeKernel::Locked:
      return f(KernelTag<HingeKernel::Locked>{});
    case HingeKernel::PinAboutX:
      return f(KernelTag<HingeKernel::PinAboutX>{});
    case HingeKernel::PinAboutY:
      return f(KernelTag<HingeKernel::PinAboutY>{});
    case HingeKernel::PinAboutZ:
      return f(KernelTag<HingeKernel::PinAboutZ>{});
    case HingeKernel::PinInBody:
      return f(KernelTag<HingeKernel::PinInBody>{});
    case HingeKernel::OneColumn:
      return f(KernelTag<HingeKernel::OneColumn>{});
    case HingeKernel::TwoColumns:
      return f(KernelTag<HingeKernel::TwoColumns>{});
    case HingeKernel::ThreeColumns:
      return f(KernelTag<HingeKernel::ThreeColumns>{});
    case HingeKernel::SixColumns:
      return f(KernelTag<HingeKernel::SixColumns>{});
    case HingeKernel::Prescribed:
      return f(KernelTag<HingeKernel::Prescribed>{});
  }
}

}  // namespace hopsim::multibody::detail
