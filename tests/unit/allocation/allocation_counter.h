#pragma once
// Counts allocations through the global operator new and the malloc family, which
// allocation_counter.cpp replaces for the whole program that links it (allocation_tests,
// hopsim_bench_memory).

// Eigen's dynamic matrices take their memory from malloc, not operator new, so the malloc family
// is replaced too (glibc's own functions do the work), and operator new, which calls malloc,
// counts only where malloc is not replaced: under AddressSanitizer, which owns malloc.
#if defined(__SANITIZE_ADDRESS__)
#define HOPSIM_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOPSIM_COUNT_MALLOC 0
#endif
#endif
#ifndef HOPSIM_COUNT_MALLOC
#define HOPSIM_COUNT_MALLOC 1
#endif

namespace hopsim::test {

/// Starts counting allocations, from zero.
void startCountingAllocations();
/// Stops counting and returns the allocations counted since the start.
long stopCountingAllocations();

/// Counts the allocations made by `work`. The start and stop are calls into another
/// translation unit on purpose: GCC takes malloc for its builtin, which touches no global of
/// the program, and would otherwise move the counter's own reads and writes across an inlined
/// Eigen allocation (and count nothing).
template <class Work>
long allocationsDuring(Work&& work) {
  startCountingAllocations();
  work();
  return stopCountingAllocations();
}

}  // namespace hopsim::test
