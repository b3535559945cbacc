#pragma once
/// @file
/// Signal and SignalSlice: the memory-less wires between models.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "hopsim/signals/buffer.h"

namespace hopsim {

class SignalSlice;

/// A named, typed value shared by the models tied to it. A signal has no history: it holds the
/// latest value written. Its freshness counter (version) counts writes, so a reader can tell
/// whether the value changed since it last looked. A double signal reads NaN until first written.
///
/// Aligned to a cache line: the freshness counter and a short value (Buffer::kInlineDoubles
/// doubles) then share the object's first line, so a reader that finds the signal out of cache
/// waits for one line, not for the object and then its value's heap block.
class alignas(64) Signal {
 public:
  /// @param name dotted name, unique in its simulation ("lander.thrust").
  /// @param unit SI unit string for documentation and logging ("N", "m/s", "" for none).
  Signal(std::string name, ElementType type, std::size_t length, std::string unit = {},
         std::string description = {});

  const std::string& name() const { return name_; }
  ElementType type() const { return buffer_.type(); }
  std::size_t length() const { return buffer_.length(); }
  const std::string& unit() const { return unit_; }
  const std::string& description() const { return description_; }

  /// Number of writes so far; 0 means never written.
  std::uint64_t version() const { return version_; }
  bool everWritten() const { return version_ != 0; }
  /// Records a write done through data()/buffer(): increments the freshness counter.
  void markWritten() { ++version_; }
  /// Puts back a freshness counter saved in a checkpoint, with the value it counted.
  void restoreVersion(std::uint64_t version) { version_ = version; }

  /// The storage. Writing through it must be followed by markWritten().
  Buffer& buffer() { return buffer_; }
  const Buffer& buffer() const { return buffer_; }

  /// The whole value, checked and converted as Buffer::set does; counts as one write and as
  /// one set (below). @throws InputError naming the signal.
  void set(const Value& value);
  /// Elements [offset, offset+count), checked and converted as Buffer::set does; `what` names
  /// the destination in error messages. Counts as one write, and as one set: a value given from
  /// outside the dataflow (a user, a script, an event), as opposed to a model's output written
  /// through buffer() and markWritten().
  /// @throws InputError naming `what`, the value and the expected type.
  void set(std::size_t offset, std::size_t count, const Value& value, std::string_view what);
  /// Makes every set() increment `*counter` (nullptr: none). A simulation counts the sets of its
  /// signals so that the next hop recomputes outputs that may depend on them.
  void countSetsIn(std::uint64_t* counter) { setCounter_ = counter; }
  Value get() const { return buffer_.get(); }

  /// Elements [offset, offset+count) as a slice.
  /// @throws InputError if the range is empty or leaves the signal.
  SignalSlice slice(std::size_t offset, std::size_t count);
  /// The whole signal as a slice.
  SignalSlice whole();

 private:
  // The freshness counter and the storage first: every in() and out() reads both, and this
  // way they share the object's first cache line (see the class comment).
  std::uint64_t version_ = 0;
  Buffer buffer_;
  std::uint64_t* setCounter_ = nullptr;
  std::string name_;
  std::string unit_;
  std::string description_;
};

/// A contiguous sub-range of a signal, usable wherever a signal is (a port tied to a slice reads
/// and writes only those elements). Freshness is the signal's: any write to the signal counts.
class SignalSlice {
 public:
  SignalSlice() = default;
  SignalSlice(Signal& signal, std::size_t offset, std::size_t count)
      : signal_(&signal), offset_(offset), count_(count) {}

  bool valid() const { return signal_ != nullptr; }
  Signal& signal() const { return *signal_; }
  std::size_t offset() const { return offset_; }
  std::size_t length() const { return count_; }
  bool isWhole() const { return signal_ && offset_ == 0 && count_ == signal_->length(); }

  /// True when both slices view at least one common element of the same signal.
  bool overlaps(const SignalSlice& other) const {
    return signal_ == other.signal_ && offset_ < other.offset_ + other.count_ &&
           other.offset_ < offset_ + count_;
  }

  /// "thrust" for a whole signal, "state[3:6]" for a slice (half-open element range).
  std::string describe() const;

  Value get() const { return signal_->buffer().get(offset_, count_); }
  /// Writes the elements of the slice; counts as one write of the signal.
  void set(const Value& value);

 private:
  Signal* signal_ = nullptr;
  std::size_t offset_ = 0;
  std::size_t count_ = 0;
};

}  // namespace hopsim
