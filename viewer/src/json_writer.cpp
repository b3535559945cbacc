#include "json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "hopsim/core/spatial/rotation.h"

namespace hopsim::viewer::json {

void appendString(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || c == '<' || c == '>' || c == '&') {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(u));
      out += escaped;
    } else {
      out += c;
    }
  }
  out += '"';
}

void appendNumber(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char text[32];
  const auto result =
      std::to_chars(text, text + sizeof text, value, std::chars_format::general, 17);
  out.append(text, result.ptr);
}

void appendNumbers(std::string& out, std::span<const double> values) {
  appendArray(out, values, [](std::string& o, double v) { appendNumber(o, v); });
}

void appendVector(std::string& out, const spatial::Vector3& v) {
  appendNumbers(out, std::span<const double>(v.data(), 3));
}

void appendQuaternion(std::string& out, const spatial::Matrix3& R) {
  const spatial::Quaternion q = spatial::quaternionFromRotation(R);
  appendNumbers(out, std::span<const double>(q.data(), 4));
}

void appendStrings(std::string& out, std::span<const std::string> names) {
  appendArray(out, names, [](std::string& o, const std::string& n) { appendString(o, n); });
}

}  // namespace hopsim::viewer::json
