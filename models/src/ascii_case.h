#pragma once
// Case-insensitive comparison of the enum names the Chrono models take ("rotation", "FORCE"),
// as Chrono's parser compares them.

#include <algorithm>
#include <cctype>
#include <string_view>

namespace hopsim::models {

inline bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) ==
                  std::toupper(static_cast<unsigned char>(y));
         });
}

}  // namespace hopsim::models
