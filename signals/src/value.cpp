#include "hopsim/signals/value.h"

#include <array>
#include <charconv>
#include <sstream>

#include "hopsim/signals/element_type.h"

namespace hopsim {
namespace {

template <class T>
std::string joinList(const std::vector<T>& items) {
  std::ostringstream out;
  out.precision(17);
  out << '[';
  constexpr std::size_t kShown = 8;  // long vectors are elided: messages stay one line
  for (std::size_t i = 0; i < items.size() && i < kShown; ++i) out << (i ? ", " : "") << items[i];
  if (items.size() > kShown) out << ", ... (" << items.size() << " elements)";
  out << ']';
  return out.str();
}

}  // namespace

std::string describeValue(const Value& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return "\"" + v + "\"";
        } else if constexpr (std::is_same_v<T, double>) {
          std::ostringstream out;
          out.precision(17);
          out << v;
          return out.str();
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(v);
        } else {
          return joinList(v);
        }
      },
      value);
}

std::string describeValueType(const Value& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>)
          return "bool";
        else if constexpr (std::is_same_v<T, std::int64_t>)
          return "int";
        else if constexpr (std::is_same_v<T, double>)
          return "double";
        else if constexpr (std::is_same_v<T, std::string>)
          return "string";
        else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>)
          return describeType(ElementType::Int, v.size());
        else
          return describeType(ElementType::Double, v.size());
      },
      value);
}

std::string formatNumber(double value) {
  std::array<char, 32> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return ec == std::errc{} ? std::string(buffer.data(), end) : std::to_string(value);
}

}  // namespace hopsim
