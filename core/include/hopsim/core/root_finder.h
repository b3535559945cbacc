#pragma once
/// @file
/// Bracketing root finders for zero-crossing localization.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace hopsim {

/// How a bracketed crossing is narrowed.
enum class RootFinder : std::uint8_t {
  /// Modified regula falsi of the Illinois family (Anderson-Bjorck scaling, Illinois' halving
  /// as its fallback), with Brent-style tolerance steps: superlinear on smooth residuals, never
  /// leaves the bracket. The default.
  Illinois,
  /// Halves the bracket every evaluation: the seed's CallbackFindTargetBisection, kept for
  /// residuals that are not smooth.
  Bisection,
};
/// "illinois", "bisection".
const char* toString(RootFinder method);

/// A time interval known to contain a crossing: g(a) is on the starting side (non-zero), g(b)
/// has crossed (opposite sign, or exactly zero).
struct Bracket {
  double a;
  double ga;
  double b;
  double gb;
  /// Residual evaluations spent narrowing it.
  int evaluations = 0;
};

/// Narrows `bracket` until b - a <= timeTolerance (or two ulps of b, whichever is larger),
/// |g(b)| <= valueTolerance, or g(b) == 0. The result keeps b on the crossed side, so the state
/// at b has crossed: firing there never leaves the crossing still ahead.
/// @param g the residual, double(double t).
template <class Residual>
Bracket narrowBracket(Residual&& g, Bracket bracket, double timeTolerance, double valueTolerance,
                      RootFinder method) {
  const bool startPositive = bracket.ga > 0.0;
  const auto crossed = [&](double value) { return value == 0.0 || (value > 0.0) != startPositive; };
  int retained = 0;  // >0: b kept that many times in a row; <0: a kept
  // 200 evaluations halve any double interval to nothing; reaching it means a NaN residual.
  for (int guard = 0; guard < 200; ++guard) {
    const double width = bracket.b - bracket.a;
    const double resolution = 2.0 * std::numeric_limits<double>::epsilon() * std::fabs(bracket.b);
    if (width <= timeTolerance || width <= resolution || bracket.gb == 0.0 ||
        std::fabs(bracket.gb) <= valueTolerance) {
      break;
    }
    double c = 0.5 * (bracket.a + bracket.b);
    if (method == RootFinder::Illinois) {
      const double secant = bracket.b - bracket.gb * width / (bracket.gb - bracket.ga);
      if (std::isfinite(secant)) c = std::clamp(secant, bracket.a, bracket.b);
      // Regula falsi closes in on the root from one side while the other end stays put; a
      // point within half a tolerance of an end is moved to exactly half a tolerance inside,
      // so it lands across the root and closes the bracket (as Brent's method does).
      const double nudge = 0.5 * timeTolerance;
      if (width > 2.0 * nudge) c = std::clamp(c, bracket.a + nudge, bracket.b - nudge);
    }
    const double gc = g(c);
    ++bracket.evaluations;
    if (std::isnan(gc)) break;
    // When the same end survives twice in a row, its value is scaled down so the next secant
    // moves it: by Anderson and Bjorck's m = 1 - g(c)/g(replaced end), or Illinois' 1/2
    // when m is not positive.
    const auto scale = [&](double replaced) {
      const double m = 1.0 - gc / replaced;
      return m > 0.0 ? m : 0.5;
    };
    if (crossed(gc)) {
      retained = retained < 0 ? retained - 1 : -1;
      if (retained <= -2 && method == RootFinder::Illinois) bracket.ga *= scale(bracket.gb);
      bracket.b = c;
      bracket.gb = gc;
    } else {
      retained = retained > 0 ? retained + 1 : 1;
      if (retained >= 2 && method == RootFinder::Illinois) bracket.gb *= scale(bracket.ga);
      bracket.a = c;
      bracket.ga = gc;
    }
  }
  return bracket;
}

}  // namespace hopsim
