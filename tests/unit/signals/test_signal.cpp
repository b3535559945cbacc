// Signal and SignalSlice: freshness counting and slice ranges.

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>

#include "hopsim/signals/error.h"
#include "hopsim/signals/signal.h"

namespace hopsim {

TEST_CASE("every write increments the freshness counter, a new signal was never written") {
  Signal s("thrust", ElementType::Double, 3, "N");
  CHECK_FALSE(s.everWritten());
  s.set(std::vector<double>{1.0, 2.0, 3.0});
  s.set(std::vector<double>{1.0, 2.0, 3.0});  // the same value still counts as a write
  CHECK(s.version() == 2);
  s.slice(1, 2).set(std::vector<double>{5.0, 6.0});
  CHECK(s.version() == 3);
  CHECK(std::get<std::vector<double>>(s.get()) == std::vector<double>{1.0, 5.0, 6.0});
}

TEST_CASE("a slice views a contiguous sub-range and knows what it overlaps") {
  Signal state("state", ElementType::Double, 6);
  const SignalSlice position = state.slice(0, 3);
  const SignalSlice velocity = state.slice(3, 3);
  const SignalSlice middle = state.slice(2, 2);
  CHECK_FALSE(position.overlaps(velocity));
  CHECK(middle.overlaps(position));
  CHECK(middle.overlaps(velocity));
  CHECK(position.describe() == "state[0:3]");
  CHECK(state.whole().describe() == "state");
  Signal other("other", ElementType::Double, 6);
  CHECK_FALSE(other.whole().overlaps(state.whole()));
}

TEST_CASE("a slice outside its signal, or a signal of bad length, is refused with the name") {
  Signal v("v", ElementType::Double, 3);
  CHECK_THROWS_WITH_AS(v.slice(2, 2), doctest::Contains("signal 'v' (double[3]): slice [2:4)"),
                       InputError);
  CHECK_THROWS_AS(v.slice(0, 0), InputError);
  CHECK_THROWS_WITH_AS(Signal("flag", ElementType::Bool, 2),
                       doctest::Contains("signal 'flag': a bool signal cannot have length 2"),
                       InputError);
  CHECK_THROWS_AS(Signal("empty", ElementType::Double, 0), InputError);
}

TEST_CASE("a short signal's freshness counter and value share one cache line") {
  // A reader that finds the signal out of cache then waits for one line, not two in turn.
  const auto line = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) / 64; };
  for (const std::size_t length : {std::size_t{1}, Buffer::kInlineDoubles}) {
    auto signal = std::make_unique<Signal>("s", ElementType::Double, length);
    CHECK(line(signal.get()) == line(signal->buffer().doubles() + length - 1));
  }
}

}  // namespace hopsim
