#pragma once
/// @file
/// Buffer: the typed storage behind a signal or a model field.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/signals/element_type.h"
#include "hopsim/signals/value.h"

namespace hopsim {

/// Typed, contiguous storage of `length` elements of one ElementType. Doubles start as NaN
/// (an unset value is visible as such), ints as 0, bools as false, strings empty.
///
/// Up to kInlineDoubles doubles live inside the object, so that reading a scalar or a 3-vector
/// costs no load beyond the object's own cache line (a signal's reader then touches one line
/// for the freshness counter and the value); longer double buffers live on the heap. A double
/// buffer can also be placed in storage its owner lays out (placeIn: the columns of the fields of
/// models with batch methods, core/model_batch.h). Copying or assigning between buffers of equal
/// type and length copies the elements in place, so pointers to the target's elements stay
/// valid; a copy of a placed buffer owns its elements. Moving a short buffer moves its elements
/// with it: a pointer into a buffer does not survive the buffer's own relocation (a growing
/// std::vector).
class Buffer {
 public:
  /// Double buffers of at most this many elements keep them inside the object.
  static constexpr std::size_t kInlineDoubles = 4;

  /// A buffer of `length` elements; Bool and String buffers must have length 1.
  /// @throws InputError if the length does not suit the type.
  Buffer(ElementType type, std::size_t length);
  Buffer(const Buffer& other);
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(const Buffer& other);
  Buffer& operator=(Buffer&& other) noexcept;
  ~Buffer() = default;

  ElementType type() const { return type_; }
  std::size_t length() const { return length_; }

  /// Raw element storage. Precondition: type() is Double (resp. Int).
  double* doubles() { return doubles_; }
  const double* doubles() const { return doubles_; }
  std::int64_t* ints() { return ints_.data(); }
  const std::int64_t* ints() const { return ints_.data(); }
  bool& boolean() { return bool_; }
  bool boolean() const { return bool_; }
  std::string& string() { return string_; }
  const std::string& string() const { return string_; }

  /// Changes the number of elements (numeric types only); new elements get the initial value.
  /// A placed buffer given another length takes its elements back first.
  void resize(std::size_t length);

  /// Moves the elements of a double buffer into `storage` (length() doubles), where the buffer
  /// reads and writes them from then on, until ownElements(), a resize to another length or an
  /// assignment of another length. The caller owns the storage and keeps it alive that long.
  /// Precondition: type() is Double.
  void placeIn(double* storage);
  /// Takes the elements of a placed buffer back into storage of its own (no-op when not placed).
  void ownElements();
  bool placed() const { return placed_; }

  /// Elements [offset, offset+count) as a Value: a scalar when count == 1, else a vector.
  Value get(std::size_t offset, std::size_t count) const;
  Value get() const { return get(0, length_); }
  /// Element i of a numeric buffer as a double (a bool as 0 or 1), without allocating.
  /// Precondition: the type is not String and i < length().
  double element(std::size_t i) const;

  /// Writes `value` into elements [offset, offset+count) after checking its type and length.
  /// An int converts to double; a double converts to int only when it is integral.
  /// @param what names the destination in error messages (a variable path, a model field).
  /// @throws InputError naming `what`, the value and the expected type.
  void set(std::size_t offset, std::size_t count, const Value& value, std::string_view what);
  void set(const Value& value, std::string_view what) { set(0, length_, value, what); }

 private:
  /// Points doubles_ at the inline array or the heap vector, whichever holds length_ elements.
  void bindDoubles();
  /// Copies `other`'s elements and type, reusing this buffer's storage where it fits.
  void assignFrom(const Buffer& other);
  /// Takes `elements` (length_ of them, for a Double buffer) into storage of its own.
  void ownCopyOf(const double* elements);

  // The element pointer and the inline elements first: a reader of a short double buffer
  // touches these 40 bytes and nothing else.
  double* doubles_ = nullptr;
  double inlineDoubles_[kInlineDoubles];
  ElementType type_;
  bool placed_ = false;  // the elements live in storage given to placeIn
  std::size_t length_;
  std::vector<double> heapDoubles_;
  std::vector<std::int64_t> ints_;
  bool bool_ = false;
  std::string string_;
};

}  // namespace hopsim
