// The derivatives of forward dynamics, ∂U̇/∂Q (tangent), ∂U̇/∂U and ∂U̇/∂τ: the analytic
// recursion (aba_derivatives.h) against central differences of aba in the same process, on
// serial PIN chains of 7, 30 and 100 bodies and the 30-body tree on a FULL6DOF base
// (multibody_problem.h; seeded states, gravity on). The differences perturb Q along its tangent
// directions and U, two aba calls per column each (4 nu calls), and take ∂U̇/∂τ from one more
// call per column (forward differences are exact for the linear τ): 5 nu aba calls in all.
// Each benchmark reports, besides the time per call, `agreement`: max |analytic - differences|
// over max |analytic|, over the three matrices, at the step kStep; and `agreement_extrapolated`,
// the same against the differences at steps 2h and h = kExtrapolatedStep Richardson-extrapolated,
// (4 D(h) - D(2h)) / 3, free of the differences' own truncation error (h² times the third
// derivative / 6).

#include "hopsim/core/multibody/aba_derivatives.h"

#include <benchmark/benchmark.h>

#include <algorithm>

#include "bench_context.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/tangent_space.h"
#include "multibody_problem.h"

namespace hopsim::bench {
namespace {

using namespace hopsim::multibody;

// The step of the central differences: near the cube root of the round-off, where truncation
// (h² U̇''' / 6) and round-off (ε |U̇| / h) balance.
constexpr double kStep = 1e-5;
// The step of the extrapolated differences: with the h² term gone, a larger step, where the
// round-off of the two evaluations (about ε cond(M) |U̇| / h) is a hundred times smaller.
constexpr double kExtrapolatedStep = 1e-3;

// The three derivative matrices and what computing them by differences needs, allocated once.
struct Differences {
  explicit Differences(const MultibodyModel& model, double h = kStep)
      : step(h),
        data(model),
        dq(model.nu(), model.nu()),
        du(dq),
        dtau(dq),
        qStep(model.nq()),
        uStep(model.nu()),
        tauStep(model.nu()),
        delta(model.nu()),
        plus(model.nu()) {}

  // Central differences of aba along Q's tangent directions and U; forward ones along τ.
  void compute(const MultibodyProblem& p) {
    const MultibodyModel& model = p.model;
    const Eigen::VectorXd& base = aba(model, data, p.q, p.u, p.tau);
    plus = base;  // data.udot is overwritten by the next call
    for (int k = 0; k < model.nu(); ++k) {
      delta.setZero();
      delta[k] = step;
      integrateConfiguration(model, p.q, delta, qStep);
      dq.col(k) = aba(model, data, qStep, p.u, p.tau);
      delta[k] = -step;
      integrateConfiguration(model, p.q, delta, qStep);
      dq.col(k) -= aba(model, data, qStep, p.u, p.tau);
      dq.col(k) /= 2 * step;
      uStep = p.u;
      uStep[k] += step;
      du.col(k) = aba(model, data, p.q, uStep, p.tau);
      uStep[k] = p.u[k] - step;
      du.col(k) -= aba(model, data, p.q, uStep, p.tau);
      du.col(k) /= 2 * step;
      tauStep = p.tau;
      tauStep[k] += step;
      dtau.col(k) = (aba(model, data, p.q, p.u, tauStep) - plus) / step;
    }
  }

  double step;
  MultibodyData data;
  Eigen::MatrixXd dq, du, dtau;
  Eigen::VectorXd qStep, uStep, tauStep, delta, plus;
};

// The analytic derivatives with their workspace, allocated once.
struct Analytic {
  explicit Analytic(const MultibodyModel& model)
      : data(model), work(model), dq(model.nu(), model.nu()), du(dq), dtau(dq) {}
  void compute(const MultibodyProblem& p) {
    abaDerivatives(p.model, data, work, p.q, p.u, p.tau, {}, dq, du, dtau);
  }
  MultibodyData data;
  AbaDerivativesWorkspace work;
  Eigen::MatrixXd dq, du, dtau;
};

// max |analytic - reference| / max |analytic| over the three matrices.
double relativeDifference(const Analytic& a, const Eigen::MatrixXd& dq, const Eigen::MatrixXd& du,
                          const Eigen::MatrixXd& dtau) {
  const auto relative = [](const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
    return (x - y).cwiseAbs().maxCoeff() / x.cwiseAbs().maxCoeff();
  };
  return std::max({relative(a.dq, dq), relative(a.du, du), relative(a.dtau, dtau)});
}

void reportAgreement(benchmark::State& state, const MultibodyProblem& p) {
  Analytic a(p.model);
  Differences plain(p.model), fine(p.model, kExtrapolatedStep),
      coarse(p.model, 2 * kExtrapolatedStep);
  a.compute(p);
  plain.compute(p);
  fine.compute(p);
  coarse.compute(p);
  state.counters["agreement"] = relativeDifference(a, plain.dq, plain.du, plain.dtau);
  state.counters["agreement_extrapolated"] =
      relativeDifference(a, (4 * fine.dq - coarse.dq) / 3, (4 * fine.du - coarse.du) / 3,
                         (4 * fine.dtau - coarse.dtau) / 3);
}

template <class Method>
void timeDerivatives(benchmark::State& state) {
  const MultibodyProblem p =
      makeMultibodyProblem(static_cast<int>(state.range(0)), state.range(1) != 0);
  Method method(p.model);
  for (auto _ : state) {
    method.compute(p);
    benchmark::DoNotOptimize(method.dq.data());
    benchmark::ClobberMemory();
  }
  state.counters["per_call"] = benchmark::Counter(
      1.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  reportAgreement(state, p);
}

void BM_AbaDerivativesAnalytic(benchmark::State& state) { timeDerivatives<Analytic>(state); }
void BM_AbaDerivativesCentralDifferences(benchmark::State& state) {
  timeDerivatives<Differences>(state);
}

// {bodies, branched}: PIN chains of 7, 30, 100; a 30-body tree on a FULL6DOF base.
#define HOPSIM_DERIVATIVE_SHAPES \
  ArgNames({"bodies", "branched"})->Args({7, 0})->Args({30, 0})->Args({100, 0})->Args({30, 1})
BENCHMARK(BM_AbaDerivativesAnalytic)->HOPSIM_DERIVATIVE_SHAPES;
BENCHMARK(BM_AbaDerivativesCentralDifferences)->HOPSIM_DERIVATIVE_SHAPES;

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN()
