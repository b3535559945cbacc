#pragma once
// Private: runs a kernel in the variant activeCpuKernels() names (hopsim/core/cpu_kernels.h).
// Not installed.
//
// A kernel is a function whose callees all inline into it: the x86-64-v3 variant inlines the
// whole call tree (flatten), so that every instruction of the recursion is compiled for that
// target. GCC does not inline a generic function into a function of another target on its own.

#include <utility>

#include "hopsim/core/cpu_kernels.h"

namespace hopsim::detail {

#if HOPSIM_X86_64_V3_KERNELS
template <auto kernel, class... Args>
[[gnu::flatten, gnu::target("arch=x86-64-v3")]] decltype(auto) runX86_64_V3Kernel(Args&&... args) {
  return kernel(std::forward<Args>(args)...);
}
#endif

// kernel(args...) in the process's variant; the generic one is the kernel as the build compiled
// it.
template <auto kernel, class... Args>
decltype(auto) runCpuKernel(Args&&... args) {
#if HOPSIM_X86_64_V3_KERNELS
  if (activeCpuKernels() == CpuKernels::X86_64_V3) {
    return runX86_64_V3Kernel<kernel>(std::forward<Args>(args)...);
  }
#endif
  return kernel(std::forward<Args>(args)...);
}

}  // namespace hopsim::detail
