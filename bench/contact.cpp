// Cost of smooth contact (docs/performance.md#smooth-contact): one 1 ms hop, rk4 with one
// sub-step, of N free spheres resting in a pile on a static box ground, for N = 10, 100, 1000.
// A hop is four derivative evaluations, each running SmoothContact::preDeriv (collision
// detection and contact forces) before the multibody dynamics, plus the contact model's output
// updates and its end-of-step detection that advances the friction state. Reported per hop, per
// body and per contact so that the growth from 10 to 1000 spheres shows how contact scales.
// BM_SpherePileWithoutContact runs the same bodies without the contact model (they fall
// freely; the dynamics cost does not depend on the poses): the difference is contact's share.
//
// The pile is columns of spheres stacked on a square lattice, one sphere per column per layer.
// A pile whose spheres rest in the pockets of the layer below is not used: SmoothContact has no
// rolling resistance, so such a pile is a mechanism, its spheres roll apart and never come to
// rest, and its contact count would drift while it is timed. In an exactly vertical column every
// contact force is along z, so the pile comes to rest (speeds below 1e-5 m/s after the settling
// time) with one contact per sphere, with the sphere below or the ground.

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "bench_context.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/smooth_contact.h"

namespace hopsim::bench {
namespace {

using models::ShapeType;
using models::SmoothContact;
using multibody::Hinge;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

constexpr double kHop = 1e-3;        // s
constexpr double kRadius = 0.05;     // m
constexpr double kMass = 0.1;        // kg
constexpr double kSpacing = 0.11;    // m between columns: 1 cm between neighbouring spheres
constexpr double kDropGap = 1e-4;    // m between a sphere and the one below (or the ground)
constexpr int kLayers = 4;           // spheres per full column
constexpr double kSettleTime = 0.5;  // s before timing

/// N free spheres in columns on a square lattice of side ⌈√(N / kLayers)⌉, filled layer by
/// layer from the ground up; with `contact`, a SmoothContact "contact" between the spheres and a
/// 10 m x 10 m x 1 m static box whose top face is z = 0.
void buildPile(Simulation& sim, int spheres, bool contact) {
  auto& tree = sim.multibody().editModel();
  tree.setGravity({0, 0, -9.81});
  const SpatialInertia inertia = SpatialInertia::fromCmInertia(
      kMass, Vector3::Zero(), 0.4 * kMass * kRadius * kRadius * Matrix3::Identity());
  for (int i = 0; i < spheres; ++i) {
    tree.addBody("sphere" + std::to_string(i), multibody::kWorldBody, inertia,
                 Hinge::full6DofInertial());
  }
  if (contact) {
    auto& model = sim.addModel<SmoothContact>("contact");
    for (const char* output :
         {"contact_count", "max_penetration", "normal_force", "friction_force"}) {
      sim.addSignal(output, ElementType::Double);
      sim.tie("contact", output, output);
    }
    const int material =
        model.addMaterial("m", {.friction = 0.5, .restitution = 0.3, .youngModulus = 1e7});
    model.addShape({.type = ShapeType::Box,
                    .body = "world",
                    .X_BS = RigidTransform::fromTranslation({0, 0, -0.5}),
                    .dimensions = Vector3(10, 10, 1),
                    .material = material});
    for (int i = 0; i < spheres; ++i) {
      model.addShape({.type = ShapeType::Sphere,
                      .body = "sphere" + std::to_string(i),
                      .radius = kRadius,
                      .material = material});
    }
    // One contact per sphere at rest; twice that leaves room for the settling.
    model.setParam("max_contacts", std::int64_t{2 * spheres});
  }
  sim.lock();
  const int side = static_cast<int>(std::ceil(std::sqrt(spheres / static_cast<double>(kLayers))));
  const double centre = 0.5 * (side - 1);
  for (int k = 0; k < spheres; ++k) {
    const int i = k % side, j = k / side % side, layer = k / (side * side);
    sim.multibody().q(k + 1) << 1, 0, 0, 0, (i - centre) * kSpacing, (j - centre) * kSpacing,
        kRadius + kDropGap + layer * (2 * kRadius + kDropGap);
  }
}

/// Time per hop, and per body and per contact in that hop. kIsIterationInvariantRate divides
/// value * iterations by the measured time and kInvert turns the rate into seconds per unit; the
/// console prints them with an SI prefix ("1.2us"), JSON and CSV in plain seconds.
void report(benchmark::State& state, int spheres, double contacts) {
  const auto kSecondsPer =
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert;
  state.counters["bodies"] = spheres;
  state.counters["per_hop"] = benchmark::Counter(1.0, kSecondsPer);
  state.counters["per_body"] = benchmark::Counter(spheres, kSecondsPer);
  if (contacts > 0.0) {
    state.counters["contacts"] = contacts;
    state.counters["per_contact"] = benchmark::Counter(contacts, kSecondsPer);
  }
}

void BM_SpherePile(benchmark::State& state) {
  const int spheres = static_cast<int>(state.range(0));
  Simulation sim({.ioStepSize = kHop, .integrationSteps = 1, .integrator = "rk4"});
  buildPile(sim, spheres, true);
  sim.advanceTimeBy(kSettleTime);
  const double contacts = std::get<double>(sim.get("signals.contact_count"));

  for (auto _ : state) sim.advanceTimeBy(kHop);

  // The per-contact figure divides by one count: the pile must have been at rest throughout.
  if (contacts != spheres || std::get<double>(sim.get("signals.contact_count")) != contacts) {
    state.SkipWithError("the pile is not at rest with one contact per sphere");
    return;
  }
  report(state, spheres, contacts);
}

void BM_SpherePileWithoutContact(benchmark::State& state) {
  const int spheres = static_cast<int>(state.range(0));
  Simulation sim({.ioStepSize = kHop, .integrationSteps = 1, .integrator = "rk4"});
  buildPile(sim, spheres, false);
  sim.advanceTimeBy(kHop);  // warm

  for (auto _ : state) sim.advanceTimeBy(kHop);

  report(state, spheres, 0.0);
}

BENCHMARK(BM_SpherePile)->ArgName("spheres")->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_SpherePileWithoutContact)->ArgName("spheres")->Arg(10)->Arg(100)->Arg(1000);

}  // namespace
}  // namespace hopsim::bench

HOPSIM_BENCHMARK_MAIN()
