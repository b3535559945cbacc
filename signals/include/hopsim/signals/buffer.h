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
class Buffer {
 public:
  /// A buffer of `length` elements; Bool and String buffers must have length 1.
  /// @throws InputError if the length does not suit the type.
  Buffer(ElementType type, std::size_t length);

  ElementType type() const { return type_; }
  std::size_t length() const { return length_; }

  /// Raw element storage. Precondition: type() is Double (resp. Int).
  double* doubles() { return doubles_.data(); }
  const double* doubles() const { return doubles_.data(); }
  std::int64_t* ints() { return ints_.data(); }
  const std::int64_t* ints() const { return ints_.data(); }
  bool& boolean() { return bool_; }
  bool boolean() const { return bool_; }
  std::string& string() { return string_; }
  const std::string& string() const { return string_; }

  /// Changes the number of elements (numeric types only); new elements get the initial value.
  void resize(std::size_t length);

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
  ElementType type_;
  std::size_t length_;
  std::vector<double> doubles_;
  std::vector<std::int64_t> ints_;
  bool bool_ = false;
  std::string string_;
};

}  // namespace hopsim
