#include "hopsim/core/cpu_kernels.h"

#include <cstdlib>
#include <string>

#include "hopsim/signals/error.h"

namespace hopsim {

namespace {
constexpr const char* kVariable = "HOPSIM_CPU_KERNELS";
#if HOPSIM_X86_64_V3_KERNELS
constexpr const char* kWhyNoX86_64_V3 =
    "this CPU lacks part of x86-64-v3 (AVX2, FMA, BMI1, BMI2, F16C, LZCNT, MOVBE)";
#else
constexpr const char* kWhyNoX86_64_V3 =
    "this build has no x86-64-v3 kernels (not built for x86-64, or with HOPSIM_CPU_DISPATCH=OFF)";
#endif
}  // namespace

std::string_view cpuKernelsName(CpuKernels kernels) {
  return kernels == CpuKernels::X86_64_V3 ? "x86-64-v3" : "generic";
}

bool x86_64_v3KernelsAvailable() {
#if HOPSIM_X86_64_V3_KERNELS
  __builtin_cpu_init();  // in case the first call comes from a static initializer
  return __builtin_cpu_supports("x86-64-v3") != 0;
#else
  return false;
#endif
}

CpuKernels chooseCpuKernels(const char* setting, bool x86_64_v3Available) {
  const std::string_view value = setting == nullptr ? "auto" : setting;
  if (value == "auto") return x86_64_v3Available ? CpuKernels::X86_64_V3 : CpuKernels::Generic;
  if (value == "generic") return CpuKernels::Generic;
  if (value == "x86-64-v3") {
    if (x86_64_v3Available) return CpuKernels::X86_64_V3;
    throw InputError(std::string(kVariable) + " is 'x86-64-v3', which is not available here: " +
                     kWhyNoX86_64_V3 + " (expected auto or generic)");
  }
  throw InputError(std::string(kVariable) + " is '" + std::string(value) +
                   "' (expected auto, generic or x86-64-v3)");
}

CpuKernels activeCpuKernels() {
  static const CpuKernels active =
      chooseCpuKernels(std::getenv(kVariable), x86_64_v3KernelsAvailable());
  return active;
}

}  // namespace hopsim
