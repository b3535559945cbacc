#include "linearization_session.h"

#include <algorithm>
#include <map>
#include <unsupported/Eigen/MatrixFunctions>

#include "hopsim/core/model.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "linearize_differences.h"
#include "variable_glob.h"

namespace hopsim {

namespace {

/// The units of X's entries from the variables holding them ("models.m.continuousStates.x[1]"
/// is element 1 of "models.m.continuousStates.x").
std::vector<std::string> unitsOf(const Simulation& sim, const std::vector<std::string>& names) {
  std::vector<std::string> units;
  for (const std::string& name : names) {
    const std::string path = name.substr(0, name.find('['));
    units.push_back(sim.variables().contains(path) ? sim.variables().at(path).unit() : "");
  }
  return units;
}

/// The elements of the numeric variables matching `patterns`, in pattern order.
std::vector<VariableElement> expand(const Simulation& sim, const std::vector<std::string>& patterns,
                                    const char* what) {
  const std::vector<std::string> all = sim.list();
  std::vector<VariableElement> elements;
  for (const std::string& pattern : patterns) {
    // "path[i]": one element of an exact path.
    const std::size_t bracket = pattern.find('[');
    const std::string base = pattern.substr(0, bracket);
    std::size_t matched = 0;
    for (const std::string& path : all) {
      if (base.find('*') != std::string::npos ? !globMatch(base, path) : path != base) continue;
      const Variable& v = sim.variables().at(path);
      if (v.type() == ElementType::String) continue;
      ++matched;
      const std::size_t n = v.length();
      const auto add = [&](std::size_t e) {
        elements.push_back(
            {n == 1 ? path : path + "[" + std::to_string(e) + "]", path, e, v.unit()});
      };
      if (bracket == std::string::npos) {
        for (std::size_t e = 0; e < n; ++e) add(e);
        continue;
      }
      std::size_t e = 0;
      try {
        e = std::stoul(pattern.substr(bracket + 1));
      } catch (const std::exception&) {
        e = n;
      }
      if (e >= n || pattern.back() != ']') {
        throw InputError(std::string("linearize: ") + what + " '" + pattern + "': '" + path +
                         "' has " + std::to_string(n) + " elements, so '" +
                         pattern.substr(bracket) + "' is not one of them");
      }
      add(e);
    }
    if (matched == 0) {
      throw InputError(std::string("linearize: ") + what + " '" + pattern +
                       "' matches no numeric variable" + didYouMean(base, all));
    }
  }
  return elements;
}

}  // namespace

Eigen::VectorXd LinearizationSession::currentState(const Simulation& sim) {
  sim.requireBetweenHops("linearize");
  if (!sim.locked()) throw ModelError("linearize: lock() the simulation first");
  Eigen::VectorXd x(sim.states_.size());
  sim.states_.gather(x);
  return x;
}

LinearizationSession::LinearizationSession(Simulation& sim)
    : sim_(sim),
      t_(sim.stateTime()),
      x0_(currentState(sim)),
      manifold_(sim.multibodyActive_ && sim.multibody().constraints().size() > 0
                    ? std::make_unique<ConstraintManifold>(sim.multibody(), sim.stateNames(), x0_)
                    : nullptr),
      chart_(sim.stateNames(), unitsOf(sim, sim.stateNames()), sim.multibody().model(),
             manifold_.get()) {
  // What a derivative evaluation writes, as it is now.
  sim.takeSnapshot(hopPart_, Snapshot::Scope::Hop);
  sim.saveEvaluationState();
  for (const auto& [name, signal] : sim.signals_) {
    signals_.push_back({signal.get(), signal->buffer(), signal->version()});
  }
  for (const Simulation::ModelSlot& s : sim.slots_) {
    std::vector<std::uint64_t>& reads = reads_.emplace_back();
    for (std::size_t i = 0; i < s.model->spec().fields(FieldRole::FlowIn).size(); ++i) {
      reads.push_back(ModelBinding::lastReadVersion(*s.model, i));
    }
  }
  statistics_ = sim.statistics_;
  integratorStatistics_ = sim.integrator_->statistics();
  xdot_.resize(x0_.size());
}

LinearizationSession::~LinearizationSession() {
  for (const SavedSignal& s : signals_) {
    s.signal->buffer() = s.value;
    s.signal->restoreVersion(s.version);
  }
  for (ParamInput& p : params_) {
    ModelBinding::valueBuffer(*p.model, FieldRole::Param, p.field) = p.saved;
  }
  for (ParamInput& p : params_) p.model->processParams(t_);
  sim_.restoreEvaluationState();
  sim_.applySnapshot(hopPart_, Snapshot::Scope::Hop);
  for (std::size_t m = 0; m < reads_.size(); ++m) {
    for (std::size_t i = 0; i < reads_[m].size(); ++i) {
      ModelBinding::lastReadVersion(*sim_.slots_[m].model, i) = reads_[m][i];
    }
  }
  sim_.statistics_ = statistics_;
  sim_.integrator_->restoreStatistics(integratorStatistics_);
}

std::vector<Eigen::Index> LinearizationSession::selectStates(
    const std::vector<std::string>& patterns, const char* what, bool noneMeansAll) const {
  const std::vector<std::string>& names = chart_.names();
  std::vector<Eigen::Index> selected;
  if (patterns.empty() && noneMeansAll) {
    for (Eigen::Index i = 0; i < chart_.size(); ++i) selected.push_back(i);
    return selected;
  }
  std::vector<bool> chosen(names.size(), false);
  for (const std::string& pattern : patterns) {
    bool matched = false;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (pattern.find('*') != std::string::npos ? globMatch(pattern, names[i])
                                                 : names[i] == pattern) {
        chosen[i] = matched = true;
      }
    }
    if (!matched) {
      throw InputError(std::string("linearize: ") + what + " '" + pattern +
                       "' matches no continuous state" + didYouMean(pattern, names));
    }
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (chosen[i]) selected.push_back(static_cast<Eigen::Index>(i));
  }
  return selected;
}

void LinearizationSession::setInputs(const std::vector<std::string>& patterns) {
  inputs_ = expand(sim_, patterns, "input");
  targets_.clear();
  u0_.resize(static_cast<Eigen::Index>(inputs_.size()));
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    const VariableElement& in = inputs_[k];
    InputTarget target{nullptr};
    if (in.path.starts_with("signals.")) {
      Signal& signal = sim_.signal(std::string_view(in.path).substr(8));
      if (signal.type() == ElementType::Double)
        target.value = signal.buffer().doubles() + in.element;
      // A signal a continuous model writes inside the derivative evaluations cannot be held
      // there (FlowModels run at I/O steps only).
      for (const Simulation::ModelSlot& s : sim_.slots_) {
        if (s.continuous == nullptr) continue;
        const Model& m = *s.model;
        for (std::size_t p = 0; p < m.spec().fields(FieldRole::FlowOut).size(); ++p) {
          const Granularity g = sim_.outputGranularity(m.name());
          if (&m.binding(FieldRole::FlowOut, p).signal() == &signal &&
              (g.contains(Sweep::PreDeriv) || g.contains(Sweep::PostDeriv))) {
            throw InputError("linearize: input '" + in.name + "' is written by " + m.describe() +
                             " in every derivative evaluation, so it cannot be held at a "
                             "perturbed value; take that model's own input or param instead");
          }
        }
      }
    } else if (const std::size_t dot = in.path.find(".params.");
               in.path.starts_with("models.") && dot != std::string::npos) {
      Model& model = sim_.model(std::string_view(in.path).substr(7, dot - 7));
      const std::size_t field = model.spec().indexOf(FieldRole::Param, in.path.substr(dot + 8));
      Buffer& buffer = ModelBinding::valueBuffer(model, FieldRole::Param, field);
      if (buffer.type() == ElementType::Double) {
        target = {buffer.doubles() + in.element, &model};
        if (std::none_of(params_.begin(), params_.end(), [&](const ParamInput& p) {
              return p.model == &model && p.field == field;
            })) {
          params_.push_back({&model, field, buffer});
        }
      }
    }
    if (target.value == nullptr) {
      throw InputError("linearize: input '" + in.name +
                       "' is not a double signal (signals.NAME) or a double param "
                       "(models.MODEL.params.NAME)");
    }
    targets_.push_back(target);
    u0_[static_cast<Eigen::Index>(k)] = *target.value;
  }
}

void LinearizationSession::setOutputs(const std::vector<std::string>& patterns) {
  outputs_ = expand(sim_, patterns, "output");
}

void LinearizationSession::writeInputs(const Eigen::VectorXd& u) {
  bool params = false;
  for (std::size_t k = 0; k < targets_.size(); ++k) {
    *targets_[k].value = u[static_cast<Eigen::Index>(k)];
    params = params || targets_[k].param != nullptr;
  }
  // What a model derives from its params follows them, as before a hop.
  if (params) {
    for (ParamInput& p : params_) p.model->processParams(t_);
  }
}

void LinearizationSession::evaluate(const Eigen::VectorXd& center, const Eigen::VectorXd& x,
                                    const Eigen::VectorXd& u, Eigen::VectorXd& rates,
                                    Eigen::VectorXd& y) {
  writeInputs(u);
  sim_.evaluateDerivatives(t_, x, xdot_);
  // The continuous models' outputs at this state, whatever their granularity: they are
  // functions of it. The FlowModels' stay as they were (the hold rule).
  sim_.refreshContinuousOutputs(t_);
  rates.resize(chart_.size());
  chart_.tangentRate(center, x, xdot_, rates);
  y.resize(static_cast<Eigen::Index>(outputs_.size()));
  for (std::size_t k = 0; k < outputs_.size(); ++k) {
    y[static_cast<Eigen::Index>(k)] =
        sim_.variables().at(outputs_[k].path).element(outputs_[k].element);
  }
}

void LinearizationSession::stateColumns(const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                                        const std::vector<Eigen::Index>& columns,
                                        const LinearizationOptions& options, double h,
                                        Jacobians& into) {
  const Stencil& stencil = stencilOf(options.scheme);
  const auto n = static_cast<Eigen::Index>(columns.size());
  into.states.resize(into.f0.size(), n);
  into.stateSteps.resize(n);
  into.stateErrors.resize(n);
  Eigen::VectorXd delta = Eigen::VectorXd::Zero(chart_.size());
  Eigen::VectorXd xp, rates, y;
  for (Eigen::Index c = 0; c < n; ++c) {
    const Eigen::Index j = columns[static_cast<std::size_t>(c)];
    into.stateSteps[c] = columnStep(options, h, chart_.value(x, j));
    const auto evaluateAt = [&](double d, Eigen::VectorXd& out) {
      delta[j] = d;
      chart_.retract(x, delta, xp);
      delta[j] = 0.0;
      evaluate(x, xp, u, rates, y);
      out.resize(rates.size() + y.size());
      out << rates, y;
    };
    into.stateErrors[c] =
        differenceColumn(stencil, into.stateSteps[c], into.f0, evaluateAt, into.states.col(c));
  }
}

LinearizationSession::Jacobians LinearizationSession::jacobians(
    const Eigen::VectorXd& x, const Eigen::VectorXd& u, const std::vector<Eigen::Index>& columns,
    const LinearizationOptions& options) {
  const double h = baseStep(options);
  const Stencil& stencil = stencilOf(options.scheme);
  Jacobians J;
  Eigen::VectorXd rates, y;
  evaluate(x, x, u, rates, y);
  J.f0.resize(rates.size() + y.size());
  J.f0 << rates, y;
  stateColumns(x, u, columns, options, h, J);
  const Eigen::Index nu = u.size();
  J.inputs.resize(J.f0.size(), nu);
  J.inputSteps.resize(nu);
  J.inputErrors.resize(nu);
  Eigen::VectorXd up;
  for (Eigen::Index k = 0; k < nu; ++k) {
    J.inputSteps[k] = columnStep(options, h, u[k]);
    const auto evaluateAt = [&](double d, Eigen::VectorXd& out) {
      up = u;
      up[k] += d;
      evaluate(x, x, up, rates, y);
      out.resize(rates.size() + y.size());
      out << rates, y;
    };
    J.inputErrors[k] =
        differenceColumn(stencil, J.inputSteps[k], J.f0, evaluateAt, J.inputs.col(k));
  }
  writeInputs(u);
  return J;
}

LinearSystem LinearizationSession::linearizeAt(const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                                               const std::vector<Eigen::Index>& states,
                                               const LinearizationOptions& options) {
  const Jacobians J = jacobians(x, u, states, options);
  const auto nx = static_cast<Eigen::Index>(states.size());
  const auto ny = static_cast<Eigen::Index>(outputs_.size());
  LinearSystem s;
  s.scheme = options.scheme;
  s.step = baseStep(options);
  s.time = t_;
  s.operatingState = x;
  s.operatingStateNames = sim_.stateNames();
  s.stateSteps = J.stateSteps;
  s.stateColumnError = J.stateErrors;
  s.inputSteps = J.inputSteps;
  s.inputColumnError = J.inputErrors;
  // The chosen states' rows of the derivatives, then the outputs' rows.
  s.A.resize(nx, nx);
  s.B.resize(nx, u.size());
  s.x0.resize(nx);
  s.xdot0.resize(nx);
  for (Eigen::Index r = 0; r < nx; ++r) {
    const Eigen::Index i = states[static_cast<std::size_t>(r)];
    s.A.row(r) = J.states.row(i);
    s.B.row(r) = J.inputs.row(i);
    s.x0[r] = chart_.value(x, i);
    s.xdot0[r] = J.f0[i];
    s.stateNames.push_back(chart_.names()[static_cast<std::size_t>(i)]);
    s.stateUnits.push_back(chart_.units()[static_cast<std::size_t>(i)]);
  }
  s.C = J.states.bottomRows(ny);
  s.D = J.inputs.bottomRows(ny);
  s.u0 = u;
  s.y0 = J.f0.tail(ny);
  for (const VariableElement& in : inputs_) {
    s.inputNames.push_back(in.name);
    s.inputUnits.push_back(in.unit);
  }
  for (const VariableElement& out : outputs_) {
    s.outputNames.push_back(out.name);
    s.outputUnits.push_back(out.unit);
  }
  if (options.discrete == DiscreteRule::SampledData) sampleLinearSystem(s, sim_.ioStepSize());
  return s;
}

void sampleLinearSystem(LinearSystem& system, double period) {
  const Eigen::Index n = system.A.rows();
  const Eigen::Index m = system.B.cols();
  Eigen::MatrixXd augmented = Eigen::MatrixXd::Zero(n + m, n + m);
  augmented.topLeftCorner(n, n) = system.A * period;
  augmented.topRightCorner(n, m) = system.B * period;
  const Eigen::MatrixXd exponential = augmented.exp();
  system.A = exponential.topLeftCorner(n, n);
  system.B = exponential.topRightCorner(n, m);
  system.samplePeriod = period;
}

}  // namespace hopsim
