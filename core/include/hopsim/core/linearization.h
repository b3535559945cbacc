#pragma once
/// @file
/// Linearization and trim of a simulation about an operating point (docs/linearization.md):
/// what to linearize (LinearizationRequest), how (LinearizationOptions), the linear model
/// (LinearSystem), and the trim problem and its solution (TrimRequest, TrimResult).

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hopsim {

/// The finite-difference scheme of each Jacobian column (docs/linearization.md, "Differences").
enum class DifferenceScheme : std::uint8_t {
  Forward,     ///< (f(x+h) - f(x)) / h: error O(h)
  Central2,    ///< (f(x+h) - f(x-h)) / 2h: error O(h²)
  Central4,    ///< (f(x-2h) - 8f(x-h) + 8f(x+h) - f(x+2h)) / 12h: error O(h⁴)
  Richardson,  ///< (4 D(h/2) - D(h)) / 3 of the 2-point central difference D: error O(h⁴)
};

/// "forward", "central2", "central4", "richardson".
std::string_view toString(DifferenceScheme scheme);
/// The scheme named so (case-sensitive). @throws InputError naming the valid names.
DifferenceScheme differenceSchemeFromString(std::string_view name);

/// What the FlowModels and discrete states become (docs/linearization.md, "Discrete parts").
enum class DiscreteRule : std::uint8_t {
  /// Held at their operating values: the loop is open wherever a FlowModel closes it, and the
  /// result is the continuous (A, B, C, D).
  Hold,
  /// As Hold, then the continuous part sampled at the I/O step with the inputs held over the
  /// step (zero-order hold): A becomes Φ = e^{AT} and B becomes Γ = ∫₀ᵀ e^{As} ds B.
  SampledData,
};

struct LinearizationOptions {
  DifferenceScheme scheme = DifferenceScheme::Richardson;
  /// The relative error aimed at: sets the base step h = relativeError^(1/order), never below
  /// the scheme's round-off floor ε^(1/(order+1)) (ε the machine precision).
  double relativeError = 1e-8;
  /// The base step h itself when positive (then relativeError is not used).
  double step = 0.0;
  /// The seed's eps1: column j's step is h (1 + relativeStep |v_j|), v_j the perturbed value.
  /// Not with Richardson (whose two steps must keep their ratio).
  double relativeStep = 0.0;
  DiscreteRule discrete = DiscreteRule::Hold;
};

/// What to linearize. Patterns are exact paths or globs (`*` within one segment, `**` across).
struct LinearizationRequest {
  /// Tangent-space state names (LinearSystem::stateNames); empty: every continuous state.
  std::vector<std::string> states;
  /// Signals ("signals.F", "signals.u[1]") or params ("models.m.params.k"), each held at its
  /// perturbed value during the evaluations.
  std::vector<std::string> inputs;
  /// Numeric variables.
  std::vector<std::string> outputs;
  LinearizationOptions options;
};

/// ẋ = A x + B u, y = C x + D u about the operating point (or, SampledData: x⁺ = A x + B u).
struct LinearSystem {
  Eigen::MatrixXd A, B, C, D;
  std::vector<std::string> stateNames, inputNames, outputNames;
  std::vector<std::string> stateUnits, inputUnits, outputUnits;
  /// The operating point: time, the selected states' values (0 for a rotation's tangent
  /// coordinates, which are measured from the operating attitude), inputs, outputs, and the
  /// state rates there (zero at an equilibrium).
  double time = 0.0;
  Eigen::VectorXd x0, u0, y0, xdot0;
  /// The whole continuous state X at the operating point, with its names (quaternions whole).
  Eigen::VectorXd operatingState;
  std::vector<std::string> operatingStateNames;
  DifferenceScheme scheme = DifferenceScheme::Richardson;
  /// The base step h and each column's step (states, then inputs).
  double step = 0.0;
  Eigen::VectorXd stateSteps, inputSteps;
  /// Per column, the estimated absolute error of the column of [A; C] (states) or [B; D]
  /// (inputs), its largest entry: |D(h) - D(2h)| / (2ⁿ - 1) for a scheme of order n.
  Eigen::VectorXd stateColumnError, inputColumnError;
  /// SampledData: the sample period (s); 0 for a continuous model.
  double samplePeriod = 0.0;
  bool discrete() const { return samplePeriod > 0.0; }
};

/// A target an output must reach in trim.
struct OutputTarget {
  std::string output;  ///< one element: "signals.x" or "signals.x[2]"
  double value = 0.0;
};

/// Trim: find the freed states and inputs that make the chosen state rates vanish and the
/// chosen outputs reach their targets.
struct TrimRequest {
  std::vector<std::string> freeStates;  ///< tangent state names or globs
  std::vector<std::string> freeInputs;  ///< signal or param elements, as inputs
  /// State rates that must vanish (tangent names or globs); empty: every state rate.
  std::vector<std::string> zeroRates;
  std::vector<OutputTarget> targets;
  /// Converged when the residual's largest entry is at most this.
  double tolerance = 1e-10;
  int maxIterations = 50;
  LinearizationOptions options;
};

struct TrimResult {
  std::vector<std::string> stateNames, inputNames;  ///< the freed ones, element by element
  Eigen::VectorXd states, inputs;  ///< their trimmed values (rotations: the tangent offset)
  std::vector<std::string> residualNames;
  Eigen::VectorXd residual;  ///< rates, then output minus target
  int iterations = 0;
};

}  // namespace hopsim
