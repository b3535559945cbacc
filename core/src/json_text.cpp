#include "hopsim/core/json_text.h"

#include <cmath>
#include <cstdio>

#include "hopsim/core/number_text.h"

namespace hopsim::json {

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
  hopsim::appendNumber(out, value);
}

}  // namespace hopsim::json
