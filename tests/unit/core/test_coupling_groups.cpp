// The coupling groups the executive gives the integrator: models joined by signals (or the
// multibody system) share a group, others do not, and cvode's Jacobian perturbs one state of every
// group at once. References: the same scenario with the models joined, which must give the same
// bits with more derivative evaluations.

#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "continuous_test_models.h"
#include "hopsim/core/simulation.h"

namespace hopsim::test {
namespace {

/// x' = leader.x - x: reads another model's state through a C++ reference, outside the signals,
/// which the executive cannot see.
class Follower final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Follower", ModelKind::Continuous, "x' = leader.x - x") {}
    ContinuousStateKey<double> x = continuousState<double>("x").defaultValue(0.0);
  };
  HOPSIM_TEST_DECLARATION
  Follower(std::string name, const MassSpring& leader)
      : ContinuousModel(std::move(name), declaration()), leader_(leader) {}
  void postDeriv(double) override { derivative(d_.x) = leader_.x() - state(d_.x); }

 private:
  const Declaration& d_ = declaration();
  const MassSpring& leader_;
};

struct Outcome {
  std::array<double, 4> states{};
  std::uint64_t evaluations = 0;
};

/// Three springs (k = 1, 4, 9 N/m) and, with `follower`, a follower of the first: 2 s of cvode
/// restarted at every 10 ms hop. `joined`: the springs write slices of one signal, which puts
/// them in one group.
Outcome runSprings(bool joined, bool follower) {
  IntegratorOptions options;
  options.relativeTolerance = 1e-10;
  options.absoluteTolerance = 1e-12;
  Simulation sim({.integrator = "cvode", .integratorOptions = options});
  if (joined) sim.addSignal("positions", ElementType::Double, 3);
  std::array<MassSpring*, 3> springs{};
  for (int i = 0; i < 3; ++i) {
    const std::string name = "s" + std::to_string(i);
    springs[static_cast<std::size_t>(i)] = &sim.addModel<MassSpring>(name);
    sim.set("models." + name + ".params.k", double((i + 1) * (i + 1)));
    if (joined) {
      sim.tie(name, "position", "positions", static_cast<std::size_t>(i), 1);
    } else {
      sim.addSignal(name + "_x", ElementType::Double);
      sim.tie(name, "position", name + "_x");
    }
  }
  if (follower) sim.addModel<Follower>("follower", *springs[0]);
  sim.lock();
  sim.advanceTimeTo(2.0);
  Outcome out;
  for (std::size_t i = 0; i < 3; ++i) out.states[i] = springs[i]->x();
  if (follower) out.states[3] = std::get<double>(sim.get("models.follower.continuousStates.x"));
  out.evaluations = sim.propagationStatistics().derivativeEvaluations;
  return out;
}

/// The springs' analytic positions cos(w t) at t = 2 s, and the follower's
/// (cos t + sin t - e^-t) / 2 (x' = cos t - x from 0), to 1e-7: rtol 1e-10 with 200 restarts,
/// each from order 1, leaves global errors of up to 2e-8 (the w = 3 rad/s spring).
void checkAnalytic(const Outcome& out, bool follower) {
  const double t = 2.0;
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(std::fabs(out.states[i] - std::cos(double(i + 1) * t)) < 1e-7);
  }
  if (follower) {
    CHECK(std::fabs(out.states[3] - 0.5 * (std::cos(t) + std::sin(t) - std::exp(-t))) < 1e-7);
  }
}

}  // namespace

TEST_CASE("cvode's Jacobian across models: one evaluation per color, the same bits") {
  // Separate signals: three groups of two states, so a Jacobian costs 2 evaluations instead of
  // 6. The same springs on slices of one signal share a group: the same bits, more evaluations
  // (each hop restarts cvode and so builds a Jacobian: 4 evaluations fewer, except the first,
  // which checks the groups column by column).
  const Outcome separate = runSprings(false, false);
  const Outcome joined = runSprings(true, false);
  CHECK(separate.states == joined.states);
  MESSAGE("three springs, 200 hops: " << separate.evaluations << " evaluations in three groups, "
                                      << joined.evaluations << " in one");
  CHECK(joined.evaluations - separate.evaluations >= 199 * 4);
  checkAnalytic(separate, false);
}

TEST_CASE("cvode's Jacobian across models: a coupling outside the signals is found and kept") {
  // The follower reads the first spring outside the signals, so the groups from the signals
  // are wrong: the first Jacobian shows the coupling and every later one is built column by
  // column, so the run equals the joined one, bit for bit and evaluation for evaluation.
  const Outcome separate = runSprings(false, true);
  const Outcome joined = runSprings(true, true);
  CHECK(separate.states == joined.states);
  CHECK(separate.evaluations == joined.evaluations);
  checkAnalytic(separate, true);
}

}  // namespace hopsim::test
