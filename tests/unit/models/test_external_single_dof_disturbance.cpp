// ExternalSingleDofDisturbance on a free body at rest: one Euler evaluation gives U' = [α; a]
// in body axes, predicted by hand (free_body.h) from the node axis e_k turned into body axes,
// R_BN e_k: a torque M gives α = J⁻¹ R_BN e_k M; a force F at the node origin gives
// a = R_BN e_k F / m and α = J⁻¹ (p_BN × R_BN e_k F). Compared to rounding (1e-12 relative).

#include <doctest/doctest.h>

#include <string>

#include "free_body.h"
#include "hopsim/models/external_single_dof_disturbance.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using spatial::Vector3;

Eigen::VectorXd accelerations(const test::FreeBody& body, const std::string& axis, double value) {
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  body.build(sim);
  sim.addModel<models::ExternalSingleDofDisturbance>("push").attachToNode("n");
  sim.set("models.push.params.activeDof", axis);
  sim.addSignal("u", ElementType::Double);
  sim.tie("push", "dof", "u");
  sim.set("signals.u", value);
  sim.lock();
  sim.advanceOverHop();
  return sim.multibody().udot();
}

}  // namespace

TEST_CASE("ExternalSingleDofDisturbance: MX..MZ are torques and FX..FZ forces along node axes") {
  const test::FreeBody body;
  const double value = 1.7;
  const char* names[6] = {"MX", "my", "Mz", "FX", "FY", "fz"};
  for (int k = 0; k < 6; ++k) {
    CAPTURE(names[k]);
    const Vector3 along = body.R_BN * Vector3::Unit(k % 3) * value;
    const auto expected = k < 3 ? body.accelerations(Vector3::Zero(), along)
                                : body.accelerations(along, Vector3::Zero());
    const Eigen::VectorXd udot = accelerations(body, names[k], value);
    for (int i = 0; i < 6; ++i) {
      CAPTURE(i);
      CHECK(udot[i] == doctest::Approx(expected[i]).epsilon(1e-12));
    }
  }
}

TEST_CASE("ExternalSingleDofDisturbance: IGNORE applies nothing, unknown axes are refused") {
  const test::FreeBody body;
  CHECK(accelerations(body, "IGNORE", 5.0).isZero(0.0));
  CHECK_THROWS_WITH_AS(accelerations(body, "TZ", 1.0),
                       doctest::Contains("models.push.params.activeDof: unknown value 'TZ' "
                                         "(expected MX, MY, MZ, FX, FY, FZ, IGNORE, in any case)"),
                       InputError);
}

}  // namespace hopsim
