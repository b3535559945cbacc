#pragma once
// The quantization shared by the encoder models: a reading x becomes counts = floor(x / lsb)
// and the quantized value counts * lsb (the truncation of a counting encoder); lsb = 0 is an
// ideal encoder, whose value is x and whose counts stay 0.

#include <cmath>
#include <cstdint>

namespace hopsim::models::detail {

struct Quantized {
  double value;
  std::int64_t counts;
};

inline Quantized quantize(double x, double lsb) {
  if (lsb <= 0.0) return {x, 0};
  const double counts = std::floor(x / lsb);
  return {counts * lsb, static_cast<std::int64_t>(counts)};
}

}  // namespace hopsim::models::detail
