#include "checkpoint_reader.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "hopsim/signals/error.h"
#include "hopsim/signals/input_file.h"
#include "hopsim/signals/value.h"

namespace hopsim {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trimmedStart(std::string_view text) {
  while (!text.empty() && isBlank(text.front())) text.remove_prefix(1);
  return text;
}

template <class Integer>
bool parseInteger(std::string_view token, Integer& value) {
  const char* end = token.data() + token.size();
  const auto [stop, error] = std::from_chars(token.data(), end, value);
  return error == std::errc{} && stop == end;
}

}  // namespace

std::string shownToken(std::string_view token) {
  constexpr std::size_t kShown = 80;
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < kShown; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (token.size() > kShown) out += "...";
  return out + "'";
}

// Read as every input file is (hopsim/signals/input_file.h): a regular file of bounded size.
CheckpointReader::CheckpointReader(std::string file)
    : file_(std::move(file)), content_(readInputFile(file_)) {}

void CheckpointReader::expect(std::string_view keyword) {
  if (nextLine_ >= content_.size()) {
    ++number_;
    fail("expected '" + std::string(keyword) + "', found the end of the file");
  }
  const std::size_t end = std::min(content_.find('\n', nextLine_), content_.size());
  rest_ = std::string_view(content_).substr(nextLine_, end - nextLine_);
  nextLine_ = end + 1;
  ++number_;
  const std::string_view word = token(std::string("'") + std::string(keyword) + "'");
  if (word != keyword) {
    fail("expected '" + std::string(keyword) + "', found " + shownToken(word));
  }
}

std::string_view CheckpointReader::nextKeyword() const {
  if (nextLine_ >= content_.size()) return {};
  std::string_view line = std::string_view(content_).substr(nextLine_);
  line = trimmedStart(line.substr(0, line.find('\n')));
  std::size_t length = 0;
  while (length < line.size() && !isBlank(line[length])) ++length;
  return line.substr(0, length);
}

void CheckpointReader::endLine() {
  rest_ = trimmedStart(rest_);
  if (!rest_.empty()) {
    std::size_t length = 0;
    while (length < rest_.size() && !isBlank(rest_[length])) ++length;
    fail("unexpected " + shownToken(rest_.substr(0, length)) + " at the end of the line");
  }
}

void CheckpointReader::endFile() {
  endLine();
  for (std::size_t i = nextLine_; i < content_.size(); ++i) {
    if (content_[i] == '\n') ++number_;
    if (!isBlank(content_[i]) && content_[i] != '\n') {
      ++number_;
      fail("unexpected text after 'end'");
    }
  }
}

std::string_view CheckpointReader::token(std::string_view what) {
  rest_ = trimmedStart(rest_);
  if (rest_.empty()) fail("missing " + std::string(what));
  std::size_t length = 0;
  if (rest_.front() == '"') {
    length = 1;
    while (length < rest_.size() && rest_[length] != '"') length += rest_[length] == '\\' ? 2 : 1;
    if (length >= rest_.size()) fail("the " + std::string(what) + " string is not terminated");
    ++length;  // the closing quote
    if (length < rest_.size() && !isBlank(rest_[length])) {
      fail("unexpected characters after the " + std::string(what) + " string");
    }
  } else {
    while (length < rest_.size() && !isBlank(rest_[length])) ++length;
  }
  const std::string_view word = rest_.substr(0, length);
  rest_.remove_prefix(length);
  return word;
}

std::string CheckpointReader::text(std::string_view what) {
  const std::string_view word = token(what);
  if (word.front() != '"') fail(std::string(what) + " " + shownToken(word) + " is not quoted");
  std::string out;
  for (std::size_t i = 1; i + 1 < word.size(); ++i) {
    char c = word[i];
    if (c == '\\') {
      c = word[++i];
      if (c == 'n') c = '\n';
      if (c == 'r') c = '\r';
    }
    out += c;
  }
  return out;
}

std::string_view CheckpointReader::word(std::string_view what) {
  const std::string_view word = token(what);
  if (word.front() == '"') fail(std::string(what) + " " + shownToken(word) + " is quoted");
  return word;
}

std::int64_t CheckpointReader::integer(std::string_view what, std::int64_t min, std::int64_t max) {
  const std::string_view word = token(what);
  std::int64_t value = 0;
  if (!parseInteger(word, value) || value < min || value > max) {
    fail(std::string(what) + " is " + shownToken(word) + "; expected an integer from " +
         std::to_string(min) + " to " + std::to_string(max));
  }
  return value;
}

std::uint64_t CheckpointReader::natural(std::string_view what) {
  const std::string_view word = token(what);
  std::uint64_t value = 0;
  if (!parseInteger(word, value)) {
    fail(std::string(what) + " is " + shownToken(word) + "; expected an integer from 0 to " +
         std::to_string(std::numeric_limits<std::uint64_t>::max()));
  }
  return value;
}

bool CheckpointReader::flag(std::string_view what) {
  const std::string_view word = token(what);
  if (word != "0" && word != "1") {
    fail(std::string(what) + " is " + shownToken(word) + "; expected 0 or 1");
  }
  return word == "1";
}

double CheckpointReader::real(std::string_view what) {
  // strtod reads the hexadecimal floating point the writer's std::hexfloat produces (operator>>
  // does not, in libstdc++), and decimal, nan and inf; it needs a terminated string.
  const std::string word(token(what));
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (end != word.c_str() + word.size()) {
    fail(std::string(what) + " is " + shownToken(word) + "; expected a number");
  }
  return value;
}

double CheckpointReader::finite(std::string_view what) {
  const double value = real(what);
  if (!std::isfinite(value)) {
    fail(std::string(what) + " is " + formatNumber(value) + "; expected a finite number");
  }
  return value;
}

std::size_t CheckpointReader::count(std::string_view what) {
  const std::uint64_t n = natural(what);
  if (n > content_.size()) {
    fail(std::string(what) + " " + std::to_string(n) + " is more than a file of " +
         std::to_string(content_.size()) + " bytes can hold");
  }
  return static_cast<std::size_t>(n);
}

Buffer CheckpointReader::values(ElementType type, std::size_t length, const std::string& what) {
  const std::size_t n = count(what + " length");
  if (n != length) {
    fail(what + " has " + std::to_string(n) + " elements in the checkpoint but " +
         std::to_string(length) + " here");
  }
  Buffer buffer(type, length);
  for (std::size_t k = 0; k < length; ++k) {
    switch (type) {
      case ElementType::Double:
        buffer.doubles()[k] = real(what);
        break;
      case ElementType::Int:
        buffer.ints()[k] = integer(what, std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::int64_t>::max());
        break;
      case ElementType::Bool:
        buffer.boolean() = flag(what);
        break;
      case ElementType::String:
        buffer.string() = text(what);
        break;
    }
  }
  return buffer;
}

void CheckpointReader::match(std::string_view what, std::string_view found,
                             std::string_view expected) const {
  if (found != expected) {
    fail(std::string(what) + " is " + shownToken(found) + " in the checkpoint but '" +
         std::string(expected) +
         "' in this simulation (restore into a simulation built the same way)");
  }
}

void CheckpointReader::failAt(int line, const std::string& message) const {
  throw InputError("checkpoint '" + file_ + "' line " + std::to_string(line) + ": " + message);
}

}  // namespace hopsim
