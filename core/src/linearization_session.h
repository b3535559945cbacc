#pragma once
// Private to core/src: one linearization or trim of a Simulation between hops. It resolves the
// states, inputs and outputs asked for, evaluates the derivatives and outputs at perturbed
// points, and on destruction puts back everything those evaluations wrote, bit for bit
// (docs/linearization.md, "Linearizing changes nothing").

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hopsim/core/linearization.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/snapshot.h"
#include "linearize_chart.h"

namespace hopsim {

/// An input or output element: a variable and one of its elements.
struct VariableElement {
  std::string name;  // "signals.F" or "signals.u[1]"
  std::string path;  // "signals.u"
  std::size_t element = 0;
  std::string unit;
};

class LinearizationSession {
 public:
  /// @throws ModelError unless `sim` is locked and between hops.
  explicit LinearizationSession(Simulation& sim);
  /// Puts back what the evaluations wrote.
  ~LinearizationSession();
  LinearizationSession(const LinearizationSession&) = delete;
  LinearizationSession& operator=(const LinearizationSession&) = delete;

  const StateChart& chart() const { return chart_; }
  /// The tangent coordinates matching `patterns`, in chart order; when there are none, every
  /// coordinate if `noneMeansAll`, else none. @throws InputError for a pattern matching none.
  std::vector<Eigen::Index> selectStates(const std::vector<std::string>& patterns, const char* what,
                                         bool noneMeansAll) const;
  /// The elements of the signals or double params matching `patterns`.
  /// @throws InputError for anything else, or a signal a model recomputes during derivatives.
  void setInputs(const std::vector<std::string>& patterns);
  /// The elements of the numeric variables matching `patterns`. @throws InputError.
  void setOutputs(const std::vector<std::string>& patterns);
  const std::vector<VariableElement>& inputs() const { return inputs_; }
  const std::vector<VariableElement>& outputs() const { return outputs_; }

  /// X and the inputs at the operating point (as they were when the session began).
  const Eigen::VectorXd& x0() const { return x0_; }
  const Eigen::VectorXd& u0() const { return u0_; }

  /// At (x, u), f₀ = [δ̇ (every tangent coordinate); y] and its derivatives: by the tangent
  /// coordinates `columns` and by each input, with each column's step and estimated error.
  struct Jacobians {
    Eigen::VectorXd f0;
    Eigen::MatrixXd states, inputs;
    Eigen::VectorXd stateSteps, stateErrors, inputSteps, inputErrors;
  };
  Jacobians jacobians(const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                      const std::vector<Eigen::Index>& columns,
                      const LinearizationOptions& options);

  /// The linear model about (x, u), x a whole X, u the inputs, over the tangent coordinates
  /// `states` (rows and columns of A).
  LinearSystem linearizeAt(const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                           const std::vector<Eigen::Index>& states,
                           const LinearizationOptions& options);

  /// [δ̇ (all tangent coordinates); y] at (x, u), with the chart centred on `center`.
  void evaluate(const Eigen::VectorXd& center, const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                Eigen::VectorXd& rates, Eigen::VectorXd& y);

 private:
  struct ParamInput {
    Model* model;
    std::size_t field;
    Buffer saved{ElementType::Double, 0};
  };
  struct InputTarget {
    double* value;           // the element the evaluations write
    Model* param = nullptr;  // a param's model, whose processParams then runs
  };
  /// X, after checking that `sim` may be linearized now.
  static Eigen::VectorXd currentState(const Simulation& sim);
  void writeInputs(const Eigen::VectorXd& u);
  /// The [A; C] columns of the tangent coordinates `columns`: the multibody block and every
  /// other state alike, by finite differences. (Analytic derivatives of the forward dynamics
  /// replace this for the multibody coordinates.)
  void stateColumns(const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                    const std::vector<Eigen::Index>& columns, const LinearizationOptions& options,
                    double h, Jacobians& into);

  Simulation& sim_;
  double t_;
  Eigen::VectorXd x0_;
  std::unique_ptr<ConstraintManifold> manifold_;  // when the multibody system has constraints
  StateChart chart_;
  Eigen::VectorXd u0_;
  std::vector<VariableElement> inputs_, outputs_;
  std::vector<InputTarget> targets_;
  std::vector<ParamInput> params_;
  // What the evaluations write, as it was.
  Snapshot hopPart_;
  struct SavedSignal {
    Signal* signal;
    Buffer value;
    std::uint64_t version;
  };
  std::vector<SavedSignal> signals_;
  std::vector<std::vector<std::uint64_t>> reads_;  // per slot, each flowIn's last read version
  PropagationStatistics statistics_;
  IntegratorStatistics integratorStatistics_;
  // Scratch of evaluate().
  Eigen::VectorXd xdot_;
};

/// The x = A x + B u model sampled at period T with u held over each step:
/// [Φ Γ; 0 I] = exp([A B; 0 0] T).
void sampleLinearSystem(LinearSystem& system, double period);

}  // namespace hopsim
