#pragma once
// The main() of every hopsim benchmark: DESIGN.md section 12 asks each benchmark to state its
// build type and CPU. Google Benchmark prints the CPU; the build type, the compiler and the
// multibody kernels' variant (hopsim/core/cpu_kernels.h) are added.

#include <benchmark/benchmark.h>

#include <string>

#include "hopsim/core/cpu_kernels.h"

#ifndef HOPSIM_BUILD_TYPE
#define HOPSIM_BUILD_TYPE ""
#endif

#if defined(__clang__)
#define HOPSIM_COMPILER_NAME "Clang " __VERSION__
#else
#define HOPSIM_COMPILER_NAME "GCC " __VERSION__
#endif

namespace hopsim::bench {

// The context lines every benchmark program prints before its results.
inline void addBuildContext() {
  benchmark::AddCustomContext("build_type",
                              HOPSIM_BUILD_TYPE[0] != '\0' ? HOPSIM_BUILD_TYPE : "unspecified");
  benchmark::AddCustomContext("compiler", HOPSIM_COMPILER_NAME);
  benchmark::AddCustomContext("cpu_kernels", std::string(cpuKernelsName(activeCpuKernels())));
}

}  // namespace hopsim::bench

#define HOPSIM_BENCHMARK_MAIN()                                       \
  int main(int argc, char** argv) {                                   \
    hopsim::bench::addBuildContext();                                 \
    benchmark::Initialize(&argc, argv);                               \
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1; \
    benchmark::RunSpecifiedBenchmarks();                              \
    benchmark::Shutdown();                                            \
    return 0;                                                         \
  }
