#include "hopsim/assemblies/input_node.h"

#include <algorithm>
#include <cctype>

#include "hopsim/signals/error.h"
#include "param_internal.h"

namespace hopsim {
namespace {

/// Sequences longer than this are elided in messages, which stay one line.
constexpr std::size_t kItemsShown = 8;

std::string describeScalar(const InputNode::Scalar& scalar) {
  return std::visit(
      [](const auto& value) -> std::string {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, bool>) {
          return value ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(value);
        } else if constexpr (std::is_same_v<T, double>) {
          return detail::formatNumber(value);
        } else {
          return "\"" + value + "\"";
        }
      },
      scalar);
}

std::string describeSequence(const std::vector<InputNode>& items) {
  std::string text = "[";
  for (std::size_t i = 0; i < items.size() && i < kItemsShown; ++i) {
    text += (i ? ", " : "") + items[i].describe();
  }
  if (items.size() > kItemsShown) text += ", ... (" + std::to_string(items.size()) + " items)";
  return text + "]";
}

}  // namespace

namespace {

/// True when `message` starts with "<something>:<line>[:<column>]: ".
bool startsWithLocation(const std::string& message) {
  const std::size_t end = message.find(": ");
  if (end == std::string::npos || end == 0) return false;
  const std::string_view head(message.data(), end);
  std::size_t digits = head.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(head[digits - 1]))) --digits;
  return digits < head.size() && digits > 0 && head[digits - 1] == ':';
}

}  // namespace

std::string locateMessage(const SourceLocation& where, std::string_view context,
                          const std::string& message) {
  if (startsWithLocation(message)) return message;
  std::string text = where.known() ? where.toString() + ": " : std::string();
  if (!context.empty()) text += std::string(context) + ": ";
  return text + message;
}

std::string SourceLocation::toString() const {
  if (file.empty() || line <= 0) return file;
  std::string text = file + ":" + std::to_string(line);
  if (column > 0) text += ":" + std::to_string(column);
  return text;
}

InputNode::InputNode(std::initializer_list<double> values) : kind_(Kind::Sequence) {
  items_.reserve(values.size());
  for (double value : values) items_.emplace_back(value);
}

InputNode InputNode::text(std::string text, SourceLocation where, bool quoted) {
  InputNode node(std::move(text));
  node.quoted_ = quoted;
  node.location_ = std::move(where);
  return node;
}

InputNode InputNode::sequence(std::vector<InputNode> items, SourceLocation where) {
  InputNode node;
  node.kind_ = Kind::Sequence;
  node.items_ = std::move(items);
  node.location_ = std::move(where);
  return node;
}

InputNode InputNode::mapping(std::vector<Entry> entries, SourceLocation where) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& [key, value] = entries[i];
    const auto earlier = std::find_if(entries.begin(), entries.begin() + static_cast<long>(i),
                                      [&](const Entry& entry) { return entry.first == key; });
    if (earlier == entries.begin() + static_cast<long>(i)) continue;
    // The repeated entry's own position is the useful one; the mapping's is the fallback.
    const SourceLocation& at = value.location().known() ? value.location() : where;
    const std::string prefix = at.known() ? at.toString() + ": " : "";
    throw InputError(prefix + "duplicate key '" + key + "' in a mapping");
  }
  InputNode node;
  node.kind_ = Kind::Mapping;
  node.entries_ = std::move(entries);
  node.location_ = std::move(where);
  return node;
}

const char* InputNode::kindName() const {
  switch (kind_) {
    case Kind::Null:
      return "null";
    case Kind::Scalar:
      return "scalar";
    case Kind::Sequence:
      return "sequence";
    case Kind::Mapping:
      return "mapping";
  }
  return "null";
}

std::string InputNode::describe() const {
  switch (kind_) {
    case Kind::Null:
      return "null";
    case Kind::Scalar:
      return describeScalar(scalar_);
    case Kind::Sequence:
      return describeSequence(items_);
    case Kind::Mapping:
      return "{...}";
  }
  return "null";
}

const InputNode* InputNode::find(std::string_view key) const {
  for (const auto& [name, value] : entries_) {
    if (name == key) return &value;
  }
  return nullptr;
}

std::vector<std::string> InputNode::keys() const {
  std::vector<std::string> names;
  names.reserve(entries_.size());
  for (const auto& entry : entries_) names.push_back(entry.first);
  return names;
}

void InputNode::set(std::string key, InputNode value) {
  if (kind_ == Kind::Null) kind_ = Kind::Mapping;
  if (kind_ != Kind::Mapping) {
    throw ModelError("InputNode::set('" + key + "') on a " + kindName() + ", not a mapping");
  }
  for (auto& entry : entries_) {
    if (entry.first == key) {
      entry.second = std::move(value);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(value));
}

InputNode& InputNode::at(SourceLocation where) & {
  location_ = std::move(where);
  return *this;
}

InputNode&& InputNode::at(SourceLocation where) && {
  location_ = std::move(where);
  return std::move(*this);
}

}  // namespace hopsim
