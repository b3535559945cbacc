#include "hopsim/signals/signal.h"

#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

Buffer makeBuffer(const std::string& name, ElementType type, std::size_t length) {
  if (length == 0 || (!isNumericVectorType(type) && length != 1)) {
    throw InputError("signal '" + name + "': a " + std::string(toString(type)) +
                     " signal cannot have length " + std::to_string(length) +
                     (isNumericVectorType(type) ? " (expected at least 1)" : " (expected 1)"));
  }
  return {type, length};
}

}  // namespace

Signal::Signal(std::string name, ElementType type, std::size_t length, std::string unit,
               std::string description)
    : buffer_(makeBuffer(name, type, length)),
      name_(std::move(name)),
      unit_(std::move(unit)),
      description_(std::move(description)) {}

void Signal::set(const Value& value) { set(0, length(), value, "signal '" + name_ + "'"); }

void Signal::set(std::size_t offset, std::size_t count, const Value& value, std::string_view what) {
  buffer_.set(offset, count, value, what);
  markWritten();
  if (setCounter_ != nullptr) ++*setCounter_;
}

SignalSlice Signal::slice(std::size_t offset, std::size_t count) {
  if (count == 0 || offset + count > length()) {
    throw InputError("signal '" + name_ + "' (" + describeType(type(), length()) + "): slice [" +
                     std::to_string(offset) + ":" + std::to_string(offset + count) +
                     ") is empty or leaves the signal");
  }
  return {*this, offset, count};
}

SignalSlice Signal::whole() { return {*this, 0, length()}; }

std::string SignalSlice::describe() const {
  if (!signal_) return "<untied>";
  if (isWhole()) return signal_->name();
  return signal_->name() + "[" + std::to_string(offset_) + ":" + std::to_string(offset_ + count_) +
         "]";
}

void SignalSlice::set(const Value& value) {
  signal_->set(offset_, count_, value, "signal slice '" + describe() + "'");
}

}  // namespace hopsim
