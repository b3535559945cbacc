// Cost of exact zero-crossing times (docs/performance.md, "Zero crossings against a bisection
// baseline"): derivative evaluations and wall time per located event, hopsim's localization
// against a bisection baseline written here.
//
// Scenarios (balls in free fall, h' = v, v' = -9.81 m/s^2, bouncing off h = 0 with v -> -e v):
//   ball       one ball dropped from 10 m, e = 0.8, 9 s: 5 impacts
//   balls100   ten balls dropped from 1.3, 2.2, ..., 9.4 m, e = 1 (elastic), run until just
//              after the 100th impact of all (the analytic impact times give the end time)
// Every run is checked before anything is timed: it must locate exactly the analytic impacts,
// each within 1e-6 s of its analytic time (the time tolerance is 1e-10 s per event; the
// integration error at rtol 1e-10, carried from flight to flight, adds up to 5e-7 s with
// cvode over balls100); else the program prints the discrepancy and exits with status 1. The
// largest difference is reported as `time_error`.
//
// BM_Hopsim: a Simulation with one test::Ball model per ball and one registered zero crossing
// per ball (h falling through 0, timeTolerance 1e-10 s), localized by hopsim (Illinois on the
// integrator's dense output; RootFinder::Bisection for the rows that use hopsim's own
// bisection). BM_BisectionBaseline: the same balls integrated by the
// same integrator over the same hop grid through the Integrator interface alone, with bisection
// written in this file: when a residual changes sign over a hop, the bracket is halved by
// re-integrating from the hop start to its midpoint until it is narrower than 1e-10 s (the
// seed's CallbackFindTargetBisection).
//
// Counters, per event unless named otherwise:
//   localize_derivs   derivative evaluations spent localizing (hopsim: re-runs of an earlier
//                     fixed-step sub-step; baseline: its trial re-integrations)
//   discarded_derivs  derivative evaluations of the pass that ran past the event and was thrown
//                     away (hopsim: the rolled-back hop; baseline: the hop that saw the sign
//                     change)
//   event_derivs      their sum: what locating an event costs in derivative evaluations
//   residuals         residual evaluations while localizing
//   derivs_total      all derivative evaluations of the run (not per event)
//   per_event         wall time of a whole run divided by its events

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_context.h"
#include "continuous_test_models.h"
#include "hopsim/core/simulation.h"

namespace hopsim::bench {
namespace {

constexpr double kGravity = 9.81;
constexpr double kTimeTolerance = 1e-10;
constexpr double kTolerance = 1e-10;    // rtol and atol of rkf45 and cvode
constexpr double kTimeAccuracy = 1e-6;  // required of every located impact, s

struct Scenario {
  const char* name;
  std::vector<double> heights;  // initial heights, m, all at rest
  double restitution;
  double tEnd;
  std::vector<double> impacts;  // analytic impact times in [0, tEnd], sorted
};

/// The impact times of a ball dropped from h with restitution e, up to tEnd: the first after
/// sqrt(2 h / g), then flights of 2 v_k / g with v_k = e^k sqrt(2 g h).
void addImpacts(double h, double e, double tEnd, std::vector<double>& times) {
  double t = std::sqrt(2.0 * h / kGravity);
  double v = std::sqrt(2.0 * kGravity * h);
  while (t <= tEnd) {
    times.push_back(t);
    v *= e;
    t += 2.0 * v / kGravity;
  }
}

Scenario makeScenario(bool hundred) {
  Scenario s;
  if (!hundred) {
    s = {"ball", {10.0}, 0.8, 9.0, {}};
  } else {
    s = {"balls100", {}, 1.0, 0.0, {}};
    for (int i = 0; i < 10; ++i) s.heights.push_back(1.3 + 0.9 * i);
    // The end time: halfway between the 100th and the 101st impact of all balls.
    std::vector<double> all;
    for (double h : s.heights) addImpacts(h, s.restitution, 100.0, all);
    std::sort(all.begin(), all.end());
    s.tEnd = 0.5 * (all[99] + all[100]);
  }
  for (double h : s.heights) addImpacts(h, s.restitution, s.tEnd, s.impacts);
  std::sort(s.impacts.begin(), s.impacts.end());
  return s;
}

/// What one run found and spent.
struct RunResult {
  std::vector<double> located;  // impact times in firing order
  std::uint64_t derivatives = 0, localizeDerivatives = 0, discardedDerivatives = 0, residuals = 0;
};

/// Exits with status 1 unless `run` located exactly the scenario's impacts to kTimeAccuracy;
/// returns the largest difference to the analytic times.
double check(const char* who, const Scenario& s, const RunResult& run) {
  if (run.located.size() != s.impacts.size()) {
    std::fprintf(stderr, "zero-crossing benchmark: %s, %s: %zu impacts located, %zu analytic\n",
                 who, s.name, run.located.size(), s.impacts.size());
    std::exit(1);
  }
  double largest = 0.0;
  for (std::size_t k = 0; k < s.impacts.size(); ++k) {
    const double error = std::abs(run.located[k] - s.impacts[k]);
    largest = std::max(largest, error);
    if (!(error <= kTimeAccuracy)) {
      std::fprintf(stderr,
                   "zero-crossing benchmark: %s, %s: impact %zu located at %.12f s, analytic "
                   "%.12f s (error %.2e > %.0e)\n",
                   who, s.name, k, run.located[k], s.impacts[k], error, kTimeAccuracy);
      std::exit(1);
    }
  }
  return largest;
}

void report(benchmark::State& state, const RunResult& run, double timeError) {
  const double events = static_cast<double>(run.located.size());
  const auto perEvent = [&](std::uint64_t count) { return static_cast<double>(count) / events; };
  state.counters["events"] = events;
  state.counters["localize_derivs"] = perEvent(run.localizeDerivatives);
  state.counters["discarded_derivs"] = perEvent(run.discardedDerivatives);
  state.counters["event_derivs"] = perEvent(run.localizeDerivatives + run.discardedDerivatives);
  state.counters["residuals"] = perEvent(run.residuals);
  state.counters["derivs_total"] = static_cast<double>(run.derivatives);
  state.counters["time_error"] = timeError;
  state.counters["per_event"] = benchmark::Counter(
      events, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// ---- hopsim ---------------------------------------------------------------------------------

/// A locked simulation of the scenario, at t = 0, whose impacts are recorded into `located`.
std::unique_ptr<Simulation> makeSimulation(const Scenario& s, const char* integrator, double hop,
                                           RootFinder finder, bool continueAcrossHops,
                                           bool adamsFixedPoint, std::vector<double>& located) {
  IntegratorOptions options;
  options.relativeTolerance = kTolerance;
  options.absoluteTolerance = kTolerance;
  options.continueAcrossHops = continueAcrossHops;
  if (adamsFixedPoint) {
    options.multistep = MultistepMethod::Adams;
    options.nonlinearSolver = NonlinearSolver::FixedPoint;
  }
  auto sim = std::make_unique<Simulation>(
      SimulationOptions{.ioStepSize = hop, .integrator = integrator, .integratorOptions = options});
  std::vector<test::Ball*> balls;
  for (std::size_t i = 0; i < s.heights.size(); ++i) {
    const std::string name = "ball" + std::to_string(i);
    balls.push_back(&sim->addModel<test::Ball>(name));
    sim->set("models." + name + ".continuousStates.h", s.heights[i]);
  }
  sim->lock();
  for (std::size_t i = 0; i < balls.size(); ++i) {
    test::Ball* ball = balls[i];
    sim->registerZeroCrossing(
        "impact" + std::to_string(i), [ball](Simulation&, double) { return ball->height(); },
        CrossingDirection::Falling,
        [ball, &located, e = s.restitution](Simulation&, double t) {
          ball->setVelocity(-e * ball->velocity());
          located.push_back(t);
        },
        {.timeTolerance = kTimeTolerance, .rootFinder = finder});
  }
  return sim;
}

/// Each iteration is one whole run from t = 0. The runs restore a checkpoint taken at t = 0
/// (outside the timed region), so that the timed runs reuse the storage the first one grew and
/// allocate nothing.
void BM_Hopsim(benchmark::State& state, bool hundred, const char* integrator, double hop,
               RootFinder finder, bool continueAcrossHops = false, bool adamsFixedPoint = false) {
  const Scenario s = makeScenario(hundred);
  RunResult run;
  run.located.reserve(2 * s.impacts.size());
  const std::unique_ptr<Simulation> sim =
      makeSimulation(s, integrator, hop, finder, continueAcrossHops, adamsFixedPoint, run.located);
  const std::string checkpoint =
      (std::filesystem::temp_directory_path() /
       ("hopsim_bench_zero_crossings_" + std::to_string(::getpid()) + ".txt"))
          .string();
  sim->saveCheckpoint(checkpoint);
  PropagationStatistics before = sim->propagationStatistics();
  const auto runOnce = [&] {
    run.located.clear();
    sim->advanceTimeTo(s.tEnd);
  };
  runOnce();
  check(integrator, s, run);

  PropagationStatistics last;
  for (auto _ : state) {
    state.PauseTiming();
    sim->restoreCheckpoint(checkpoint);
    before = sim->propagationStatistics();
    state.ResumeTiming();
    runOnce();
    last = sim->propagationStatistics();  // a copy of seven counters
  }
  std::filesystem::remove(checkpoint);
  const double timeError = check(integrator, s, run);
  run.derivatives = last.derivativeEvaluations - before.derivativeEvaluations;
  run.localizeDerivatives = last.localizationDerivatives - before.localizationDerivatives;
  run.discardedDerivatives = last.discardedDerivatives - before.discardedDerivatives;
  run.residuals = last.localizationResiduals - before.localizationResiduals;
  report(state, run, timeError);
}

// ---- the bisection baseline -----------------------------------------------------------------

/// The balls as one state vector x = [h_0, v_0, h_1, v_1, ...], integrated hop by hop on the
/// grid of multiples of `hop` by one Integrator, with bisection localization.
class BisectionBaseline {
 public:
  BisectionBaseline(const Scenario& s, const char* integrator, double hop)
      : scenario_(s), hop_(hop), n_(static_cast<Eigen::Index>(2 * s.heights.size())) {
    IntegratorOptions options;
    options.relativeTolerance = kTolerance;
    options.absoluteTolerance = kTolerance;
    integrator_ = makeIntegrator(integrator, options);
    integrator_->resize(n_);
    // Each ball its own coupling group, as the Simulation gives its models: cvode's Jacobian
    // then costs 2 evaluations, not n.
    std::vector<Eigen::Index> groups(static_cast<std::size_t>(n_));
    for (std::size_t i = 0; i < groups.size(); ++i) groups[i] = static_cast<Eigen::Index>(i / 2);
    integrator_->setCouplingGroups(groups);
    for (Eigen::VectorXd* v : {&x0_, &x1_, &xMid_, &xFar_}) v->setZero(n_);
    result_.located.reserve(2 * s.impacts.size());
    f_ = [](double, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> xdot) {
      for (Eigen::Index i = 0; i < x.size(); i += 2) {
        xdot[i] = x[i + 1];
        xdot[i + 1] = -kGravity;
      }
    };
  }

  /// One whole run from t = 0 to the scenario's end; allocates nothing once the first run has
  /// sized the integrator's storage.
  const RunResult& run() {
    result_.located.clear();
    result_.derivatives = result_.localizeDerivatives = result_.discardedDerivatives =
        result_.residuals = 0;
    integrator_->resetStatistics();
    for (std::size_t i = 0; i < scenario_.heights.size(); ++i) {
      x0_[static_cast<Eigen::Index>(2 * i)] = scenario_.heights[i];
      x0_[static_cast<Eigen::Index>(2 * i + 1)] = 0.0;
    }
    double t0 = 0.0;
    while (t0 < scenario_.tEnd) {
      // The next grid point after t0, as the executive's default barrier.
      const double t1 = std::min(scenario_.tEnd, (std::floor(t0 / hop_ + 1e-9) + 1.0) * hop_);
      const std::int64_t beforeHop = integrator_->statistics().rhsEvaluations;
      integrator_->restart(t0, x0_);
      integrator_->advance(f_, t1, x1_);
      if (!crossed(x0_, x1_)) {
        x0_.swap(x1_);
        t0 = t1;
        continue;
      }
      // A residual fell through 0 in (t0, t1]: that pass is discarded; halve the bracket
      // [t0, far] by re-integrating from (t0, x0) to each midpoint.
      const std::int64_t beforeLocalizing = integrator_->statistics().rhsEvaluations;
      result_.discardedDerivatives += static_cast<std::uint64_t>(beforeLocalizing - beforeHop);
      double far = t1;
      xFar_ = x1_;
      double near = t0;
      while (far - near > kTimeTolerance) {
        const double mid = 0.5 * (near + far);
        integrator_->restart(t0, x0_);
        integrator_->advance(f_, mid, xMid_);
        ++result_.residuals;
        if (crossed(x0_, xMid_)) {
          far = mid;
          xFar_ = xMid_;
        } else {
          near = mid;
        }
      }
      result_.localizeDerivatives +=
          static_cast<std::uint64_t>(integrator_->statistics().rhsEvaluations - beforeLocalizing);
      // The impact at the bracket's far end (at most kTimeTolerance after the crossing), for
      // every ball that fell through 0 by then.
      for (Eigen::Index i = 0; i < n_; i += 2) {
        if (x0_[i] > 0.0 && xFar_[i] <= 0.0) {
          xFar_[i + 1] = -scenario_.restitution * xFar_[i + 1];
          result_.located.push_back(far);
        }
      }
      x0_.swap(xFar_);
      t0 = far;
    }
    result_.derivatives = static_cast<std::uint64_t>(integrator_->statistics().rhsEvaluations);
    return result_;
  }

 private:
  // True when some ball's height went from positive at the start to zero or below (falling).
  static bool crossed(const Eigen::VectorXd& start, const Eigen::VectorXd& end) {
    for (Eigen::Index i = 0; i < start.size(); i += 2) {
      if (start[i] > 0.0 && end[i] <= 0.0) return true;
    }
    return false;
  }

  const Scenario& scenario_;
  double hop_;
  Eigen::Index n_;
  std::unique_ptr<Integrator> integrator_;
  DerivativeFunction f_;
  Eigen::VectorXd x0_, x1_, xMid_, xFar_;
  RunResult result_;
};

void BM_BisectionBaseline(benchmark::State& state, bool hundred, const char* integrator,
                          double hop) {
  const Scenario s = makeScenario(hundred);
  BisectionBaseline baseline(s, integrator, hop);
  check("bisection baseline", s, baseline.run());
  for (auto _ : state) benchmark::DoNotOptimize(baseline.run().located.data());
  const RunResult& run = baseline.run();
  report(state, run, check("bisection baseline", s, run));
}

// Hops of 0.1 s for the variable-step methods (and of 0.01 s, the default period, in the
// rkf45 `_hop10ms` rows) and of 0.01 s (one step each) for rk4; cvode (BDF, Newton) restarts at
// every hop, or continues its history across hops in the `cvode_continued` rows
// (IntegratorOptions::continueAcrossHops), also with Adams and fixed-point iteration (no
// Jacobian; CVODE's setting for a non-stiff problem such as this) in `cvode_adams_continued`.
// The baseline uses the same
// integrator, tolerances and hop grid as the hopsim row it is compared with.
// The benchmark names are the captured tokens, spaces included: not for clang-format.
// clang-format off
#define HOPSIM_SCENARIOS(name, ...)                                              \
  BENCHMARK_CAPTURE(BM_Hopsim, ball/name, false, __VA_ARGS__)                    \
      ->Unit(benchmark::kMicrosecond)->UseRealTime();                            \
  BENCHMARK_CAPTURE(BM_Hopsim, balls100/name, true, __VA_ARGS__)                 \
      ->Unit(benchmark::kMicrosecond)->UseRealTime()
HOPSIM_SCENARIOS(rkf45_illinois, "rkf45", 0.1, RootFinder::Illinois);
HOPSIM_SCENARIOS(rkf45_bisection, "rkf45", 0.1, RootFinder::Bisection);
HOPSIM_SCENARIOS(cvode_illinois, "cvode", 0.1, RootFinder::Illinois);
HOPSIM_SCENARIOS(cvode_bisection, "cvode", 0.1, RootFinder::Bisection);
HOPSIM_SCENARIOS(cvode_continued_illinois, "cvode", 0.1, RootFinder::Illinois, true);
HOPSIM_SCENARIOS(cvode_adams_continued_illinois, "cvode", 0.1, RootFinder::Illinois, true, true);
HOPSIM_SCENARIOS(rk4_illinois, "rk4", 0.01, RootFinder::Illinois);
HOPSIM_SCENARIOS(rk4_bisection, "rk4", 0.01, RootFinder::Bisection);
HOPSIM_SCENARIOS(rkf45_hop10ms_illinois, "rkf45", 0.01, RootFinder::Illinois);

#define HOPSIM_BASELINE(name, ...)                                               \
  BENCHMARK_CAPTURE(BM_BisectionBaseline, ball/name, false, __VA_ARGS__)         \
      ->Unit(benchmark::kMicrosecond)->UseRealTime();                            \
  BENCHMARK_CAPTURE(BM_BisectionBaseline, balls100/name, true, __VA_ARGS__)      \
      ->Unit(benchmark::kMicrosecond)->UseRealTime()
HOPSIM_BASELINE(rkf45, "rkf45", 0.1);
HOPSIM_BASELINE(cvode, "cvode", 0.1);
HOPSIM_BASELINE(rk4, "rk4", 0.01);
HOPSIM_BASELINE(rkf45_hop10ms, "rkf45", 0.01);
// clang-format on

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN()
