#include "linearize_differences.h"

#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim {

namespace {

/// Richardson extrapolation of `base` (order n) with ratio α: (αⁿ D(h/α) - D(h)) / (αⁿ - 1),
/// itself a stencil, of order `order`.
Stencil richardson(const Stencil& base, double alpha, int order) {
  const double an = std::pow(alpha, base.order);
  Stencil s{{}, order};
  for (const auto& [o, w] : base.points)
    s.points.emplace_back(o / alpha, an * alpha * w / (an - 1));
  for (const auto& [o, w] : base.points) s.points.emplace_back(o, -w / (an - 1));
  return s;
}

}  // namespace

std::string_view toString(DifferenceScheme scheme) {
  switch (scheme) {
    case DifferenceScheme::Forward:
      return "forward";
    case DifferenceScheme::Central2:
      return "central2";
    case DifferenceScheme::Central4:
      return "central4";
    case DifferenceScheme::Richardson:
      return "richardson";
  }
  return "?";
}

DifferenceScheme differenceSchemeFromString(std::string_view name) {
  for (DifferenceScheme s : {DifferenceScheme::Forward, DifferenceScheme::Central2,
                             DifferenceScheme::Central4, DifferenceScheme::Richardson}) {
    if (toString(s) == name) return s;
  }
  throw InputError("linearize: unknown difference scheme '" + std::string(name) +
                   "'; expected forward, central2, central4 or richardson");
}

const Stencil& stencilOf(DifferenceScheme scheme) {
  static const Stencil forward{{{0.0, -1.0}, {1.0, 1.0}}, 1};
  static const Stencil central2{{{-1.0, -0.5}, {1.0, 0.5}}, 2};
  static const Stencil central4{
      {{-2.0, 1.0 / 12}, {-1.0, -8.0 / 12}, {1.0, 8.0 / 12}, {2.0, -1.0 / 12}}, 4};
  // The central difference's error series holds even powers only: one extrapolation gains two.
  static const Stencil extrapolated = richardson(central2, 2.0, 4);
  switch (scheme) {
    case DifferenceScheme::Forward:
      return forward;
    case DifferenceScheme::Central2:
      return central2;
    case DifferenceScheme::Central4:
      return central4;
    case DifferenceScheme::Richardson:
      return extrapolated;
  }
  return central2;
}

double baseStep(const LinearizationOptions& options) {
  if (!(std::isfinite(options.relativeStep) && options.relativeStep >= 0.0)) {
    throw InputError("linearize: relativeStep " + formatNumber(options.relativeStep) +
                     " must be finite and at least 0");
  }
  if (options.relativeStep > 0.0 && options.scheme == DifferenceScheme::Richardson) {
    throw InputError(
        "linearize: relativeStep " + formatNumber(options.relativeStep) +
        " cannot be used with the richardson scheme, whose two steps must keep their ratio; "
        "choose forward, central2 or central4, or relativeStep 0");
  }
  if (options.step != 0.0) {
    if (!(std::isfinite(options.step) && options.step > 0.0)) {
      throw InputError("linearize: step " + formatNumber(options.step) +
                       " must be finite and positive (0: set by relativeError)");
    }
    return options.step;
  }
  if (!(std::isfinite(options.relativeError) && options.relativeError > 0.0 &&
        options.relativeError < 1.0)) {
    throw InputError("linearize: relativeError " + formatNumber(options.relativeError) +
                     " must be between 0 and 1");
  }
  const double n = stencilOf(options.scheme).order;
  // Truncation c hⁿ meets the target at h = relativeError^(1/n); below ε^(1/(n+1)) round-off
  // ε/h grows past the truncation error (the seed's minimum steps).
  const double floor = std::pow(std::numeric_limits<double>::epsilon(), 1.0 / (n + 1.0));
  return std::max(std::pow(options.relativeError, 1.0 / n), floor);
}

double columnStep(const LinearizationOptions& options, double h, double value) {
  return std::exp2(std::round(std::log2(h * (1.0 + options.relativeStep * std::abs(value)))));
}

double differenceColumn(const Stencil& stencil, double h, const Eigen::VectorXd& f0,
                        const PerturbedEvaluation& evaluate, Eigen::Ref<Eigen::VectorXd> column) {
  // f at every offset D(h) and D(2h) need, each evaluated once.
  std::map<double, Eigen::VectorXd> f;
  const auto at = [&](double offset) -> const Eigen::VectorXd& {
    if (offset == 0.0) return f0;
    auto [it, inserted] = f.try_emplace(offset);
    if (inserted) evaluate(offset, it->second);
    return it->second;
  };
  // The weights sum to zero: differences from f₀, which are small, keep the round-off of the
  // large terms out (a linear f then gives its slope exactly).
  const auto derivative = [&](double step, Eigen::Ref<Eigen::VectorXd> into) {
    into.setZero();
    for (const auto& [o, w] : stencil.points) {
      if (o != 0.0) into += (w / step) * (at(o * step) - f0);
    }
  };
  derivative(h, column);
  Eigen::VectorXd coarse(column.size());
  derivative(2.0 * h, coarse);
  if (column.size() == 0) return 0.0;
  return (column - coarse).cwiseAbs().maxCoeff() / (std::pow(2.0, stencil.order) - 1.0);
}

}  // namespace hopsim
