#pragma once
/// @file
/// Which compiled variant of the multibody kernels a process runs. The articulated-body
/// recursion (`aba`, `hybridDynamics`, `articulatedBodyDynamics`, and so every simulation of a
/// multibody system), `crba`, `forwardKinematics` and `abaSolve` are compiled twice on x86-64: for
/// the build's own target (generic x86-64, SSE2) and for x86-64-v3 (AVX2 and FMA: Intel Haswell,
/// AMD Zen and later). Each process picks one the first time it needs it and keeps it.
///
/// The two agree to round-off, not bit for bit: a fused multiply-add rounds a b + c once. One
/// process, and any two processes on CPUs of the same variant, give the same outputs for the same
/// inputs bit for bit; a run that must match another machine's bit for bit sets
/// `HOPSIM_CPU_KERNELS=generic` (or is built with `-DHOPSIM_CPU_DISPATCH=OFF`).
/// docs/performance.md, "Why the kernels have their form".

#include <string_view>

namespace hopsim {

/// A compiled variant of the multibody kernels.
enum class CpuKernels {
  Generic,    ///< The build's own target: every machine the build runs on.
  X86_64_V3,  ///< x86-64-v3: AVX2 and FMA.
};

/// "generic" or "x86-64-v3", as HOPSIM_CPU_KERNELS spells them.
std::string_view cpuKernelsName(CpuKernels kernels);

/// Whether this build has the x86-64-v3 variant (x86-64, a compiler that supports it,
/// HOPSIM_CPU_DISPATCH on) and this CPU can run it.
bool x86_64_v3KernelsAvailable();

/// The variant chosen for a value of the environment variable HOPSIM_CPU_KERNELS (null when it is
/// unset): unset or "auto": x86-64-v3 where available, generic otherwise; "generic"; "x86-64-v3".
/// Throws InputError for any other value, and for "x86-64-v3" where it is not available.
CpuKernels chooseCpuKernels(const char* setting, bool x86_64_v3Available);

/// The variant this process runs: chooseCpuKernels(getenv("HOPSIM_CPU_KERNELS"),
/// x86_64_v3KernelsAvailable()) at the first call, the same afterwards. A bad setting makes this,
/// and so every kernel above, throw its InputError.
CpuKernels activeCpuKernels();

}  // namespace hopsim
