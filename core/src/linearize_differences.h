#pragma once
// Private to core/src: the finite-difference schemes of linearization (docs/linearization.md,
// "Differences") — a scheme as a stencil, its step, and one Jacobian column with its error
// estimate.

#include <Eigen/Core>
#include <functional>
#include <utility>
#include <vector>

#include "hopsim/core/linearization.h"

namespace hopsim {

/// f'(x) ≈ Σ wᵢ f(x + oᵢ h) / h, with error O(hⁿ).
struct Stencil {
  std::vector<std::pair<double, double>> points;  // (oᵢ, wᵢ)
  int order = 1;
};

const Stencil& stencilOf(DifferenceScheme scheme);

/// The base step h of `options` (checked: finite, positive, relativeStep not with Richardson).
/// @throws InputError naming the bad option.
double baseStep(const LinearizationOptions& options);

/// Column j's step: h (1 + relativeStep |value|) rounded to the nearest power of two, so that
/// value + o h is exact for every stencil offset o (halves and doubles): the difference then
/// divides by the step actually taken.
double columnStep(const LinearizationOptions& options, double h, double value);

/// f evaluated with the perturbed coordinate moved by `delta`, written into `out`.
using PerturbedEvaluation = std::function<void(double delta, Eigen::VectorXd& out)>;

/// One Jacobian column ∂f/∂v by `stencil` at step h, from f₀ = f(v) and `evaluate`; returns
/// the estimated error of its largest entry, |D(h) - D(2h)| / (2ⁿ - 1).
double differenceColumn(const Stencil& stencil, double h, const Eigen::VectorXd& f0,
                        const PerturbedEvaluation& evaluate, Eigen::Ref<Eigen::VectorXd> column);

}  // namespace hopsim
