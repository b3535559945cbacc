// Simulation: the continuous state X and its propagation across a hop — the integration
// sub-steps and the per-derivative-evaluation calling sequence (docs/executive.md).

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "simulation_calls.h"

namespace hopsim {

// ---- settings and structure ---------------------------------------------------------------

void Simulation::setIntegrator(std::string_view name, IntegratorOptions options) {
  requireUnlocked("setIntegrator");
  std::unique_ptr<Integrator> made = makeIntegrator(name, options);
  integrator_ = std::move(made);
  integratorName_ = std::string(name);
  // Created once and kept: evaluating derivatives through it allocates nothing per call.
  derivativeFunction_ = [this](double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                               Eigen::Ref<Eigen::VectorXd> xdot) {
    evaluateDerivatives(t, x, xdot);
  };
  stepProjection_ = [this](double, Eigen::Ref<Eigen::VectorXd> x) {
    states_.scatter(x);
    endIntegrationSubStep();
    states_.gather(x);
  };
}

void Simulation::setStateBound(double bound) {
  requireBetweenHops("setStateBound");
  if (!(bound > 0.0)) {
    throw InputError("setStateBound: " + formatNumber(bound) +
                     " is not a valid state bound; expected a positive magnitude (inf: only "
                     "non-finite states stop the run)");
  }
  stateBound_ = bound;
  stateLimit_ = std::min(bound, std::numeric_limits<double>::max());
}

void Simulation::setStateMasked(std::string_view model, std::string_view state, bool masked) {
  setStateMasked(model, state, kAllElements, masked);
}

void Simulation::setStateMasked(std::string_view model, std::string_view state, std::size_t element,
                                bool masked) {
  requireUnlocked("setStateMasked");
  const ModelSlot& s = slot(model);
  if (!s.continuous) {
    throw InputError("setStateMasked: " + s.model->describe() +
                     " is a FlowModel; only ContinuousModels have continuous states");
  }
  s.model->spec().indexOf(FieldRole::ContinuousState, state);  // throws naming near names
  const auto same = [&](const StateMask& m) {
    return m.model == model && m.state == state && m.element == element;
  };
  std::erase_if(masks_, same);
  if (masked) masks_.push_back({std::string(model), std::string(state), element});
}

void Simulation::checkStateMasks() const {
  for (const StateMask& mask : masks_) {
    const Model& m = *slot(mask.model).model;
    const std::size_t field = m.spec().indexOf(FieldRole::ContinuousState, mask.state);
    const std::size_t length = m.fieldBuffer(FieldRole::ContinuousState, field).length();
    if (mask.element != kAllElements && mask.element >= length) {
      throw InputError("setStateMasked: models." + mask.model + ".continuousStates." + mask.state +
                       " has " + std::to_string(length) + " elements; element " +
                       std::to_string(mask.element) + " does not exist");
    }
  }
}

std::vector<Eigen::Index> Simulation::modelCouplingGroups() const {
  // Union-find over the models and, as one more node, the multibody system: models tied to the
  // same signal (in any direction, whatever the granularity) are joined, and so is every
  // DartsModel with the multibody system.
  const std::size_t multibodyNode = slots_.size();
  std::vector<std::size_t> parent(slots_.size() + 1);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  const auto root = [&](std::size_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  const auto join = [&](std::size_t a, std::size_t b) { parent[root(a)] = root(b); };
  std::map<const Signal*, std::size_t> firstModelOn;
  for (std::size_t m = 0; m < slots_.size(); ++m) {
    const Model& model = *slots_[m].model;
    for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
      for (std::size_t p = 0; p < model.spec().fields(role).size(); ++p) {
        const auto [first, inserted] = firstModelOn.emplace(&model.binding(role, p).signal(), m);
        if (!inserted) join(m, first->second);
      }
    }
    if (dynamic_cast<const DartsModel*>(&model) != nullptr) join(m, multibodyNode);
  }
  std::vector<Eigen::Index> group(slots_.size() + 1);
  for (std::size_t node = 0; node < group.size(); ++node) {
    group[node] = static_cast<Eigen::Index>(root(node));
  }
  return group;
}

void Simulation::rebuildStateVector() {
  // States of different groups never influence each other's derivatives (the integrator's
  // Jacobian may use it): one group per set of models joined by signals, the multibody
  // system's with its DartsModels.
  const std::vector<Eigen::Index> modelGroup = modelCouplingGroups();
  std::map<const Model*, Eigen::Index> groupOfModel;
  for (std::size_t m = 0; m < slots_.size(); ++m) {
    groupOfModel[slots_[m].model.get()] = modelGroup[m];
  }
  std::vector<Eigen::Index> stateGroup;
  states_.clear();
  maskedModels_.clear();
  for (auto& list : maskingLists_) list.clear();
  if (multibodyActive_) multibody_->addStates(states_);
  stateGroup.resize(static_cast<std::size_t>(states_.size()), modelGroup.back());
  for (ContinuousModel* model : activeContinuous_) {
    const auto& fields = model->spec().fields(FieldRole::ContinuousState);
    bool anyMasked = false;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      Buffer& value = ModelBinding::continuousState(*model, f);
      const std::string path = "models." + model->name() + ".continuousStates." + fields[f].name;
      for (std::size_t e = 0; e < value.length(); ++e) {
        const bool masked = stateMasked(*model, f, e);
        anyMasked = anyMasked || masked;
        if (masked) continue;
        states_.add(value, ModelBinding::derivative(*model, f), e,
                    value.length() > 1 ? path + "[" + std::to_string(e) + "]" : path);
      }
    }
    stateGroup.resize(static_cast<std::size_t>(states_.size()), groupOfModel.at(model));
    // DartsModels may set masked multibody coordinates and mass properties, so theirs always
    // runs.
    const bool masking = anyMasked || dynamic_cast<DartsModel*>(model) != nullptr;
    if (masking) maskedModels_.push_back(model);
    for (int k = 0; masking && k < kSweepCount; ++k) {
      if (model->spec().maskingGranularity().contains(static_cast<Sweep>(k))) {
        maskingLists_[static_cast<std::size_t>(k)].push_back(model);
      }
    }
  }
  const Eigen::Index n = states_.size();
  x_.setZero(n);
  xdot_.setZero(n);
  xTrial_.setZero(n);
  xdotSample_.setZero(n);
  subStepStates_.setZero(n, integrationSteps_ + 1);
  subStepTimes_.assign(static_cast<std::size_t>(integrationSteps_) + 1, 0.0);
  // A new layout of X: what the last sub-step ended with no longer compares.
  continuation_.step = 0.0;
  continuation_.history = false;
  continuation_.state.setZero(n);
  continuation_.derivative.setZero(n);
  rollbackPoint_.continuation.state.setZero(n);
  rollbackPoint_.continuation.derivative.setZero(n);
  // Variable-step methods project their accepted internal steps themselves where they can.
  integrator_->setStepProjection(multibodyActive_ ? StepProjection(stepProjection_) : nullptr);
  integrator_->resize(n);
  integrator_->setCouplingGroups(stateGroup);
}

bool Simulation::stateMasked(const Model& model, std::size_t field, std::size_t element) const {
  const std::string& state = model.spec().fields(FieldRole::ContinuousState)[field].name;
  return std::any_of(masks_.begin(), masks_.end(), [&](const StateMask& m) {
    return m.model == model.name() && m.state == state &&
           (m.element == kAllElements || m.element == element);
  });
}

std::vector<std::string> Simulation::stateNames() const {
  std::vector<std::string> names;
  for (Eigen::Index i = 0; i < states_.size(); ++i) names.push_back(states_.name(i));
  return names;
}

// ---- the calling sequence -----------------------------------------------------------------

void Simulation::runSweepCalls(Sweep sweep, double t) {
  for (ContinuousModel* model : maskingLists_[static_cast<std::size_t>(sweep)]) {
    callModel(*model, ModelMethod::MaskedCoordinates, t, [&] { model->maskedCoordinates(t); });
  }
  // Positions and velocities from the current Q and U (masked ones just set) before any model
  // reads them; the dynamics between preDeriv and postDeriv keeps them current for PostDeriv.
  // When nothing reads them before the dynamics (no PREDERIV update, no preDeriv), the dynamics
  // computes them in its own outward pass (MultibodySystem::computeDynamics).
  const bool readBeforeDynamics =
      sweep != Sweep::PreDeriv || !updateList(sweep).empty() || !calls_.preDeriv.empty();
  if (multibodyActive_ && sweep != Sweep::PostDeriv && readBeforeDynamics) {
    multibody_->computeKinematics();
  }
  runUpdates(updateList(sweep), t);
}

void Simulation::evaluateDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                                     Eigen::Ref<Eigen::VectorXd> xdot) {
  ++statistics_.derivativeEvaluations;
  states_.scatter(x);
  if (multibodyActive_) multibody_->clearInputs();
  runSweep(Sweep::PreDeriv, t);
  calls_.preDeriv.call(
      [&](Model& model, auto&& invoke) { callModel(model, ModelMethod::PreDeriv, t, invoke); }, t);
  if (multibodyActive_) multibody_->computeDynamics();
  runSweep(Sweep::PostDeriv, t);
  calls_.postDeriv.call(
      [&](Model& model, auto&& invoke) { callModel(model, ModelMethod::PostDeriv, t, invoke); }, t);
  states_.gatherDerivatives(xdot);
  if (!xdot.allFinite()) [[unlikely]] {
    throwNonFiniteDerivative(t, xdot);
  }
}

void Simulation::throwNonFiniteDerivative(double t,
                                          const Eigen::Ref<const Eigen::VectorXd>& xdot) const {
  Eigen::Index i = 0;
  while (std::isfinite(xdot[i])) ++i;
  throw NumericalError("the derivative of " + states_.name(i) + " is " + formatNumber(xdot[i]) +
                       " at t = " + formatNumber(t) + " s (" + integratorName_ +
                       "); its model's postDeriv must write a finite derivative() for every "
                       "integrated state");
}

void Simulation::checkStateBound(double ta, double tb) const {
  // One vectorized pass. A NaN propagates into the maximum, and an infinite state exceeds the
  // largest double, which stands for an infinite bound.
  if (x_.size() > 0 && !(x_.cwiseAbs().maxCoeff<Eigen::PropagateNaN>() <= stateLimit_))
      [[unlikely]] {
    throwDivergence(ta, tb);
  }
}

void Simulation::throwDivergence(double ta, double tb) const {
  Eigen::Index i = 0;
  while (std::abs(x_[i]) <= stateLimit_) ++i;
  const bool finite = std::isfinite(x_[i]);
  std::string message = states_.name(i) + " is " + formatNumber(x_[i]) +
                        " at t = " + formatNumber(tb) + " s after the " + integratorName_ +
                        (integrator_->isFixedStep() ? " step" : " integration") +
                        " from t = " + formatNumber(ta) + " s";
  if (finite) message += ", beyond the state bound " + formatNumber(stateBound_);
  message += integrator_->isFixedStep()
                 ? ": the fixed-step integration diverges; use a smaller step (more "
                   "integration_steps, or a smaller time_step) or cvode"
                 : ": the solution grows without bound; check the model and its params";
  if (finite) message += " (or raise state_bound if such magnitudes are meaningful)";
  throw NumericalError(message);
}

void Simulation::refreshContinuousOutputs(double t) {
  for (ContinuousModel* model : maskedModels_) {
    callModel(*model, ModelMethod::MaskedCoordinates, t, [&] { model->maskedCoordinates(t); });
  }
  if (multibodyActive_) multibody_->computeKinematics();
  runUpdates(continuousOutputs_, t);
}

void Simulation::updateAllOutputs(double t) {
  for (ContinuousModel* model : maskedModels_) {
    callModel(*model, ModelMethod::MaskedCoordinates, t, [&] { model->maskedCoordinates(t); });
  }
  if (multibodyActive_) multibody_->computeKinematics();
  runUpdates(everyOutput_, t);
}

void Simulation::propagate(double x0Time, double x1Time, bool recordSubSteps) {
  if (activeContinuous_.empty() && !multibodyActive_) return;
  // Variable-step methods cover the hop in one advance() and choose their own steps; fixed-step
  // ones take integrationSteps equal sub-steps, with discrete updates allowed between them.
  const int subSteps = integrator_->isFixedStep() ? integrationSteps_ : 1;
  const bool integrating = states_.size() > 0;
  double ta = x0Time;
  for (int k = 1; k <= subSteps; ++k) {
    const double tb = k == subSteps ? x1Time : x0Time + (x1Time - x0Time) * k / subSteps;
    runSweep(Sweep::StartIntegration, ta);
    for (ContinuousModel* model : calls_.startIntegrationStep) {
      callModel(*model, ModelMethod::StartIntegrationStep, ta,
                [&] { model->startIntegrationStep(ta, tb); });
    }
    if (integrating) {
      // X is taken from the models at every sub-step start: startHop and startIntegrationStep
      // may reset states discontinuously, and events may have set them between hops.
      states_.gather(x_);
      startIntegrationInterval(ta);
      if (recordSubSteps) {
        subStepStates_.col(k - 1) = x_;
        subStepTimes_[static_cast<std::size_t>(k - 1)] = ta;
      }
      integrator_->advance(derivativeFunction_, tb, x_);
      checkStateBound(ta, tb);  // before the models see it: a diverging state stops here
      states_.scatter(x_);
      if (multibodyActive_ && !integrator_->stepsProjected()) {
        endIntegrationSubStep();
        states_.gather(x_);
      }
      recordContinuation(tb);
      if (recordSubSteps) {
        subStepStates_.col(k) = x_;
        subStepTimes_[static_cast<std::size_t>(k)] = tb;
      }
    }
    runSweep(Sweep::EndIntegration, tb);
    for (ContinuousModel* model : calls_.endIntegrationStep) {
      callModel(*model, ModelMethod::EndIntegrationStep, tb,
                [&] { model->endIntegrationStep(ta, tb); });
    }
    ta = tb;
  }
}

void Simulation::startIntegrationInterval(double ta) {
  if (continuesIntegratorHistory(ta)) {
    integrator_->continueInterval();
    return;
  }
  integrator_->restart(ta, x_);
  if (continuation_.continuesAt(ta, x_)) integrator_->proposeFirstStep(continuation_.step);
}

bool Simulation::continuesIntegratorHistory(double ta) {
  if (std::exchange(restartNextHop_, false)) return false;
  if (!continuation_.historyContinuesAt(ta, x_) || !integrator_->canContinueAt(ta)) return false;
  // Same time, same X; what the models did at the boundary (discrete updates, inputs from
  // other models, params) shows in the derivative there. One evaluation decides: a history
  // continued across a jump in the derivative would hold the method's error estimates to a
  // function that no longer applies.
  evaluateDerivatives(ta, x_, xdot_);
  return xdot_ == continuation_.derivative;
}

void Simulation::recordContinuation(double tb) {
  continuation_.step = integrator_->stepProposal();
  continuation_.history = integrator_->canContinueAt(tb);
  if (continuation_.history) {
    // Also the bonus evaluation: the models see the derivative at X(tb).
    evaluateDerivatives(tb, x_, continuation_.derivative);
  } else if (bonusEvaluation_) {
    evaluateDerivatives(tb, x_, xdot_);
  }
  if (continuation_.step > 0.0 || continuation_.history) {
    continuation_.time = tb;
    continuation_.state = x_;
  }
}

}  // namespace hopsim
