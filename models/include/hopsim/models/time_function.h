#pragma once
/// @file
/// TimeFunction: a function of time with analytic first and second derivatives, as Chrono's
/// YAML `ChFunction`s (CONSTANT, POLYNOMIAL, SINE, RAMP, DATA, CONTROLLER, with `repeat`).

#include <span>
#include <string_view>
#include <vector>

namespace hopsim::models {

/// y(t), y'(t) and y''(t) of one of Chrono's YAML function types (seed chrono-yaml-semantics
/// A12), built from the type name (case-insensitive) and a flat coefficient list:
///
/// | type | coefficients | y(t) | y'(t) |
/// |---|---|---|---|
/// | CONSTANT | [c] | c | 0 |
/// | POLYNOMIAL | [a0, a1, ...] (at least 1) | Σ aᵢ tⁱ | Σ i aᵢ tⁱ⁻¹ |
/// | SINE | [A, f (Hz), φ (rad), shift] | A sin(2π f t + φ) + shift | 2π f A cos(...) |
/// | RAMP | [slope, intercept] | intercept + slope t | slope |
/// | DATA | [t0, y0, t1, y1, ...] | linear interpolation, clamped | slope of the segment |
/// | CONTROLLER | [] | the setpoint given to the evaluation | the setpoint's rate |
///
/// DATA needs at least one point and strictly increasing times; outside [t0, tn] the value is
/// clamped and at or beyond the end points the slope is 0; at an interior point the slope is
/// that of the segment starting there (right-continuous).
///
/// y'' is analytic (0 for CONSTANT, RAMP, DATA and CONTROLLER). A CONTROLLER's value comes from
/// outside: the caller keeps the last setpoint and its rate (a backward difference between the
/// last two setpoint updates at distinct times, see Setpoint::update) and passes them to each
/// evaluation; its second derivative is 0.
///
/// `repeat` is empty or [start, width, shift] (width > 0): y(t) = f(start + fmod(t + shift,
/// width)) with C fmod, so a negative t + shift maps below start, as in Chrono. Derivatives
/// follow by the chain rule (dτ/dt = 1 between the wraps): f'(τ) and f''(τ). Chrono computes the
/// derivatives of a repeated function by a forward difference of step 1e-7 instead, which
/// differs from f'(τ) by O(1e-7 f'') and gives a spike of order (jump / 1e-7) just before each
/// wrap; the analytic value is the deliberate deviation. A CONTROLLER ignores `repeat`, as
/// Chrono does.
///
/// Bad input (an unknown type, a wrong coefficient count, a non-finite value, a DATA time not
/// greater than the previous one, a repeat width <= 0) throws InputError naming the type, the
/// index, the value and what was expected. Evaluation does not allocate.
class TimeFunction {
 public:
  enum class Type { Constant, Polynomial, Sine, Ramp, Data, Controller };

  /// The value and the first two time derivatives at one time.
  struct Sample {
    double value = 0.0;
    double rate = 0.0;          ///< dy/dt
    double acceleration = 0.0;  ///< d²y/dt²
  };

  /// The externally supplied state of a CONTROLLER function: the current setpoint and the
  /// backward-difference rate of its last two updates at distinct times.
  struct Setpoint {
    double value = 0.0;  ///< 0 until the first update, as Chrono's ChFunctionSetpoint
    double rate = 0.0;   ///< 0 until two updates at distinct times
    double time = 0.0;   ///< time of the last update (meaningless while updates == 0)
    int updates = 0;     ///< saturates at 2: only "none", "one" and "several" matter

    /// Records setpoint y at time t. A later t sets rate = (y - value) / (t - time); an update
    /// at the same time replaces the value and keeps the rate (Chrono's SetSetpoint), and an
    /// earlier t is ignored. Unlike Chrono, which differences the first update against a
    /// virtual (0, 0), the rate stays 0 until there are two updates.
    void update(double t, double y);
  };

  /// CONSTANT 0.
  TimeFunction() = default;
  /// @throws InputError for an unknown type, bad coefficients or a bad repeat.
  TimeFunction(std::string_view type, std::span<const double> coefficients,
               std::span<const double> repeat = {});

  /// The type named by `name`, case-insensitive. @throws InputError listing the types.
  static Type parseType(std::string_view name);
  /// "CONSTANT", "POLYNOMIAL", ...
  static const char* toString(Type type);

  Type type() const { return type_; }
  bool isController() const { return type_ == Type::Controller; }

  /// y, y' and y'' at t; a CONTROLLER returns the setpoint's value and rate. No allocation.
  Sample operator()(double t, const Setpoint& setpoint) const;
  /// The same with no setpoint (a CONTROLLER returns 0).
  Sample operator()(double t) const { return (*this)(t, Setpoint()); }

 private:
  Sample evaluate(double t) const;

  Type type_ = Type::Constant;
  std::vector<double> a_{0.0};  // coefficients; for DATA the values y
  std::vector<double> times_;   // DATA only
  bool repeated_ = false;
  double start_ = 0.0, width_ = 0.0, shift_ = 0.0;
};

/// The function of a model's `function`, `coefficients` and `repeat` params. The framework
/// gives vector params at least one element, so the params encode "none" as: coefficients
/// ignored for a CONTROLLER (any value, [0] by convention), and repeat = [0, 0, 0] (its default)
/// for no repeat; any other repeat goes to TimeFunction, which refuses a width <= 0.
/// @throws InputError as TimeFunction's constructor.
TimeFunction functionFromParams(std::string_view type, std::span<const double> coefficients,
                                std::span<const double> repeat);

}  // namespace hopsim::models
