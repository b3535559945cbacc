// writeNumber: the text of printf's "%.17g" (std::to_chars with precision 17, which is
// specified as printf's), on its fast path and off it.

#include <doctest/doctest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "hopsim/core/number_text.h"

namespace hopsim {
namespace {

std::string printed(double value) {
  char text[64];
  return {text, std::to_chars(text, text + sizeof text, value, std::chars_format::general, 17).ptr};
}

std::string written(double value) {
  std::string text;
  appendNumber(text, value);
  return text;
}

/// Checks `value` and -value; counts the mismatches, reporting the first few.
struct Comparison {
  int mismatches = 0;
  void check(double value) {
    for (const double v : {value, -value}) {
      const std::string expected = printed(v);
      const std::string got = written(v);
      if (got != expected && ++mismatches <= 5) {
        CAPTURE(std::bit_cast<std::uint64_t>(v));
        CHECK(got == expected);
      }
    }
  }
};

TEST_CASE("writeNumber writes what printf's %.17g writes") {
  CHECK(written(0.1) == "0.10000000000000001");
  CHECK(written(1.0) == "1");
  CHECK(written(-0.0) == "-0");
  CHECK(written(0.0) == "0");
  CHECK(written(1e-5) == "1.0000000000000001e-05");
  CHECK(written(0.25) == "0.25");
  CHECK(written(123456789.0) == "123456789");
  CHECK(written(1e17) == "1e+17");
  CHECK(written(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(written(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(written(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(written(std::numeric_limits<double>::denorm_min()) == "4.9406564584124654e-324");
  CHECK(written(-std::numeric_limits<double>::max()) == "-1.7976931348623157e+308");
  // An exact tie at the 17th digit rounds to even, as printf does: 2^50 + 0.25 + k / 2.
  CHECK(written(1125899906842624.25) == "1125899906842624.2");
  CHECK(written(1125899906842624.75) == "1125899906842624.8");

  Comparison compare;
  // Powers of ten and their neighbours, where the exponent changes.
  for (int k = -20; k <= 20; ++k) {
    const double power = std::pow(10.0, k);
    double below = power;
    double above = power;
    for (int step = 0; step < 20; ++step) {
      compare.check(below);
      compare.check(above);
      below = std::nextafter(below, 0.0);
      above = std::nextafter(above, 1e300);
    }
  }
  // Dyadic fractions with ties at the 17th digit, integers, thirds, sample times.
  for (std::int64_t i = 0; i < 20000; ++i) {
    const auto x = static_cast<double>(i);
    compare.check(x * 0.25);
    compare.check(x / 3.0);
    compare.check(x * 0.001);
    compare.check(1125899906842624.0 + x * 0.25);
  }
  // Random magnitudes across the fast path's range and beyond it, random bit patterns.
  std::mt19937_64 random(20261207);
  std::uniform_int_distribution<std::uint64_t> mantissa(std::uint64_t{1} << 52,
                                                        (std::uint64_t{1} << 53) - 1);
  std::uniform_int_distribution<int> exponent(-120, 10);
  for (int i = 0; i < 300000; ++i) {
    compare.check(std::ldexp(static_cast<double>(mantissa(random)), exponent(random)));
    compare.check(std::bit_cast<double>(random()));
  }
  CHECK(compare.mismatches == 0);
}

TEST_CASE("writeNumber writes at most kNumberTextMax characters") {
  char text[kNumberTextRoom];
  for (const double value : {-2.2250738585072014e-308, -0.00012345678901234567,
                             -12345678901234567.0, -1.2345678901234567e-10}) {
    CHECK(static_cast<std::size_t>(writeNumber(text, value) - text) <= kNumberTextMax);
  }
  CHECK(writeNumber(text, -2.2250738585072014e-308) - text == 24);
}

}  // namespace
}  // namespace hopsim
