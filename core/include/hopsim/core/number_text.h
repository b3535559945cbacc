#pragma once
/// @file
/// The text of the numbers hopsim writes to its files (CSV recordings, JSON sidecars, replay
/// pages): printf's "%.17g", which reads back as the same double.
#include <cstddef>
#include <string>

namespace hopsim {

/// The longest text writeNumber writes: "-2.2250738585072014e-308".
inline constexpr std::size_t kNumberTextMax = 24;
/// The room writeNumber needs at its `out`: the text and the scratch it writes past it.
inline constexpr std::size_t kNumberTextRoom = 40;

/// Writes `value` at `out` as printf's "%.17g" writes it ("0.10000000000000001", "1e-05",
/// "-0", "inf", "nan") and returns the end of the text. `out` has room for kNumberTextRoom
/// characters; those past the text are scratch. A fast exact path covers 1e-16 <= |x| < 1e17,
/// std::to_chars the rest (the same text, about twice as slow).
char* writeNumber(char* out, double value);
/// Appends `value` to `text` as writeNumber writes it.
void appendNumber(std::string& text, double value);

}  // namespace hopsim
