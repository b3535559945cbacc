#include "option_values.h"

#include <charconv>
#include <cmath>
#include <system_error>

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim::apps {
namespace {

[[noreturn]] void fail(const std::string& source, const std::string& expected,
                       std::string_view text) {
  throw InputError(source + ": expected " + expected + ", got '" + std::string(text) + "'");
}

/// Parses all of `text` as a T with std::from_chars (decimal, no leading '+' or space).
template <class T>
std::errc parseWhole(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error == std::errc() && stop != end) return std::errc::invalid_argument;
  return error;
}

}  // namespace

double parseReal(std::string_view text, const std::string& source, bool positive) {
  const std::string expected = positive ? "a finite number > 0" : "a finite number";
  double value = 0.0;
  const std::errc error = parseWhole(text, value);
  if (error == std::errc::result_out_of_range) {
    fail(source, expected + " (within the range of a double)", text);
  }
  if (error != std::errc() || !std::isfinite(value) || (positive && !(value > 0.0))) {
    fail(source, expected, text);
  }
  return value;
}

std::int64_t parseInteger(std::string_view text, const std::string& source, std::int64_t min,
                          std::int64_t max) {
  std::int64_t value = 0;
  if (parseWhole(text, value) != std::errc() || value < min || value > max) {
    fail(source, "an integer from " + std::to_string(min) + " to " + std::to_string(max), text);
  }
  return value;
}

std::string parseChoice(std::string_view text, const std::string& source,
                        const std::vector<std::string>& choices) {
  for (const std::string& choice : choices) {
    if (text == choice) return choice;
  }
  std::string expected;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    expected += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  }
  throw InputError(source + ": expected " + expected + ", got '" + std::string(text) + "'" +
                   didYouMean(text, choices));
}

std::string parseText(std::string_view text, const std::string& source, const char* expected) {
  if (text.empty()) fail(source, expected, text);
  return std::string(text);
}

bool parseSwitch(std::string_view text, const std::string& source) {
  for (const char* yes : {"1", "true", "yes", "on"}) {
    if (text == yes) return true;
  }
  for (const char* no : {"0", "false", "no", "off"}) {
    if (text == no) return false;
  }
  fail(source, "1, true, yes or on (or 0, false, no or off)", text);
}

}  // namespace hopsim::apps
