#pragma once
// The values of hopsim's options, from the command line or the environment, parsed strictly: a
// number is written in decimal, whole, finite and within its option's range; a name is one of
// its choices. A bad value is an InputError naming where it came from (the option, or the
// environment variable), the value and what was expected, before anything is loaded.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hopsim::apps {

/// A real number: "0.5", "-2", "1e-3" (not "", "0x1p3", "inf", "nan", "1e999", "2 s"),
/// greater than 0 when `positive`. `source` names the value in messages: "--dt" or
/// "environment variable HOPSIM_DT". @throws InputError.
double parseReal(std::string_view text, const std::string& source, bool positive);

/// A decimal integer in [min, max] ("12", not "", "012", "0x10", "1.5", "1e3").
/// @throws InputError naming `source`.
std::int64_t parseInteger(std::string_view text, const std::string& source, std::int64_t min,
                          std::int64_t max);

/// One of `choices`, exactly. @throws InputError naming `source` and the nearest choices.
std::string parseChoice(std::string_view text, const std::string& source,
                        const std::vector<std::string>& choices);

/// Text that is not empty (a file name). @throws InputError naming `source`.
std::string parseText(std::string_view text, const std::string& source, const char* expected);

/// A switch: 1, true, yes or on; 0, false, no or off. @throws InputError naming `source`.
bool parseSwitch(std::string_view text, const std::string& source);

}  // namespace hopsim::apps
