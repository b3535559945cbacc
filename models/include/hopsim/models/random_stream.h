#pragma once
/// @file
/// RandomStream: a seeded, platform-independent random stream whose whole state is one
/// integer, so a model keeps it in an int discrete state and rollback and checkpoints
/// reproduce its samples.

#include <cstdint>

namespace hopsim::models {

/// SplitMix64 (Steele, Lea and Flood 2014; Vigna's reference splitmix64.c) over a state held
/// by the caller: each draw adds the golden-ratio increment to the 64-bit state and returns a
/// mixed copy of it. The generator keeps no other data, so
///   - a model stores the state in a `discreteState<std::int64_t>` (the bit pattern of the
///     unsigned state) and wraps it in a RandomStream for each draw: saving and restoring the
///     discrete states (rollback, checkpoints) rewinds the stream exactly;
///   - the same seed gives the same bits on every platform (integer arithmetic only).
/// normal() uses Marsaglia's polar method with a logarithm written here in +, -, *, / and
/// std::frexp (portableLog), and std::sqrt, which IEEE 754 rounds correctly: no libm
/// transcendental function whose last bit differs between C libraries, and no
/// std::normal_distribution, whose algorithm is implementation-defined.
class RandomStream {
 public:
  /// The stream over `state`, which each draw advances in place.
  explicit RandomStream(std::int64_t& state) : state_(state) {}

  /// The state a stream seeded with `seed` starts from (the seed itself, as SplitMix64
  /// defines it; the output mixing decorrelates neighbouring seeds).
  static std::int64_t initialState(std::int64_t seed) { return seed; }

  /// The next 64 uniformly distributed bits.
  std::uint64_t nextBits();
  /// Uniform on the open interval (0, 1): the top 53 bits, offset by half a unit, so neither
  /// 0 nor 1 is ever returned.
  double uniform();
  /// A standard normal sample (mean 0, variance 1), Marsaglia's polar method. Each call draws
  /// two uniforms per trial (on average 1.27 trials) and returns one of the pair, so the
  /// stream's position depends on the draws only, never on a cached second value.
  double normal();

 private:
  std::int64_t& state_;
};

/// The natural logarithm of a positive finite x, to about 2 ulp, from an exact binary
/// decomposition (std::frexp) and a fixed series: the same bits on every IEEE 754 platform.
double portableLog(double x);

}  // namespace hopsim::models
