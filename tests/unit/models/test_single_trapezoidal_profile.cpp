// SingleTrapezoidalProfile against profiles written out by hand: rest-to-rest over D with
// bounds a and v takes T = D/v + v/a (D >= v²/a: accelerate for v/a, coast, decelerate for
// v/a) or T = 2 sqrt(D/a) (peak sqrt(a D)); new commands mid-move continue from the current
// coordinate and rate. The outputs are evaluated in closed form, so they are compared to 1e-12
// (rounding) at every 10 ms hop.

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <string>

#include "hopsim/core/simulation.h"
#include "hopsim/models/single_trapezoidal_profile.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

constexpr double kTol = 1e-12;

/// The model with its inputs on "a", "v", "d" and outputs on "x", "xd", "xdd", "done".
Simulation& build(Simulation& sim, double a, double v, double d) {
  sim.addModel<models::SingleTrapezoidalProfile>("profile");
  for (const char* s : {"a", "v", "d", "x", "xd", "xdd"}) sim.addSignal(s, ElementType::Double);
  sim.addSignal("done", ElementType::Int);
  sim.tie("profile", "accel", "a");
  sim.tie("profile", "maxVel", "v");
  sim.tie("profile", "coord", "d");
  sim.tie("profile", "profile_coord", "x");
  sim.tie("profile", "profile_rate", "xd");
  sim.tie("profile", "profile_accel", "xdd");
  sim.tie("profile", "status", "done");
  sim.set("signals.a", a);
  sim.set("signals.v", v);
  sim.set("signals.d", d);
  return sim;
}

double value(const Simulation& sim, const char* name) {
  return std::get<double>(sim.get(std::string("signals.") + name));
}

struct Expected {
  double x, v, a;
};

/// Advances hop by hop to `until`, checking the outputs at each hop end against `expected`.
void follow(Simulation& sim, double until, const std::function<Expected(double)>& expected,
            double doneAfter) {
  while (sim.time() < until - 1e-9) {
    sim.advanceOverHop();
    const double t = sim.time();
    const Expected e = expected(t);
    CAPTURE(t);
    REQUIRE(std::fabs(value(sim, "x") - e.x) < kTol * 10);
    REQUIRE(std::fabs(value(sim, "xd") - e.v) < kTol * 10);
    // At a phase boundary the acceleration is the next phase's; hops land on the boundaries
    // only up to rounding, so the acceleration is checked away from them.
    REQUIRE(std::get<std::int64_t>(sim.get("signals.done")) == (t >= doneAfter - 1e-9 ? 1 : 0));
    if (std::fabs(value(sim, "xdd") - e.a) > kTol) {
      REQUIRE(std::fabs(std::fmod(t + 1e-9, 0.5)) < 2e-9);
    }
  }
}

}  // namespace

TEST_CASE("SingleTrapezoidalProfile: rest to rest with a coast, T = D/v + v/a") {
  // a = 2, v = 1, D = 3 >= v²/a = 0.5: accelerate 0.5 s, coast 2.5 s, decelerate 0.5 s.
  const double a = 2.0, v = 1.0, D = 3.0, T = D / v + v / a;
  Simulation sim({.ioStepSize = 0.01});
  build(sim, a, v, D).lock();
  follow(
      sim, T + 0.2,
      [&](double t) -> Expected {
        if (t < v / a) return {0.5 * a * t * t, a * t, a};
        if (t < T - v / a) return {v * v / (2 * a) + v * (t - v / a), v, 0.0};
        if (t < T) return {D - 0.5 * a * (T - t) * (T - t), a * (T - t), -a};
        return {D, 0.0, 0.0};
      },
      T);
}

TEST_CASE("SingleTrapezoidalProfile: a short move never coasts, T = 2 sqrt(D/a)") {
  // a = 2, v = 5, Δ = -0.5: D = 0.5 < v²/a, so T = 2 sqrt(0.25) = 1 with the peak 1 < v.
  const double a = 2.0, D = 0.5, T = 2.0 * std::sqrt(D / a);
  Simulation sim({.ioStepSize = 0.01});
  build(sim, a, 5.0, -D).lock();
  follow(
      sim, T + 0.1,
      [&](double t) -> Expected {
        if (t < T / 2) return {-0.5 * a * t * t, -a * t, -a};
        if (t < T) return {-D + 0.5 * a * (T - t) * (T - t), -a * (T - t), a};
        return {-D, 0.0, 0.0};
      },
      T);
}

TEST_CASE("SingleTrapezoidalProfile: new commands mid-move continue from the current state") {
  const double a = 2.0, v = 1.0;
  // From the coast at x = 0.75, x' = 1 at t = 1: braking at a to rest at x = 1 by t = 1.5.
  const auto brakeToOne = [&](double t) -> Expected {
    if (t < 1.5) return {0.75 + (t - 1) - (t - 1) * (t - 1), 1 - a * (t - 1), -a};
    return {1.0, 0.0, 0.0};
  };
  SUBCASE("a shorter move decelerates at once; the next move starts from its end") {
    Simulation sim({.ioStepSize = 0.01});
    build(sim, a, v, 3.0).lock();
    sim.advanceTimeTo(1.0);  // coasting: x = 0.75, x' = 1
    CHECK(value(sim, "x") == doctest::Approx(0.75).epsilon(kTol));
    // Δ = 1 from the profile origin 0: the stopping distance 0.25 is exactly what is left.
    sim.set("signals.d", 1.0);
    follow(sim, 2.0, brakeToOne, 1.5);
    // Done at 1: the next change Δ = 2 moves from 1 to 3, rest to rest from t = 2.
    sim.set("signals.d", 2.0);
    follow(
        sim, 5.0,
        [&](double t) -> Expected {
          const double s = t - 2.0, T = 2.0 / v + v / a;
          if (s < 0.5) return {1.0 + 0.5 * a * s * s, a * s, a};
          if (s < T - 0.5) return {1.25 + v * (s - 0.5), v, 0.0};
          if (s < T) return {3.0 - 0.5 * a * (T - s) * (T - s), a * (T - s), -a};
          return {3.0, 0.0, 0.0};
        },
        4.5);
  }
  SUBCASE("a reversal stops, returns at the speed bound and stops on the new target") {
    Simulation sim({.ioStepSize = 0.01});
    build(sim, a, v, 3.0).lock();
    sim.advanceTimeTo(1.0);
    sim.set("signals.d", -1.0);
    // Stop at 1.0 after 0.5 s, back to -1 m/s by t = 2 (x = 0.75), coast to -0.75 by 3.5,
    // decelerate to rest at -1 at t = 4.
    follow(
        sim, 4.3,
        [&](double t) -> Expected {
          if (t < 2.0) return {1.0 - (t - 1.5) * (t - 1.5), -a * (t - 1.5), -a};
          if (t < 3.5) return {0.75 - (t - 2.0), -1.0, 0.0};
          if (t < 4.0) return {-1.0 + (4.0 - t) * (4.0 - t), -a * (4.0 - t), a};
          return {-1.0, 0.0, 0.0};
        },
        4.0);
  }
  SUBCASE("maxVel = 0 brakes to rest") {
    Simulation sim({.ioStepSize = 0.01});
    build(sim, a, v, 3.0).lock();
    sim.advanceTimeTo(1.0);
    sim.set("signals.v", 0.0);
    follow(sim, 2.0, brakeToOne, 1.5);
    CHECK(std::get<double>(sim.get("models.profile.discreteStates.end_coord")) == 1.0);
  }
}

TEST_CASE("SingleTrapezoidalProfile: relativeMode goes the short way round, bad bounds fail") {
  {
    // Δ = 3π/2 is -π/2 the short way: a rest-to-rest move of D = π/2 downwards.
    Simulation sim({.ioStepSize = 0.01});
    build(sim, 2.0, 1.0, 1.5 * std::numbers::pi);
    sim.set("models.profile.params.relativeMode", true);
    sim.lock();
    sim.advanceTimeTo(3.0);
    CHECK(value(sim, "x") == doctest::Approx(-0.5 * std::numbers::pi).epsilon(kTol));
    CHECK(std::get<std::int64_t>(sim.get("signals.done")) == 1);
  }
  Simulation sim({.ioStepSize = 0.01});
  build(sim, 0.0, 1.0, 2.0).lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       doctest::Contains("model 'profile' (SingleTrapezoidalProfile): a command "
                                         "needs accel > 0 and maxVel >= 0, got accel = 0"),
                       InputError);
}

}  // namespace hopsim
