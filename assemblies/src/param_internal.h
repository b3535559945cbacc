#pragma once
/// @file
/// Private helpers shared by input_node.cpp, param_schema.cpp and param_set.cpp.
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
