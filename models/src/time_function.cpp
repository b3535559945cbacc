#include "hopsim/models/time_function.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "ascii_case.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {

namespace {

constexpr TimeFunction::Type kTypes[] = {
    TimeFunction::Type::Constant, TimeFunction::Type::Polynomial, TimeFunction::Type::Sine,
    TimeFunction::Type::Ramp,     TimeFunction::Type::Data,       TimeFunction::Type::Controller};

/// Every value finite; `what` names the list in the message ("coefficient[2] = inf").
void checkFinite(const char* type, std::span<const double> values, const char* what) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw InputError(std::string(type) + ": " + what + "[" + std::to_string(i) +
                       "] = " + formatNumber(values[i]) + " is not finite");
    }
  }
}

void checkCount(const char* type, std::span<const double> coefficients, std::size_t expected,
                const char* layout) {
  if (coefficients.size() != expected) {
    throw InputError(std::string(type) + ": expected " + std::to_string(expected) +
                     (expected == 1 ? " coefficient " : " coefficients ") + layout + ", got " +
                     std::to_string(coefficients.size()));
  }
}

}  // namespace

void TimeFunction::Setpoint::update(double t, double y) {
  if (updates > 0 && t < time) return;
  if (updates == 0 || t > time) {
    if (updates > 0) rate = (y - value) / (t - time);
    updates = std::min(updates + 1, 2);
  }
  value = y;
  time = t;
}

TimeFunction::Type TimeFunction::parseType(std::string_view name) {
  for (Type type : kTypes) {
    if (equalsIgnoringCase(name, toString(type))) return type;
  }
  throw InputError("function type '" + std::string(name) +
                   "' is unknown (expected CONSTANT, POLYNOMIAL, SINE, RAMP, DATA or CONTROLLER)");
}

const char* TimeFunction::toString(Type type) {
  switch (type) {
    case Type::Constant:
      return "CONSTANT";
    case Type::Polynomial:
      return "POLYNOMIAL";
    case Type::Sine:
      return "SINE";
    case Type::Ramp:
      return "RAMP";
    case Type::Data:
      return "DATA";
    case Type::Controller:
      return "CONTROLLER";
  }
  return "?";
}

TimeFunction::TimeFunction(std::string_view typeName, std::span<const double> coefficients,
                           std::span<const double> repeat)
    : type_(parseType(typeName)) {
  const char* type = toString(type_);
  checkFinite(type, coefficients, "coefficient");
  switch (type_) {
    case Type::Constant:
      checkCount(type, coefficients, 1, "[value]");
      break;
    case Type::Polynomial:
      if (coefficients.empty()) {
        throw InputError("POLYNOMIAL: expected at least 1 coefficient [a0, a1, ...], got 0");
      }
      break;
    case Type::Sine:
      checkCount(type, coefficients, 4, "[amplitude, frequency (Hz), phase (rad), shift]");
      break;
    case Type::Ramp:
      checkCount(type, coefficients, 2, "[slope, intercept]");
      break;
    case Type::Data:
      if (coefficients.empty() || coefficients.size() % 2 != 0) {
        throw InputError(
            "DATA: expected pairs [t0, y0, t1, y1, ...] with at least one point, "
            "got " +
            std::to_string(coefficients.size()) + " coefficients");
      }
      for (std::size_t i = 0; i < coefficients.size(); i += 2) {
        const std::size_t k = i / 2;
        if (k > 0 && !(coefficients[i] > times_.back())) {
          throw InputError("DATA: t[" + std::to_string(k) + "] = " + formatNumber(coefficients[i]) +
                           " is not greater than t[" + std::to_string(k - 1) + "] = " +
                           formatNumber(times_.back()) + " (times must be strictly increasing)");
        }
        times_.push_back(coefficients[i]);
      }
      break;
    case Type::Controller:
      checkCount(type, coefficients, 0, "(a CONTROLLER takes its value from its setpoint)");
      break;
  }
  if (type_ == Type::Data) {
    a_.clear();
    for (std::size_t i = 1; i < coefficients.size(); i += 2) a_.push_back(coefficients[i]);
  } else {
    a_.assign(coefficients.begin(), coefficients.end());
  }
  if (repeat.empty()) return;
  const std::string what = std::string(type) + " repeat";
  if (repeat.size() != 3) {
    throw InputError(what + ": expected [start, width, shift] (3 values) or none, got " +
                     std::to_string(repeat.size()) + " values");
  }
  checkFinite(what.c_str(), repeat, "repeat");
  if (!(repeat[1] > 0.0)) {
    throw InputError(what + ": width = repeat[1] = " + formatNumber(repeat[1]) +
                     " is not positive (expected [start, width, shift] with width > 0)");
  }
  repeated_ = type_ != Type::Controller;
  start_ = repeat[0];
  width_ = repeat[1];
  shift_ = repeat[2];
}

TimeFunction::Sample TimeFunction::operator()(double t, const Setpoint& setpoint) const {
  if (type_ == Type::Controller) return {setpoint.value, setpoint.rate, 0.0};
  // dτ/dt = 1 between the wraps, so the derivatives of f(τ) are f'(τ) and f''(τ).
  return evaluate(repeated_ ? start_ + std::fmod(t + shift_, width_) : t);
}

TimeFunction::Sample TimeFunction::evaluate(double t) const {
  switch (type_) {
    case Type::Constant:
      return {a_[0], 0.0, 0.0};
    case Type::Polynomial: {
      // Horner for the value and both derivatives at once.
      double y = 0.0, dy = 0.0, ddy = 0.0;
      for (auto a = a_.rbegin(); a != a_.rend(); ++a) {
        ddy = ddy * t + 2.0 * dy;
        dy = dy * t + y;
        y = y * t + *a;
      }
      return {y, dy, ddy};
    }
    case Type::Sine: {
      const double w = 2.0 * std::numbers::pi * a_[1];
      const double phase = w * t + a_[2];
      return {a_[0] * std::sin(phase) + a_[3], a_[0] * w * std::cos(phase),
              -a_[0] * w * w * std::sin(phase)};
    }
    case Type::Ramp:
      return {a_[1] + a_[0] * t, a_[0], 0.0};
    case Type::Data: {
      if (t <= times_.front()) return {a_.front(), 0.0, 0.0};
      if (t >= times_.back()) return {a_.back(), 0.0, 0.0};
      // The segment [t_k, t_k+1) holding t: right-continuous at the interior points.
      const auto k = static_cast<std::size_t>(std::upper_bound(times_.begin(), times_.end(), t) -
                                              times_.begin() - 1);
      const double slope = (a_[k + 1] - a_[k]) / (times_[k + 1] - times_[k]);
      return {a_[k] + slope * (t - times_[k]), slope, 0.0};
    }
    case Type::Controller:
      break;  // handled by operator()
  }
  return {};
}

TimeFunction functionFromParams(std::string_view type, std::span<const double> coefficients,
                                std::span<const double> repeat) {
  const bool controller = TimeFunction::parseType(type) == TimeFunction::Type::Controller;
  const bool noRepeat =
      std::all_of(repeat.begin(), repeat.end(), [](double x) { return x == 0.0; });
  return TimeFunction(type, controller ? std::span<const double>() : coefficients,
                      noRepeat ? std::span<const double>() : repeat);
}

}  // namespace hopsim::models
