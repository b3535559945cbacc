#pragma once
// Counts allocations through the global operator new and the malloc family, which
// test_no_allocation.cpp replaces for the whole allocation_tests executable.

namespace hopsim::test {

/// Allocations counted since the last reset, and whether counting is on: the replaced
/// operator new reads both.
extern long allocationCount;
extern bool countingAllocations;

/// Counts the allocations made by `work`.
template <class Work>
long allocationsDuring(Work&& work) {
  allocationCount = 0;
  countingAllocations = true;
  work();
  countingAllocations = false;
  return allocationCount;
}

}  // namespace hopsim::test
