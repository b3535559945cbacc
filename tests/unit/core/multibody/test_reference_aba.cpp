// Every kernel of the articulated-body recursion against the plain reference ABA of
// reference_aba.h (Featherstone's textbook algorithm, general motion subspaces, no fast path) on
// seeded random trees with every hinge type, in the CPU kernel variant this process runs (ctest
// runs these tests once in the default variant, x86-64-v3 where the CPU has it, and once with
// HOPSIM_CPU_KERNELS=generic); and the kernel each body gets, kept up to date by the model.
//
// Tolerance: 1e-9 of the accelerations' size, max |U̇ - U̇_ref| / (1 + max |U̇_ref|). The two are
// exact O(N) recursions in different frames (the library's tree frame R, the reference's joint
// frames) with different operation orders, so they agree to round-off, which grows with depth
// and with the conditioning of the random trees (GIMBAL joints up to 1.5 rad from gimbal lock,
// masses and inertias over a decade and more): the worst case observed over these trees, which
// the test reports, is 1.0e-11 for aba and 8.2e-11 for hybrid dynamics; 1e-9 leaves an order of
// magnitude for other compilers and variants, while any wrong term of a kernel (a missing
// velocity product, a mis-moved column) shows at 1e-3 or more.

#include <doctest/doctest.h>

#include <array>
#include <string>

#include "hopsim/core/cpu_kernels.h"
#include "hopsim/core/multibody/aba.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "multibody_test_support.h"
#include "reference_aba.h"

namespace hopsim::multibody {
namespace {

constexpr double kTolerance = 1e-9;

double relativeError(const Eigen::VectorXd& a, const Eigen::VectorXd& reference) {
  if (a.size() == 0) return 0.0;
  return (a - reference).cwiseAbs().maxCoeff() / (1.0 + reference.cwiseAbs().maxCoeff());
}

// How many bodies of model run each kernel (aba's, or hybridDynamics').
void countKernels(const MultibodyModel& model, bool honourPrescribed,
                  std::array<int, kHingeKernelCount>& counts) {
  const auto kernels = model.hingeKernels(honourPrescribed);
  for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
    ++counts[static_cast<std::size_t>(kernels[static_cast<std::size_t>(b)])];
  }
}

}  // namespace

TEST_CASE("reference ABA: aba agrees with the textbook algorithm in every kernel") {
  double worst = 0.0;
  std::array<int, kHingeKernelCount> counts{};
  for (unsigned seed = 1; seed <= 40; ++seed) {
    test::Random rnd(seed + 5000);
    const int n = 1 + static_cast<int>((seed * 13) % 45);
    const MultibodyModel model = rnd.tree(n, static_cast<int>(seed % 11));
    countKernels(model, false, counts);
    MultibodyData data(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::VectorXd tau = rnd.vectorX(model.nu(), 5.0);
    const std::vector<SpatialForce> F = rnd.forces(model);
    const Eigen::VectorXd udot = aba(model, data, q, u, tau, F);
    const double error = relativeError(udot, test::referenceAba(model, q, u, tau, F));
    const double errorNoForces =
        relativeError(aba(model, data, q, u, tau), test::referenceAba(model, q, u, tau));
    worst = std::max({worst, error, errorNoForces});
    CAPTURE(seed);
    CAPTURE(n);
    CHECK(error < kTolerance);
    CHECK(errorNoForces < kTolerance);
  }
  for (int k = 0; k < kHingeKernelCount; ++k) {
    const std::string name(toString(static_cast<HingeKernel>(k)));
    CAPTURE(name);
    if (static_cast<HingeKernel>(k) == HingeKernel::Prescribed) {
      CHECK(counts[static_cast<std::size_t>(k)] == 0);  // aba ignores the prescribed flags
    } else {
      CHECK(counts[static_cast<std::size_t>(k)] > 0);  // every other kernel was checked
    }
  }
  MESSAGE("worst relative |aba - reference| in the " << cpuKernelsName(activeCpuKernels())
                                                     << " kernels: " << worst);
}

TEST_CASE("reference ABA: hybrid dynamics' (U̇, τ) is the textbook forward dynamics of τ") {
  // With prescribed entries, the reference's U̇ for the τ hybridDynamics returns (the given τ on
  // free entries, the computed forces on prescribed ones) must be the U̇ it returns (computed on
  // free entries, the given ones on prescribed). Every subhinge prescribed with probability 2/5:
  // wholly and partly prescribed hinges of every type, and free ones in the same trees.
  double worst = 0.0;
  std::array<int, kHingeKernelCount> counts{};
  for (unsigned seed = 1; seed <= 40; ++seed) {
    test::Random rnd(seed + 6000);
    const int n = 1 + static_cast<int>((seed * 11) % 45);
    MultibodyModel model = rnd.tree(n, static_cast<int>(seed % 11));
    for (BodyIndex b = 1; b < model.bodyCount(); ++b) {
      for (int k = 0; k < model.hinge(b).subhingeCount(); ++k) {
        model.setPrescribed(b, k, rnd.integer(0, 4) < 2);
      }
    }
    countKernels(model, true, counts);
    MultibodyData data(model);
    const Eigen::VectorXd q = rnd.configuration(model);
    const Eigen::VectorXd u = rnd.vectorX(model.nu());
    const Eigen::VectorXd tau = rnd.vectorX(model.nu(), 5.0);
    const Eigen::VectorXd udotPrescribed = rnd.vectorX(model.nu(), 2.0);
    const std::vector<SpatialForce> F = rnd.forces(model);
    const Eigen::VectorXd udot = hybridDynamics(model, data, q, u, tau, udotPrescribed, F);
    for (int k = 0; k < model.nu(); ++k) {
      if (model.isPrescribed(k)) {
        REQUIRE(udot[k] == udotPrescribed[k]);
      } else {
        REQUIRE(data.tau[k] == tau[k]);
      }
    }
    const double error = relativeError(udot, test::referenceAba(model, q, u, data.tau, F));
    worst = std::max(worst, error);
    CAPTURE(seed);
    CAPTURE(n);
    CHECK(error < kTolerance);
  }
  CHECK(counts[static_cast<std::size_t>(HingeKernel::Prescribed)] > 0);
  MESSAGE("worst relative |hybridDynamics - reference| in the "
          << cpuKernelsName(activeCpuKernels()) << " kernels: " << worst);
}

TEST_CASE("reference ABA: each body's kernel follows its hinge, frames and prescribed flags") {
  const SpatialInertia M = SpatialInertia::fromCmInertia(1.0, Vector3(0.1, 0.0, 0.0),
                                                         Vector3(0.1, 0.2, 0.3).asDiagonal());
  const RigidTransform offset = RigidTransform::fromTranslation(Vector3(0.0, 0.0, 0.5));
  MultibodyModel model;
  const BodyIndex x = model.addBody("x", kWorldBody, M, Hinge::pin(-Vector3::UnitX()));
  const BodyIndex y = model.addBody("y", x, M, Hinge::pin(Vector3::UnitY()));
  const BodyIndex z = model.addBody("z", y, M, Hinge::pin(Vector3::UnitZ()));
  const BodyIndex skewed = model.addBody("skewed", z, M, Hinge::pin(Vector3(1.0, 1.0, 0.0)));
  const BodyIndex offsetPin =
      model.addBody("offsetPin", z, M, Hinge::pin(Vector3::UnitZ()), RigidTransform(), offset);
  const BodyIndex slider = model.addBody("slider", z, M, Hinge::slider(Vector3::UnitX()));
  const BodyIndex ujoint = model.addBody("ujoint", z, M, Hinge::ujoint({1, 0, 0}, {0, 1, 0}));
  const BodyIndex ball = model.addBody("ball", ujoint, M, Hinge::ball());
  const BodyIndex free = model.addBody("free", ball, M, Hinge::full6Dof());
  const BodyIndex locked = model.addBody("locked", free, M, Hinge::locked());
  // Compared by name: doctest would print a HingeKernel by hinge_kernel.h's toString, which
  // returns a string_view.
  const auto kernel = [&](BodyIndex b, bool hybrid) {
    return std::string(toString(model.hingeKernels(hybrid)[static_cast<std::size_t>(b)]));
  };
  const auto name = [](HingeKernel k) { return std::string(toString(k)); };
  const std::vector<std::pair<BodyIndex, HingeKernel>> expected{
      {kWorldBody, HingeKernel::Locked}, {x, HingeKernel::PinAboutX},
      {y, HingeKernel::PinAboutY},       {z, HingeKernel::PinAboutZ},
      {skewed, HingeKernel::PinInBody},  {offsetPin, HingeKernel::OneColumn},
      {slider, HingeKernel::OneColumn},  {ujoint, HingeKernel::TwoColumns},
      {ball, HingeKernel::ThreeColumns}, {free, HingeKernel::SixColumns},
      {locked, HingeKernel::Locked}};
  for (const auto& [b, k] : expected) {
    CAPTURE(model.bodyName(b));
    CHECK(kernel(b, false) == name(k));
    CHECK(kernel(b, true) == name(k));
  }

  SUBCASE("a prescribed entry makes the hybrid kernel Prescribed, aba's unchanged") {
    model.setPrescribed(ujoint, 1, true);
    CHECK(kernel(ujoint, true) == name(HingeKernel::Prescribed));
    CHECK(kernel(ujoint, false) == name(HingeKernel::TwoColumns));
    model.setPrescribed(ujoint, 1, false);
    CHECK(kernel(ujoint, true) == name(HingeKernel::TwoColumns));
  }
  SUBCASE("removing, detaching and attaching bodies keeps each body's kernel") {
    model.setPrescribed(ball, true);
    const Subtree detached = model.detachSubtree(ujoint);
    CHECK(model.hingeKernels(false).size() == static_cast<std::size_t>(model.bodyCount()));
    CHECK(kernel(model.bodyIndex("slider"), true) == name(HingeKernel::OneColumn));
    const BodyIndex root =
        model.attachSubtree(detached, model.bodyIndex("skewed"), Hinge::pin(Vector3::UnitY()));
    CHECK(kernel(root, false) == name(HingeKernel::PinAboutY));
    CHECK(kernel(model.bodyIndex("ball"), true) == name(HingeKernel::Prescribed));
    CHECK(kernel(model.bodyIndex("ball"), false) == name(HingeKernel::ThreeColumns));
    CHECK(kernel(model.bodyIndex("locked"), true) == name(HingeKernel::Locked));
    model.removeBody(model.bodyIndex("offsetPin"));
    CHECK(kernel(model.bodyIndex("slider"), false) == name(HingeKernel::OneColumn));
    CHECK(kernel(model.bodyIndex("ball"), true) == name(HingeKernel::Prescribed));
  }
  CHECK(name(HingeKernel::PinAboutZ) == "PIN_ABOUT_Z");
}

}  // namespace hopsim::multibody
