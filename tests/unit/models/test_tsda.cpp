// Tsda against Chrono's force laws (reference/chrono-yaml-semantics.md A9), computed by hand.
// Two bodies on sliders carry the points; one explicit-Euler hop evaluates the derivatives once,
// at the state set before it, so U̇ of that evaluation is exactly F (u·axis) / m (a point mass on
// a slider has the mass matrix m and no velocity terms): the applied force is compared through
// it, to a relative 1e-12 (rounding only).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/models/tsda.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::RigidTransform;
using spatial::Vector3;
using test::pointMass;

constexpr double kMa = 2.0, kMb = 5.0;  // kg

/// Body a slides along x, body b along `axisB`; node p1 on a at `offsetA`, p2 on b at
/// `offsetB`; a Tsda "spring" joins them, its outputs on the signals L, Ld and F.
void build(Simulation& sim, ParamValues params, const Vector3& axisB = Vector3::UnitX(),
           const Vector3& offsetA = Vector3::Zero(), const Vector3& offsetB = Vector3::Zero()) {
  auto& tree = sim.multibody().editModel();
  const auto a = tree.addBody("a", kWorldBody, pointMass(kMa, Vector3::Zero()),
                              Hinge::slider(Vector3::UnitX()));
  const auto b =
      tree.addBody("b", kWorldBody, pointMass(kMb, Vector3::Zero()), Hinge::slider(axisB));
  tree.addNode("p1", a, RigidTransform::fromTranslation(offsetA));
  tree.addNode("p2", b, RigidTransform::fromTranslation(offsetB));
  params.emplace_back("node1", std::string("p1"));
  params.emplace_back("node2", std::string("p2"));
  sim.addModel(models::standardRegistry().create("Tsda", "spring", params));
  for (const char* s : {"L", "Ld", "F"}) sim.addSignal(s, ElementType::Double);
  sim.tie("spring", "length", "L");
  sim.tie("spring", "speed", "Ld");
  sim.tie("spring", "force", "F");
}

/// The force F the law applies with both points on the x axis, a at xa moving at va and b at
/// xb < xa moving at vb (so u = +x, L = xa - xb, L̇ = va - vb): F = m_a U̇_a = -m_b U̇_b of one
/// Euler evaluation. Also checks that the two accelerations agree, and the outputs of the end
/// of the hop (at the state Euler reached).
double collinearForce(const ParamValues& params, double xa, double xb, double va, double vb) {
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  build(sim, params);
  sim.multibody().q() << xa, xb;
  sim.multibody().u() << va, vb;
  sim.lock();
  sim.advanceOverHop();
  const double f = kMa * sim.multibody().udot()[0];
  CHECK(-kMb * sim.multibody().udot()[1] == doctest::Approx(f).epsilon(1e-12));
  const double L = sim.multibody().q()[0] - sim.multibody().q()[1];
  CHECK(std::get<double>(sim.get("signals.L")) == doctest::Approx(L).epsilon(1e-12));
  const double Ld = sim.multibody().u()[0] - sim.multibody().u()[1];
  CHECK(std::get<double>(sim.get("signals.Ld")) == doctest::Approx(Ld).epsilon(1e-12));
  return f;
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::max(1.0, std::fabs(b)); }

}  // namespace

TEST_CASE("Tsda LINEAR: F = P - k (L - L0) - c L'") {
  const ParamValues p{{"law", std::string("linear")},
                      {"stiffness", 100.0},
                      {"damping", 5.0},
                      {"free_length", 1.0},
                      {"preload", 20.0}};
  // L = 1.3, L' = 0.5: 20 - 100 * 0.3 - 5 * 0.5 = -12.5 (pulls together).
  CHECK(near(collinearForce(p, 1.5, 0.2, 0.4, -0.1), -12.5));
  // L = 0.8, L' = -0.2: 20 + 20 + 1 = 41.
  CHECK(near(collinearForce(p, 0.3, -0.5, -0.1, 0.1), 41.0));
}

TEST_CASE("Tsda DAMPER: F = -c L', ignoring k, L0 and P") {
  const ParamValues p{{"law", std::string("DAMPER")},
                      {"stiffness", 100.0},
                      {"damping", 5.0},
                      {"free_length", 1.0},
                      {"preload", 20.0}};
  CHECK(near(collinearForce(p, 1.5, 0.2, 0.4, -0.1), -2.5));
  CHECK(near(collinearForce(p, 1.5, 0.2, -0.4, 0.1), 2.5));
}

TEST_CASE("Tsda DEGRESSIVE: -c L' / (1 + de L') in expansion, -c L' / (1 - dc L') in compression") {
  const ParamValues p{{"law", std::string("Degressive")},
                      {"damping", 8.0},
                      {"degressivity_expansion", 2.0},
                      {"degressivity_compression", 3.0},
                      {"preload", 20.0}};
  CHECK(near(collinearForce(p, 1.5, 0.2, 0.4, -0.1), -8.0 * 0.5 / (1.0 + 2.0 * 0.5)));  // -2
  CHECK(near(collinearForce(p, 1.5, 0.2, -0.4, 0.1), 8.0 * 0.5 / (1.0 + 3.0 * 0.5)));   // 1.6
  CHECK(near(collinearForce(p, 1.5, 0.2, 0.3, 0.3), 0.0));
}

TEST_CASE("Tsda CURVES: P - Kt(L - L0) - Ct(L'), interpolated and clamped") {
  const ParamValues p{{"law", std::string("CURVES")},
                      {"spring_curve", std::vector<double>{-0.5, -100, 0, 0, 0.5, 40, 1.0, 60}},
                      {"damping_curve", std::vector<double>{-1, -10, 1, 10}},
                      {"free_length", 1.0},
                      {"preload", 20.0}};
  // L - L0 = 0.3: Kt = 0.6 * 40 = 24; L' = 0.5: Ct = 5.
  CHECK(near(collinearForce(p, 1.5, 0.2, 0.4, -0.1), 20.0 - 24.0 - 5.0));
  // L - L0 = -0.25: Kt = -50; L' = -3: Ct clamped to -10.
  CHECK(near(collinearForce(p, 0.55, -0.2, -2.0, 1.0), 20.0 + 50.0 + 10.0));
  // L - L0 = 2.2 and L' = 3: both clamped at their upper ends.
  CHECK(near(collinearForce(p, 3.0, -0.2, 2.0, -1.0), 20.0 - 60.0 - 10.0));
  // Without a damping curve, Ct is zero.
  const ParamValues springOnly{{"law", std::string("CURVES")},
                               {"spring_curve", std::vector<double>{0, 0, 1, 100}},
                               {"preload", 1.0}};
  CHECK(near(collinearForce(springOnly, 0.5, 0.0, 3.0, 0.0), 1.0 - 50.0));
}

TEST_CASE("Tsda DAMPER_CURVE: -Ct(L'), ignoring P") {
  const ParamValues p{{"law", std::string("damper_curve")},
                      {"damping_curve", std::vector<double>{-1, -10, 0, 0, 1, 30}},
                      {"preload", 20.0}};
  CHECK(near(collinearForce(p, 1.5, 0.2, 0.4, -0.1), -15.0));
  CHECK(near(collinearForce(p, 1.5, 0.2, -0.2, 0.0), 2.0));
}

TEST_CASE("Tsda MAP: P - M(L, L'), bilinear inside, linear extrapolation outside, L not L - L0") {
  // Columns L = 1, 2, 4; rows L' = -1 (10, 20, 60) and 1 (30, 40, 100).
  const ParamValues p{{"law", std::string("MAP")},
                      {"map_lengths", std::vector<double>{1, 2, 4}},
                      {"map_speeds", std::vector<double>{-1, 1}},
                      {"map_forces", std::vector<double>{10, 20, 60, 30, 40, 100}},
                      {"free_length", 0.7},
                      {"preload", 5.0},
                      {"length_limits", std::vector<double>{1.9, 2.1}}};
  // Inside, L = 1.5, L' = 0: (15 + 35) / 2 = 25. The stops never act on a map.
  CHECK(near(collinearForce(p, 1.5, 0.0, 0.0, 0.0), 5.0 - 25.0));
  // At a grid point, L = 4, L' = 1: 100.
  CHECK(near(collinearForce(p, 4.5, 0.5, 1.0, 0.0), 5.0 - 100.0));
  // Beyond both ends, L = 5, L' = 3: columns 2-4 at weight 1.5 give 80 and 130; rows at
  // weight 2 give 80 + 2 * 50 = 180.
  CHECK(near(collinearForce(p, 5.0, 0.0, 3.0, 0.0), 5.0 - 180.0));
  // Below both ends, L = 0.5, L' = -2: weights -0.5 give 5 and 25, then 5 - 0.5 * 20 = -5.
  CHECK(near(collinearForce(p, 0.5, 0.0, -2.0, 0.0), 5.0 + 5.0));
}

TEST_CASE("Tsda stops: Chrono's overshoot table (mm to N), only with length limits") {
  const ParamValues stops{{"law", std::string("LINEAR")},
                          {"length_limits", std::vector<double>{1.0, 2.0}}};
  CHECK(near(collinearForce(stops, 1.5, 0.0, 0.0, 0.0), 0.0));
  CHECK(near(collinearForce(stops, 0.995, 0.0, 0.0, 0.0), 500.0));     // 5 mm short
  CHECK(near(collinearForce(stops, 0.97, 0.0, 0.0, 0.0), 4500.0));     // 30 mm short
  CHECK(near(collinearForce(stops, 0.955, 0.0, 0.0, 0.0), 10000.0));   // 45 mm: 7500 + 2500
  CHECK(near(collinearForce(stops, 2.015, 0.0, 0.0, 0.0), -1750.0));   // 15 mm long
  CHECK(near(collinearForce(stops, 2.055, 0.0, 0.0, 0.0), -68750.0));  // 55 mm: halfway 50-60
  CHECK(near(collinearForce(stops, 2.1, 0.0, 0.0, 0.0), -125000.0));   // 100 mm: clamped
  // The stops add to the spring law, and to the curves.
  const ParamValues linear{{"law", std::string("LINEAR")},
                           {"stiffness", 10.0},
                           {"free_length", 1.5},
                           {"length_limits", std::vector<double>{1.0, 2.0}}};
  CHECK(near(collinearForce(linear, 0.995, 0.0, 0.0, 0.0), 5.05 + 500.0));
  const ParamValues curves{{"law", std::string("CURVES")},
                           {"spring_curve", std::vector<double>{0, 0, 1, 10}},
                           {"length_limits", std::vector<double>{1.0, 2.0}}};
  CHECK(near(collinearForce(curves, 2.015, 0.0, 0.0, 0.0), -10.0 - 1750.0));
  // One-sided limits stop on one side only; without limits, or for a damper, there are none.
  const ParamValues floor{{"length_limits", std::vector<double>{1.0, models::Tsda::kInfinity}}};
  CHECK(near(collinearForce(floor, 0.995, 0.0, 0.0, 0.0), 500.0));
  CHECK(near(collinearForce(floor, 1e6, 0.0, 0.0, 0.0), 0.0));
  CHECK(near(collinearForce({{"law", std::string("LINEAR")}}, 0.9, 0.0, 0.0, 0.0), 0.0));
  const ParamValues damper{{"law", std::string("DAMPER")},
                           {"damping", 1.0},
                           {"length_limits", std::vector<double>{1.0, 2.0}}};
  CHECK(near(collinearForce(damper, 0.9, 0.0, 1.0, 0.0), -1.0));
}

TEST_CASE("Tsda sign and direction: +F u on body1 and -F u on body2, u = unit(p1 - p2)") {
  // a slides along x with p1 at (xa, 0.3, 0); b along y with p2 at (0, yb, 0.4).
  const double xa = 0.6, yb = -0.5, va = 0.7, vb = -0.2;
  const double k = 40.0, c = 3.0, L0 = 0.5, P = 2.0;
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  build(sim, {{"stiffness", k}, {"damping", c}, {"free_length", L0}, {"preload", P}},
        Vector3::UnitY(), Vector3(0, 0.3, 0), Vector3(0, 0, 0.4));
  sim.multibody().q() << xa, yb;
  sim.multibody().u() << va, vb;
  sim.lock();
  sim.advanceOverHop();
  const Vector3 d(xa, 0.3 - yb, -0.4);  // p1 - p2
  const Vector3 u = d.normalized();
  const double L = d.norm(), Ld = u.dot(Vector3(va, -vb, 0.0));
  const double F = P - k * (L - L0) - c * Ld;
  CHECK(sim.multibody().udot()[0] == doctest::Approx(F * u.x() / kMa).epsilon(1e-12));
  CHECK(sim.multibody().udot()[1] == doctest::Approx(-F * u.y() / kMb).epsilon(1e-12));
  // A pure preload pushes apart: a (ahead along x) speeds up along +x, b backs off.
  Simulation push({.ioStepSize = 1e-3, .integrator = "euler"});
  build(push, {{"preload", 10.0}});
  push.multibody().q() << 1.0, 0.0;
  push.lock();
  push.advanceOverHop();
  CHECK(push.multibody().udot()[0] == doctest::Approx(10.0 / kMa).epsilon(1e-12));
  CHECK(push.multibody().udot()[1] == doctest::Approx(-10.0 / kMb).epsilon(1e-12));
  CHECK(std::get<double>(push.get("signals.F")) == 10.0);
}

TEST_CASE("Tsda: an undamped LINEAR mass-spring oscillates at sqrt(k/m) and keeps its energy") {
  // A mass m on a slider, tied by the spring to a world node: x(t) = L0 + A cos(w t). rk4 at
  // 1 ms (w h = 0.007) has a phase error of order (w h)^4 / 120 per radian, about 2e-11, and an
  // energy error far below 1e-9; the period is measured between the velocity's downward zero
  // crossings, interpolated linearly between hops (v is linear there to O(h^3)).
  const double m = 2.0, k = 98.0, L0 = 1.0, A = 0.1, w = std::sqrt(k / m);
  Simulation sim({.ioStepSize = 1e-3, .integrator = "rk4"});
  auto& tree = sim.multibody().editModel();
  const auto body = tree.addBody("mass", kWorldBody, pointMass(m, Vector3::Zero()),
                                 Hinge::slider(Vector3::UnitX()));
  tree.addNode("anchor", kWorldBody, RigidTransform());
  tree.addNode("hook", body, RigidTransform());
  sim.addModel(models::standardRegistry().create("Tsda", "spring",
                                                 {{"node1", std::string("hook")},
                                                  {"node2", std::string("anchor")},
                                                  {"stiffness", k},
                                                  {"free_length", L0}}));
  for (const char* s : {"L", "Ld", "F"}) sim.addSignal(s, ElementType::Double);
  sim.tie("spring", "length", "L");
  sim.tie("spring", "speed", "Ld");
  sim.tie("spring", "force", "F");
  sim.multibody().q()[0] = L0 + A;
  sim.lock();
  const auto energy = [&] {
    const double x = sim.multibody().q()[0], v = sim.multibody().u()[0];
    return 0.5 * m * v * v + 0.5 * k * (x - L0) * (x - L0);
  };
  const double e0 = energy();
  std::vector<double> crossings;  // where v goes from positive to negative: the maxima of x
  double tPrev = 0.0, vPrev = 0.0;
  const double period = 2.0 * std::numbers::pi / w;
  while (sim.time() < 5.2 * period) {
    sim.advanceOverHop();
    const double t = sim.time(), v = sim.multibody().u()[0];
    if (vPrev > 0.0 && v <= 0.0) crossings.push_back(tPrev + vPrev / (vPrev - v) * (t - tPrev));
    tPrev = t;
    vPrev = v;
    REQUIRE(std::fabs(energy() - e0) < 1e-9 * e0);
  }
  REQUIRE(crossings.size() == 5);
  const double measured = 2.0 * std::numbers::pi * 4.0 / (crossings.back() - crossings.front());
  CHECK(std::fabs(measured / w - 1.0) < 1e-6);
  CHECK(std::fabs(sim.multibody().q()[0] - (L0 + A * std::cos(w * sim.time()))) < 1e-8);
}

TEST_CASE("Tsda rejects bad laws, curves, maps, limits and nodes with clear messages") {
  const auto lockWith = [](const ParamValues& params) {
    Simulation sim({.ioStepSize = 1e-3});
    build(sim, params);
    sim.lock();
  };
  CHECK_THROWS_WITH_AS(lockWith({{"law", std::string("LINEAER")}}),
                       doctest::Contains("models.spring.params.law: unknown law 'LINEAER' "
                                         "(expected LINEAR, DAMPER, DEGRESSIVE, CURVES, "
                                         "DAMPER_CURVE, MAP"),
                       InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"spring_curve", std::vector<double>{0, 1, 2}}}),
                       doctest::Contains("spring_curve: a curve is [x0, y0, x1, y1, ...] with at "
                                         "least one point, but 3 values were given"),
                       InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"damping_curve", std::vector<double>{0, 1, 1, 2, 1, 3}}}),
                       doctest::Contains("damping_curve: x must be strictly increasing, but "
                                         "point 2"),
                       InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"spring_curve", std::vector<double>{1, 0, 0, 1}}}),
                       doctest::Contains("x must be strictly increasing"), InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"law", std::string("MAP")},
                                 {"map_lengths", std::vector<double>{1}},
                                 {"map_forces", std::vector<double>{1, 2}}}),
                       doctest::Contains("map_lengths: at least 2 values are needed, 1 were "
                                         "given"),
                       InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"law", std::string("MAP")},
                                 {"map_lengths", std::vector<double>{1, 2}},
                                 {"map_speeds", std::vector<double>{0, 0}},
                                 {"map_forces", std::vector<double>{1, 2, 3, 4}}}),
                       doctest::Contains("map_speeds: values must be strictly increasing"),
                       InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"law", std::string("MAP")},
                                 {"map_lengths", std::vector<double>{1, 2, 3}},
                                 {"map_speeds", std::vector<double>{0, 1}},
                                 {"map_forces", std::vector<double>{1, 2, 3, 4}}}),
                       doctest::Contains("map_forces: the map has 2 speeds by 3 lengths, so 6 "
                                         "forces, but 4 were given"),
                       InputError);
  CHECK_THROWS_AS(lockWith({{"length_limits", std::vector<double>{1.0}}}), InputError);
  CHECK_THROWS_WITH_AS(lockWith({{"length_limits", std::vector<double>{2.0, 1.0}}}),
                       doctest::Contains("length_limits: expected [min, max] with min < max "
                                         "(either may be infinite, on its own side), got [2, 1]"),
                       InputError);
  CHECK_THROWS_AS(lockWith({{"length_limits", std::vector<double>{models::Tsda::kInfinity,
                                                                  models::Tsda::kInfinity}}}),
                  InputError);
  // Bounds are checked when set.
  CHECK_THROWS_WITH_AS(lockWith({{"damping", -1.0}}), doctest::Contains("below the lower bound"),
                       InputError);

  Simulation sim({.ioStepSize = 1e-3});
  build(sim, {});
  sim.set("models.spring.params.node2", std::string("p3"));
  CHECK_THROWS_WITH_AS(sim.lock(),
                       doctest::Contains("model 'spring' (Tsda): node2 'p3' is not a node (did "
                                         "you mean"),
                       ModelError);
  sim.multibody().editModel().addNode("p1b", sim.multibody().model().bodyIndex("a"),
                                      RigidTransform());
  sim.set("models.spring.params.node2", std::string("p1b"));
  CHECK_THROWS_WITH_AS(
      sim.lock(), doctest::Contains("node1 'p1' and node2 'p1b' are both on body 'a'"), ModelError);
  // A law set after lock() is checked before the next hop.
  sim.set("models.spring.params.node2", std::string("p2"));
  sim.lock();
  sim.advanceOverHop();
  sim.set("models.spring.params.law", std::string("spring"));
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(), doctest::Contains("unknown law 'spring'"), InputError);
}

}  // namespace hopsim
