#pragma once
/// @file
/// The JSON hopsim writes (sidecars, the replay page's data): strings escaped so that the text
/// may also sit inside an HTML <script> element, numbers that parse back to the same doubles.
#include <string>
#include <string_view>

namespace hopsim::json {

/// Appends `text` as a JSON string: quotes, backslashes, control characters and <, >, & escaped.
void appendString(std::string& out, std::string_view text);
/// Appends `value` with 17 significant digits; null when not finite (JSON has no NaN).
void appendNumber(std::string& out, double value);

}  // namespace hopsim::json
