#include "hopsim/signals/buffer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

constexpr double kUnsetDouble = std::numeric_limits<double>::quiet_NaN();

/// True when `value` holds elements a buffer of `type` can take (numbers for numbers), whatever
/// their count: a mismatch is then one of length or of value, not of type.
bool elementsConvert(ElementType type, const Value& value) {
  switch (type) {
    case ElementType::Bool:
      return std::holds_alternative<bool>(value);
    case ElementType::String:
      return std::holds_alternative<std::string>(value);
    case ElementType::Double:
    case ElementType::Int:
      return std::holds_alternative<double>(value) || std::holds_alternative<std::int64_t>(value) ||
             std::holds_alternative<std::vector<double>>(value) ||
             std::holds_alternative<std::vector<std::int64_t>>(value);
  }
  return false;
}

[[noreturn]] void throwMismatch(std::string_view what, ElementType type, std::size_t count,
                                const Value& value, std::string_view why = {}) {
  std::string message = std::string(what) + ": expected " + describeType(type, count) +
                        " but got " + describeValueType(value) + " " + describeValue(value);
  if (!why.empty()) message += " (" + std::string(why) + ")";
  if (!elementsConvert(type, value)) throw TypeMismatchError(message);
  throw InputError(message);
}

bool integral(double x) {
  return std::isfinite(x) && x == std::trunc(x) &&
         std::abs(x) <= static_cast<double>(std::numeric_limits<std::int64_t>::max() / 2);
}

}  // namespace

Buffer::Buffer(ElementType type, std::size_t length) : type_(type), length_(length) {
  if (!isNumericVectorType(type) && length != 1) {
    throw InputError("a " + std::string(toString(type)) + " value has length 1, not " +
                     std::to_string(length));
  }
  if (type == ElementType::Double) {
    if (length > kInlineDoubles)
      heapDoubles_.assign(length, kUnsetDouble);
    else
      std::fill_n(inlineDoubles_, length, kUnsetDouble);
    bindDoubles();
  }
  if (type == ElementType::Int) ints_.assign(length, 0);
}

Buffer::Buffer(const Buffer& other)
    : type_(other.type_),
      length_(other.length_),
      ints_(other.ints_),
      bool_(other.bool_),
      string_(other.string_) {
  ownCopyOf(other.doubles_);
}

// An empty buffer of other's type, then the move assignment: it takes other's storage (or copies
// nothing when other is empty too) and leaves other empty.
Buffer::Buffer(Buffer&& other) noexcept : type_(other.type_), length_(0) {
  bindDoubles();
  *this = std::move(other);
}

Buffer& Buffer::operator=(const Buffer& other) {
  if (this != &other) assignFrom(other);
  return *this;
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this == &other) return *this;
  if (type_ == other.type_ && length_ == other.length_) {
    // In place, as a copy would: whoever points into this buffer keeps seeing its elements.
    if (type_ == ElementType::Double) std::copy_n(other.doubles_, length_, doubles_);
    std::copy(other.ints_.begin(), other.ints_.end(), ints_.begin());
  } else {
    type_ = other.type_;
    length_ = other.length_;
    ints_ = std::move(other.ints_);
    if (other.placed_) {
      ownCopyOf(other.doubles_);  // a placed buffer's elements stay in their storage
    } else {
      placed_ = false;
      heapDoubles_ = std::move(other.heapDoubles_);
      if (type_ == ElementType::Double && length_ <= kInlineDoubles) {
        std::copy_n(other.inlineDoubles_, length_, inlineDoubles_);
      }
      bindDoubles();
      other.length_ = 0;  // its heap elements are gone; an empty buffer is what remains
      other.bindDoubles();
    }
  }
  bool_ = other.bool_;
  string_ = std::move(other.string_);
  return *this;
}

void Buffer::assignFrom(const Buffer& other) {
  if (placed_ && type_ == other.type_ && length_ == other.length_) {
    std::copy_n(other.doubles_, length_, doubles_);  // stays placed
    return;
  }
  type_ = other.type_;
  length_ = other.length_;
  ints_ = other.ints_;
  bool_ = other.bool_;
  string_ = other.string_;
  ownCopyOf(other.doubles_);
}

void Buffer::ownCopyOf(const double* elements) {
  placed_ = false;
  if (type_ == ElementType::Double && length_ <= kInlineDoubles) {
    std::copy_n(elements, length_, inlineDoubles_);
    heapDoubles_.clear();
  } else if (type_ == ElementType::Double) {
    heapDoubles_.assign(elements, elements + length_);  // equal sizes copy in place
  } else {
    heapDoubles_.clear();
  }
  bindDoubles();
}

void Buffer::bindDoubles() {
  if (placed_) return;
  if (type_ != ElementType::Double)
    doubles_ = nullptr;
  else
    doubles_ = length_ <= kInlineDoubles ? inlineDoubles_ : heapDoubles_.data();
}

void Buffer::placeIn(double* storage) {
  std::copy_n(doubles_, length_, storage);
  std::vector<double>().swap(heapDoubles_);
  doubles_ = storage;
  placed_ = true;
}

void Buffer::ownElements() {
  if (placed_) ownCopyOf(doubles_);
}

void Buffer::resize(std::size_t length) {
  if (!isNumericVectorType(type_)) {
    throw InputError("cannot resize a " + std::string(toString(type_)) + " value");
  }
  if (placed_) {
    if (length == length_) return;
    ownElements();
  }
  if (type_ == ElementType::Double) {
    const std::size_t kept = std::min(length_, length);
    if (length > kInlineDoubles) {
      if (length_ <= kInlineDoubles) heapDoubles_.assign(inlineDoubles_, inlineDoubles_ + kept);
      heapDoubles_.resize(length, kUnsetDouble);
    } else {
      if (length_ > kInlineDoubles) std::copy_n(heapDoubles_.data(), kept, inlineDoubles_);
      std::fill(inlineDoubles_ + kept, inlineDoubles_ + length, kUnsetDouble);
      heapDoubles_.clear();
    }
  }
  if (type_ == ElementType::Int) ints_.resize(length, 0);
  length_ = length;
  bindDoubles();
}

double Buffer::element(std::size_t i) const {
  switch (type_) {
    case ElementType::Bool:
      return bool_ ? 1.0 : 0.0;
    case ElementType::Int:
      return static_cast<double>(ints_[i]);
    case ElementType::Double:
      return doubles_[i];
    case ElementType::String:
      break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

Value Buffer::get(std::size_t offset, std::size_t count) const {
  switch (type_) {
    case ElementType::Bool:
      return bool_;
    case ElementType::String:
      return string_;
    case ElementType::Int:
      if (count == 1) return ints_[offset];
      return std::vector<std::int64_t>(ints_.begin() + static_cast<std::ptrdiff_t>(offset),
                                       ints_.begin() + static_cast<std::ptrdiff_t>(offset + count));
    case ElementType::Double:
      if (count == 1) return doubles_[offset];
      return std::vector<double>(doubles_ + offset, doubles_ + offset + count);
  }
  return {};
}

void Buffer::set(std::size_t offset, std::size_t count, const Value& value, std::string_view what) {
  switch (type_) {
    case ElementType::Bool:
      if (const bool* b = std::get_if<bool>(&value)) {
        bool_ = *b;
        return;
      }
      throwMismatch(what, type_, count, value);
    case ElementType::String:
      if (const std::string* s = std::get_if<std::string>(&value)) {
        string_ = *s;
        return;
      }
      throwMismatch(what, type_, count, value);
    case ElementType::Double: {
      double* out = doubles_ + offset;
      if (count == 1) {
        if (const double* d = std::get_if<double>(&value)) {
          *out = *d;
          return;
        }
        if (const std::int64_t* i = std::get_if<std::int64_t>(&value)) {
          *out = static_cast<double>(*i);
          return;
        }
      }
      if (const auto* v = std::get_if<std::vector<double>>(&value); v && v->size() == count) {
        for (std::size_t k = 0; k < count; ++k) out[k] = (*v)[k];
        return;
      }
      if (const auto* v = std::get_if<std::vector<std::int64_t>>(&value); v && v->size() == count) {
        for (std::size_t k = 0; k < count; ++k) out[k] = static_cast<double>((*v)[k]);
        return;
      }
      throwMismatch(what, type_, count, value);
    }
    case ElementType::Int: {
      std::int64_t* out = ints_.data() + offset;
      if (count == 1) {
        if (const std::int64_t* i = std::get_if<std::int64_t>(&value)) {
          *out = *i;
          return;
        }
        if (const double* d = std::get_if<double>(&value)) {
          if (!integral(*d)) throwMismatch(what, type_, count, value, "not a whole number");
          *out = static_cast<std::int64_t>(*d);
          return;
        }
      }
      if (const auto* v = std::get_if<std::vector<std::int64_t>>(&value); v && v->size() == count) {
        for (std::size_t k = 0; k < count; ++k) out[k] = (*v)[k];
        return;
      }
      if (const auto* v = std::get_if<std::vector<double>>(&value); v && v->size() == count) {
        for (double x : *v) {
          if (!integral(x)) throwMismatch(what, type_, count, value, "not all whole numbers");
        }
        for (std::size_t k = 0; k < count; ++k) out[k] = static_cast<std::int64_t>((*v)[k]);
        return;
      }
      throwMismatch(what, type_, count, value);
    }
  }
}

}  // namespace hopsim
