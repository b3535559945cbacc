// The counting replacements of the global operator new and the malloc family behind
// allocation_counter.h. Linked into every program that counts allocations (allocation_tests,
// bench/memory.cpp): a program may replace them only once.

#include "allocation_counter.h"

#include <cerrno>
#include <cstdlib>
#include <new>

namespace {
long allocationCount = 0;
bool countingAllocations = false;

void countAllocation() {
  if (countingAllocations) ++allocationCount;
}
}  // namespace

namespace hopsim::test {
void startCountingAllocations() {
  allocationCount = 0;
  countingAllocations = true;
}
long stopCountingAllocations() {
  countingAllocations = false;
  return allocationCount;
}
}  // namespace hopsim::test

#if HOPSIM_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);

void* malloc(std::size_t size) noexcept {
  countAllocation();
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  countAllocation();
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  countAllocation();
  return __libc_realloc(p, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  countAllocation();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** p, std::size_t alignment, std::size_t size) noexcept {
  countAllocation();
  *p = __libc_memalign(alignment, size);
  return *p != nullptr ? 0 : ENOMEM;
}
}
#endif

void* operator new(std::size_t size) {
  if (!HOPSIM_COUNT_MALLOC) countAllocation();
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
// GCC sees free() of memory from operator new and warns, not knowing that the replacement above
// takes it from malloc.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop
