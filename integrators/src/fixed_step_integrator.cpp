#include "hopsim/integrators/fixed_step_integrator.h"

#include "dense_history.h"
#include "integrator_support.h"

namespace hopsim {

FixedStepIntegrator::FixedStepIntegrator(IntegratorOptions options, int extensionDegree)
    : Integrator(std::move(options)),
      history_(std::make_unique<detail::DenseHistory>(extensionDegree + 1)) {}

FixedStepIntegrator::~FixedStepIntegrator() = default;

void FixedStepIntegrator::resize(Eigen::Index stateCount) {
  detail::checkToleranceLength(name(), options_, stateCount);
  x_.setZero(stateCount);
  resizeStages(stateCount);
  history_->resize(stateCount);
}

void FixedStepIntegrator::restart(double t0, const Eigen::Ref<const Eigen::VectorXd>& x0) {
  detail::checkRestart(name(), size(), t0, x0);
  t_ = t0;
  t0_ = t0;
  x_ = x0;
  history_->clear();
  ++statistics_.restarts;
}

void FixedStepIntegrator::advance(const DerivativeFunction& f, double t1,
                                  Eigen::Ref<Eigen::VectorXd> x) {
  if (detail::checkAdvance(name(), size(), t_, t1, x.size()) && size() > 0) {
    if (keepDenseHistory_) {
      const double h = t1 - t_;
      auto c = history_->next(t_, h);
      c.col(0) = x_;
      step(f, t1);
      writeContinuousExtension(h, c.rightCols(c.cols() - 1));
      history_->commit();
    } else {
      step(f, t1);
      history_->markIncomplete();
    }
    ++statistics_.steps;
  }
  t_ = t1;
  x = x_;
}

void FixedStepIntegrator::interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) const {
  const auto piece = history_->find(name(), t0_, t_, size(), t, x.size());
  if (!piece) {
    x = x_;
    return;
  }
  const auto& c = piece->columns;
  const double theta = piece->theta;
  // Horner's scheme; theta = 0 at a step start gives the step's initial state exactly.
  const Eigen::Index degree = c.cols() - 1;
  x = c.col(degree);
  for (Eigen::Index j = degree - 1; j >= 1; --j) x = c.col(j) + theta * x;
  x = c.col(0) + theta * x;
}

void FixedStepIntegrator::evaluate(const DerivativeFunction& f, double t, const Eigen::VectorXd& at,
                                   Eigen::VectorXd& k) {
  f(t, at, k);
  ++statistics_.rhsEvaluations;
  if (!k.allFinite()) detail::throwNonFiniteDerivative(name(), t, k);
}

}  // namespace hopsim
