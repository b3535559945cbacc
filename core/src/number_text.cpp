// Numbers as printf's "%.17g" writes them, without printf: the 17 significant digits exactly
// rounded in 128-bit integer arithmetic where that suffices, std::to_chars elsewhere. A CSV
// recording is mostly numbers, formatted while the run goes on (docs/recording.md, "Cost of
// streaming"); std::to_chars with a precision takes about twice as long.

#include "hopsim/core/number_text.h"

#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace hopsim {

namespace {

__extension__ typedef unsigned __int128 Uint128;

/// 5^p for p in [0, 32]: 5^32 < 2^75, so that 5^p times a 53-bit mantissa fits in 128 bits.
constexpr int kMaxPower = 32;
constexpr std::array<Uint128, kMaxPower + 1> kPowersOf5 = [] {
  std::array<Uint128, kMaxPower + 1> powers{};
  Uint128 power = 1;
  for (Uint128& p : powers) {
    p = power;
    power *= 5;
  }
  return powers;
}();

constexpr std::uint64_t k10To16 = 10'000'000'000'000'000;
constexpr std::uint64_t k10To17 = 100'000'000'000'000'000;

/// The 17 significant digits of |x| = mantissa 2^exponent2 rounded to nearest, ties to even
/// (as printf rounds), as an integer in [10^16, 10^17), and the decimal exponent of its first
/// digit. False when |x| is outside [1e-16, 1e17), where 128 bits do not hold the product, or
/// rounds up to 10^17.
bool seventeenDigits(std::uint64_t mantissa, int exponent2, std::uint64_t& digits,
                     int& exponent10) {
  const int log2 = exponent2 + 63 - std::countl_zero(mantissa);  // floor(log2 |x|)
  int k = (log2 * 78913) >> 18;  // floor(log10 |x|), or one off on either side
  for (int attempt = 0; attempt < 3; ++attempt) {
    // |x| 10^p = mantissa 5^p 2^shift, which is in [10^16, 10^17) when k is floor(log10 |x|).
    const int p = 16 - k;
    if (p < 0 || p > kMaxPower) return false;
    const Uint128 product =
        static_cast<Uint128>(mantissa) * kPowersOf5[static_cast<std::size_t>(p)];
    const int shift = exponent2 + p;
    Uint128 whole;
    bool roundUp = false;
    if (shift >= 0) {
      if (shift > 60) return false;
      whole = product << shift;
    } else {
      if (shift < -120) return false;
      const int drop = -shift;
      whole = product >> drop;
      const Uint128 rest = product - (whole << drop);
      const Uint128 half = Uint128{1} << (drop - 1);
      roundUp = rest > half || (rest == half && (whole & 1) != 0);
    }
    // The exponent is decided on the exact value, before rounding, as printf decides it.
    if (whole >= k10To17) {
      ++k;
      continue;
    }
    if (whole < k10To16) {
      --k;
      continue;
    }
    digits = static_cast<std::uint64_t>(whole) + (roundUp ? 1 : 0);
    exponent10 = k;
    if (digits == k10To17) {  // 99...9.5 rounds up to the next power of ten
      digits = k10To16;
      ++exponent10;
    }
    return exponent10 < 17;  // printf's %g is fixed below 10^17 only
  }
  return false;
}

constexpr char kPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/// Writes the 8 digits of `value` < 10^8 at `out`.
void writeEightDigits(char* out, std::uint32_t value) {
  const std::uint32_t high = value / 10000;
  const std::uint32_t low = value % 10000;
  std::memcpy(out, kPairs + 2 * (high / 100), 2);
  std::memcpy(out + 2, kPairs + 2 * (high % 100), 2);
  std::memcpy(out + 4, kPairs + 2 * (low / 100), 2);
  std::memcpy(out + 6, kPairs + 2 * (low % 100), 2);
}

/// Writes the 17 digits of `value` < 10^17 at `out`.
void writeSeventeenDigits(char* out, std::uint64_t value) {
  const auto high = static_cast<std::uint32_t>(value / 100'000'000);  // 9 digits
  const auto low = static_cast<std::uint32_t>(value % 100'000'000);
  out[0] = static_cast<char>('0' + high / 100'000'000);
  writeEightDigits(out + 1, high % 100'000'000);
  writeEightDigits(out + 9, low);
}

}  // namespace

char* writeNumber(char* out, double value) {
  const auto bits = std::bit_cast<std::uint64_t>(value);
  const bool negative = (bits >> 63) != 0;
  const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  std::uint64_t digits = 0;
  int exponent = 0;
  // Zeros, subnormals, infinities, NaNs and magnitudes outside the fast path's range.
  if (biased == 0 || biased == 0x7ff ||
      !seventeenDigits(fraction | (std::uint64_t{1} << 52), biased - 1075, digits, exponent)) {
    return std::to_chars(out, out + kNumberTextMax, value, std::chars_format::general, 17).ptr;
  }
  char d[17];
  writeSeventeenDigits(d, digits);
  int count = 17;  // the digits but the trailing zeros, which %g drops
  while (d[count - 1] == '0') --count;
  *out = '-';
  out += negative ? 1 : 0;
  // %g: fixed notation for exponents in [-4, 17), else scientific. Fixed-size copies, then
  // the length: what they wrote past it is scratch.
  if (exponent >= 0) {
    const int whole = exponent + 1;  // digits before the point; trailing zeros of d fill it
    std::memcpy(out, d, 17);
    out[whole] = '.';
    std::memcpy(out + whole + 1, d + whole, 16);
    return out + (count > whole ? count + 1 : whole);
  }
  if (exponent >= -4) {
    std::memcpy(out, "0.0000", 6);
    out += 1 - exponent;  // "0." and -exponent - 1 zeros
    std::memcpy(out, d, 17);
    return out + count;
  }
  // Exponents down to -16 here: two digits.
  out[0] = d[0];
  out[1] = '.';
  std::memcpy(out + 2, d + 1, 16);
  out += count > 1 ? count + 1 : 1;
  std::memcpy(out, "e-", 2);
  std::memcpy(out + 2, kPairs + 2 * -exponent, 2);
  return out + 4;
}

void appendNumber(std::string& text, double value) {
  char number[kNumberTextRoom];
  text.append(number, writeNumber(number, value));
}

}  // namespace hopsim
