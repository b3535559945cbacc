// TimeFunction against the formulas of chrono-yaml-semantics A12, its derivatives against the
// analytic formulas and against central finite differences, repeat against
// f(start + fmod(t + shift, width)), the CONTROLLER setpoint's backward difference, and every
// error path with its message.
//
// Tolerances: the formulas are evaluated the same way up to the order of floating-point
// operations, so values agree to a few ulps (1e-13 relative to the magnitudes here, which are
// O(1..100)). The central difference (f(t+h) - f(t-h)) / 2h with h = 1e-5 has truncation
// error h² |f'''| / 6 <= 1e-10 * |f'''| (|f'''| <= 300 for the functions here, so 5e-8) and
// rounding error ~ 1e-16 |f| / h ~ 1e-9: tolerance 2e-7 for f' and, for f'' from differences of
// f', the same.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/models/time_function.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using models::functionFromParams;
using models::TimeFunction;

constexpr double kPi = std::numbers::pi;

TimeFunction make(const char* type, std::vector<double> c, std::vector<double> repeat = {}) {
  return TimeFunction(type, c, repeat);
}

/// f' and f'' against central differences of f and f' at t.
void checkDifferences(const TimeFunction& f, double t) {
  const double h = 1e-5;
  CAPTURE(t);
  CHECK(f(t).rate == doctest::Approx((f(t + h).value - f(t - h).value) / (2 * h)).epsilon(2e-7));
  CHECK(f(t).acceleration ==
        doctest::Approx((f(t + h).rate - f(t - h).rate) / (2 * h)).epsilon(2e-7));
}

std::string messageOf(const char* type, std::vector<double> c, std::vector<double> repeat = {}) {
  try {
    make(type, std::move(c), std::move(repeat));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("TimeFunction: CONSTANT, RAMP and POLYNOMIAL follow their formulas") {
  const TimeFunction c = make("CONSTANT", {2.5});
  for (double t : {-1.0, 0.0, 3.7}) {
    CHECK(c(t).value == 2.5);
    CHECK(c(t).rate == 0.0);
    CHECK(c(t).acceleration == 0.0);
  }
  const TimeFunction r = make("ramp", {-0.5, 3.0});  // slope, intercept; lower case accepted
  CHECK(r.type() == TimeFunction::Type::Ramp);
  for (double t : {-2.0, 0.0, 1.25, 10.0}) {
    CHECK(r(t).value == doctest::Approx(3.0 - 0.5 * t).epsilon(1e-14));
    CHECK(r(t).rate == -0.5);
    CHECK(r(t).acceleration == 0.0);
  }
  // y = 1 - 2t + 0.5t² + 0.25t³.
  const TimeFunction p = make("Polynomial", {1.0, -2.0, 0.5, 0.25});
  for (double t : {-1.5, 0.0, 0.3, 2.0}) {
    CAPTURE(t);
    CHECK(p(t).value == doctest::Approx(1 - 2 * t + 0.5 * t * t + 0.25 * t * t * t).epsilon(1e-13));
    CHECK(p(t).rate == doctest::Approx(-2 + t + 0.75 * t * t).epsilon(1e-13));
    CHECK(p(t).acceleration == doctest::Approx(1 + 1.5 * t).epsilon(1e-13));
    checkDifferences(p, t);
  }
  const TimeFunction p0 = make("POLYNOMIAL", {4.0});
  CHECK(p0(3.0).value == 4.0);
  CHECK(p0(3.0).rate == 0.0);
}

TEST_CASE("TimeFunction: SINE is A sin(2 pi f t + phase) + shift") {
  const double A = 1.5, f = 0.7, phase = 0.3, shift = -0.2, w = 2 * kPi * f;
  const TimeFunction s = make("SINE", {A, f, phase, shift});
  for (double t : {0.0, 0.1, 0.77, 2.5, -0.4}) {
    CAPTURE(t);
    CHECK(s(t).value == doctest::Approx(A * std::sin(w * t + phase) + shift).epsilon(1e-13));
    CHECK(s(t).rate == doctest::Approx(A * w * std::cos(w * t + phase)).epsilon(1e-13));
    CHECK(s(t).acceleration ==
          doctest::Approx(-A * w * w * std::sin(w * t + phase)).epsilon(1e-13));
    checkDifferences(s, t);
  }
}

TEST_CASE("TimeFunction: DATA interpolates, clamps, and has right-continuous slopes") {
  // Points (0, 1), (1, 3), (3, -1): slopes 2 and -2.
  const TimeFunction d = make("DATA", {0, 1, 1, 3, 3, -1});
  CHECK(d(0.25).value == doctest::Approx(1.5).epsilon(1e-15));
  CHECK(d(0.25).rate == 2.0);
  CHECK(d(2.0).value == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(d(2.0).rate == -2.0);
  // Right-continuous at the interior point: the slope of the segment that starts there.
  CHECK(d(1.0).value == 3.0);
  CHECK(d(1.0).rate == -2.0);
  CHECK(d(std::nextafter(1.0, 0.0)).rate == 2.0);
  // Clamped outside, and the slope is 0 at and beyond the end points.
  for (double t : {-5.0, 0.0}) {
    CHECK(d(t).value == 1.0);
    CHECK(d(t).rate == 0.0);
  }
  for (double t : {3.0, 7.0}) {
    CHECK(d(t).value == -1.0);
    CHECK(d(t).rate == 0.0);
  }
  for (double t : {-1.0, 0.5, 2.0, 4.0}) CHECK(d(t).acceleration == 0.0);
  const TimeFunction one = make("DATA", {2.0, 5.0});
  for (double t : {0.0, 2.0, 9.0}) {
    CHECK(one(t).value == 5.0);
    CHECK(one(t).rate == 0.0);
  }
}

TEST_CASE("TimeFunction: repeat is f(start + fmod(t + shift, width)) with analytic derivatives") {
  const double start = 0.5, width = 2.0, shift = 0.3;
  const TimeFunction base = make("POLYNOMIAL", {1.0, -1.0, 2.0});
  const TimeFunction rep = make("POLYNOMIAL", {1.0, -1.0, 2.0}, {start, width, shift});
  for (double t : {0.0, 0.4, 1.69, 1.71, 3.0, 7.9, -0.2, -1.0}) {
    CAPTURE(t);
    const double tau = start + std::fmod(t + shift, width);  // C fmod: negative for t + shift < 0
    CHECK(rep(t).value == doctest::Approx(1 - tau + 2 * tau * tau).epsilon(1e-13));
    CHECK(rep(t).rate == doctest::Approx(-1 + 4 * tau).epsilon(1e-13));
    CHECK(rep(t).acceleration == 4.0);
    CHECK(rep(t).value == base(tau).value);
  }
  // Away from the wraps (t + shift a multiple of width) the derivatives are differences.
  for (double t : {0.2, 1.0, 2.5, 5.0}) checkDifferences(rep, t);
  // Periodic with the width.
  CHECK(rep(0.37).value == doctest::Approx(rep(0.37 + 3 * width).value).epsilon(1e-12));
  const TimeFunction sine = make("SINE", {2.0, 0.25, 0.0, 1.0}, {-1.0, 1.5, 0.0});
  CHECK(sine(2.0).value ==
        doctest::Approx(2.0 * std::sin(2 * kPi * 0.25 * (-1.0 + 0.5)) + 1.0).epsilon(1e-13));
  // A CONTROLLER ignores repeat, as Chrono does.
  const TimeFunction controller = make("CONTROLLER", {}, {0.0, 1.0, 0.0});
  CHECK(controller(5.5, {.value = 3.0, .rate = 1.0}).value == 3.0);
}

TEST_CASE("TimeFunction: CONTROLLER returns its setpoint, the rate is a backward difference") {
  const TimeFunction c = make("controller", {});
  CHECK(c.isController());
  TimeFunction::Setpoint s;
  CHECK(c(1.0, s).value == 0.0);  // 0 until set
  s.update(0.0, 2.0);
  CHECK(c(0.3, s).value == 2.0);
  CHECK(c(0.3, s).rate == 0.0);  // one update: no difference yet
  s.update(0.5, 3.0);
  CHECK(c(0.7, s).value == 3.0);
  CHECK(c(0.7, s).rate == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(c(0.7, s).acceleration == 0.0);
  // Same time: the value is replaced, the rate kept (Chrono's SetSetpoint).
  s.update(0.5, 4.0);
  CHECK(s.value == 4.0);
  CHECK(s.rate == doctest::Approx(2.0).epsilon(1e-15));
  // The next difference starts from the replaced value; an earlier time is ignored.
  s.update(1.0, 3.0);
  CHECK(s.rate == doctest::Approx(-2.0).epsilon(1e-15));
  s.update(0.9, 100.0);
  CHECK(s.value == 3.0);
  CHECK(s.time == 1.0);
}

TEST_CASE("TimeFunction: every bad input is an InputError naming type, index, value, expectation") {
  CHECK(messageOf("SQUARE", {1}) ==
        "function type 'SQUARE' is unknown (expected CONSTANT, POLYNOMIAL, SINE, RAMP, DATA "
        "or CONTROLLER)");
  CHECK(messageOf("CONSTANT", {}) == "CONSTANT: expected 1 coefficient [value], got 0");
  CHECK(messageOf("CONSTANT", {1, 2}) == "CONSTANT: expected 1 coefficient [value], got 2");
  CHECK(messageOf("POLYNOMIAL", {}) ==
        "POLYNOMIAL: expected at least 1 coefficient [a0, a1, ...], got 0");
  CHECK(messageOf("SINE", {1, 2, 3}) ==
        "SINE: expected 4 coefficients [amplitude, frequency (Hz), phase (rad), shift], got 3");
  CHECK(messageOf("RAMP", {1}) == "RAMP: expected 2 coefficients [slope, intercept], got 1");
  CHECK(messageOf("DATA", {}) ==
        "DATA: expected pairs [t0, y0, t1, y1, ...] with at least one point, got 0 coefficients");
  CHECK(messageOf("DATA", {0, 1, 2}) ==
        "DATA: expected pairs [t0, y0, t1, y1, ...] with at least one point, got 3 coefficients");
  CHECK(messageOf("DATA", {0, 0, 1, 1, 2, 0, 2, 5}) ==
        "DATA: t[3] = 2 is not greater than t[2] = 2 (times must be strictly increasing)");
  CHECK(messageOf("DATA", {0, 0, -0.5, 1}) ==
        "DATA: t[1] = -0.5 is not greater than t[0] = 0 (times must be strictly increasing)");
  CHECK(messageOf("POLYNOMIAL", {1, NAN}) == "POLYNOMIAL: coefficient[1] = nan is not finite");
  CHECK(messageOf("SINE", {1, INFINITY, 0, 0}) == "SINE: coefficient[1] = inf is not finite");
  CHECK(messageOf("CONTROLLER", {1}) ==
        "CONTROLLER: expected 0 coefficients (a CONTROLLER takes its value from its setpoint), "
        "got 1");
  CHECK(messageOf("RAMP", {1, 0}, {0, 1}) ==
        "RAMP repeat: expected [start, width, shift] (3 values) or none, got 2 values");
  CHECK(messageOf("RAMP", {1, 0}, {0, 0, 0}) ==
        "RAMP repeat: width = repeat[1] = 0 is not positive (expected [start, width, shift] "
        "with width > 0)");
  CHECK(messageOf("RAMP", {1, 0}, {0, -2, 0}) ==
        "RAMP repeat: width = repeat[1] = -2 is not positive (expected [start, width, shift] "
        "with width > 0)");
  CHECK(messageOf("RAMP", {1, 0}, {NAN, 1, 0}) == "RAMP repeat: repeat[0] = nan is not finite");
  CHECK_THROWS_AS(TimeFunction::parseType("sin"), InputError);
}

TEST_CASE("functionFromParams: [0, 0, 0] is no repeat, a CONTROLLER ignores its coefficients") {
  const std::vector<double> none{0, 0, 0}, c{1.0, 2.0};
  const TimeFunction ramp = functionFromParams("RAMP", c, none);
  CHECK(ramp(10.0).value == 12.0);  // 2 + 1 * 10: no wrap
  const std::vector<double> repeat{0, 1, 0};
  CHECK(functionFromParams("RAMP", c, repeat)(10.25).value == doctest::Approx(2.25));
  const std::vector<double> zero{0.0};
  CHECK(functionFromParams("CONTROLLER", zero, none).isController());
  const std::vector<double> badWidth{1, 0, 0};  // not all zero: refused by TimeFunction
  CHECK_THROWS_AS(functionFromParams("RAMP", c, badWidth), InputError);
}

}  // namespace hopsim
