#pragma once
/// @file
/// Value: what get/set by path moves across the API boundary (C++, Python, YAML, CLI).

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace hopsim {

/// A dynamically typed value. Scalars of length-1 fields travel as bool/int64/double/string;
/// vectors as std::vector<int64_t> or std::vector<double>.
using Value = std::variant<bool, std::int64_t, double, std::string, std::vector<std::int64_t>,
                           std::vector<double>>;

/// A short rendering of a value for error messages ("2.5", "[1, 2, 3]", "\"abc\"", "true").
std::string describeValue(const Value& value);

/// The type of a value as a message would name it ("double", "int[3]", "string").
std::string describeValueType(const Value& value);

/// The shortest text that reads back as the same double ("0.1", "1e+15", "-inf", "nan"), for
/// messages that name a number exactly without the noise of 17 digits.
std::string formatNumber(double value);

}  // namespace hopsim
