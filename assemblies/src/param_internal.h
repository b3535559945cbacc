#pragma once
/// @file
/// Private helpers shared by input_node.cpp, param_schema.cpp, param_value_parse.cpp and
/// param_set.cpp.
#include <array>
#include <charconv>
#include <string>

#include "hopsim/assemblies/param_schema.h"

namespace hopsim::detail {

/// The shortest text that reads back as `value` ("0.1", "143.7", "-1", "1e-09"), so messages
/// show numbers as a user would write them rather than with 17 digits.
inline std::string formatNumber(double value) {
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

/// Throws the InputError every parameter error is: "<file:line:col>: <full.path>: <what>",
/// leaving out the parts that are unknown.
[[noreturn]] void raise(const SourceLocation& where, std::string_view path, std::string_view what);
/// Double, int and their vectors: the types with units, bounds and elements.
bool isNumericType(ParamType type);
/// "base.name", or "name" when base is empty.
std::string joinPath(std::string_view base, std::string_view name);
/// The node's own location, or `fallback` when it carries none.
const SourceLocation& locationOf(const InputNode& node, const SourceLocation& fallback);
/// A stored value back as input, in SI: how messages show values and how toInput() dumps them.
InputNode toNode(const ParamField& field, const ParamValue& value);

/// Coerces `node` to the type of `field` and runs the field's own checks (length, finiteness,
/// bounds, choices, custom checks): everything ParamSet does to one field except the schema's
/// cross-field validate(). Schema declarations check their defaults through it too, so a
/// default is held to exactly the rules an input is.
/// @param fieldPath the field's full path, for messages.
/// @param where the location reported when `node` carries none.
/// @throws InputError "<location>: <fieldPath>: <what>".
ParamValue parseFieldValue(const ParamField& field, const InputNode& node,
                           const std::string& fieldPath, const SourceLocation& where);

}  // namespace hopsim::detail
