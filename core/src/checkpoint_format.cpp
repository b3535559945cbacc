#include "checkpoint_format.h"

namespace hopsim::checkpoint {

std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '\\':
      case '"':
        out += '\\';
        out += c;
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += c;
    }
  }
  out += '"';
  return out;
}

void writeValues(std::ostream& out, const Buffer& buffer) {
  out << buffer.length();
  switch (buffer.type()) {
    case ElementType::Double:
      for (std::size_t k = 0; k < buffer.length(); ++k) out << ' ' << buffer.doubles()[k];
      break;
    case ElementType::Int:
      for (std::size_t k = 0; k < buffer.length(); ++k) out << ' ' << buffer.ints()[k];
      break;
    case ElementType::Bool:
      out << ' ' << (buffer.boolean() ? 1 : 0);
      break;
    case ElementType::String:
      out << ' ' << quoted(buffer.string());
      break;
  }
}

}  // namespace hopsim::checkpoint
