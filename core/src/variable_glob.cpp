#include "variable_glob.h"

namespace hopsim {

bool globMatch(std::string_view pattern, std::string_view path) {
  if (pattern.empty()) return path.empty();
  if (pattern.starts_with("**")) {
    for (std::size_t i = 0; i <= path.size(); ++i) {
      if (globMatch(pattern.substr(2), path.substr(i))) return true;
    }
    return false;
  }
  if (pattern.front() == '*') {
    for (std::size_t i = 0; i <= path.size(); ++i) {
      if (globMatch(pattern.substr(1), path.substr(i))) return true;
      if (i < path.size() && path[i] == '.') break;
    }
    return false;
  }
  return !path.empty() && pattern.front() == path.front() &&
         globMatch(pattern.substr(1), path.substr(1));
}

}  // namespace hopsim
