#pragma once
// A small JSON writer for the replay page's data, on hopsim/core/json_text.h's strings and
// numbers: arrays, vectors, quaternions.

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/core/json_text.h"
#include "hopsim/core/spatial/rigid_transform.h"

namespace hopsim::viewer::json {

using hopsim::json::appendNumber;
using hopsim::json::appendString;

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

/// Appends [v0, v1, ...].
void appendNumbers(std::string& out, std::span<const double> values);
void appendVector(std::string& out, const spatial::Vector3& v);
/// Appends a quaternion [w, x, y, z] of `R`.
void appendQuaternion(std::string& out, const spatial::Matrix3& R);
/// Appends ["a", "b", ...].
void appendStrings(std::string& out, std::span<const std::string> names);

}  // namespace hopsim::viewer::json
