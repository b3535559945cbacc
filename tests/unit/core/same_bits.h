#pragma once
// Bit-for-bit comparison for the tests of determinism, checkpoints and snapshots: `==` would
// take 0.0 for -0.0 and never a NaN for itself.

#include <Eigen/Core>
#include <cstring>
#include <vector>

#include "hopsim/signals/value.h"

namespace hopsim::test {

inline bool sameBits(const double* a, std::size_t aSize, const double* b, std::size_t bSize) {
  return aSize == bSize && (aSize == 0 || std::memcmp(a, b, sizeof(double) * aSize) == 0);
}

inline bool sameBits(double a, double b) { return sameBits(&a, 1, &b, 1); }

inline bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return sameBits(a.data(), a.size(), b.data(), b.size());
}

inline bool sameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return sameBits(a.data(), static_cast<std::size_t>(a.size()), b.data(),
                  static_cast<std::size_t>(b.size()));
}

/// Doubles and vectors of them bit for bit, every other alternative by ==.
inline bool sameBits(const Value& a, const Value& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<double>(&a)) return sameBits(*x, std::get<double>(b));
  if (const auto* x = std::get_if<std::vector<double>>(&a)) {
    return sameBits(*x, std::get<std::vector<double>>(b));
  }
  return a == b;
}

}  // namespace hopsim::test
