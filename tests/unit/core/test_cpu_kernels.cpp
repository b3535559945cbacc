// The choice of the multibody kernels' compiled variant (hopsim/core/cpu_kernels.h). ctest runs
// the multibody tests twice: as built (x86-64-v3 on a CPU that has it) and with
// HOPSIM_CPU_KERNELS=generic, and the last case below also with a bad setting, which every kernel
// must report (tests/CMakeLists.txt).

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "hopsim/core/cpu_kernels.h"
#include "hopsim/core/multibody/aba_solve.h"
#include "hopsim/core/multibody/crba.h"
#include "hopsim/signals/error.h"
#include "multibody/multibody_test_support.h"

namespace hopsim {
namespace {

constexpr CpuKernels kBoth[] = {CpuKernels::Generic, CpuKernels::X86_64_V3};

}  // namespace

TEST_CASE("cpu kernels: unset or auto take x86-64-v3 where it is available, generic elsewhere") {
  for (const char* setting : {static_cast<const char*>(nullptr), "auto"}) {
    CHECK(chooseCpuKernels(setting, true) == CpuKernels::X86_64_V3);
    CHECK(chooseCpuKernels(setting, false) == CpuKernels::Generic);
  }
}

TEST_CASE("cpu kernels: each variant is chosen by its own name") {
  for (CpuKernels kernels : kBoth) {
    CHECK(chooseCpuKernels(std::string(cpuKernelsName(kernels)).c_str(), true) == kernels);
  }
  CHECK(cpuKernelsName(CpuKernels::Generic) == "generic");
  CHECK(cpuKernelsName(CpuKernels::X86_64_V3) == "x86-64-v3");
  CHECK(chooseCpuKernels("generic", false) == CpuKernels::Generic);
}

TEST_CASE("cpu kernels: x86-64-v3 where it is not available is refused with the alternatives") {
  CHECK_THROWS_WITH_AS(chooseCpuKernels("x86-64-v3", false),
                       doctest::Contains("HOPSIM_CPU_KERNELS is 'x86-64-v3', which is not "
                                         "available here"),
                       InputError);
  CHECK_THROWS_WITH_AS(chooseCpuKernels("x86-64-v3", false),
                       doctest::Contains("(expected auto or generic)"), InputError);
}

TEST_CASE("cpu kernels: a setting that names no variant is refused with the choices") {
  for (const char* setting : {"", "avx2", "Generic", "x86-64-v4", "auto "}) {
    CAPTURE(setting);
    CHECK_THROWS_WITH_AS(chooseCpuKernels(setting, true),
                         ("HOPSIM_CPU_KERNELS is '" + std::string(setting) +
                          "' (expected auto, generic or x86-64-v3)")
                             .c_str(),
                         InputError);
  }
}

TEST_CASE(
    "cpu kernels: the process runs the variant its environment asks for, or throws its "
    "error from every kernel") {
  const char* setting = std::getenv("HOPSIM_CPU_KERNELS");
  CAPTURE((setting == nullptr ? "(unset)" : setting));
  multibody::test::Random rnd(11);
  const multibody::MultibodyModel model = rnd.tree(6);
  multibody::MultibodyData data(model);
  const Eigen::VectorXd q = rnd.configuration(model);
  const Eigen::VectorXd u = rnd.vectorX(model.nu());
  const Eigen::VectorXd tau = rnd.vectorX(model.nu());
  multibody::AbaSolveWorkspace work(model);
  Eigen::VectorXd udot(model.nu());
  std::string refusal;  // chooseCpuKernels' error for the setting, if any
  try {
    chooseCpuKernels(setting, x86_64_v3KernelsAvailable());
  } catch (const InputError& e) {
    refusal = e.what();
  }
  if (refusal.empty()) {
    CHECK(activeCpuKernels() == chooseCpuKernels(setting, x86_64_v3KernelsAvailable()));
    CHECK_NOTHROW(multibody::aba(model, data, q, u, tau));
    CHECK_NOTHROW(multibody::abaSolve(model, data, work, tau, {}, udot));
  } else {  // ctest's run with HOPSIM_CPU_KERNELS=avx512
    CHECK_THROWS_WITH_AS(activeCpuKernels(), refusal.c_str(), InputError);
    CHECK_THROWS_WITH_AS(multibody::aba(model, data, q, u, tau), refusal.c_str(), InputError);
    CHECK_THROWS_WITH_AS(multibody::crba(model, data, q), refusal.c_str(), InputError);
    CHECK_THROWS_WITH_AS(multibody::forwardKinematics(model, data, q), refusal.c_str(), InputError);
    CHECK_THROWS_WITH_AS(multibody::abaSolve(model, data, work, tau, {}, udot), refusal.c_str(),
                         InputError);
  }
}

}  // namespace hopsim
