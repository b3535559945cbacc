#pragma once
// A small JSON writer for the replay page's data: numbers with 17 significant digits (they
// parse back to the same doubles), strings escaped so that the text can sit inside an HTML
// <script> element (no '<' at all).

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/spatial/rigid_transform.h"

namespace hopsim::viewer::json {

/// Appends [item0, item1, ...], each written by appendItem(out, item).
template <class Range, class AppendItem>
void appendArray(std::string& out, const Range& items, AppendItem&& appendItem) {
  out += '[';
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ',';
    first = false;
    appendItem(out, item);
  }
  out += ']';
}

/// Appends `text` as a JSON string.
void appendString(std::string& out, std::string_view text);
/// Appends `value` with 17 significant digits; null when not finite (JSON has no NaN).
void appendNumber(std::string& out, double value);
/// Appends [v0, v1, ...].
void appendNumbers(std::string& out, std::span<const double> values);
void appendVector(std::string& out, const spatial::Vector3& v);
/// Appends a quaternion [w, x, y, z] of `R`.
void appendQuaternion(std::string& out, const spatial::Matrix3& R);
/// Appends ["a", "b", ...].
void appendStrings(std::string& out, std::span<const std::string> names);

}  // namespace hopsim::viewer::json
